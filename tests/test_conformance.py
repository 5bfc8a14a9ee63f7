"""One conformance suite for every game's ``Board`` (see ``bitgames.core.board``).

In the style of OpenSpiel's ``RandomSimTestWithUndo`` and pgx's ``api_test``: random games
in which, at every ply, the position string and ``repr`` round-trip, ``legal_moves``
agrees with ``push`` (each listed move is accepted, moves seen elsewhere and not listed
are refused with ``IllegalMoveError``), ``copy()`` is independent, hashes agree with
equality, and at the end every ``pop()`` restores the earlier position exactly. Bad
position strings raise ``InvalidPositionError`` and nothing else.

The default run plays a few dozen games per game and variant; ``-m slow`` plays
thousands.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest

from bitgames.core.board import BLACK, WHITE, Outcome, Termination
from bitgames.core.errors import IllegalMoveError, InvalidPositionError


def _game(package: str, **kwargs: Any) -> Callable[[], Any]:
    def new() -> Any:
        return importlib.import_module(f"bitgames.{package}").Board(**kwargs)

    return new


#: (id, package, start-position factory, ply cap of a random game)
GAMES = [
    ("othello", "othello", _game("othello"), 80),
    ("russian", "draughts", _game("draughts"), 200),
    ("english", "draughts", _game("draughts", variant="english"), 200),
    ("go9", "go", _game("go", size=9), 200),
    ("leiserchess", "leiserchess", _game("leiserchess"), 200),
]
IDS = [g[0] for g in GAMES]


def _namespace(package: str) -> dict[str, Any]:
    module = importlib.import_module(f"bitgames.{package}")
    return {name: getattr(module, name) for name in module.__all__}


def _check_position(board: Any, ns: dict[str, Any]) -> None:
    board_type = type(board)
    fen = board.fen()
    again = board_type(fen)
    assert again == board, f"Board(fen) != board for {fen!r}"
    assert again.fen() == fen
    assert hash(again) == hash(board)
    assert again.turn is board.turn
    assert isinstance(board.turn, bool)
    assert eval(repr(board), ns) == board, repr(board)
    outcome = board.outcome()
    assert (outcome is not None) == board.is_game_over()
    if outcome is None:
        assert board.result() == "*"
    else:
        assert isinstance(outcome, Outcome)
        assert isinstance(outcome.termination, Termination)
        assert outcome.winner in (WHITE, BLACK, None)
        assert board.result() != "*"
    if not board.legal_moves:
        assert board.is_game_over(), f"no legal move but the game goes on: {fen}"


def _check_moves(board: Any, seen: set[Any], ns: dict[str, Any], rng: random.Random) -> list[Any]:
    fen = board.fen()
    legal = list(board.legal_moves)
    assert len(board.legal_moves) == len(legal)
    assert len(set(legal)) == len(legal), "a move is listed twice"
    assert bool(board.legal_moves) == bool(legal)
    for move in legal:
        assert move in board.legal_moves
        assert eval(repr(move), ns) == move, repr(move)
        assert board.parse_move(str(move)) == move, str(move)
    for move in rng.sample(legal, min(len(legal), 6)):
        board.push(move)
        assert board.peek() == move
        assert board.pop() == move
        assert board.fen() == fen
        board.push(str(move))
        assert board.pop() == move
    unlisted = [m for m in seen if m not in legal]
    for move in rng.sample(unlisted, min(len(unlisted), 6)):
        assert move not in board.legal_moves
        with pytest.raises(IllegalMoveError):
            board.push(move)
        assert board.fen() == fen, "a refused move changed the board"
    seen.update(legal)
    return legal


def _random_game(new: Callable[[], Any], package: str, seed: int, cap: int) -> None:
    rng = random.Random(seed)
    ns = _namespace(package)
    board = new()
    seen: set[Any] = set()
    fens = [board.fen()]
    played = []
    while not board.is_game_over() and len(played) < cap:
        _check_position(board, ns)
        legal = _check_moves(board, seen, ns, rng)
        copy = board.copy()
        move = rng.choice(legal)
        copy.push(move)
        assert board.fen() == fens[-1], "pushing on a copy changed the original"
        board.push(move)
        assert copy == board
        played.append(move)
        fens.append(board.fen())
    _check_position(board, ns)
    for ply in range(len(played) - 1, -1, -1):
        assert board.pop() == played[ply]
        assert board.fen() == fens[ply]
    assert board == new()


@pytest.mark.parametrize(("package", "new", "cap"), [g[1:] for g in GAMES], ids=IDS)
def test_names(package: str, new: Callable[[], Any], cap: int) -> None:
    module = importlib.import_module(f"bitgames.{package}")
    for name in ("Board", "Move", "WHITE", "BLACK", "Engine"):
        assert name in module.__all__, f"bitgames.{package} does not export {name}"
    assert module.WHITE is True and module.BLACK is False
    board = new()
    for name in ("fen", "push", "pop", "peek", "copy", "is_game_over", "outcome", "result",
                 "legal_moves", "turn", "parse_move"):
        assert hasattr(board, name), f"{package} Board has no {name}"
    assert board.result() == "*" and board.outcome() is None


@pytest.mark.parametrize(("package", "new", "cap"), [g[1:] for g in GAMES], ids=IDS)
def test_random_games_with_undo(package: str, new: Callable[[], Any], cap: int) -> None:
    for seed in range(6):  # 1,000 games each under -m slow
        _random_game(new, package, seed, cap)


@pytest.mark.slow
@pytest.mark.parametrize(("package", "new", "cap"), [g[1:] for g in GAMES], ids=IDS)
def test_random_games_with_undo_many(package: str, new: Callable[[], Any], cap: int) -> None:
    for seed in range(1000, 2000):
        _random_game(new, package, seed, cap)


def _mutations(fen: str, rng: random.Random) -> list[str]:
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-:,./ XO*#+"
    out = ["", " ", fen[: len(fen) // 2], fen + " extra junk", "x" * len(fen)]
    for _ in range(60):
        chars = list(fen)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            action = rng.randrange(3)
            if action == 0:
                chars[i] = rng.choice(alphabet)
            elif action == 1:
                del chars[i]
            else:
                chars.insert(i, rng.choice(alphabet))
        out.append("".join(chars))
    return out


@pytest.mark.parametrize(("package", "new", "cap"), [g[1:] for g in GAMES], ids=IDS)
def test_bad_position_strings(package: str, new: Callable[[], Any], cap: int) -> None:
    rng = random.Random(7)
    board = new()
    for _ in range(10):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
    board_type = type(board)
    for text in _mutations(board.fen(), rng):
        try:
            parsed = board_type(text)
        except InvalidPositionError as exc:
            assert str(exc), "an InvalidPositionError without a message"
        else:  # a mutation may still be a valid position: then it round-trips
            assert board_type(parsed.fen()) == parsed
