"""Hub protocol: scripted transcripts, bad input, stop/ping during a search, a subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bitgames.core.engine import Limit
from bitgames.core.errors import EngineError
from bitgames.core.protocol import MockTransport, ProcessTransport, SessionHarness
from bitgames.draughts import Board
from bitgames.draughts.hub import (
    HubClient,
    HubSession,
    board_from_hub,
    board_to_hub,
    parse_line,
)

START = "W" + "b" * 12 + "e" * 8 + "w" * 12


def run(lines: list[str]) -> list[str]:
    """Every line the session writes for ``lines`` (each search finished before the next
    state-changing line, as the protocol says)."""
    harness = SessionHarness(HubSession)
    for line in lines:
        if not harness.session.handle(line):
            break
    harness.session.finish()
    out = []
    while not harness.sink.lines.empty():
        out.append(harness.sink.lines.get())
    return out


def test_parse_line() -> None:
    assert parse_line('info depth=3 pv="1-5 28-24" flag') == (
        "info", {"depth": "3", "pv": "1-5 28-24", "flag": ""})


def test_positions_round_trip() -> None:
    board = board_from_hub(START, "russian")
    assert board == Board() and board_to_hub(board) == START
    english = board_from_hub("B" + START[1:], "english")
    assert english == Board(variant="english")
    odd = Board("B:WKd4,a1:Bb8,Kh2")
    assert board_from_hub(board_to_hub(odd), "russian") == odd


def test_handshake_search_and_done() -> None:
    lines = run(["hub", "set-param name=variant value=russian", "init",
                 f'pos pos={START} moves="22-17 9-13"', "level depth=4", "go think"])
    assert lines[:8] == [
        'id name=bitgames-draughts version=0.1.0 author="bitgames authors" country=none',
        'param name=variant value=russian type=enum values="russian english"',
        "param name=tt-bits value=20 type=int min=10 max=26",
        "param name=threads value=1 type=int min=1 max=1024",
        'param name=dialect value=standard type=enum values="standard pydraughts"',
        'param name=egdb value="" type=string',
        "wait",
        "ready",
    ]
    infos = [parse_line(x)[1] for x in lines if x.startswith("info")]
    assert [int(i["depth"]) for i in infos] == [1, 2, 3, 4]
    assert all(k in infos[-1] for k in ("score", "nodes", "time", "nps", "pv"))
    command, args = parse_line(lines[-1])
    assert command == "done"
    board = Board()
    board.push(board.parse_move("22-17"))
    board.push(board.parse_move("9-13"))
    move = board.parse_move(args["move"])
    assert move in list(board.legal_moves)
    board.push(move)
    assert board.parse_move(args["ponder"]) in list(board.legal_moves)


def test_english_game_through_the_protocol() -> None:
    board = Board(variant="english")
    hub = SessionHarness(HubSession)
    hub.converse([("set-param name=variant value=english", []), ("init", ["ready"]),
                  ("level depth=3", [])])
    moves: list[str] = []
    while not board.is_game_over() and len(moves) < 40:
        extra = f' moves="{" ".join(moves)}"' if moves else ""
        hub.send(f"pos pos=B{START[1:]}{extra}")
        hub.send("go think")
        done = hub.expect(re.compile(r"done move=\S+( ponder=\S+)?"),
                          skip=lambda line: line.startswith("info"))
        move = parse_line(done)[1]["move"]
        board.push(board.parse_move(move))
        moves.append(move)
    assert len(moves) >= 20


def test_script_with_the_harness() -> None:
    hub = SessionHarness(HubSession)
    hub.converse([
        ("ping", ["pong"]),
        ("set-param name=variant value=chess", ['error message="unknown variant \'chess\'"']),
        ("frobnicate", []),  # unknown commands are ignored
        (f"pos pos={START}", []),
        ("level depth=2", []),
        ("go think", [re.compile(r"info depth=1 .*"), re.compile(r"info depth=2 .*"),
                      re.compile(r"done move=\d+-\d+ ponder=\d+-\d+")]),
    ])
    assert "ignored unknown command 'frobnicate'" in hub.log.getvalue()


def test_threads_param_reaches_the_engine() -> None:
    hub = SessionHarness(HubSession)
    hub.send("hub")
    hub.expect("param name=threads value=1 type=int min=1 max=1024",
               skip=lambda line: not line.startswith("param name=threads"))
    hub.expect("wait", skip=lambda line: line.startswith("param "))
    hub.converse([
        ("set-param name=threads value=0",
         ['error message="threads must be at least 1, got 0"']),
        ("set-param name=threads value=3", []),
        (f"pos pos={START}", []),
        ("level depth=4", []),
    ])
    hub.send("go think")
    # helpers may complete an iteration before the main thread, which then goes on from
    # it: depths rise, some may be skipped, the last is the one asked for
    depths: list[int] = []
    while (line := hub.next_line()).startswith("info "):
        found = re.match(r"info depth=(\d+) ", line)
        assert found is not None, line
        depths.append(int(found[1]))
    assert re.fullmatch(r"done move=\d+-\d+( ponder=\d+-\d+)?", line), line
    assert depths == sorted(set(depths)) and depths[-1] == 4, depths
    assert hub.session.engine.threads == 3


def test_bad_lines_get_errors_and_the_engine_keeps_running() -> None:
    lines = run([
        "hub", "init",
        'pos pos="unterminated',
        "pos pos=Xeee",
        f'pos pos={START} moves="22-17 22-17"',
        "level fast",
        "level depth=abc",
        "set-param name=variant value=chess",
        "set-param name=tt-bits value=99",
        "frobnicate now",
        "",
        "ping",
    ])
    errors = [x for x in lines if x.startswith("error")]
    assert len(errors) == 7 and all('message="' in e for e in errors)
    assert lines[-1] == "pong"


def test_stop_and_ping_during_an_infinite_search() -> None:
    lines = run([f"pos pos={START}", "level infinite", "go analyze", "ping", "stop",
                 "ping"])
    assert "pong" in lines[:-1] and lines[-1] == "pong"
    done = [x for x in lines if x.startswith("done")]
    assert len(done) == 1
    assert Board().parse_move(parse_line(done[0])[1]["move"]) in list(Board().legal_moves)


def test_new_game_and_level_forms() -> None:
    lines = run([f"pos pos={START}", "new-game", "level move-time=0.2", "go think",
                 "level time=10 moves=20 inc=0.1", "go think", "level nodes=3000",
                 "go think", "ponder-hit", "quit", "ping"])
    assert len([x for x in lines if x.startswith("done")]) == 3
    assert "pong" not in lines  # nothing is read after quit


def test_hub_command_quits_on_end_of_input() -> None:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "bitgames.cli", "draughts", "hub"],
        input=f"hub\ninit\npos pos={START}\nlevel depth=3\ngo think\n",
        capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0
    out = proc.stdout.splitlines()
    wait = out.index("wait")
    assert all(line.startswith("param name=") for line in out[1:wait])
    assert out[wait + 1] == "ready" and out[-1].startswith("done move=")
    assert "compiling" not in proc.stdout  # logs go to stderr only


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_full_games_through_pydraughts_hub_client(variant: str, tmp_path: Path) -> None:
    draughts = pytest.importorskip("draughts")
    from draughts.engine import HubEngine, Limit

    script = tmp_path / "engine.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m bitgames.cli draughts hub\n')
    script.chmod(0o755)
    engine = HubEngine([str(script)])
    try:
        assert engine.id["name"] == "bitgames-draughts" and variant in engine.variants
        engine.setoption("variant", variant)
        engine.setoption("dialect", "pydraughts")
        engine.init()
        board = draughts.Board(variant)
        plies = 0
        while not board.is_over() and plies < 300:
            result = engine.play(board, Limit(depth=2), ponder=False)
            legal = [m.steps_move for m in board.legal_moves()]
            assert result.move.steps_move in legal, (plies, result.move.steps_move)
            board.push(result.move)
            plies += 1
        assert plies >= 20
    finally:
        engine.quit()
        engine.kill_process()


def test_client_against_a_scripted_engine() -> None:
    mock = MockTransport()
    mock.expect("hub", ["id name=scripted version=1", "param name=variant value=russian "
                        'type=enum values="russian english"', "wait"])
    mock.expect("set-param name=variant value=russian")
    mock.expect("init", ["ready"])
    client = HubClient(mock, "russian")
    assert client.name == "scripted"
    board = Board()
    board.push("c3-d4")
    mock.expect(f'pos pos={START} moves="22-18"')
    mock.expect("level depth=3")
    mock.expect("go think", ["info depth=3 score=0.25 nodes=120 time=0.01 pv=9-13",
                             "done move=9-13"])
    result = client.play(board, Limit(depth=3))
    assert str(result.move) == "b6-a5" and result.depth == 3 and result.nodes == 120
    assert result.score is not None and result.score.value == 0.25
    mock.expect(f'pos pos={START} moves="22-18"')
    mock.expect("go think", ["done move=22-18"])  # not legal for Black here
    with pytest.raises(EngineError, match="22-18"):
        client.play(board, Limit())
    mock.expect(f'pos pos={START} moves="22-18"')
    mock.expect("go think", ['error message="no"'])
    with pytest.raises(EngineError, match="no"):
        client.play(board, Limit())
    mock.expect("quit")
    client.close()
    mock.assert_done()


def test_client_refuses_an_engine_without_the_variant() -> None:
    mock = MockTransport()
    mock.expect("hub", ["id name=scan", 'param name=variant value=normal type=enum '
                        'values="normal killer bt frisian losing"', "wait"])
    with pytest.raises(EngineError, match="not english"):
        HubClient(mock, "english")


@pytest.mark.parametrize("variant", ["russian", "english"])
def test_client_plays_our_hub_as_a_subprocess(variant: str) -> None:
    transport = ProcessTransport([sys.executable, "-m", "bitgames.cli", "draughts", "hub"])
    with HubClient(transport, variant, timeout=60) as client:
        assert client.name == "bitgames-draughts"
        board = Board(variant=variant)
        client.new_game()
        for _ in range(12):
            result = client.play(board, Limit(depth=3))
            assert result.move in board.legal_moves and result.depth == 3
            board.push(result.move)
        result = client.play(board, Limit(time=0.2))
        assert result.move in board.legal_moves
