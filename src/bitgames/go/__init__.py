"""Go on 9x9 to 19x19 boards: bitmap board kernels, playouts, MCTS, GTP and SGF."""
