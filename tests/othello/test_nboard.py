"""NBoard protocol: scripted sessions, passes, malformed lines, ping while thinking; the
client driving an outside NBoard engine (scripted, and our own as a subprocess)."""

from __future__ import annotations

import queue
import re
import sys
import time

import pytest

from bitgames.core.engine import EnginePlayer, Limit, Score, Unit
from bitgames.core.errors import EngineError
from bitgames.core.protocol import MockTransport, ProcessTransport, SessionHarness
from bitgames.othello.board import BLACK, WHITE, Board, Move
from bitgames.othello.ggf import GgfError, parse_ggf, to_ggf
from bitgames.othello.nboard import NBoardClient, NBoardSession
from bitgames.othello.search import Engine

START = "-" * 27 + "O*------*O" + "-" * 27


def ggf(moves: str = "", board: str = START, side: str = "*", ti: str = "") -> str:
    t = f"TI[{ti}]" if ti else ""
    return f"(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]{t}TY[8]BO[8 {board} {side}]{moves};)"


@pytest.fixture(scope="module")
def engine() -> Engine:
    engine = Engine(level=3, evaluation="classic", table_bits=14)
    # compiled (or loaded) before the tests, whose replies are awaited for 10 s
    engine.search(Board.from_transcript("f5"), Limit(depth=3), multi=2)
    engine.search(Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"))
    return engine


def drain(harness: SessionHarness) -> list[str]:
    lines = []
    while True:
        try:
            lines.append(harness.sink.lines.get_nowait())
        except queue.Empty:
            return lines


def session(engine: Engine, lines: list[str], **kwargs: object) -> tuple[list[str], str]:
    """Every line sent in turn, as a GUI would (until ``quit``); all replies and the log."""
    harness = SessionHarness(NBoardSession, engine=engine, **kwargs)
    for line in lines:
        harness.send(line)
        if not harness.session.running:
            break
    harness.session.finish()
    return drain(harness), harness.log.getvalue()


def test_scripted_conversation(engine: Engine) -> None:
    harness = SessionHarness(NBoardSession, engine=engine)
    harness.converse([
        ("nboard 2", []),
        ("set depth 2", ["set myname bitgames2"]),
        ("ping 1", ["pong 1"]),
        # a1 White, b1 Black, Black to move: no placement for Black, so a pass
        (f"set game {ggf(board='O*' + '-' * 62)}", []),
        ("go", ["status bitgames is thinking", "=== PA", "status bitgames is waiting"]),
        ("hint 2", ["status bitgames is thinking", "search PA 0.00 0 0",
                    "status bitgames is waiting"]),
        ("move pa", []),
        # White takes c1 (its only move) and the game is over
        ("go", ["status bitgames is thinking", "search C1 64.00 0 1", "search C1 64.00 0 2",
                re.compile(r"nodestats \d+ \d+\.\d\d"),
                re.compile(r"=== C1/64\.00/\d+\.\d\d"), "status bitgames is waiting"]),
        ("move c1", []),
        ("go", ["status bitgames is thinking", "status game over"]),
        ("frobnicate", []),
        ("set depth nonsense", []),
        ("ping 2", ["pong 2"]),
    ])
    log = harness.log.getvalue()
    assert "unknown command ignored: 'frobnicate'" in log
    assert "bad line 'set depth nonsense'" in log


def test_go_replies_a_legal_move(engine: Engine) -> None:
    out, _ = session(engine, ["nboard 2", "set depth 3", f"set game {ggf('B[F5]W[D6]')}",
                              "ping 1", "go"])
    assert out[0] == "set myname bitgames3"
    assert out[1] == "pong 1"
    reply = [x for x in out if x.startswith("=== ")]
    assert len(reply) == 1
    move = reply[0].split()[1].split("/")[0]
    assert move.lower() in [str(m) for m in Board.from_transcript("f5d6").legal_moves]
    assert any(x.startswith("nodestats ") for x in out)
    assert all(x.split()[0] in ("set", "pong", "status", "search", "nodestats", "===")
               for x in out)


def test_engine_does_not_move_on_go_and_follows_move_commands(engine: Engine) -> None:
    out, _ = session(engine, ["nboard 2", "set depth 2", f"set game {ggf()}", "go",
                              "move f5", "move D6/0.5/1.0", "go"])
    replies = [x.split()[1].split("/")[0].lower() for x in out if x.startswith("===")]
    assert replies[0] in ("d3", "c4", "f5", "e6")
    assert replies[1] in [str(m) for m in Board.from_transcript("f5d6").legal_moves]


def pass_position() -> tuple[Board, Board]:
    """A game from a random playout reaching a position where the side to move must pass."""
    import random

    rng = random.Random(5)
    while True:
        b = Board()
        while not b.is_game_over():
            if b.must_pass():
                return Board.from_transcript(b.transcript()), b
            b.push(rng.choice(list(b.legal_moves)))


def test_passes_in_game_and_implied_passes(engine: Engine) -> None:
    before, board = pass_position()  # before: the moves without the pass, to move = passer
    colours = []
    b = Board()
    for m in board.move_stack:
        colours.append("B" if b.turn == BLACK else "W")
        b.push(m)
    moves = "".join(f"{c}[{str(m).upper()}]"
                    for c, m in zip(colours, board.move_stack, strict=True))
    # the side to move must pass: go answers PA
    out, _ = session(engine, ["nboard 2", "set depth 2", f"set game {ggf(moves)}", "go"])
    assert "=== PA" in out
    # the pass written explicitly, then the opponent to move
    passer = "B" if board.turn == BLACK else "W"
    out, err = session(engine, ["nboard 2", "set depth 2",
                                f"set game {ggf(moves + passer + '[PA]')}", "go"])
    reply = [x for x in out if x.startswith("=== ")]
    after = board.copy()
    after.push("pass")
    assert reply and reply[0].split()[1].split("/")[0].lower() in [
        str(m) for m in after.legal_moves], err
    # the pass left out: the opponent's next move implies it (GGF and the move command)
    nxt = str(next(iter(after.legal_moves)))
    other = "W" if passer == "B" else "B"
    game = parse_ggf(ggf(moves + f"{other}[{nxt.upper()}]"))
    assert [m.square for m in game.moves][-2:] == ["pass", nxt]
    out, err = session(engine, ["nboard 2", "set depth 2", f"set game {ggf(moves)}",
                                f"move {nxt}", "go"])
    assert any(x.startswith("=== ") or x == "status game over" for x in out), err
    assert before is not None


def test_malformed_lines_never_kill_the_engine(engine: Engine) -> None:
    lines = ["nboard 2", "set depth x", "set depth -3", "set game (;GM[Chess];)",
             "set game garbage", "move z9", "move", "hint x", "ping", "frobnicate 3",
             "set game " + ggf("B[A1]"), "", "   ", "set depth 2", "set game " + ggf(),
             "move f5", "move f5", "ping 7", "go"]
    out, err = session(engine, lines)
    assert "pong 0" in out and "pong 7" in out
    assert any(x.startswith("=== ") for x in out)
    assert "unknown command ignored" in err and "bad line" in err


def test_hint_streams_search_lines(engine: Engine) -> None:
    out, _ = session(engine, ["nboard 2", "set depth 3", f"set game {ggf('B[F5]')}", "hint 3"])
    lines = [x for x in out if x.startswith("search ")]
    assert len(lines) == 3
    for x in lines:
        _, pv, ev, zero, depth = x.split()
        assert pv[:2].lower() in ("d6", "f6", "f4") and zero == "0"
        float(ev)
        assert depth[0].isdigit()


def test_exact_solve_reports_100_percent(engine: Engine) -> None:
    board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"
    g = ggf("", board.replace("X", "*"), "*")
    out, _ = session(engine, ["nboard 2", "set depth 20", f"set game {g}", "go"])
    assert "search G8 18.00 0 100%" in out[1] or any(
        x.startswith("search G8") and x.endswith("100%") for x in out)
    assert any(x.startswith("=== G8/18.00") for x in out)


def test_ping_answered_while_thinking() -> None:
    engine = Engine(level=20, evaluation="classic", table_bits=16)
    harness = SessionHarness(NBoardSession, engine=engine)
    harness.send("nboard 2")
    harness.send("set depth 30")
    harness.expect("set myname bitgames30")
    harness.send(f"set game {ggf('B[F5]W[D6]B[C3]W[D3]')}")
    harness.send("go")
    time.sleep(0.3)
    t0 = time.perf_counter()
    harness.send("ping 5")
    assert time.perf_counter() - t0 < 2.0
    lines = drain(harness)
    assert lines[-1] == "pong 5"
    assert any(x.startswith("=== ") for x in lines)  # the best move so far was sent first


def test_analyze_and_learn(engine: Engine) -> None:
    out, _ = session(engine, ["nboard 2", "set depth 2", f"set game {ggf('B[F5]W[D6]B[C3]')}",
                              "analyze", "learn", "quit", "go"])
    got = sorted(int(x.split()[1]) for x in out if x.startswith("analysis "))
    assert got == [0, 1, 2, 3]
    assert "learned" in out
    assert not any(x.startswith("===") for x in out)  # quit stopped the session


def test_ggf_roundtrip_and_errors() -> None:
    b = Board.from_transcript("f5d6c3d3c4")
    text = to_ggf(Board(), [str(m) for m in b.move_stack])
    assert parse_ggf(text).board == b
    for bad in ["", "(;GM[Othello]B[F5]", "(;GM[Othello]BO[8 ---]", "(;GM[Othello]B[J9];)",
                "(;GM[Othello]B[A1];)", "(;GM[Othello]xyz;)"]:
        with pytest.raises(GgfError):
            parse_ggf(bad)


def test_command_line_speaks_only_protocol_on_stdout() -> None:
    import subprocess
    import sys

    script = "\n".join(["nboard 2", "set depth 2", f"set game {ggf('B[F5]')}", "ping 3",
                        "bogus line", "go", "quit"]) + "\n"
    out = subprocess.run([sys.executable, "-m", "bitgames.cli", "othello", "nboard", "--eval",
                          "classic", "--level", "2"], input=script, capture_output=True,
                         text=True, timeout=600, check=True)
    lines = out.stdout.splitlines()
    assert lines[:2] == ["set myname bitgames2", "pong 3"]
    assert all(x.split()[0] in ("set", "pong", "status", "search", "nodestats", "===")
               for x in lines)
    assert any(x.startswith("=== ") for x in lines)
    assert "unknown command" in out.stderr


# -- the client ---------------------------------------------------------------------------------


def scripted_client(depth: int = 4) -> tuple[MockTransport, NBoardClient]:
    mock = MockTransport()
    mock.expect("nboard 2")
    mock.expect(f"set depth {depth}", ["set myname Mock"])
    mock.expect("ping 1", ["status Mock is waiting", "pong 1"])
    return mock, NBoardClient(mock, depth=depth)


def test_client_plays_a_scripted_engine() -> None:
    mock, client = scripted_client()
    assert client.name == "Mock"
    board = Board.from_transcript("f5")
    mock.expect(re.compile(re.escape("set game (;GM[Othello]") + r".*B\[F5\];\)"))
    mock.expect("ping 2", ["pong 2"])
    mock.expect("go", ["status Mock is thinking", "search D6C3 -1.50 0 5",
                       "search F6 -0.75 0 6", "nodestats 12345 0.42", "=== F6/-0.75/0.42"])
    result = client.play(board, Limit(remaining=30.0))
    assert result.move == Move.from_str("f6") and result.pv == [Move.from_str("f6")]
    assert result.score == Score(-0.75, Unit.DISCS)
    assert (result.depth, result.nodes) == (6, 12345)
    # a depth limit is passed on; a bad move line is the engine's error
    mock.expect("set depth 2")
    mock.expect(re.compile("set game .*"))
    mock.expect("ping 3", ["pong 3"])
    mock.expect("go", ["=== Z9/0.00/0.01"])
    with pytest.raises(EngineError, match="bad move line"):
        client.play(board, Limit(depth=2))
    mock.expect("quit")
    client.close()
    mock.assert_done()
    # the clock went into the game as its TI
    assert "TI[30.00]" in mock.sent[3]


def test_client_against_our_engine_in_a_subprocess() -> None:
    command = [sys.executable, "-m", "bitgames.cli", "othello", "nboard", "--eval", "classic",
               "--level", "1", "--no-book"]
    client = NBoardClient(ProcessTransport(command), depth=1, timeout=600)
    try:
        assert client.name == "bitgames1"
        ours = EnginePlayer(Engine(level=1, evaluation="classic", table_bits=12),
                            Limit(depth=1))
        board = Board()
        while not board.is_game_over():  # a whole game: every move refereed by our rules
            player = client if board.turn == BLACK else ours
            move = player.play(board, Limit(depth=1)).move
            assert move in board.legal_moves, (board.fen(), move)
            board.push(move)
        assert board.result() != "*" and board.winner() in (BLACK, WHITE, None)
    finally:
        client.close()
    assert client.transport.proc.returncode == 0  # type: ignore[attr-defined]
