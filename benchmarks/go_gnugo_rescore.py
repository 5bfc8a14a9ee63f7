"""Score again with GNU Go the games of a Go match that ended by two passes.

Usage: python benchmarks/go_gnugo_rescore.py SAVE.jsonl [--size 9] [--komi 7.5]
[--gnugo /usr/games/gnugo]

``bitgames go match --save SAVE.jsonl`` scores a game ended by two passes by area with the
stones our playouts judge dead removed. This script replays each such game into GNU Go
(Chinese rules, positional superko, the same komi), asks it for ``final_score`` and prints
both results; the last line counts the games where the two name the same winner. A check
of our scoring by an independent program (docs/PERFORMANCE.md, the Go matches against
GNU Go).
"""

from __future__ import annotations

import argparse
import json
import subprocess


def gnugo_score(gnugo: str, size: int, komi: float, moves: list[str]) -> str:
    """GNU Go's ``final_score`` (``B+3.5``, ``W+0.5``, ``0``) after ``moves``, Black first."""
    commands = [f"boardsize {size}", "clear_board", f"komi {komi}"]
    commands += [f"play {'B' if i % 2 == 0 else 'W'} {move}" for i, move in enumerate(moves)]
    commands += ["final_score", "quit"]
    out = subprocess.run([gnugo, "--mode", "gtp", "--chinese-rules", "--positional-superko"],
                         input="\n".join(commands) + "\n", capture_output=True, text=True,
                         check=True).stdout
    answers = [a.strip() for a in out.split("\n\n") if a.strip()]
    for answer in answers[:-2]:
        if not answer.startswith("="):
            raise SystemExit(f"GNU Go refused a command: {answer!r}")
    return answers[-2].lstrip("= ").strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("save", help="a go match --save file (JSON lines)")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    args = ap.parse_args()
    agree = games = 0
    with open(args.save, encoding="utf-8") as f:
        for line in f:
            game = json.loads(line)
            if game.get("reason") != "two passes":
                continue  # the header line and games ended otherwise
            theirs = gnugo_score(args.gnugo, args.size, args.komi, game["moves"])
            same = theirs[:1] == game["result"][:1]
            games += 1
            agree += same
            print(f"game {game['number']}: ours {game['result']}, GNU Go {theirs}"
                  f"{'' if same else '  (different winner)'}", flush=True)
    print(f"{agree} of {games} games ended by two passes: the same winner")


if __name__ == "__main__":
    main()
