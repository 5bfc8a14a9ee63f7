"""The 6.172 UCI dialect on the session base (``SessionHarness``) and the client that
drives outside engines (``MockTransport`` scripts and our own ``uci`` mode as a process)."""

from __future__ import annotations

import io
import re
import sys

import pytest

from bitgames.core.engine import Limit, Score, Unit
from bitgames.core.errors import EngineError
from bitgames.core.protocol import MockTransport, ProcessTransport, SessionHarness
from bitgames.leiserchess import Board, Move, UciClient
from bitgames.leiserchess.search import Engine
from bitgames.leiserchess.uci import UciSession, run_uci

INFO = re.compile(r"info depth \d+ seldepth \d+ score cp -?\d+ nodes \d+ nps \d+ time \d+ pv .*")


def harness() -> SessionHarness:
    return SessionHarness(UciSession, engine=Engine(table_bits=14))


def test_handshake_and_ready() -> None:
    h = harness()
    h.send("uci")
    h.expect("id name bitgames-leiserchess")
    h.expect("id author bitgames")
    h.expect(re.compile("uciok"), skip=lambda line: line.startswith("option name "))
    h.converse([("isready", ["readyok"]), ("ucinewgame", []), ("", [])])


def test_threads_option_sets_the_engine_and_searches_in_parallel() -> None:
    h = harness()
    h.send("uci")
    h.expect("option name Threads type spin value 1 default 1 min 1 max 1024",
             skip=lambda line: line.startswith(("id ", "option name ")))
    h.expect("uciok")
    h.converse([
        ("setoption name Threads value 0",
         ["info string option Threads must be at least 1, got 0"]),
        ("setoption name Threads value 2", []),
    ])
    assert h.session.engine.threads == 2
    h.send("position startpos")
    h.send("go depth 4")
    move = h.expect(re.compile("bestmove .*"), skip=lambda line: line.startswith("info "))
    board = Board()
    board.push(move.split()[1])  # raises if the move is not legal
    assert len(board.move_stack) == 1


def test_the_threads_option_defaults_to_the_modes_threads() -> None:
    # `bitgames leiserchess uci --threads 3` (the command line's default: every core)
    # offers Threads at 3, and 3 is the value a GUI resets it to
    out, err = io.StringIO(), io.StringIO()
    assert run_uci(io.StringIO("uci\nquit\n"), out, err, threads=3) == 0
    assert "option name Threads type spin value 3 default 3 min 1 max 1024" in out.getvalue()


def test_bad_lines_get_info_string_and_change_nothing() -> None:
    h = harness()
    h.converse([
        ("position startpos moves h4g5", []),
        ("position fen not/a/fen W", [re.compile("info string bad FEN .*")]),
        ("setoption name pbetween value lots",
         ["info string option pbetween must be an integer, got 'lots'"]),
        ("setoption name nosuch value 3", ["info string unknown option nosuch"]),
        # a bad go option is left out; the go is still answered
        ("go depth x depth 1", ["info string go depth must be an integer, got 'x' (left out)",
                                re.compile("info depth 1 .*"), re.compile("bestmove .*")]),
        ("perft z", ["info string perft depth must be an integer, got 'z'"]),
        ("perft 9", ["info string perft depth must be at most 6, got 9"]),
        ("nonsense command", []),  # unknown commands are ignored (logged on stderr)
        ("position", ["info string position needs startpos, fen or endgame"]),
    ])
    session = h.session
    assert isinstance(session, UciSession)
    assert [str(m) for m in session.board.move_stack] == ["h4g5"]
    assert "unknown command ignored: nonsense command" in h.log.getvalue()


def test_illegal_move_falls_back_to_base() -> None:
    h = harness()
    h.converse([("position startpos moves h4g5 h0h0", ["info string Move h0h0 is illegal"]),
                ("perft 1", ["info string perft 1 78"])])


def test_go_depth_infos_and_bestmove() -> None:
    h = harness()
    h.send("position endgame")
    h.send("go depth 3")
    for depth in (1, 2, 3):
        assert h.expect(INFO).startswith(f"info depth {depth} ")
    h.expect(re.compile("bestmove (h0h0|h0[RUL]|h0g0|h0g1|h0h1)"))


def test_go_infinite_stop_and_isready_while_searching() -> None:
    h = harness()
    h.send("position startpos")
    h.send("go infinite")
    h.send("isready")
    h.expect("readyok", skip=lambda line: line.startswith("info "))
    h.send("stop")
    best = h.expect(re.compile("bestmove .*"), skip=lambda line: line.startswith("info "))
    assert Board().is_legal(best.split()[1])


