"""Score again with GNU Go the games of a Go match that ended by two passes.

Usage: python benchmarks/go_gnugo_rescore.py SAVE.jsonl [--size 9] [--komi 7.5]
[--gnugo /usr/games/gnugo]

``bitgames go match --save SAVE.jsonl`` scores a game ended by two passes by area with the
stones our playouts judge dead removed (unless ``--referee`` gives that job to an outside
engine). This script replays each such game into GNU Go
(Chinese rules, positional superko, the same komi), asks it for ``final_score`` and prints
both results; the last line counts the games where the two name the same winner. A check
of our scoring by an independent program (docs/PERFORMANCE.md, the Go matches against
GNU Go).
"""

from __future__ import annotations

import argparse
import json

from bitgames.go import Board
from bitgames.go.board import format_score
from bitgames.go.cli import Referee


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("save", help="a go match --save file (JSON lines)")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    args = ap.parse_args()
    agree = games = 0
    command = f"{args.gnugo} --mode gtp --chinese-rules --positional-superko"
    referee = Referee(command)
    with open(args.save, encoding="utf-8") as f:
        for line in f:
            game = json.loads(line)
            if game.get("reason") != "two passes":
                continue  # the header line and games ended otherwise
            board = Board(size=args.size, komi=args.komi)
            for move in game["moves"]:
                board.push(move)
            theirs = format_score(referee.score(board))
            same = theirs[:1] == game["result"][:1]
            games += 1
            agree += same
            print(f"game {game['number']}: ours {game['result']}, GNU Go {theirs}"
                  f"{'' if same else '  (different winner)'}", flush=True)
    print(f"{agree} of {games} games ended by two passes: the same winner")


if __name__ == "__main__":
    main()
