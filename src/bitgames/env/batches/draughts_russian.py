"""Russian draughts batches: :class:`~bitgames.env.batches.draughts.DraughtsBatch` of
``"russian"`` (option: ``max_plies``)."""

from bitgames.env.batches.draughts import variant_batch

BATCH = variant_batch("russian")
