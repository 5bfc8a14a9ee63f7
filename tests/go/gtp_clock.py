"""A GTP controller that keeps a sudden-death clock for the engine, as a tournament
manager does: ``time_left`` before each ``genmove``, the wall time of each answer taken
off the clock. Used by ``test_gtp_clock.py``."""

from __future__ import annotations

import subprocess
import sys
import time


def play_clocked_game(seconds: float, size: int = 9, seed: int = 1,
                      max_moves: int = 400) -> tuple[float, int]:
    """One game of our GTP engine against itself where each side has ``seconds`` of
    sudden death; returns the least time either side had left after a move (negative:
    lost on time) and the number of moves played."""
    proc = subprocess.Popen([sys.executable, "-m", "bitgames.cli", "go", "gtp", "--seed",
                             str(seed)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None

    def command(line: str) -> str:
        proc.stdin.write(line + "\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        head = proc.stdout.readline()  # type: ignore[union-attr]
        while proc.stdout.readline().strip():  # type: ignore[union-attr]
            pass
        assert head.startswith("="), (line, head)
        return head[1:].strip()

    command(f"boardsize {size}")
    command("clear_board")
    command(f"time_settings {seconds:g} 0 0")
    clock = {"b": seconds, "w": seconds}
    least = seconds
    passes = moves = 0
    color = "b"
    try:
        while moves < max_moves and passes < 2:
            command(f"time_left {color} {clock[color]:.3f} 0")
            start = time.perf_counter()
            move = command(f"genmove {color}")
            clock[color] -= time.perf_counter() - start
            least = min(least, clock[color])
            moves += 1
            if move.lower() == "resign":
                break
            passes = passes + 1 if move.lower() == "pass" else 0
            color = "w" if color == "b" else "b"
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(timeout=60)
    return least, moves
