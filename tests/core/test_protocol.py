"""The protocol layer: the session base, its harness, transports and the client base."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import pytest

from bitgames.core.errors import BitgamesError, EngineError
from bitgames.core.protocol import (
    Client,
    Command,
    MockTransport,
    ProcessTransport,
    Session,
    SessionHarness,
)


class Counter(Session):
    """A toy dialect: ``add N``, ``total``, ``slow`` (thinks until stopped), ``boom``."""

    protocol = "toy"

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.total = 0
        self.halted = threading.Event()

    def cmd_add(self, args: list[str]) -> str:
        self.total += int(args[0])
        return f"ok {self.total}"

    def cmd_total(self, args: list[str]) -> str:
        return str(self.total)

    def cmd_slow(self, args: list[str]) -> None:
        def job() -> None:
            self.halted.wait(10)
            self.send("slow done")

        self.think(job)

    def cmd_set_param(self, args: list[str]) -> str:
        return "set " + " ".join(args)

    def cmd_boom(self, args: list[str]) -> None:
        raise RuntimeError("kaboom")

    def cmd_crash_thinking(self, args: list[str]) -> None:
        def job() -> None:
            raise RuntimeError("worker died")

        self.think(job)

    def think_failed(self, exc: Exception) -> None:
        self.send("thinking failed")

    def halt(self) -> None:
        self.halted.set()


class Gtp(Counter):
    """The same with GTP-style ids and replies, to check the dialect hooks."""

    def parse(self, line: str) -> Command | None:
        parts = line.split()
        if not parts:
            return None
        ident = parts.pop(0) if parts[0].isdigit() else ""
        if not parts:
            raise BitgamesError("missing command")
        return Command(parts[0], parts[1:], ident, line)

    def reply(self, command: Command, result: str | None) -> None:
        self.send(f"={command.id} {result or ''}".rstrip() + "\n")

    def error(self, command: Command, message: str) -> None:
        self.send(f"?{command.id} {message}\n")


def test_bad_lines_get_an_error_and_leave_the_state_alone() -> None:
    h = SessionHarness(Counter)
    h.converse([
        ("add 2", ["ok 2"]),
        ("add two", ["error: invalid literal for int() with base 10: 'two'"]),
        ("add", ["error: list index out of range"]),
        ("frobnicate", ["error: unknown command: frobnicate"]),
        ("boom", ["error: internal error: kaboom"]),
        ("set-param x 1", ["set x 1"]),
        ("", []),
        ("total", ["2"]),
    ])
    assert "kaboom" in h.log.getvalue() and "Traceback" in h.log.getvalue()


def test_quit_ends_the_session_and_stops_thinking() -> None:
    h = SessionHarness(Counter)
    h.send("slow")
    assert h.session.thinking
    assert h.session.handle("quit") is False
    h.expect("slow done")
    assert not h.session.thinking and h.session.halted.is_set()


def test_a_stop_before_the_search_starts_is_not_lost() -> None:
    """The worker clears the stop flag when it starts (as a search does); stop_thinking
    repeats the stop until the worker has ended."""
    h = SessionHarness(Counter)
    started = threading.Event()

    def job() -> None:
        started.wait(5)
        h.session.halted.clear()  # the search begins: a stop sent earlier is forgotten
        h.session.halted.wait(10)
        h.session.send("stopped")

    h.session.think(job)
    stopper = threading.Thread(target=h.session.stop_thinking)
    stopper.start()
    started.set()
    stopper.join(5)
    assert not stopper.is_alive()
    h.expect("stopped")
    assert h.output() == []


def test_a_failing_worker_is_reported_and_the_session_goes_on() -> None:
    h = SessionHarness(Counter)
    h.send("crash_thinking")
    h.expect("thinking failed")
    h.send("add 1")
    h.expect("ok 1")
    assert "worker died" in h.log.getvalue()


def test_dialect_hooks_shape_replies() -> None:
    h = SessionHarness(Gtp)
    h.converse([
        ("7 add 5", ["=7 ok 5", ""]),
        ("add 1", ["= ok 6", ""]),
        ("3 nothing", ["?3 unknown command: nothing", ""]),
        ("4", ["? missing command", ""]),
    ])


def test_harness_reports_a_wrong_reply() -> None:
    h = SessionHarness(Counter)
    h.send("add 1")
    with pytest.raises(AssertionError, match="expected 'ok 2', got 'ok 1'"):
        h.expect("ok 2")
    h.send("total")
    assert h.expect(re.compile(r"\d+")) == "1"
    with pytest.raises(AssertionError, match="no reply"):
        h.expect("anything", timeout=0.05)


def test_serve_reads_until_end_of_input() -> None:
    import io

    out = io.StringIO()
    session = Counter(out=out, log=io.StringIO())
    session.serve(io.StringIO("add 1\nadd 2\nquit\nadd 100\n"))
    assert out.getvalue() == "ok 1\nok 3\n"


def test_mock_transport_checks_the_script() -> None:
    mock = MockTransport()
    mock.expect("hello", ["hi", "ready"])
    mock.expect(re.compile(r"go \d+"), ["done"])
    client = Client(mock)
    client.send("hello")
    assert client.read_until(lambda line: line == "ready") == ["hi", "ready"]
    with pytest.raises(AssertionError, match="expected /go"):
        client.send("go now")
    client.send("go 5")
    assert mock.receive() == "done"
    mock.assert_done()
    with pytest.raises(EngineError):
        mock.receive()


def test_process_transport_talks_times_out_and_sees_the_end() -> None:
    echo = ("import sys\n"
            "for line in sys.stdin:\n"
            "    if line.strip() == 'quit': break\n"
            "    if line.strip() != 'hush': print('echo ' + line.strip(), flush=True)\n")
    with Client(ProcessTransport([sys.executable, "-c", echo]), timeout=10) as client:
        client.send("one")
        assert client.read_until(lambda s: s.startswith("echo")) == ["echo one"]
        client.send("hush")
        with pytest.raises(EngineError, match="did not answer within"):
            client.read_until(lambda s: True, timeout=0.2)
        client.send("quit")
        with pytest.raises(EngineError, match="closed its output"):
            client.read_until(lambda s: True)


def test_process_transport_names_a_missing_program() -> None:
    with pytest.raises(EngineError, match="cannot start engine 'no-such-engine-here'"):
        ProcessTransport("no-such-engine-here --gtp")


def test_an_engine_that_fails_its_handshake_is_not_left_running(tmp_path: Path) -> None:
    # an engine that never answers "uci" (here a shell that records its process id and
    # sleeps): the client's start gives up after its timeout and kills it, as it does when
    # a match is stopped (Ctrl-C, SIGTERM) in the middle of the handshake
    import os

    from bitgames.leiserchess.uci import UciClient

    pid_file = tmp_path / "engine.pid"
    with pytest.raises(EngineError, match="did not answer within"):
        UciClient.start(f"sh -c 'echo $$ > {pid_file}; exec sleep 600'", timeout=0.5)
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_an_engine_started_as_an_interrupt_comes_is_killed_at_exit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C or SIGTERM right after the engine's process started, before its transport was
    # handed over (here: while its reader thread starts): nothing can close it, so this
    # process kills it when it exits
    import os

    from bitgames.core import protocol

    def interrupted(self: threading.Thread) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Thread, "start", interrupted)
    with pytest.raises(KeyboardInterrupt):
        ProcessTransport(["sleep", "600"])
    monkeypatch.undo()
    (left,) = [t for t in protocol._LIVE if t.argv == ["sleep", "600"]]
    pid = left.proc.pid
    os.kill(pid, 0)  # still running
    protocol._kill_leftovers()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
