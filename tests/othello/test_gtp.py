"""Outside Othello engines over GTP: the client against scripted engines (passes left
out, colours named, a new game resent, bad answers refused), and matches against GRhino
(``gtp-rhino``, Debian package ``grhino``), an independent program whose every move our
referee checks and which checks ours."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bitgames.cli import main
from bitgames.core.engine import Limit
from bitgames.core.errors import EngineError
from bitgames.core.protocol import MockTransport
from bitgames.othello.board import Board
from bitgames.othello.ggf import parse_ggf
from bitgames.othello.gtp import GtpClient

GRHINO = shutil.which("gtp-rhino") or shutil.which("/usr/games/gtp-rhino")
OURS = "level:1,eval:classic"

# a random game in which, after h4, the side to move must pass (h4 and d2 by one player)
PASSING = "e6f6g6f4c3d6f5h7g3h2d7f7f3b2g8c7c6e8d3c8f8g7g5h6d8h5b8c4a1h8b3a8h3f2f1h4d2"


def start(mock: MockTransport, name: str = "Mock") -> GtpClient:
    mock.expect("name", [f"= {name}", ""])
    return GtpClient(mock)


def test_moves_are_sent_with_their_colours_and_no_passes() -> None:
    board = Board.from_transcript(PASSING)
    assert "pass" in [str(m) for m in board.move_stack]  # the game really has a pass
    mock = MockTransport()
    client = start(mock)
    mock.expect("boardsize 8", ["=", ""])
    mock.expect("clear_board", ["=", ""])
    color = "b"
    for move in board.move_stack:
        if not move.is_pass():
            mock.expect(f"play {color} {move}", ["=", ""])
        color = "w" if color == "b" else "b"
    reply = str(next(iter(board.legal_moves))).upper()
    mock.expect(f"genmove {color}", [f"= {reply}", ""])
    result = client.play(board, Limit())
    assert str(result.move) == reply.lower()
    mock.assert_done()


def test_the_game_is_resent_only_when_it_went_another_way() -> None:
    mock = MockTransport()
    client = start(mock)
    for line in ("boardsize 8", "clear_board", "play b f5"):
        mock.expect(line, ["=", ""])
    mock.expect("genmove w", ["= d6", ""])
    client.play(Board.from_transcript("f5"), Limit())
    mock.expect("play b c3", ["=", ""])  # one new move: only it is sent
    mock.expect("genmove w", ["= d3", ""])
    client.play(Board.from_transcript("f5d6c3"), Limit())
    for line in ("boardsize 8", "clear_board", "play b f5", "play w f6"):
        mock.expect(line, ["=", ""])  # another game: cleared and sent again
    mock.expect("genmove b", ["= e6", ""])
    client.play(Board.from_transcript("f5f6"), Limit())
    mock.assert_done()


def test_a_side_that_must_pass_is_not_asked() -> None:
    board = Board.from_transcript(PASSING[:-2])
    assert board.must_pass()
    mock = MockTransport()
    client = start(mock)
    assert client.play(board, Limit()).move.is_pass()
    mock.assert_done()


@pytest.mark.parametrize("reply, error", [
    ("= z9", "answered genmove w with 'z9'"),
    ("= c3", "answered genmove w with 'c3'"),  # a square, but not legal after f5
    ("= pass", "answered genmove w with 'pass'"),
    ("? illegal move", "refused 'genmove w': illegal move"),
])
def test_bad_answers_are_engine_errors(reply: str, error: str) -> None:
    mock = MockTransport()
    client = start(mock)
    for line in ("boardsize 8", "clear_board", "play b f5"):
        mock.expect(line, ["=", ""])
    mock.expect("genmove w", [reply, ""])
    with pytest.raises(EngineError, match=error):
        client.play(Board.from_transcript("f5"), Limit())


def test_a_protocol_the_game_does_not_know_is_named(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    assert main(["othello", "match", 'cmd:"some-engine",protocol:hub', OURS]) == 2
    assert ("othello knows no outside engines in protocol 'hub' (other protocols: gtp)"
            in capsys.readouterr().err)


@pytest.mark.skipif(GRHINO is None, reason="GRhino (gtp-rhino) is not installed")
def test_a_match_against_grhino(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Four games against GRhino at its lowest level: each played to the end (no move of
    either side refused by the other's rules), recorded and scored as our rules say."""
    theirs = f'cmd:"{GRHINO} -l 1 -b 0",protocol:gtp'
    records = tmp_path / "games.ggf"
    status = main(["othello", "match", OURS, theirs, "--games", "4", "--random-plies", "4",
                   "--records", str(records), "--scheduler", "serial", "--json"])
    assert status == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    games = lines[:-1]
    assert len(games) == 4
    for g, text in zip(games, records.read_text().splitlines(), strict=True):
        assert g["reason"] == "no moves", g
        game = parse_ggf(text)
        assert game.board.is_game_over() and game.board.result() == g["result"]
