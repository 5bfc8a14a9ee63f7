"""Machinery shared by every game: bit helpers, numba set-up, tables, task runners."""
