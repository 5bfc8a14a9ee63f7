"""bitgames: fast bitboard game engines (Othello, draughts, Go, Leiserchess).

Each game lives in its own subpackage (``bitgames.othello``, ...) and is imported on
demand, so ``import bitgames`` stays cheap and does not load numba.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
