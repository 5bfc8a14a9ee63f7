"""Othello: perft, exact endgame solver, and an engine to play, analyse and match.

Boards are written as 64 squares a1, b1, ..., h8 (X black, O white, - empty) followed by
the side to move (X or O), as in FFO and Edax OBF files.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import TextIO

from bitgames.cli import add_json_flag, emit

BOARD_HELP = 'a board: "<64 chars a1..h8> <X|O>" (default: the start position)'


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "perft",
        help="count the leaves of the game tree to a depth",
        description="Count the positions DEPTH plies below a board (a pass is a ply), with "
        "bulk counting at the last ply, and print the count, the time and leaves per second.",
    )
    p.add_argument("depth", type=int, help="depth in plies (1 or more)")
    p.add_argument(
        "--convention",
        choices=["edax", "bik"],
        default="edax",
        help="edax (default, OEIS A124004): games over before DEPTH are not counted; "
        "bik (Aart Bik 2009): each finished game counts as one leaf",
    )
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument("--board", help=BOARD_HELP)
    add_json_flag(p)
    p.set_defaults(func=cmd_perft)

    s = sub.add_parser(
        "solve",
        help="solve endgame positions exactly (or win/loss/draw)",
        description="Solve positions exactly: print per position the empties, score (final "
        "disc difference for the side to move, empties to the winner), best move, principal "
        "variation, nodes, time and nodes/s, then totals. When the input gives the expected "
        "answer (OBF move scores, the FFO suite), say whether it matches.",
    )
    s.add_argument(
        "files", nargs="*", help="OBF or FFO-format files of positions ('-' for standard input)"
    )
    s.add_argument("--board", action="append", default=[], help=BOARD_HELP + "; repeatable")
    s.add_argument("--ffo", metavar="RANGE", help="the shipped FFO suite, e.g. 1-19 or 40-59")
    s.add_argument(
        "--mode", choices=["exact", "wld"], default="exact", help="exact score or win/loss/draw"
    )
    s.add_argument(
        "--table-bits", type=int, default=21, help="transposition table of 2^N entries (21)"
    )
    s.add_argument("--quiet", action="store_true", help="do not draw the boards")
    add_json_flag(s)
    s.set_defaults(func=cmd_solve)

    from bitgames.othello import engine_cli

    engine_cli.add_commands(sub)


def _parse_board(text: str | None) -> object:
    from bitgames.othello.board import Board

    return Board() if text is None else Board.from_string(text)


def cmd_perft(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise ValueError(f"perft depth must be at least 1, got {args.depth}")
    board = _parse_board(args.board)
    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "perft")
    import numpy as np

    from bitgames.othello import kernels
    from bitgames.othello.board import Board

    assert isinstance(board, Board)
    conv = kernels.EDAX if args.convention == "edax" else kernels.BIK
    p, o = board.bitboards()
    start = time.perf_counter()
    if args.divide:
        total = 0
        for move in board.legal_moves:
            board.push(move)
            q, r = board.bitboards()
            t0 = time.perf_counter()
            n = 1 if args.depth == 1 else int(kernels.perft(np.uint64(q), np.uint64(r),
                                                              args.depth - 1, conv))
            board.pop()
            total += n
            emit({"move": str(move), "count": n, "time": round(time.perf_counter() - t0, 6)},
                 args.json, f"{move} {n}")
    else:
        total = int(kernels.perft(np.uint64(p), np.uint64(o), args.depth, conv))
    elapsed = time.perf_counter() - start
    rate = total / elapsed if elapsed > 0 else 0.0
    emit(
        {"depth": args.depth, "convention": args.convention, "count": total,
         "time": round(elapsed, 6), "leaves_per_second": round(rate)},
        args.json,
        f"perft {args.depth} ({args.convention}): {total:,} leaves in {elapsed:.3f} s "
        f"({rate / 1e6:.1f} M leaves/s)",
    )
    return 0


@dataclass
class Problem:
    """A position to solve and, when known, the expected score and best moves."""

    name: str
    board: str
    expected_score: int | None = None
    expected_moves: tuple[str, ...] = ()


def read_problems(handle: TextIO, source: str) -> Iterator[Problem]:
    """Read positions from OBF lines or FFO-suite lines (``id board side score moves``).

    OBF: ``<64 squares> <side>; <MOVE>:<score>; ...`` — the best listed score is expected
    and every move reaching it is a best move. Blank lines and ``%``/``#`` comments are
    skipped.
    """
    for number, line in enumerate(handle, 1):
        text = line.strip()
        if not text or text[0] in "%#":
            continue
        where = f"{source}:{number}"
        if ";" in text:
            board, *rest = (part.strip() for part in text.split(";"))
            scores: dict[str, int] = {}
            for item in rest:
                if not item:
                    continue
                try:
                    move, value = item.split(":")
                    scores[move.strip().lower()] = int(value)
                except ValueError:
                    raise ValueError(f"{where}: bad move score {item!r}") from None
            best = max(scores.values()) if scores else None
            moves = tuple(m for m, v in scores.items() if v == best)
            yield Problem(where, board, best, moves)
            continue
        fields = text.split()
        if len(fields) == 5 and fields[0].isdigit():
            try:
                score = int(fields[3])
            except ValueError:
                raise ValueError(f"{where}: bad expected score {fields[3]!r}") from None
            moves = tuple(m.lower() for m in fields[4].split(","))
            yield Problem(f"#{fields[0]}", f"{fields[1]} {fields[2]}", score, moves)
        else:
            yield Problem(where, text)


def parse_range(text: str) -> tuple[int, int]:
    """``"20-39"`` -> (20, 39); ``"40"`` -> (40, 40)."""
    try:
        lo, _, hi = text.partition("-")
        a, b = int(lo), int(hi or lo)
    except ValueError:
        raise ValueError(f"bad range {text!r} (expected e.g. 20-39)") from None
    if not 1 <= a <= b:
        raise ValueError(f"bad range {text!r}")
    return a, b


def ffo_problems(lo: int, hi: int) -> list[Problem]:
    """The shipped FFO positions #lo..#hi (1-79) with their published answers."""
    if hi > 79:
        raise ValueError(f"the FFO suite has positions 1-79, not {hi}")
    text = resources.files("bitgames.othello").joinpath("data/ffo.txt").read_text()
    import io

    problems = list(read_problems(io.StringIO(text), "ffo.txt"))
    return [pr for pr in problems if lo <= int(pr.name[1:]) <= hi]


