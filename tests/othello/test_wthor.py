"""The WTHOR reader against the federation's own files: a sample of six 2023 games
(``wthor_2023_sample.wtb``, the first games of WTH_2023.wtb) replays legally and ends
with the disc counts the file records; bad files are named with what is wrong; the
``othello wthor`` command lists, filters and converts. ``BITGAMES_WTHOR=DIR`` (the
folder of WTH_1977.wtb ... WTH_2023.wtb) runs the whole database under ``-m slow``."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from bitgames.cli import main
from bitgames.othello.ggf import parse_ggf
from bitgames.othello.wthor import (
    PLAYER_NAME,
    TOURNAMENT_NAME,
    Names,
    WthorError,
    load_base,
    read_base,
    read_names,
)

SAMPLE = Path(__file__).with_name("wthor_2023_sample.wtb")


def final_black_discs(board) -> int:  # type: ignore[no-untyped-def]
    """Black's discs at the end, the empty squares going to the winner (the rule WTHOR
    scores by)."""
    cells = board.fen()[:64]
    black, white, empty = cells.count("X"), cells.count("O"), cells.count("-")
    return black + empty if black > white else black if black < white else black + empty // 2


def test_the_sample_replays_to_the_recorded_scores() -> None:
    base = load_base(SAMPLE)
    assert (base.year, base.depth, len(base.games)) == (2023, 24, 6)
    first = base.games[0]
    assert first.transcript().startswith("f5d6c5f4e3c6d3f6e6d7")  # as the file codes it
    for game in base.games:
        board = game.board()
        assert board.is_game_over()
        assert final_black_discs(board) == game.black_discs
        assert 0 <= game.theoretical <= 64


def _header(count: int, size: int = 8) -> bytes:
    return struct.pack("<BBBBIHHBBBB", 20, 23, 1, 1, count, 0, 2023, size, 0, 24, 0)


BAD_FILES = [
    (b"\x14\x17", "shorter than the 16-byte header"),
    (_header(2) + bytes(68), "the header says 2 games (152 bytes) but the file has 84"),
    (_header(1, size=10) + bytes(68), "board size 10"),
    (_header(1) + bytes(8) + bytes([56, 99]) + bytes(58), "game 1: move code 99 is no square"),
    (_header(1) + bytes([0, 0, 0, 0, 0, 0, 65, 0]) + bytes(60), "more than 64 discs"),
]


@pytest.mark.parametrize("data, fragment", BAD_FILES, ids=[f for _, f in BAD_FILES])
def test_bad_files_are_named(data: bytes, fragment: str) -> None:
    with pytest.raises(WthorError) as err:
        read_base(data, "bad.wtb")
    assert str(err.value).startswith("bad.wtb: ") and fragment in str(err.value)


def test_an_illegal_game_is_refused() -> None:
    game = read_base(_header(1) + bytes(8) + bytes([11]) + bytes(59)).games[0]
    assert game.moves == ["a1"]
    with pytest.raises(ValueError, match="a1"):
        game.board()


def _names(tmp_path: Path) -> None:
    players = ["???", "Tastet Marc", "Penloup Dominique"]
    body = b"".join(n.encode("latin-1").ljust(PLAYER_NAME, b"\0") for n in players)
    (tmp_path / "WTHOR.JOU").write_bytes(_header(0) + body)
    body = b"".join(n.encode().ljust(TOURNAMENT_NAME, b"\0") for n in ["Diverses", "Mondial"])
    (tmp_path / "WTHOR.TRN").write_bytes(_header(0) + body)


def test_names_beside_the_games(tmp_path: Path) -> None:
    _names(tmp_path)
    names = Names.beside(tmp_path / "WTH_2023.wtb")
    assert names.player(1) == "Tastet Marc" and names.tournament(1) == "Mondial"
    assert names.player(5000) == "player 5000"
    with pytest.raises(WthorError, match="not a 16-byte header and 20-byte names"):
        read_names(_header(0) + b"x" * 7, PLAYER_NAME, "WTHOR.JOU")


def test_the_command_lists_filters_and_converts(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["othello", "wthor", str(SAMPLE), "--json"]) == 0
    games = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [g["game"] for g in games] == [1, 2, 3, 4, 5, 6]
    opening = games[2]["moves"][:6]
    assert main(["othello", "wthor", str(SAMPLE), "--opening", opening, "--to",
                 "transcript"]) == 0
    lines = capsys.readouterr().out.split()
    assert lines and all(x.startswith(opening) for x in lines)
    assert games[2]["moves"] in lines
    assert main(["othello", "wthor", str(SAMPLE), "--to", "ggf", "--limit", "2"]) == 0
    ggf = capsys.readouterr().out.splitlines()
    assert len(ggf) == 2
    for text, game in zip(ggf, games, strict=False):
        replayed = parse_ggf(text).board
        assert "".join(str(m) for m in replayed.move_stack if not m.is_pass()) == game["moves"]
    assert main(["othello", "wthor", str(SAMPLE), "--year", "1990"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["othello", "wthor", str(tmp_path / "none.wtb")]) == 2
    assert "none.wtb" in capsys.readouterr().err


@pytest.mark.slow
def test_the_solver_finds_the_theoretical_scores() -> None:
    """The federation's theoretical score of each sample game (perfect play from 24
    empties, computed by another program) is what our solver finds there (6-20 s each)."""
    import numpy as np

    from bitgames.core.board import BLACK
    from bitgames.othello.solver import Solver

    base = load_base(SAMPLE)
    solver = Solver(table_bits=20)
    for game in base.games:
        board = next(b for b in game.positions() if b.empties() == base.depth)
        score, _ = solver.run(*board.bitboards(), -127, 127, np.zeros(130, dtype=np.int64),
                              np.zeros(4, dtype=np.int64))
        black = score if board.turn == BLACK else -score
        assert black == 2 * game.theoretical - 64, game


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("BITGAMES_WTHOR"),
                    reason="set BITGAMES_WTHOR to the folder of the WTHOR files")
def test_the_whole_database() -> None:
    files = sorted(Path(os.environ["BITGAMES_WTHOR"]).glob("WTH_*.wtb"))
    games = finished = 0
    for path in files:
        for game in load_base(path).games:
            board = game.board()
            games += 1
            if board.is_game_over():
                finished += 1
                assert final_black_discs(board) == game.black_discs, (path, game)
    assert games == 128_963 and finished == 128_550
