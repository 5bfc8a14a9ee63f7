"""One protocol layer: the session base of NBoard, Hub, GTP and UCI, their clients, tests.

Three parts, each written once:

- :class:`Session` -- our side of a conversation with a GUI. It owns what every protocol
  needs: input read as bytes and decoded leniently whatever the locale
  (:func:`read_lines`); a locked, flushed :meth:`~Session.send`; logging to stderr only;
  a worker thread to think, stop and wait; a :meth:`~Session.handle` that never raises (a
  bad line gets the dialect's error reply, the state is unchanged, the session goes on);
  and a dispatch table built from the ``cmd_<name>`` methods (a ``-`` in a command's name
  is a ``_`` in its method's). A dialect (``othello/nboard.py``,
  ``draughts/hub.py``, ``go/gtp.py``, ``leiserchess/uci.py``) only says how a line splits
  into a command and how replies and errors are written, and reads its numbers with
  :func:`parse_int`, :func:`parse_float` and :func:`parse_seconds` (ASCII digits only,
  finite, in range).
- :class:`Client` over a :class:`Transport` -- the other direction: bitgames driving an
  outside engine (:class:`ProcessTransport`, a subprocess) for matches.
- Test harnesses in python-chess's ``MockTransport`` style: :class:`SessionHarness`
  scripts the lines sent to one of our sessions and the replies expected;
  :class:`MockTransport` scripts an outside engine for a client.

>>> class Echo(Session):
...     def cmd_echo(self, args):
...         return " ".join(args)
>>> harness = SessionHarness(Echo)
>>> harness.send("echo hello world")
>>> harness.expect("hello world")
'hello world'
>>> harness.send("nonsense")
>>> harness.expect("error: unknown command: nonsense")
'error: unknown command: nonsense'
"""

from __future__ import annotations

import atexit
import contextlib
import io
import math
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Generic, TextIO, TypeVar

from bitgames.core.board import BaseBoard
from bitgames.core.errors import BitgamesError, EngineError, ProtocolError

# -- reading protocol input ---------------------------------------------------------------------

#: the longest input line a session reads (bytes); a longer one is skipped and refused
MAX_LINE = 1 << 20

#: the longest time a protocol may ask for (seconds, about 11.6 days): longer clocks are cut
#: to it, so no timer is ever armed beyond what the platform can wait
MAX_SECONDS = 1e6

#: the most nodes (Go: playouts) a protocol may ask a search for: kernels count in int64
MAX_NODES = 10**12

_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?", re.ASCII)


def read_lines(source: IO[Any], limit: int = MAX_LINE) -> Iterator[str | None]:
    r"""The lines of a protocol's input, read as bytes and decoded as UTF-8 with bad bytes
    replaced (U+FFFD), whatever the locale says; ``None`` stands for a line longer than
    ``limit`` bytes, which is skipped whole. A text stream without a binary buffer
    (``io.StringIO``) is read as it is.

    >>> list(read_lines(io.BytesIO(b"ping 1\n\xff\xfe go\r\n" + b"x" * 9 + b"\nend"), 8))
    ['ping 1\n', '\ufffd\ufffd go\r\n', None, 'end']
    """
    raw = getattr(source, "buffer", source)
    if isinstance(raw, io.TextIOBase):
        yield from iter(raw.readline, "")
        return
    while True:
        line = raw.readline(limit + 1)
        if not line:
            return
        if len(line) > limit:
            while line and not line.endswith(b"\n"):
                line = raw.readline(limit + 1)
            yield None
            continue
        yield line.decode("utf-8", "replace")


