"""English draughts batches: :class:`~bitgames.env.batches.draughts.DraughtsBatch` of
``"english"`` (option: ``max_plies``)."""

from bitgames.env.batches.draughts import variant_batch

BATCH = variant_batch("english")
