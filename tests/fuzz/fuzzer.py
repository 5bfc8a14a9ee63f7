"""A seeded fuzzer for the four protocol modes, run as the GUI would run them.

:func:`fuzz_lines` makes ``n`` input lines for a protocol from a seed: valid commands,
valid commands with bad arguments (Unicode digits, ``inf``, ``nan``, huge and negative
numbers), random tokens, 100 kB lines, bytes that are not UTF-8, control characters,
commands out of order (a move before a game, a ``stop`` with nothing to stop), with a
``ping`` (or the dialect's equivalent) every few lines. :func:`run_session` feeds them
to ``bitgames <game> <mode>`` in a subprocess under a strict UTF-8 locale
(``PYTHONIOENCODING=utf-8:strict``), ends with the dialect's stop and a last ping, and
:func:`check` counts the defects: the process died or hung, a traceback on stderr, a
line on stdout that is no protocol line, a reply missing.

Run by hand (``python -m tests.fuzz.fuzzer gtp 10000 1``) it prints the defect counts.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

#: how each mode is started (``--playouts``: the GTP engine answers at once without a clock)
COMMANDS = {
    "gtp": ["go", "gtp", "--seed", "7", "--playouts", "50"],
    "nboard": ["othello", "nboard", "--level", "2", "--no-book"],
    "hub": ["draughts", "hub"],
    "uci": ["leiserchess", "uci"],
}

#: numbers that are not what a protocol may take
BAD_NUMBERS = ["inf", "-inf", "nan", "NaN", "1e30", "1e999", "-1", "-5", "0",
               "99999999999999999999", "²", "٣", "３", "1_000", "0x10", "1.5", "", "abc",
               "\u00a0", "+", "1e", "--1"]
#: times a fuzzed command may set: short, so that a session is never told to think long
TIMES = ["0", "0.1", "0.5", "1", "2"]

START_DRAUGHTS = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
PING = {"gtp": "protocol_version", "nboard": "ping {n}", "hub": "ping", "uci": "isready"}


def _num(rng: random.Random, good: list[str]) -> str:
    return rng.choice(good) if rng.random() < 0.6 else rng.choice(BAD_NUMBERS)


def _gtp_vertex(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(["pass", "resign", "Z99", "I5", "A0", "a1", "T19", ""])
    return rng.choice("ABCDEFGHJ") + str(rng.randint(1, 9))


def _gtp(rng: random.Random) -> str:
    color = rng.choice(["b", "w", "black", "white", "B", "x", ""])
    choices = [
        lambda: f"play {color} {_gtp_vertex(rng)}",
        lambda: f"play {color} {_gtp_vertex(rng)}",
        lambda: f"genmove {color}",
        lambda: f"reg_genmove {color}",
        lambda: f"kgs-genmove_cleanup {color}",
        lambda: f"boardsize {_num(rng, ['2', '3', '5', '7', '9', '9', '9', '13', '26', '1'])}",
        lambda: "clear_board",
        lambda: f"komi {_num(rng, ['0', '6.5', '7.5', '-3'])}",
        lambda: "undo",
        lambda: f"time_settings {_num(rng, TIMES)} {_num(rng, TIMES)} "
                f"{_num(rng, ['0', '1', '5'])}",
        lambda: f"time_left {color} {_num(rng, TIMES + ['1e30'])} {_num(rng, ['0', '1'])}",
        lambda: f"fixed_handicap {_num(rng, ['2', '4', '9', '10'])}",
        lambda: f"set_free_handicap {_gtp_vertex(rng)} {_gtp_vertex(rng)}",
        lambda: f"is_legal {color} {_gtp_vertex(rng)}",
        lambda: f"all_legal {color}",
        lambda: f"list_stones {color}",
        lambda: f"captures {color}",
        lambda: "showboard",
        lambda: rng.choice(["final_score", "final_status_list dead", "final_status_list x"]),
        lambda: rng.choice(["name", "version", "list_commands", "known_command play"]),
        lambda: f"loadsgf {rng.choice(['/dev/zero', '/nonexistent.sgf', '.', '/dev/null'])} "
                f"{_num(rng, ['1', '3'])}",
        lambda: f"{rng.randint(0, 999)} {rng.choice(['name', 'genmove b', 'play w E5'])}",
        lambda: "kgs-game_over",
    ]
    return rng.choice(choices)()


def _nboard(rng: random.Random) -> str:
    squares = [c + str(r) for c in "abcdefgh" for r in range(1, 9)]
    choices = [
        lambda: "nboard 2",
        lambda: f"set depth {_num(rng, ['1', '2', '3', '4', '60'])}",
        lambda: f"set contempt {_num(rng, ['0', '100', '-200'])}",
        lambda: "set game (;GM[Othello]PC[x]TI[" + _num(rng, ["5:00", "0:01", "99:99:99"])
                + "]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- "
                  "-------- -------- *]B[" + rng.choice(squares) + "/" + _num(rng, ["1.5"])
                + "/" + _num(rng, ["0.1"]) + "];)",
        lambda: "set game (;GM[Othello];)",
        lambda: "set game garbage",
        lambda: f"move {rng.choice(squares + ['PA', 'pass', 'Z9'])}/{_num(rng, ['0.5'])}"
                f"/{_num(rng, ['1'])}",
        lambda: f"move {rng.choice(squares)}",
        lambda: "go",
        lambda: f"hint {_num(rng, ['1', '3', '64'])}",
        lambda: "analyze",
        lambda: f"ping {_num(rng, ['1', '42'])}",
        lambda: "set unknown 3",
    ]
    return rng.choice(choices)()


def _hub(rng: random.Random) -> str:
    choices = [
        lambda: "hub",
        lambda: "init",
        lambda: f"set-param name=tt-bits value={_num(rng, ['10', '12', '16'])}",
        lambda: f"set-param name=variant value={rng.choice(['russian', 'english', 'x'])}",
        lambda: f"set-param name=dialect value={rng.choice(['standard', 'pydraughts', ''])}",
        lambda: "new-game",
        lambda: f"pos pos={START_DRAUGHTS}",
        lambda: f'pos pos={START_DRAUGHTS} moves="{rng.choice(["22-17", "21-17 9-13", "x"])}"',
        lambda: f"pos pos={rng.choice(['W', 'Bxx', START_DRAUGHTS[:20]])}",
        lambda: f"level depth={_num(rng, ['1', '2', '3', '4'])}",
        lambda: f"level nodes={_num(rng, ['100', '5000'])}",
        lambda: f"level move-time={_num(rng, TIMES)}",
        lambda: f"level time={_num(rng, TIMES)} inc={_num(rng, ['0', '0.1'])} "
                f"moves={_num(rng, ['0', '10'])}",
        lambda: "level infinite",
        lambda: "level",
        lambda: rng.choice(["go think", "go analyze", "go ponder", "go"]),
        lambda: "stop",
        lambda: "ponder-hit",
        lambda: 'pos pos="unclosed',
    ]
    return rng.choice(choices)()


def _uci(rng: random.Random) -> str:
    moves = ["h4g5", "j0j1", "c5R", "zz", "a0a1", "e4e5"]
    choices = [
        lambda: "uci",
        lambda: "ucinewgame",
        lambda: "position startpos",
        lambda: f"position startpos moves {' '.join(rng.sample(moves, 2))}",
        lambda: "position endgame",
        lambda: f"position fen {rng.choice(['ss7/8/8/8/8/8/8/7NN W', 'x y', '8/8 W'])}",
        lambda: "position",
        lambda: f"go depth {_num(rng, ['1', '2', '3'])}",
        lambda: f"go movetime {_num(rng, ['10', '100', '500'])}",
        lambda: f"go time {_num(rng, ['1000', '5000'])} inc {_num(rng, ['0', '100'])}",
        lambda: f"go wtime {_num(rng, ['1000'])} btime {_num(rng, ['1000'])} "
                f"movestogo {_num(rng, ['1', '10'])}",
        lambda: f"go nodes {_num(rng, ['100', '1000'])}",
        lambda: "go infinite",
        lambda: "go",
        lambda: "stop",
        lambda: f"setoption name {rng.choice(['pawn_ev_value', 'nope'])} value "
                f"{_num(rng, ['100', '200'])}",
        lambda: "display",
        lambda: f"perft {_num(rng, ['1', '2', '3'])}",
    ]
    return rng.choice(choices)()


VALID = {"gtp": _gtp, "nboard": _nboard, "hub": _hub, "uci": _uci}


def _mangle(rng: random.Random, line: str) -> bytes:
    """A valid command made hostile: control characters, bytes that are no UTF-8, a
    truncation, a duplicated argument, odd whitespace."""
    data = line.encode()
    kind = rng.randrange(6)
    if kind == 0:  # control characters inside
        i = rng.randrange(len(data) + 1)
        return data[:i] + bytes([rng.choice([0, 1, 7, 8, 11, 12, 13, 27, 127])]) + data[i:]
    if kind == 1:  # not UTF-8
        i = rng.randrange(len(data) + 1)
        bad = rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\x80\x80", b"\xfe\xff"])
        return data[:i] + bad + data[i:]
    if kind == 2:
        return data[: rng.randrange(len(data) + 1)]
    if kind == 3:
        return data + b" " + data.split(b" ")[-1]
    if kind == 4:
        return b"\t " + data.replace(b" ", b"  \t") + b" \r"
    return data.upper()


def _random_tokens(rng: random.Random) -> bytes:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789=-/\"'#.:[]();é²٣ "
    n = rng.randint(1, 8)
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10))) for _ in range(n)]
    # a random line never starts with a word a protocol reads as its ping
    if words[0].strip().lower() in ("ping", "isready", "protocol_version", "quit", "go"):
        words[0] = "x" + words[0]
    return " ".join(words).encode()


def fuzz_lines(protocol: str, n: int, seed: int) -> list[bytes]:
    """``n`` fuzzed input lines (without newlines) for ``protocol``, from ``seed``."""
    rng = random.Random(f"{protocol}-{seed}")
    make = VALID[protocol]
    lines: list[bytes] = []
    pings = 0
    while len(lines) < n:
        r = rng.random()
        if r < 0.45:
            line = make(rng).encode()
        elif r < 0.65:
            line = _mangle(rng, make(rng))
        elif r < 0.80:
            line = _random_tokens(rng)
        elif r < 0.82:
            line = bytes(rng.choice(b"abc \x01\xff") for _ in range(100_000))
        elif r < 0.87:
            line = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))).replace(b"\n", b"")
        else:
            pings += 1
            line = PING[protocol].format(n=pings).encode()
        if line.split()[:1] == [b"quit"]:
            continue
        lines.append(line)
    return lines


# -- running and checking -------------------------------------------------------------------------


@dataclass
class Report:
    """What one fuzzed session did: its defects (each a short description)."""

    protocol: str
    lines: int
    seconds: float = 0.0
    defects: list[str] = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""

    def counts(self) -> Counter[str]:
        """Defects by kind (the text before the first ':')."""
        return Counter(d.split(":", 1)[0] for d in self.defects)


#: the lines each protocol may write on stdout
_OUTPUT = {
    "nboard": ("set myname ", "status", "search ", "book ", "nodestats ", "=== ", "pong",
               "learned", "analysis "),
    "hub": ("id ", "param ", "wait", "ready", "pong", "info ", "done", "error "),
    "uci": ("id ", "option ", "uciok", "readyok", "info ", "bestmove "),
}


def _gtp_expected(line: bytes) -> bool:
    """Whether a GTP controller expects a response to ``line`` (GTP 2, 3.1: control
    characters but tab dropped, a comment cut, an empty line ignored)."""
    text = line.decode("utf-8", "replace")
    text = "".join(c for c in text if c == "\t" or (c >= " " and c != "\x7f"))
    return bool(text.split("#", 1)[0].strip())


def _first_word(line: bytes) -> str:
    words = line.decode("utf-8", "replace").split()
    return words[0].lower() if words else ""


def run_session(protocol: str, lines: list[bytes], timeout: float = 300.0,
                extra_env: dict[str, str] | None = None) -> Report:
    """Feed ``lines`` to a fresh session of ``protocol``; the report of its defects."""
    final_ping = {"gtp": b"424242 protocol_version", "nboard": b"ping 424242",
                  "hub": b"ping", "uci": b"isready"}[protocol]
    stop = {"gtp": [], "nboard": [], "hub": [b"stop"], "uci": [b"stop"]}[protocol]
    report = Report(protocol, len(lines))
    with tempfile.TemporaryDirectory() as work:
        env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "BITGAMES_DATA_DIR": work,
               **(extra_env or {})}
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "bitgames.cli", *COMMANDS[protocol]],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=work, env=env)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        out: list[bytes] = []
        err: list[bytes] = []
        readers = [threading.Thread(target=lambda s=s, b=b: b.extend(iter(s.readline, b"")),
                                    daemon=True)
                   for s, b in ((proc.stdout, out), (proc.stderr, err))]
        for t in readers:
            t.start()

        def feed() -> None:
            try:
                for line in [*lines, *stop, final_ping]:
                    proc.stdin.write(line + b"\n")  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
            except OSError:
                pass  # the process died: reported below

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        final = {"gtp": b"=424242 2", "nboard": b"pong 424242", "uci": b"readyok"}
        deadline = start + timeout
        answered = False
        while time.monotonic() < deadline and proc.poll() is None:
            pongs = [x for x in out if x.rstrip(b"\n") == final.get(protocol, b"pong")]
            expected = 1 if protocol != "hub" else 1 + sum(_first_word(x) == "ping" and
                                                           x.strip() == b"ping" for x in lines)
            if protocol == "uci":
                expected = 1 + sum(_first_word(x) == "isready" for x in lines)
            if len(pongs) >= expected:
                answered = True
                break
            time.sleep(0.05)
        alive = proc.poll() is None
        if not alive:
            report.defects.append(f"crash: exit status {proc.returncode}")
        elif not answered:
            report.defects.append(f"hang: no answer to the last ping within {timeout:.0f} s")
        try:
            proc.stdin.write(b"quit\n")
            proc.stdin.close()
        except OSError:
            pass
        try:
            code = proc.wait(timeout=60)
            if alive and code != 0:
                report.defects.append(f"crash: exit status {code} after quit")
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            report.defects.append("hang: no exit within 60 s of quit")
        for t in readers:
            t.join(10)
        report.seconds = time.monotonic() - start
    report.stdout = b"".join(out).decode("utf-8", "replace")
    report.stderr = b"".join(err).decode("utf-8", "replace")
    check(report, lines)
    return report


def check(report: Report, lines: list[bytes]) -> None:
    """Add the defects seen in the output: tracebacks, lines that are no protocol lines,
    replies missing."""
    protocol, stdout = report.protocol, report.stdout
    report.defects += ["traceback: " + part.splitlines()[-1] if part.splitlines() else
                       "traceback:" for part in report.stderr.split("Traceback")[1:]]
    # an index out of range in a kernel compiled with NUMBA_BOUNDSCHECK=1
    report.defects += [f"bounds: {x[:80]!r}" for x in (stdout + report.stderr).splitlines()
                       if "out of bounds" in x]
    if protocol == "gtp":
        blocks = [b for b in stdout.split("\n\n") if b.strip()]
        bad = [b for b in blocks if b[:1] not in ("=", "?")]
        report.defects += [f"stdout: {b[:60]!r}" for b in bad]
        want = sum(_gtp_expected(x) for x in lines) + 2  # + the last ping and quit
        if len(blocks) != want:
            report.defects += [f"missing: {want - len(blocks)} GTP responses"]
        return
    out = stdout.splitlines()
    report.defects += [f"stdout: {x[:60]!r}" for x in out if not x.startswith(_OUTPUT[protocol])]
    if protocol == "nboard":
        want = [f"pong {(_args(x) or ['0'])[0]}" for x in lines if _first_word(x) == "ping"]
        got = [x for x in out if x.startswith("pong")]
        missing = (Counter(want) - Counter(got[:-1])).total()
        if missing:
            report.defects.append(f"missing: {missing} pongs")
    elif protocol == "hub":
        pings = sum(x.strip() == b"ping" for x in lines) + 1
        if out.count("pong") < pings:
            report.defects.append(f"missing: {pings - out.count('pong')} pongs")
    elif protocol == "uci":
        gos = sum(_first_word(x) == "go" for x in lines)
        done = sum(x.startswith("bestmove ") for x in out)
        if done < gos:
            report.defects.append(f"missing: {gos - done} bestmoves")
        ready = sum(_first_word(x) == "isready" for x in lines) + 1
        if out.count("readyok") < ready:
            report.defects.append(f"missing: {ready - out.count('readyok')} readyoks")


def _args(line: bytes) -> list[str]:
    return line.decode("utf-8", "replace").split()[1:]


def main(argv: list[str]) -> int:
    """``python -m tests.fuzz.fuzzer PROTOCOL [LINES] [SEED]``: print the defect counts."""
    protocol = argv[0]
    n = int(argv[1]) if len(argv) > 1 else 300
    seed = int(argv[2]) if len(argv) > 2 else 1
    report = run_session(protocol, fuzz_lines(protocol, n, seed), timeout=3600)
    print(f"{protocol}: {n} lines, {report.seconds:.1f} s, defects {dict(report.counts())}")
    for d in report.defects[:40]:
        print("  ", d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
