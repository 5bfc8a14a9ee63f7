"""The ``bitgames leiserchess`` commands."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from bitgames.cli import main
from bitgames.core.engine import Limit
from bitgames.leiserchess import closebook as cb
from bitgames.leiserchess.board import Board
from bitgames.leiserchess.play import play
from bitgames.leiserchess.search import CB_WIN, Engine, to_centipawns


def test_perft_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leiserchess", "perft", "3", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rec["count"] == 473_126 and rec["legal"] is False


def test_perft_legal_with_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leiserchess", "perft", "1", "--legal", "--moves", "h0g1"]) == 0
    out = capsys.readouterr().out
    board = Board()
    board.push("h0g1")
    assert f": {len(board.legal_moves)}" in out


def test_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leiserchess", "perft", "2", "--divide", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert sum(x["count"] for x in lines if "move" in x) == 6084 == lines[-1]["count"]


@pytest.mark.parametrize(
    "argv,message",
    [
        (["leiserchess", "perft", "2", "--fen", "nonsense"], "bad FEN"),
        (["leiserchess", "perft", "2", "--moves", "h0h0"], "illegal move h0h0"),
    ],
)
def test_errors_are_one_line(argv: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith("bitgames: error:")


def test_play_scripted() -> None:
    out = io.StringIO()
    args = argparse.Namespace(fen=None, color="tangerine", level=5, depth=2, nodes=None,
                              movetime=None, threads=2)
    play(args, io.StringIO("moves\nh0h0\nh4g5\nundo\nfen\nquit\n"), out)
    text = out.getvalue()
    assert "h4g5" in text and "error: illegal move h0h0" in text
    assert "engine plays" in text
    assert "**" in text  # Tangerine's laser is drawn


def test_search_uses_closebook() -> None:
    book = cb.build(kings_only=True)
    board = Board("8/8/3ee4/8/8/8/8/6NN1 W")
    assert book.probe(board) == "loss"
    res = Engine(table_bits=12, closebook=book).search(board, Limit(depth=3))
    assert res.score is not None and res.score.exact
    assert to_centipawns(res.score) <= -(CB_WIN - 10)
    res = Engine(table_bits=12).search(board, Limit(depth=3))
    assert res.score is not None and not res.score.exact
    assert to_centipawns(res.score) > -(CB_WIN - 10)


def test_closebook_cli_kings_only(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "book.npz"
    assert main(["leiserchess", "closebook", "build", "--kings-only", "--out", str(path),
                 "--json"]) == 0
    rec = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert sum(rec["kings"].values()) == cb.N_KINGS == 2 * 256 * 256
    # 2 Ko states x 64 squares x 16 orientation pairs have both Kings on one square
    assert rec["kings"]["invalid"] >= 2 * 64 * 16
    assert main(["leiserchess", "closebook", "probe", "7ww/8/8/8/8/8/7WW/8 W", "--book",
                 str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith(": win")
