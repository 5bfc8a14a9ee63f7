"""A GTP front end for Zebra's console program, so the match runner can play it:
``bitgames othello match level:8,exact:16,wld:18 'cmd:"python benchmarks/othello_zebra_gtp.py
PATH/TO/zebra 8 16 18",protocol:gtp'``.

Zebra (lk16/zebra, built by ``sh benchmarks/othello_zebra.sh OUT``; it reads ``coeffs2.bin``
from its working directory) has no engine protocol. For each ``genmove`` this front end
starts it once, in a fresh directory, with the game so far (``-seq``), book and randomness
off (``-b 0 -r 0``), Zebra playing the side to move at midgame depth D, exact solve from E
empties and win/loss/draw solve from W empties, and the other side "human". Zebra writes the
game to ``current.mov`` before each turn and prompts the human for a move: at that prompt
the front end stops it and reads Zebra's move (a move that ends the game is read from its
``-log`` file). Zebra's transposition table does not survive from one move to the next.

With a game clock (the match runner's ``--tc``: GTP ``time_left``), Zebra gets its own
remaining time, in whole seconds, as its clock (``-time T 0 T 0``); a DEPTH of 60 makes it
search by time (its ``timed_search``), deciding itself when to solve (exactly from EXACT
empties, else win/loss/draw). Its process start and the replay of the game count against
its clock, as the match runner times the whole answer.

Usage: python benchmarks/othello_zebra_gtp.py ZEBRA DEPTH EXACT WLD
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

#: Zebra asks the "human" for a move: its own move is made. (Not "You must pass": that
#: may come while it replays the game, before its move.)
PROMPTS = (b"Black move:", b"White move:")


def zebra_args(levels: list[str], black: bool) -> list[str]:
    """Zebra's arguments to play the side to move (Black if ``black``) at ``levels``
    (midgame, exact and win/loss/draw depths), the other side "human", with book,
    randomness and waiting off and only its search lines printed."""
    skills = [*levels, "0"] if black else ["0", *levels]
    return ["-quiet", "-l", *skills, "-b", "0", "-r", "0", "-w", "0"]


def zebra_until_prompt(zebra: str, args: list[str], work: str) -> bytes:
    """Run Zebra with ``args`` in the folder ``work`` (its weights linked there) until it
    asks the "human" for a move, then stop it; what it printed (``-quiet`` keeps that to
    its search lines: ``-->  DEPTH  VALUE  NODES  PV...``)."""
    coeffs = os.path.join(os.path.dirname(os.path.abspath(zebra)), "coeffs2.bin")
    os.symlink(coeffs, os.path.join(work, "coeffs2.bin"))
    proc = subprocess.Popen([zebra, *args], cwd=work, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    seen = b""
    while True:
        chunk = proc.stdout.read1(4096)
        if not chunk:
            break
        seen += chunk
        if any(prompt in seen[-len(chunk) - 16:] for prompt in PROMPTS):
            proc.kill()
            break
    proc.wait()
    return seen


def zebra_move(zebra: str, levels: list[str], moves: list[str], color: str,
               clock: float | None = None) -> str:
    """Zebra's move for ``color`` (``b``/``w``) after ``moves`` (no passes), or ``pass``;
    ``clock``: the seconds left on its clock, if it plays on one."""
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "game.log")
        args = [*zebra_args(levels, color == "b"), "-e", "0", "-log", log]
        if clock is not None:
            seconds = str(max(1, int(clock)))
            args += ["-time", seconds, "0", seconds, "0"]
        if moves:
            args += ["-seq", "".join(moves)]
        zebra_until_prompt(zebra, args, work)
        played = []
        if os.path.exists(log):  # the game ended: the whole game, without passes
            lines = [x for x in open(log).read().split("\n") if x and not x.startswith("#")]
            text = lines[-1].strip() if lines else ""
            played = [text[i:i + 2] for i in range(0, len(text), 2)]
        elif os.path.exists(os.path.join(work, "current.mov")):
            with open(os.path.join(work, "current.mov")) as f:  # "  1.    f5  d6" rows
                played = [t for line in f for t in line.split()[1:] if t != "-"]
    if len(played) > len(moves) and played[: len(moves)] == moves:
        return played[len(moves)]
    return "pass"


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    zebra, levels = os.path.abspath(argv[0]), argv[1:]
    moves: list[str] = []
    clocks: dict[str, float] = {}  # seconds left by colour, from time_left

    def reply(text: str = "", ok: bool = True) -> None:
        sys.stdout.write(f"{'=' if ok else '?'} {text}\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        command, args = parts[0].lower(), parts[1:]
        if command == "quit":
            reply()
            break
        if command == "protocol_version":
            reply("2")
        elif command == "name":
            reply("Zebra")
        elif command == "version":
            reply(f"depth {' '.join(levels)}")
        elif command == "boardsize":
            reply() if args == ["8"] else reply("unacceptable size", ok=False)
        elif command == "clear_board":
            moves = []
            clocks = {}
            reply()
        elif command == "time_settings":
            reply()
        elif command == "time_left" and len(args) >= 2:
            clocks[args[0].lower()[:1]] = float(args[1])
            reply()
        elif command == "play" and len(args) == 2:
            if args[1].lower() != "pass":
                moves.append(args[1].lower())
            reply()
        elif command == "genmove" and args:
            color = args[0].lower()[:1]
            move = zebra_move(zebra, levels, moves, color, clocks.get(color))
            if move != "pass":
                moves.append(move)
            reply(move)
        else:
            reply("unknown command", ok=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
