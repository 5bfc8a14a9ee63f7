"""The most frequent openings of the WTHOR tournament games, as an openings file for
``bitgames othello match --openings``.

    python benchmarks/othello_wthor_openings.py WTHOR_DIR [--count 100] [--plies 8]
        [--skip 0] > wthor_top100_8ply.txt

Every game's first ``plies`` moves are brought to one of their eight images under the
symmetries of the board (the least as text), counted, and the ``count`` most frequent are
printed one per line with their number of games as a comment (after the ``skip`` most
frequent: ``--skip 100`` gives the next hundred, a second set for a second match). The
match runner plays each twice, colours swapped. ``benchmarks/othello_wthor_top100_8ply.txt``
is this script's output on the 47 files of 1977-2023 (the Othello matches against GRhino
and Zebra in docs/PERFORMANCE.md), ``othello_wthor_next100_8ply.txt`` its output with
``--skip 100``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from bitgames.othello.board import parse_square, square_name
from bitgames.othello.patterns import _sym
from bitgames.othello.wthor import games_of


def image(move: str, k: int) -> str:
    """Square ``move`` under symmetry ``k`` of the board."""
    return square_name(_sym(parse_square(move), k))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wthor_dir", type=Path, help="folder of WTH_YYYY.wtb files")
    parser.add_argument("--count", type=int, default=100, help="openings to print (100)")
    parser.add_argument("--plies", type=int, default=8, help="moves per opening (8)")
    parser.add_argument("--skip", type=int, default=0, help="most frequent ones left out (0)")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    paths = sorted(args.wthor_dir.glob("WTH_*.wtb"))
    for _, _, game in games_of(list(paths)):
        if len(game.moves) >= args.plies:
            moves = game.moves[: args.plies]
            counts[min("".join(image(m, k) for m in moves) for k in range(8))] += 1
    ranks = f"after the {args.skip} most frequent " if args.skip else ""
    print(f"# the {args.count} most frequent {args.plies}-move openings {ranks}of {len(paths)} "
          "WTHOR files (up to symmetry), with their numbers of games")
    for line, n in counts.most_common(args.skip + args.count)[args.skip:]:
        print(f"{line}  # {n}")


if __name__ == "__main__":
    main()
