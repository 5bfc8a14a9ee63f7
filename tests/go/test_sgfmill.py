"""Differential tests against sgfmill's board (an independent implementation).

sgfmill allows self-capture and enforces no ko, but reports the simple-ko point; so our
engine chooses the moves, and the tests check every resulting board, the captures, the
ko point and the final Tromp-Taylor area score against sgfmill. Legal-move sets are
rebuilt on the sgfmill side (self-capture = suicide, the ko point, and for superko a set
of earlier boards kept by the test itself).
"""

from __future__ import annotations

import random

import pytest

from bitgames.go import BLACK, WHITE, Board, Move

from .test_kernels import stone_code

boards = pytest.importorskip("sgfmill.boards")

COLOUR = {BLACK: "b", WHITE: "w"}


def _grid(sb: boards.Board, size: int) -> list[int]:
    out = [0] * (size * size)
    for colour, (row, col) in sb.list_occupied_points():
        out[row * size + col] = 1 if colour == "b" else 2
    return out


def _ours(board: Board) -> list[int]:
    return [stone_code(board, p) for p in range(board.points)]


def _sgfmill_legal(
    sb: boards.Board,
    size: int,
    colour: str,
    ko: tuple[int, int] | None,
    multi_suicide: bool,
    seen: set[tuple[int, ...]] | None,
) -> set[int]:
    """Legal points for ``colour`` computed with sgfmill alone."""
    legal = set()
    for row in range(size):
        for col in range(size):
            if sb.get(row, col) is not None or (row, col) == ko:
                continue
            trial = sb.copy()
            trial.play(row, col, colour)
            if trial.get(row, col) is None:  # self-capture
                if not multi_suicide:
                    continue
                # single-stone suicide: no friendly neighbour was removed with it
                friends = [
                    (r, c)
                    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                    if 0 <= r < size and 0 <= c < size and sb.get(r, c) == colour
                ]
                if not friends:
                    continue
            if seen is not None and tuple(_grid(trial, size)) in seen:
                continue
            legal.add(row * size + col)
    return legal


def _random_game(seed: int, size: int, rules: str, check_legal_every: int) -> None:
    rnd = random.Random(seed)
    board = Board(size=size, rules=rules)
    sb = boards.Board(size)
    multi = board.rules.suicide
    psk = board.rules.ko == "positional"
    seen: set[tuple[int, ...]] = {tuple(_grid(sb, size))}
    sgf_ko: tuple[int, int] | None = None
    for ply in range(2 * size * size):
        colour = COLOUR[board.turn]
        points = board.legal_points()
        if check_legal_every and ply % check_legal_every == 0:
            expected = _sgfmill_legal(
                sb, size, colour, None if psk else sgf_ko, multi, seen if psk else None
            )
            assert set(points) == expected, (seed, ply)
        if not points or rnd.random() < 0.01:
            board.push(Move.PASS)
            sgf_ko = None
            if board.is_game_over():
                break
            continue
        p = rnd.choice(points)
        before_caps = (board.captures(BLACK), board.captures(WHITE))
        n_before = len(sb.list_occupied_points())
        board.push(Move.from_point(p, size))
        row, col = divmod(p, size)
        sgf_ko = sb.play(row, col, colour)
        grid = _grid(sb, size)
        assert _ours(board) == grid, (seed, ply)
        removed = n_before + 1 - len(sb.list_occupied_points())
        mover = 0 if colour == "b" else 1
        gained = (board.captures(BLACK) - before_caps[0], board.captures(WHITE) - before_caps[1])
        if sb.get(row, col) is None:  # suicide: the opponent is credited
            assert gained[1 - mover] == removed and gained[mover] == 0
        else:
            assert gained[mover] == removed and gained[1 - mover] == 0
        expected_ko = None if sgf_ko is None else sgf_ko[0] * size + sgf_ko[1]
        assert board.ko_point == expected_ko, (seed, ply)
        seen.add(tuple(grid))
    assert board.area() == sb.area_score()


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_simple_ko_9x9(chunk: int) -> None:
    # 4 x 60 = 240 games in the default run; the legal-move set checked every 7 plies
    for seed in range(chunk * 60, chunk * 60 + 60):
        _random_game(seed, 9, "simple-ko", 7 if seed % 4 == 0 else 0)


def test_random_games_tromp_taylor_psk() -> None:
    # multi-stone suicide legal, positional superko checked against the test's own set
    for seed in range(1000, 1012):
        _random_game(seed, 7, "tromp-taylor", 5)


def test_random_games_other_sizes() -> None:
    for seed, size in ((7, 13), (8, 19), (9, 5)):
        _random_game(seed, size, "simple-ko", 0)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_random_games_1000(chunk: int) -> None:
    for seed in range(10_000 + chunk * 100, 10_000 + chunk * 100 + 100):
        _random_game(seed, 9, "simple-ko" if seed % 2 else "tromp-taylor", 11)