def parse_int(text: str, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer written in ASCII digits (an optional sign), within ``lo..hi``;
    :class:`ProtocolError` naming ``what`` otherwise. Python's ``int()`` also takes
    ``"٣"`` or ``" 3_0 "``; a protocol takes neither.

    >>> parse_int("-12", "depth")
    -12
    >>> parse_int("²", "tt-bits")
    Traceback (most recent call last):
    ...
    bitgames.core.errors.ProtocolError: tt-bits must be an integer, got '²'
    >>> parse_int("0", "depth", lo=1)
    Traceback (most recent call last):
    ...
    bitgames.core.errors.ProtocolError: depth must be at least 1, got 0
    """
    if _INT.fullmatch(text) is None:
        raise ProtocolError(f"{what} must be an integer, got {_clip(text)!r}")
    return _in_range(int(text), what, lo, hi)


def parse_float(text: str, what: str, lo: float | None = None,
                hi: float | None = None) -> float:
    """A finite decimal number written in ASCII (``1``, ``-2.5``, ``.5``, ``1e3``) within
    ``lo..hi``; :class:`ProtocolError` naming ``what`` otherwise (``inf``, ``nan``,
    ``1e999``, Unicode digits).

    >>> parse_float("7.5", "komi"), parse_float("1e3", "time")
    (7.5, 1000.0)
    >>> parse_float("inf", "time")
    Traceback (most recent call last):
    ...
    bitgames.core.errors.ProtocolError: time must be a finite number, got 'inf'
    """
    value = float(text) if _FLOAT.fullmatch(text) else math.nan
    if not math.isfinite(value):
        raise ProtocolError(f"{what} must be a finite number, got {_clip(text)!r}")
    return _in_range(value, what, lo, hi)


def parse_seconds(text: str, what: str, scale: float = 1.0) -> float:
    """A time given over a protocol, in seconds: ``text`` (a finite number, see
    :func:`parse_float`) times ``scale`` (``0.001`` for milliseconds), cut to
    ``0..MAX_SECONDS``: a clock already run out reads 0, an absurdly long one the most any
    timer waits.

    >>> parse_seconds("1500", "wtime", 0.001), parse_seconds("-3", "time")
    (1.5, 0.0)
    >>> parse_seconds("1e30", "time") == MAX_SECONDS
    True
    """
    return min(max(parse_float(text, what) * scale, 0.0), MAX_SECONDS)


def _in_range(value: Any, what: str, lo: Any, hi: Any) -> Any:
    if lo is not None and value < lo:
        raise ProtocolError(f"{what} must be at least {lo}, got {value}")
    if hi is not None and value > hi:
        raise ProtocolError(f"{what} must be at most {hi}, got {value}")
    return value


def _clip(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters for an error message."""
    return text if len(text) <= width else text[:width] + "..."


# -- our side: sessions -------------------------------------------------------------------------


@dataclass
class Command:
    """One parsed input line: the command's name, its arguments, and the id some protocols
    (GTP) put in front."""

    name: str
    args: list[str] = field(default_factory=list)
    id: str = ""
    line: str = ""


class Session:
    """The base of every protocol session; a dialect subclasses it.

    Commands are methods ``cmd_<name>(args) -> str | None``; a returned string is the
    reply (:meth:`reply` formats it). A dialect overrides :meth:`parse`, :meth:`reply`,
    :meth:`error` and :meth:`unknown` where its protocol says otherwise, and :meth:`halt`
    to stop its engine. ``quit`` ends the session in every dialect.
    """

    #: the protocol's name, in log lines
    protocol = "protocol"

    def __init__(self, out: TextIO | None = None, log: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.log_stream = log if log is not None else sys.stderr
        self.running = True
        self._write_lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self.commands: dict[str, Callable[[list[str]], str | None]] = {
            name[4:]: getattr(self, name) for name in dir(self) if name.startswith("cmd_")
        }

    # -- output ---------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one line (or several, joined by newlines) to the GUI and flush.

        A character the output's encoding cannot write is replaced (``?``); once the
        output is gone (the GUI closed its end) the session ends quietly.
        """
        text = line + "\n"
        with self._write_lock:
            try:
                try:
                    self.out.write(text)
                except UnicodeEncodeError:
                    encoding = getattr(self.out, "encoding", None) or "ascii"
                    self.out.write(text.encode(encoding, "replace").decode(encoding))
                self.out.flush()
            except (OSError, ValueError):  # a broken pipe, a closed stream
                self.running = False

    def log(self, text: str) -> None:
        """A diagnostic on stderr (never on the protocol's output)."""
        message = f"{self.protocol}: {text}\n"
        try:
            try:
                self.log_stream.write(message)
            except UnicodeEncodeError:
                self.log_stream.write(message.encode("ascii", "backslashreplace").decode())
            self.log_stream.flush()
        except (OSError, ValueError):
            pass

    # -- the dialect's hooks --------------------------------------------------------------------

    def parse(self, line: str) -> Command | None:
        """Split a line into a :class:`Command`; ``None`` for a line to ignore (blank)."""
        parts = line.split()
        if not parts:
            return None
        return Command(parts[0], parts[1:], line=line.rstrip("\r\n"))

    def reply(self, command: Command, result: str | None) -> None:
        """Send a command's result (nothing when it returned ``None``)."""
        if result is not None:
            self.send(result)

    def error(self, command: Command, message: str) -> None:
        """Tell the GUI a command failed (the state is unchanged)."""
        self.send(f"error: {message}")

    def unknown(self, command: Command) -> None:
        """A command this dialect does not know."""
        self.error(command, f"unknown command: {command.name}")

    def halt(self) -> None:
        """Stop the engine's search (called by :meth:`stop_thinking`)."""

    # -- the loop -------------------------------------------------------------------------------

    def cmd_quit(self, args: list[str]) -> str | None:
        self.stop_thinking()
        self.running = False
        return None

    def handle(self, line: str) -> bool:
        """Process one line; never raises. Returns False once the session should end."""
        try:
            command = self.parse(line)
        except (BitgamesError, ValueError) as exc:
            self.error(Command("", line=line), _first_line(exc))
            return self.running
        if command is None:
            return self.running
        handler = self.commands.get(command.name) or self.commands.get(
            command.name.replace("-", "_"))  # GTP's kgs-..., Hub's set-param: cmd_kgs_...
        if handler is None:
            self.unknown(command)
            return self.running
        try:
            result = handler(command.args)
        except (BitgamesError, ValueError, IndexError, OSError) as exc:
            self.error(command, _first_line(exc))
        except Exception as exc:  # a protocol mode must never die on a line
            self.log(f"internal error on {command.line!r}: {exc!r}\n{traceback.format_exc()}")
            self.error(command, f"internal error: {exc}")
        else:
            self.reply(command, result)
        return self.running

    def run(self, lines: Iterable[str | None]) -> None:
        """Handle every line until ``quit`` or the end of input, then :meth:`finish`.

        ``None`` is a line too long to read (:func:`read_lines`): it gets the dialect's
        error reply.
        """
        for line in lines:
            if line is None:
                self.error(Command("", line=""), f"line longer than {MAX_LINE} bytes ignored")
            elif not self.handle(line):
                break
            if not self.running:
                break
        self.finish()

    def serve(self, stdin: IO[Any] | None = None) -> None:
        """Run on standard input (or ``stdin``) until ``quit`` or its end; the input is
        read as bytes and decoded leniently (:func:`read_lines`)."""
        self.run(read_lines(stdin if stdin is not None else sys.stdin))

    def finish(self) -> None:
        """End of the conversation: let a running search finish."""
        self.wait()

    # -- thinking in a worker thread ------------------------------------------------------------

    def think(self, job: Callable[[], None]) -> None:
        """Run ``job`` in the worker thread (after any earlier one finished).

        An exception in ``job`` is logged and passed to :meth:`think_failed`; the
        session goes on.
        """
        self.wait()

        def run() -> None:
            try:
                job()
            except Exception as exc:  # never die: report and go on
                self.log(f"error while thinking: {exc!r}\n{traceback.format_exc()}")
                self.think_failed(exc)

        self._worker = threading.Thread(target=run, daemon=True, name=f"{self.protocol}-think")
        self._worker.start()

    def think_failed(self, exc: Exception) -> None:
        """What the GUI is told when thinking failed (a dialect sends its error form)."""

    @property
    def thinking(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def stop_thinking(self) -> None:
        """Stop the search in progress (it still sends its answer) and wait for it.

        The stop is repeated until the worker ends: a stop that comes before the search
        has started would be cleared by the search itself when it starts.
        """
        while self.thinking:
            self.halt()
            worker = self._worker
            if worker is not None:
                worker.join(0.05)
        self.wait()

    def wait(self) -> None:
        """Wait until the worker is done."""
        worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join()
        self._worker = None


B = TypeVar("B", bound=BaseBoard[Any])


class PositionCache(Generic[B]):
    """The board of a position command -- a first position and the moves played since, as
    Hub's ``pos`` and UCI's ``position`` give it -- played on from the last such board
    when the command only adds moves to it, as a GUI's commands do at every move.

    Replaying a whole game from its first position costs a few milliseconds of Python
    per move at 60 plies (legal moves to read each one), which a fast clock charges to the
    engine on every move. ``start`` names the first position; ``first()`` builds it and
    ``play(board, text)`` plays one move written ``text`` on ``board`` (and raises for
    one that is not legal: then nothing is remembered).

    >>> from bitgames.othello.board import Board
    >>> cache = PositionCache[Board]()
    >>> play = lambda board, text: board.push(text)
    >>> cache.board("start", ["f5", "d6"], Board, play).move_stack
    [Move.from_str('f5'), Move.from_str('d6')]
    >>> len(cache.board("start", ["f5", "d6", "c3"], Board, play).move_stack)  # plays c3
    3
    >>> len(cache.board("start", ["f5"], Board, play).move_stack)  # not an extension
    1
    """

    def __init__(self) -> None:
        self._start: str | None = None
        self._moves: list[str] = []
        self._board: B | None = None

    def board(self, start: str, moves: Sequence[str], first: Callable[[], B],
              play: Callable[[B, str], None]) -> B:
        """The board after ``moves`` from the position ``start`` (a new board each call)."""
        board, known = self._board, len(self._moves)
        if board is None or start != self._start or list(moves[:known]) != self._moves:
            board, known = first(), 0
        self._board = None  # played on in place: forgotten unless every move is legal
        for text in moves[known:]:
            play(board, text)
        self._start, self._moves, self._board = start, list(moves), board
        return board.copy()


# -- test harness for sessions ------------------------------------------------------------------


class _LineSink(io.TextIOBase):
    """A text stream that hands each complete line to a queue (thread-safe)."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self._partial = ""
        self._lock = threading.Lock()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self._lock:
            self._partial += text
            *done, self._partial = self._partial.split("\n")
            for line in done:
                self.lines.put(line)
        return len(text)


class SessionHarness:
    """Drive one of our sessions line by line and check its replies in order.

    ``make(out=..., log=...)`` builds the session (extra keyword arguments go along).
    :meth:`expect` takes the next line the session wrote, waiting for a thinking worker
    up to ``timeout`` seconds (a minute by default: the first search may compile its
    kernels), and checks it: equal to a string, or a full match of a
    compiled regular expression. ``skip`` drops lines before the expected one (``info``
    lines, say).
    """

    def __init__(self, make: Callable[..., Session], **kwargs: Any) -> None:
        self.sink = _LineSink()
        self.log = io.StringIO()
        self.session = make(out=self.sink, log=self.log, **kwargs)

    def send(self, line: str) -> None:
        """Hand ``line`` to the session, as the GUI would."""
        self.session.handle(line)

    def next_line(self, timeout: float = 60.0) -> str:
        try:
            return self.sink.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no reply within {timeout} s") from None

    def expect(self, expected: str | re.Pattern[str], timeout: float = 60.0,
               skip: Callable[[str], bool] | None = None) -> str:
        """The next line, checked against ``expected``; returns it."""
        while True:
            line = self.next_line(timeout)
            if skip is not None and skip(line) and not _matches(expected, line):
                continue
            if not _matches(expected, line):
                raise AssertionError(f"expected {_show(expected)}, got {line!r}")
            return line

    def output(self) -> list[str]:
        """Every line written and not yet read (waits for nothing)."""
        lines = []
        while True:
            try:
                lines.append(self.sink.lines.get_nowait())
            except queue.Empty:
                return lines

    def expect_silence(self, seconds: float = 0.2) -> None:
        """Nothing more is written within ``seconds``."""
        try:
            line = self.sink.lines.get(timeout=seconds)
        except queue.Empty:
            return
        raise AssertionError(f"expected no output, got {line!r}")

    def converse(self, script: Iterable[tuple[str, list[str | re.Pattern[str]]]]) -> None:
        """Send each line and expect its replies: ``[("ping 1", ["pong 1"]), ...]``."""
        for line, replies in script:
            self.send(line)
            for reply in replies:
                self.expect(reply)
            self.session.wait()
        self.expect_silence()


def _first_line(exc: Exception) -> str:
    """An exception's message for a one-line error reply."""
    lines = str(exc).splitlines()
    return lines[0] if lines and lines[0].strip() else type(exc).__name__


def _matches(expected: str | re.Pattern[str], line: str) -> bool:
    if isinstance(expected, re.Pattern):
        return expected.fullmatch(line) is not None
    return line == expected


def _show(expected: str | re.Pattern[str]) -> str:
    return f"/{expected.pattern}/" if isinstance(expected, re.Pattern) else repr(expected)


# -- the other side: driving outside engines ----------------------------------------------------


class Transport:
    """A line-based channel to an engine: :meth:`send` a line, :meth:`receive` the next."""

    name = "engine"

    def send(self, line: str) -> None:
        raise NotImplementedError

    def receive(self, timeout: float | None = None) -> str:
        """The next line (without its newline); :class:`EngineError` on time-out or EOF."""
        raise NotImplementedError

    def close(self) -> None:
        pass


_EOF = object()

#: the engines started and not closed yet: killed when this process exits, so that an
#: interrupt between starting one and handing it over (Ctrl-C, SIGTERM at the start of a
#: match's game) never leaves one running on its own
_LIVE: set[ProcessTransport] = set()


@atexit.register
def _kill_leftovers() -> None:
    for transport in list(_LIVE):
        transport.kill()


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done (in the main thread), then act."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    kinds = (signal.SIGINT, signal.SIGTERM)
    before = {kind: signal.signal(kind, lambda signum, _frame: held.append(signum))
              for kind in kinds}
    try:
        yield
    finally:
        for kind, handler in before.items():
            if handler is not None:  # None: a handler not set from Python, left alone
                signal.signal(kind, handler)
        for signum in held[:1]:
            os.kill(os.getpid(), signum)


class ProcessTransport(Transport):
    """An engine run as a subprocess, spoken to on its stdin/stdout.

    ``command`` is a shell-like string (split with :func:`shlex.split`, no shell) or a
    list. A reader thread queues its lines, so :meth:`receive` can time out. Its stderr
    goes to ``stderr`` (default: discarded).
    """

    def __init__(self, command: str | list[str], stderr: Any = subprocess.DEVNULL,
                 cwd: str | None = None) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise EngineError("empty engine command")
        self.name = self.argv[0]
        try:
            with _signals_held():  # started and recorded, or not started
                self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=stderr,
                                             text=True, bufsize=1, cwd=cwd)
                _LIVE.add(self)
        except OSError as exc:
            raise EngineError(f"cannot start engine {self.name!r}: {exc}") from exc
        self._lines: queue.Queue[object] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(_EOF)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise EngineError(f"engine {self.name!r} is gone ({self._status()})") from exc

    def receive(self, timeout: float | None = None) -> str:
        try:
            item = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"engine {self.name!r} did not answer within "
                              f"{timeout:.1f} s") from None
        if item is _EOF:
            self._lines.put(_EOF)
            raise EngineError(f"engine {self.name!r} closed its output ({self._status()})")
        assert isinstance(item, str)
        return item

    def _status(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "still running"
        return f"exit status {code}"

    def kill(self) -> None:
        """End the engine now (SIGKILL) and reap it."""
        self.proc.kill()
        self.proc.wait()
        _LIVE.discard(self)

    def close(self) -> None:
        """Close its input, then wait a little, terminate, kill."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.kill()
        _LIVE.discard(self)


class MockTransport(Transport):
    """A scripted outside engine, for testing clients without a process.

    >>> mock = MockTransport()
    >>> mock.expect("ping 1", ["pong 1"])
    >>> mock.send("ping 1"); mock.receive()
    'pong 1'
    >>> mock.assert_done()
    """

    name = "mock"

    def __init__(self) -> None:
        self._script: list[tuple[str | re.Pattern[str], list[str]]] = []
        self._replies: list[str] = []
        self.sent: list[str] = []

    def expect(self, line: str | re.Pattern[str], replies: Iterable[str] = ()) -> None:
        """The client must send ``line`` next; the engine answers ``replies``."""
        self._script.append((line, list(replies)))

    def send(self, line: str) -> None:
        self.sent.append(line)
        if not self._script:
            raise AssertionError(f"unexpected line sent: {line!r}")
        expected, replies = self._script[0]
        if not _matches(expected, line):
            raise AssertionError(f"expected {_show(expected)} to be sent, got {line!r}")
        self._script.pop(0)
        self._replies.extend(replies)

    def receive(self, timeout: float | None = None) -> str:
        if not self._replies:
            raise EngineError("mock engine has nothing more to say")
        return self._replies.pop(0)

    def assert_done(self) -> None:
        """Every expected line was sent and every reply read."""
        if self._script:
            raise AssertionError(f"lines never sent: {[e for e, _ in self._script]}")
        if self._replies:
            raise AssertionError(f"replies never read: {self._replies}")


class Client:
    """The base of the clients that drive outside engines (one per protocol).

    It holds a :class:`Transport` and offers :meth:`read_until`; a dialect's client adds
    the protocol's handshake and its ``play(board, limit)``. A client is a context manager
    that closes its transport.
    """

    def __init__(self, transport: Transport, timeout: float = 30.0) -> None:
        self.transport = transport
        self.timeout = timeout
        self.name = transport.name
        # a command's answer was not (fully) read: the controller was interrupted (Ctrl-C,
        # a match stopped) or gave up waiting, and the engine may still be busy with it
        self._busy = False

    @classmethod
    def start(cls, command: str | list[str], *args: Any, **kwargs: Any) -> Any:
        """A client of the engine run by ``command`` (a subprocess); ``args`` and
        ``kwargs`` go to the client's constructor, which shakes hands with the engine.

        An engine whose handshake fails or is interrupted (Ctrl-C, SIGTERM: a match stopped
        while its next game starts) is killed at once, never left running on its own.
        """
        transport = ProcessTransport(command)
        try:
            return cls(transport, *args, **kwargs)
        except BaseException:
            transport.kill()
            raise

    def send(self, line: str) -> None:
        self.transport.send(line)

    def read_until(self, done: Callable[[str], bool], timeout: float | None = None,
                   ) -> list[str]:
        """Lines received until one satisfies ``done`` (included), within ``timeout``."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        lines = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise EngineError(
                        f"engine {self.name!r} did not answer within {limit:.1f} s")
                line = self.transport.receive(timeout=left)
                lines.append(line)
                if done(line):
                    return lines
        except BaseException:
            self._busy = True
            raise

    def close(self) -> None:
        """Say ``quit`` (every protocol's last word) if the engine still listens, then
        close the transport; an engine still busy with a command whose answer never came
        (the controller was interrupted, or gave up waiting) is killed at once."""
        if self._busy and isinstance(self.transport, ProcessTransport):
            self.transport.kill()
        elif not self._busy:
            self._quit()
        self.transport.close()

    def _quit(self) -> None:
        try:
            self.send("quit")
        except EngineError:
            pass

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GtpController(Client):
    """The controller's side of GTP version 2, for every game whose engines speak it (Go:
    GNU Go, Pachi; Othello: GRhino). A game's client adds how its board is sent and its
    moves are read (``sync`` and ``play``).

    Each command is answered by ``=`` (success) or ``?`` (failure), an optional id, the
    response, and a blank line. The engine's name comes from its ``name`` command unless
    given.

    >>> mock = MockTransport()
    >>> mock.expect("name", ["= Mock", ""])
    >>> mock.expect("boardsize 8", ["? unacceptable size", ""])
    >>> controller = GtpController(mock)
    >>> controller.name, controller.request("boardsize 8")
    ('Mock', (False, 'unacceptable size'))
    """

    def __init__(self, transport: Transport, timeout: float = 600.0,
                 name: str | None = None) -> None:
        super().__init__(transport, timeout)
        self._time: tuple[float, ...] | None = None
        self.name = name or self.command("name") or transport.name

    def request(self, command: str, timeout: float | None = None) -> tuple[bool, str]:
        """Send one command; its success and its response without ``=``/``?`` and id
        (within ``timeout`` seconds, default the client's)."""
        self._busy = True
        self.send(command)
        head = self.read_until(lambda line: line.strip() != "", timeout)[-1]
        if head[0] not in "=?":
            raise ProtocolError(f"GTP engine {self.name!r} answered {command!r} with "
                                f"{head!r}, not '=' or '?'")
        rest = self.read_until(lambda line: line.strip() == "", timeout)[:-1]
        self._busy = False
        text = "\n".join([head[1:].lstrip("0123456789").strip(), *rest]).strip()
        return head[0] == "=", text

    def command(self, command: str) -> str:
        """Send a command that must succeed; its response (:class:`EngineError` if not)."""
        ok, text = self.request(command)
        if not ok:
            raise EngineError(f"GTP engine {self.name!r} refused {command!r}: {text}")
        return text

    def send_time(self, color: str, limit: Any) -> None:
        """Tell the engine the time of ``limit`` (a :class:`~bitgames.core.engine.Limit`)
        for the player ``color`` (``b``/``w``): ``Limit(time=t)`` is ``time_settings 0 t
        1`` (t seconds a move), a clock ``time_settings`` once and ``time_left`` before
        each move; no time, nothing. Engines that refuse them play on untimed."""
        if limit.time is not None:
            settings: tuple[float, ...] = (0, max(1, round(limit.time)), 1)
        elif limit.remaining is not None:
            settings = (max(1, round(limit.remaining)), 0, 0)
        else:
            return
        if settings != self._time:
            self.request("time_settings {} {} {}".format(*settings))
            self._time = settings
        if limit.remaining is not None:
            self.request(f"time_left {color} {int(limit.remaining)} {limit.moves_to_go or 0}")

    def _quit(self) -> None:
        try:
            self.request("quit", timeout=5.0)  # GTP answers quit: wait for "="
        except BitgamesError:
            pass