def cmd_solve(args: argparse.Namespace) -> int:
    from bitgames.othello.board import Board

    problems: list[Problem] = []
    if args.ffo:
        problems += ffo_problems(*parse_range(args.ffo))
    for i, text in enumerate(args.board, 1):
        problems.append(Problem(f"board {i}", text))
    for path in args.files:
        if path == "-":
            problems += read_problems(sys.stdin, "<stdin>")
        else:
            with open(path) as handle:
                problems += read_problems(handle, path)
    if not problems:
        raise ValueError("nothing to solve: give files, --board or --ffo")
    boards = [(pr, Board.from_string(pr.board)) for pr in problems]  # check all input first
    if not 4 <= args.table_bits <= 30:
        raise ValueError(f"--table-bits must be 4..30, got {args.table_bits}")

    from bitgames.core.jit import ensure_warm

    ensure_warm("othello", "rules", "solver")
    from bitgames.othello.solver import Solver

    solver = Solver(args.table_bits)
    solver.solve(Board.from_string("-" * 60 + "XOXO X"))  # load the compiled code before timing
    total_nodes, total_time, checked, matched = 0, 0.0, 0, 0
    for pr, board in boards:
        result = solver.solve(board, args.mode)
        total_nodes += result.nodes
        total_time += result.time
        record = {"name": pr.name, **result.to_dict()}
        verdict = ""
        if pr.expected_score is not None:
            want = pr.expected_score
            if args.mode == "wld":
                want = (want > 0) - (want < 0)
            ok = result.score == want and (
                args.mode == "wld" or not pr.expected_moves or result.best_move in pr.expected_moves
            )
            record["expected_score"] = pr.expected_score
            record["expected_moves"] = list(pr.expected_moves)
            record["matches"] = ok
            checked += 1
            matched += ok
            verdict = "  ok" if ok else f"  MISMATCH (expected {pr.expected_score:+d} " \
                f"{','.join(pr.expected_moves)})"
        text = (
            f"{pr.name}: {result.empties} empties, score {result.score:+d}"
            + (f" ({result.outcome})" if args.mode == "wld" else "")
            + f", best {result.best_move}, pv {' '.join(result.pv)}, {result.nodes:,} nodes, "
            f"{result.time:.3f} s, {result.nodes_per_second / 1e6:.1f} M nodes/s{verdict}"
        )
        if not args.quiet and not args.json:
            print(board.grid(), flush=True)
        emit(record, args.json, text)
    rate = total_nodes / total_time if total_time > 0 else 0.0
    summary = {"total": True, "positions": len(boards), "nodes": total_nodes,
               "time": round(total_time, 6), "nodes_per_second": round(rate),
               "checked": checked, "matched": matched}
    emit(summary, args.json,
         f"total: {len(boards)} positions, {total_nodes:,} nodes, {total_time:.3f} s, "
         f"{rate / 1e6:.1f} M nodes/s" + (f", {matched}/{checked} match" if checked else ""))
    return 0 if matched == checked else 1
