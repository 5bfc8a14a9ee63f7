"""Othello: bitboard rules, perft and an exact endgame solver."""
