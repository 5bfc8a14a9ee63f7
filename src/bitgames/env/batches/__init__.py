"""The batches of :class:`bitgames.env.vector.VectorGame`: one module per game, each the
arrays of a batch and the calls of the game's batch kernels (``bitgames.<game>.vector``)."""