def test_go_clock_is_budgeted() -> None:
    h = harness()
    h.send("position fen ss7/8/8/8/8/8/8/WW7 W")
    h.send("go time 1000 inc 100")
    h.expect("bestmove a0R", skip=lambda line: line.startswith("info "))
    h.send("position startpos")
    h.send("go wtime 1500 btime 1500")
    h.expect(re.compile("bestmove .*"), timeout=3, skip=lambda line: line.startswith("info "))


def test_display_and_game_over() -> None:
    h = harness()
    h.send("position fen ss7/8/8/8/8/8/8/WW7 W moves a0R")
    h.send("display")
    h.expect(re.compile("info string +a +b.*"))
    lines = [h.next_line() for _ in range(10)]
    assert lines[-1] == "info string game over: 1-0"
    h.converse([("go depth 2", ["info string no legal moves: game over 1-0",
                                "bestmove (none)"])])


# -- the client --------------------------------------------------------------------------


def scripted(*exchanges: tuple[str, list[str]]) -> MockTransport:
    mock = MockTransport()
    mock.expect("uci", ["id name scripted", "option name x type spin", "uciok"])
    mock.expect("isready", ["readyok"])
    for line, replies in exchanges:
        mock.expect(line, replies)
    return mock


def test_client_with_mock_transport() -> None:
    mock = scripted(
        ("ucinewgame", []),
        ("isready", ["readyok"]),
        ("position startpos moves h4g5", []),
        ("go depth 2", ["info string thinking", "info depth 1 score cp 20 nodes 50 pv c5R",
                        "info depth 2 score cp -35 nodes 900 time 12 pv c5R h0R",
                        "bestmove c5R"]),
        ("quit", []),
    )
    client = UciClient(mock)
    assert client.name == "scripted"
    client.new_game()
    board = Board()
    board.push("h4g5")
    res = client.play(board, Limit(depth=2))
    assert res.move == Move.from_str("c5R") and res.depth == 2 and res.nodes == 900
    assert res.score == Score(-0.35, Unit.PAWNS) and [str(m) for m in res.pv] == ["c5R", "h0R"]
    client.close()
    mock.assert_done()


def test_client_mate_score_and_clock() -> None:
    mock = scripted(
        ("position fen ss7/8/8/8/8/8/8/WW7 W", []),
        ("go time 5000 inc 0", ["info depth 1 score mate 1 pv a0R", "bestmove a0R"]),
    )
    res = UciClient(mock).play(Board("ss7/8/8/8/8/8/8/WW7 W"), Limit(remaining=5.0))
    assert res.score == Score.win_in(1, Unit.PAWNS)
    mock.assert_done()


@pytest.mark.parametrize("reply,message", [("bestmove h0h0", "illegal move h0h0"),
                                           ("bestmove zz", "bad move")])
def test_client_refuses_bad_moves(reply: str, message: str) -> None:
    mock = scripted(("position startpos", []),
                    ("go movetime 100 time 5000 inc 0 movestogo 50", [reply]))
    with pytest.raises(EngineError, match=message):
        UciClient(mock).play(Board(), Limit(time=0.1))


def test_client_reads_the_course_engines_output() -> None:
    # the handout engine's lines (doc/engine-interface.txt, player/leiserchess.c): depth,
    # time in microseconds and nodes on one line, score and PV on the next; it knows no
    # movetime, so a time per move also goes as the clock its 2 % rule turns into it
    mock = scripted(
        ("position startpos", []),
        ("go movetime 100 time 5000 inc 0 movestogo 50",
         ["info depth 1 move_no 1 time (microsec) 62 nodes 88 nps 1397535",
          "info score cp -3 pv h0L",
          "info depth 6 move_no 31 time (microsec) 41000 nodes 120000 nps 2926829",
          "info score cp 15 pv h4g5 c5R",
          "bestmove h4g5"]),
    )
    res = UciClient(mock).play(Board(), Limit(time=0.1))
    assert res.move == Move.from_str("h4g5") and res.depth == 6 and res.nodes == 120000
    assert res.time == pytest.approx(0.041) and res.score == Score(0.15, Unit.PAWNS)
    assert [str(m) for m in res.pv] == ["h4g5", "c5R"]
    mock.assert_done()


def test_client_against_our_uci_process() -> None:
    transport = ProcessTransport([sys.executable, "-m", "bitgames.cli", "leiserchess", "uci"])
    with UciClient(transport, timeout=300) as client:
        assert client.name == "bitgames-leiserchess"
        client.new_game()
        board = Board()
        for _ in range(4):
            res = client.play(board, Limit(depth=2))
            assert res.depth == 2 and res.score is not None and res.pv[0] == res.move
            board.push(res.move)
    assert transport.proc.wait(timeout=30) == 0
