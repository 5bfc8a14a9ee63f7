"""Go (9x9 to 19x19): GTP engine, matches against GNU Go, play in the terminal, playout speed.

Rules profiles: default (= cgos: area scoring, suicide forbidden, positional superko),
tromp-taylor (multi-stone suicide legal), simple-ko, situational. Komi 7.5 by default.
Vertices are GTP's: columns A-T without I, row 1 at the bottom, "pass".
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bitgames.core.cli import (
    NODES,
    SEED,
    Integer,
    Number,
    add_json_flag,
    add_limit_options,
    add_match_options,
    emit,
    limit_from_args,
)

#: the engine options a ``match`` player may set (``policy:tactics,uct:0.3``)
ENGINE_FLOATS = ("resign", "uct", "rave_bias", "prior", "expand_at", "shape_prior",
                 "ladder_prior", "pattern_prior", "local_weight", "replies", "widen",
                 "rave_distance", "extend", "dynamic_komi")

MATCH_EPILOG = """\
players:
  level:N        the built-in engine at level 1-10 (100 ... 500000 playouts per move;
                 5, 3000 playouts, by default), with any of
  nodes:N        playouts per move           time:S       seconds per move
  policy:NAME    light, capture, tactics, patterns, learned, liberties (default)
  seed:N         random seed (default 0)     resign:P     resign below win rate P
                                                          (default 0.1; 0: never)
  uct:X, rave_bias:X, prior:X, expand_at:X, shape_prior:X, ladder_prior:X, pattern_prior:X,
  local_weight:X search parameters (local_weight: the learned playouts' weight of a
                 shape next to the last move against the random move; default 16)
  replies:1      playouts answer the last move with the last good reply to it
                 (Drake's last good reply with forgetting; default 0: off)
  widen:B        progressive widening: 5 moves of a node (best prior first) at first,
                 one more each time its visits grow B-fold from 40 (default 0: off)
  rave_distance:X  AMAF counts a move played right after a node about once, one played
                 at the simulation's end 1/(1+X) times (as Pachi's distance_rave;
                 default 0: all alike)
  extend:X       on a clock (--tc, or a player's tc:S+I), a move whose best is in doubt
                 may take X times the time manager's share, and one whose best cannot be
                 overtaken stops early (default 1: neither)
  dynamic_komi:X in a handicap game (--handicap), X points of komi more per handicap
                 stone for the search at the first move, none after 45 moves on 9x9
                 (default 0: off; 7 is the usual value)
  cmd:"COMMAND"  any GTP engine, started with COMMAND

Games ended by two passes: our playouts judge which stones are dead, and they misjudge
some capturing races and eye spaces that can be killed from inside. --referee hands the
scoring of those games to a GTP engine's final_score instead, as GoGui's twogtp does:
  bitgames go match nodes:2000 'cmd:"pachi -t =1250"' \
      --referee 'gnugo --mode gtp --chinese-rules --positional-superko'

GNU Go (what 'go match --opponent' played before): under the default rules (area
scoring, positional superko) give it the same rules,
  bitgames go match level:5 \\
      'cmd:"gnugo --mode gtp --level 10 --chinese-rules --positional-superko"'
(Debian installs it as /usr/games/gnugo). Our own GTP mode is an outside engine too:
  bitgames go match nodes:1000 'cmd:"bitgames go gtp --playouts 300"' --size 9
"""


#: playout policies by name (`bitgames.go.kernels.POLICIES`, not imported here: building
#: the parser must not load the kernels)
POLICY_NAMES = ("light", "capture", "tactics", "patterns", "learned", "liberties")
#: the default --min-count of 'go patterns' (the shipped table's, see go/data/README.md)
MIN_COUNT = 10


def _board_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", type=Integer(2, 25), default=9, help="board size, 2 to 25 (default 9)")
    p.add_argument("--komi", type=Number(-1000, 1000), default=7.5, help="komi (default 7.5)")
    p.add_argument(
        "--rules",
        default="default",
        help="default | tromp-taylor | simple-ko | situational (default: default)",
    )


def _engine_options(p: argparse.ArgumentParser) -> None:
    add_limit_options(p, 10, 5, "100, 300, 1000, 3000, 10000 (level 5), 20000, 50000, "
                      "100000, 200000, 500000 playouts per move", depth=False,
                      nodes_help="playouts per move (instead of the level's)",
                      aliases={"nodes": "--playouts", "movetime": "--seconds"})
    p.add_argument("--seed", type=SEED, default=0, help="random seed (default 0)")
    p.add_argument(
        "--policy",
        choices=POLICY_NAMES,
        default="liberties",
        help="playout policy of the engine (default liberties)",
    )
    p.add_argument("--dynamic-komi", type=Number(0, 1000), default=0.0, metavar="POINTS",
                   help="in a handicap game, the search counts POINTS of komi more per "
                   "handicap stone at the first move (7 is the usual value), none after 45 "
                   "moves on 9x9 (200 on 19x19), so that White plays for a game it can "
                   "still catch up and Black for a lead it can keep (default 0: off)")


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "gtp",
        help="run the engine in GTP (Go Text Protocol v2) mode on stdin/stdout",
        description="Speak GTP version 2 on standard input/output (GNU Go's regression "
        "helpers included: is_legal, all_legal, list_stones, captures, printsgf, loadsgf). "
        "Only protocol lines go to stdout; the engine's thinking goes to stderr. Time "
        "settings from the controller override --playouts/--seconds.",
    )
    _board_options(p)
    _engine_options(p)
    p.add_argument("--no-resign", action="store_true", help="never resign")
    p.set_defaults(func=cmd_gtp)

    p = sub.add_parser(
        "play",
        help="play against the engine in the terminal",
        description="Play a game against the engine: type a vertex (D4), 'pass', 'undo', "
        "'resign' or 'quit'. The board, the legal-move count and the engine's evaluation "
        "and principal variation are shown after each move.",
    )
    _board_options(p)
    _engine_options(p)
    p.add_argument(
        "--color", choices=["black", "white"], default="black", help="your colour (black)"
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "match",
        help="play two engines (ours, GNU Go or any GTP engine) and report Elo",
        description="Play a match between A and B on the shared match runner: each random "
        "opening (or each line of --openings) twice with colours swapped, games in "
        "parallel, every move checked by our rules (an illegal move, a crash or a lost "
        "clock loses the game). A game ended by two passes is scored by area with the "
        "stones our playouts judge dead removed (as the score command's final result), or "
        "by --referee; a resignation ends the game. Prints a line per game and a summary "
        "with the Elo difference and its 95% interval; --records appends each game as one line of "
        "SGF. Ctrl-C stops at once (finished games are kept in --save; exit status 130).",
        epilog=MATCH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_match_options(p, games=10, max_plies=600)
    _board_options(p)
    p.add_argument("--handicap", type=Integer(0, 9), default=0, metavar="N",
                   help="Black starts with N stones on the GTP fixed handicap points (2-9; "
                   "White moves first; give --komi 0.5 too); the colours still alternate "
                   "between A and B unless --no-swap")
    p.add_argument("--referee", metavar="COMMAND",
                   help="a GTP engine that scores the games ended by two passes (its "
                   "final_score), e.g. 'gnugo --mode gtp --chinese-rules "
                   "--positional-superko'; default: our playouts' dead-stone judgement")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser(
        "bench",
        help="measure playout speed (playouts/s, moves/playout, ns/move)",
        description="Run playouts (light by default) from the empty board and print "
        "playouts per second, moves per playout and nanoseconds per move, for each size. "
        "Ctrl-C stops at once and prints the figures of the playouts done (exit status 130).",
    )
    p.add_argument("--size", type=Integer(2, 25), action="append",
                   help="board size, repeatable (default 9 13 19)")
    p.add_argument("--playouts", type=NODES, default=100_000, help="playouts on 9x9 (100000)")
    p.add_argument("--threads", type=Integer(1, 1024), default=1, help="threads (default 1)")
    p.add_argument("--seed", type=SEED, default=1)
    p.add_argument(
        "--policy",
        choices=POLICY_NAMES,
        default="light",
        help="playout policy (default light)",
    )
    add_json_flag(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "score",
        help="score an SGF game (Tromp-Taylor area and with dead stones removed)",
        description="Read an SGF game and print its Tromp-Taylor area score (all stones "
        "alive) and the score after removing the stones our playouts judge dead.",
    )
    p.add_argument("file", type=Path, help="SGF file")
    p.add_argument("--rules", default="default")
    add_json_flag(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser(
        "patterns",
        help="learn the tree's move-feature strengths from SGF game records",
        description="Fit the strengths of the move features the tree search starts its "
        "children from (bitgames.go.features: 3x3 shape, larger spatial patterns, "
        "captures, ataris and ladders, self-ataris, distance to the last move and to the "
        "edge) to the moves of SGF games, by Coulom's minorization-maximization. The "
        "spatial patterns are those around at least --min-count of the training games' "
        "moves (bitgames.go.spatial). The last --test games are held "
        "out: the command prints how well the fit predicts their moves (mean "
        "log-probability and the share ranked first), and the same for the shipped "
        "strengths. The table is saved after every sweep; Ctrl-C stops and keeps the "
        "last saved sweep (exit status 130).",
    )
    p.add_argument("sgf", nargs="+", type=Path,
                   help="SGF files or folders (searched for *.sgf, in name order)")
    p.add_argument("--out", type=Path, required=True, help="the table to write (.npz)")
    p.add_argument("--games", type=Integer(1, 10**7), help="train on the first N games "
                   "(default: all but the held-out ones)")
    p.add_argument("--test", type=Integer(0, 10**6), default=200,
                   help="games held out from the end of the list (200)")
    p.add_argument("--sweeps", type=Integer(1, 10**6), default=20,
                   help="MM passes over the features (20)")
    p.add_argument("--min-count", type=Integer(1, 10**9), default=MIN_COUNT,
                   help=f"keep the spatial patterns of at least N moves ({MIN_COUNT})")
    add_json_flag(p)
    p.set_defaults(func=cmd_patterns)


def _engine(args: argparse.Namespace) -> Any:
    from bitgames.go import kernels as K
    from bitgames.go.mcts import Engine

    return Engine(args.level, seed=args.seed, policy=K.POLICIES[args.policy],
                  dynamic_komi=args.dynamic_komi, threads=args.threads)


def cmd_gtp(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go.gtp import GtpSession

    ensure_warm("go", "rules", "mcts", load=True)
    GtpSession(
        size=args.size,
        komi=args.komi,
        rules=args.rules,
        limit=limit_from_args(args),
        engine=_engine(args),
        resign=not args.no_resign,
    ).serve()
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go.board import BLACK, WHITE, Board, Move
    from bitgames.go.mcts import final_score

    ensure_warm("go", "rules", "mcts")
    limit = limit_from_args(args)
    board = Board(size=args.size, komi=args.komi, rules=args.rules)
    engine = _engine(args)
    human = BLACK if args.color == "black" else WHITE
    print(board, flush=True)
    while not board.is_game_over():
        if board.turn == human:
            try:
                line = input(
                    f"your move ({len(board.legal_points())} legal points, or pass/undo/quit): "
                )
            except EOFError:
                return 0
            text = line.strip()
            if text in ("quit", "q"):
                return 0
            if text == "undo":
                for _ in range(2):
                    if board.move_stack:
                        board.pop()
                print(board, flush=True)
                continue
            try:
                board.push(text)
            except ValueError as exc:
                print(f"  {exc}", flush=True)
                continue
        else:
            result = engine.search(board, limit)
            move = result.move
            board.push(move)
            if move == Move.RESIGN:
                print("engine resigns", flush=True)
                break
            print(
                f"engine: {move}  ({result.score}, {result.nodes} playouts in "
                f"{result.time:.1f} s, pv {' '.join(map(str, result.pv))})",
                flush=True,
            )
            if move == Move.PASS:
                print("engine passes", flush=True)
        print(board, flush=True)
    if board.resigned is None:
        print(
            f"game over: {board.result()} by area (all stones alive); "
            f"with dead stones removed: {final_score(board):+.1f}",
            flush=True,
        )
    else:
        print(f"game over: {board.result()}", flush=True)
    return 0


def match_kit(size: int = 9, komi: float = 7.5, rules: str = "default",
              referee: str | None = None, handicap: int = 0) -> Any:
    """The :class:`~bitgames.core.match.GameKit` of Go: boards of ``size`` with ``komi``
    under ``rules`` and ``handicap`` stones for Black (the GTP fixed placement; White then
    moves first), the built-in engine (options: see ``go match --help``), outside
    engines through :class:`~bitgames.go.gtp.GtpClient`, SGF records; a game ended by
    two passes is scored with dead stones removed (by our playouts, or by the
    ``final_score`` of the GTP engine started with the command ``referee``), a
    resignation is a move.

    >>> kit = match_kit(size=5, komi=0.5)
    >>> kit.new_board().fen(), kit.is_resignation(kit.new_board().parse_move("resign"))
    ('5/5/5/5/5 b - 0 0.5 default', True)
    >>> match_kit(size=9, komi=0.5, handicap=2).new_board().fen()
    '9/9/6X2/9/9/9/2X6/9/9 w - 0 0.5 default'
    """
    from bitgames.core.errors import BitgamesError
    from bitgames.core.match import GameKit
    from bitgames.go.board import Board
    from bitgames.go.gtp import GtpError, fixed_handicap_points

    Board(size=size, komi=komi, rules=rules)  # bad options fail here, before any game
    stones: list[int] = []
    if handicap:
        try:
            stones = fixed_handicap_points(size, handicap)
        except GtpError:
            raise BitgamesError(f"--handicap {handicap}: a {size}x{size} board has no fixed "
                                "handicap of that many stones (2-9 on odd sizes from 9x9, "
                                "2-4 on 7x7 and even sizes from 8x8)") from None

    def new_board() -> Board:
        board = Board(size=size, komi=komi, rules=rules)
        if stones:
            board.place_handicap(stones)
        return board

    final_result = _final_result if referee is None else Referee.shared(referee).final_result
    return GameKit("go", new_board, _match_engine, _match_client, _match_record,
                   is_resignation=lambda move: move.is_resign, final_result=final_result,
                   engine_groups=("mcts",), scoring_groups=("mcts",) if referee is None else ())


def _match_engine(options: dict[str, str]) -> Any:
    from bitgames.core.errors import BitgamesError
    from bitgames.core.jit import ensure_warm
    from bitgames.go import kernels as K
    from bitgames.go.mcts import Engine

    unknown = set(options) - {"policy", "seed", *ENGINE_FLOATS}
    if unknown:
        raise BitgamesError(f"unknown Go engine option(s) {', '.join(sorted(unknown))} "
                            f"(known: policy, seed, threads, {', '.join(ENGINE_FLOATS)})")
    policy = options.get("policy", "liberties")
    if policy not in POLICY_NAMES:
        raise BitgamesError(f"policy must be one of {', '.join(POLICY_NAMES)}, got {policy!r}")
    values: dict[str, float] = {}
    for key in ("seed", *ENGINE_FLOATS):
        if key in options:
            try:
                values[key] = float(options[key])
            except ValueError:
                raise BitgamesError(f"engine option {key} needs a number, got "
                                    f"{options[key]!r}") from None
    seed = values.pop("seed", 0.0)
    if seed != int(seed) or seed < 0:
        raise BitgamesError(f"seed must be a whole number >= 0, got {options['seed']!r}")
    ensure_warm("go", "rules", "mcts")
    engine = Engine(seed=int(seed), policy=K.POLICIES[policy])
    for key, value in values.items():
        setattr(engine, key, value)
    return engine


def _match_client(command: str) -> Any:
    from bitgames.go.gtp import GtpClient

    return GtpClient.start(command)


def _match_record(board: Any, white: str, black: str, result: str) -> str:
    from bitgames.go.sgf import to_sgf

    return to_sgf(board, result, black=black, white=white)


def _final_result(board: Any, score_board: Callable[[Any], float] | None = None
                  ) -> tuple[Any, str]:
    """A game ended by passes: the area score with the dead stones removed, as our
    playouts judge them (:func:`bitgames.go.mcts.final_score`) or ``score_board`` does."""
    from bitgames.core.board import Outcome, Termination
    from bitgames.go.board import format_score
    from bitgames.go.mcts import final_score

    outcome = board.outcome()
    if outcome is None or outcome.termination is not Termination.PASSES:
        return outcome, board.result()
    score = (score_board or final_score)(board)
    return Outcome(Termination.PASSES, None if score == 0 else score < 0, score), \
        format_score(score)


class Referee:
    """An outside GTP engine that scores the games ended by two passes: the ``final_score``
    it answers after the game's moves (GoGui's twogtp has such a referee). It is started
    at the first game it scores and kept for the next ones (:meth:`shared`: one a process,
    as the match runner makes a kit for every game); a game is scored once (the runner
    asks twice: for the outcome, then for the record's result).

    >>> import shlex, sys
    >>> from bitgames.go import Board
    >>> answer = ("import sys; [print('= W+2.5' if 'final_score' in line else '=', end=2 * "
    ...           "chr(10), flush=True) for line in sys.stdin]")  # a stand-in engine
    >>> referee = Referee(f"{shlex.quote(sys.executable)} -c {shlex.quote(answer)}")
    >>> board = Board(size=5, komi=0.5, moves="C3 pass pass")
    >>> referee.final_result(board)[1], board.result()  # its answer, not our count
    ('W+2.5', 'B+24.5')
    """

    def __init__(self, command: str) -> None:
        self.command = command
        self._client: Any = None
        self._last: tuple[Any, float] | None = None  # (a game, its score)

    @staticmethod
    @functools.cache
    def shared(command: str) -> Referee:
        """This process's referee started with ``command`` (made at the first call)."""
        return Referee(command)

    def score(self, board: Any) -> float:
        """The referee's black-minus-white score of ``board``'s game."""
        import atexit

        from bitgames.go.board import parse_score
        from bitgames.go.gtp import GtpClient

        game = (board.size, board.komi, tuple(board.setup_black), tuple(board.setup_white),
                tuple(board.colored_moves()))
        if self._last is not None and self._last[0] == game:
            return self._last[1]
        if self._client is None:
            self._client = GtpClient.start(self.command, name="referee")
            atexit.register(self._client.close)
        self._client.sync(board)
        score = parse_score(self._client.command("final_score"))
        self._last = (game, score)
        return score

    def final_result(self, board: Any) -> tuple[Any, str]:
        """:attr:`GameKit.final_result <bitgames.core.match.GameKit.final_result>` with the
        referee's score."""
        return _final_result(board, self.score)


def cmd_match(args: argparse.Namespace) -> int:
    from bitgames.core.cli import run_match_command
    from bitgames.core.errors import BitgamesError
    from bitgames.core.match import missing_program

    if args.referee is not None:  # a mistyped referee fails here, not at a game's end
        try:
            missing = missing_program(args.referee)
        except ValueError as exc:
            raise BitgamesError(f"--referee {args.referee!r}: {exc}") from None
        if missing is not None:
            raise BitgamesError(f"--referee {args.referee!r}: program not found (not a "
                                "file, not on PATH)")
    # the runner loads the kernels (the rules, the MCTS kernels for a built-in engine or
    # for our own count of a game ended by passes) once the players are checked
    return run_match_command(args, "bitgames.go.cli:match_kit",
                             {"size": args.size, "komi": args.komi, "rules": args.rules,
                              "referee": args.referee, "handicap": args.handicap})


def _playouts(pool: Any, threads: int, kernel_args: tuple[Any, ...], lo: int, hi: int) -> None:
    """Playouts ``lo`` to ``hi - 1`` (the same random streams as one call for all), split
    among ``threads`` threads of ``pool`` (the kernel releases the GIL)."""
    from bitgames.go import kernels as K

    g, s, seed, cap, scores, moves, policy, weights = kernel_args
    cuts = [lo + (hi - lo) * t // threads for t in range(threads + 1)]
    list(pool.map(lambda a, b: K._playout_range(g, s, a, b, seed, cap, scores, moves, policy,
                                                weights), cuts, cuts[1:]))


def cmd_bench(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from bitgames.core.engine import interruptible
    from bitgames.core.jit import ensure_warm
    from bitgames.go import features as F
    from bitgames.go import kernels as K

    ensure_warm("go", "rules", "playouts", *(["parallel"] if args.threads > 1 else []))
    sizes = args.size or [9, 13, 19]
    policy = K.POLICIES[args.policy]
    weights = F.policy_weights(policy)
    seed = np.uint64(args.seed)
    pool = ThreadPoolExecutor(args.threads)
    with interruptible(lambda: None) as pressed:
        for size in sizes:
            n = max(1000, int(args.playouts * 81 / (size * size)))
            g, s = K.geometry(size), K.new_state(size)
            scores = np.zeros(n, np.int64)
            moves = np.zeros(n, np.int64)
            cap = 3 * size * size
            kernel_args = (g, s, seed, cap, scores, moves, policy, weights)
            _playouts(pool, args.threads, kernel_args, 0, min(n, 200))  # untimed: page-in
            done = 0
            start = time.perf_counter()
            while done < n and not pressed[0]:  # blocks of ~20 ms: Ctrl-C stops at once
                step = min(n - done, max(100, 2000 * 81 // (size * size)) * args.threads)
                _playouts(pool, args.threads, kernel_args, done, done + step)
                done += step
            dt = time.perf_counter() - start
            if done == 0:  # Ctrl-C before the first timed block: nothing to report
                print(f"stopped before the first timed playout on {size}x{size}",
                      file=sys.stderr, flush=True)
                return 130
            total = int(moves[:done].sum())
            record = {
                "size": size,
                "threads": args.threads,
                "policy": args.policy,
                "playouts": done,
                "time": round(dt, 3),
                "playouts_per_second": round(done / dt),
                "moves_per_playout": round(total / done, 1),
                "ns_per_move": round(dt / total * 1e9, 1),
                "black_win_rate_komi_7.5": round(float((scores[:done] - 7.5 > 0).mean()), 3),
            }
            emit(
                record,
                args.json,
                f"{size}x{size}: {record['playouts_per_second']:,} playouts/s, "
                f"{record['moves_per_playout']} moves/playout, {record['ns_per_move']} ns/move "
                f"({done} playouts, {args.threads} thread{'s' if args.threads > 1 else ''})",
            )
            if pressed[0]:
                print(f"stopped after {done} of {n} playouts on {size}x{size}",
                      file=sys.stderr, flush=True)
                return 130
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from bitgames.core.jit import ensure_warm
    from bitgames.go.board import format_score
    from bitgames.go.mcts import dead_stones, final_score
    from bitgames.go.sgf import SgfError, game_board, parse_sgf

    try:  # a missing or broken file is told before a cold cache compiles for a minute
        game = parse_sgf(Path(args.file).read_text(encoding="utf-8", errors="replace"))
        ensure_warm("go", "rules", "mcts")
        board = game_board(game, args.rules)
    except SgfError as exc:
        raise SgfError(f"{args.file}: {exc}") from None
    dead = [board.vertex(p) for p in dead_stones(board)]
    fs = final_score(board)
    record = {
        "file": str(args.file),
        "area_score": board.score(),
        "area_result": format_score(board.score()),
        "dead": dead,
        "final_score": fs,
        "final_result": format_score(fs),
    }
    emit(
        record,
        args.json,
        f"{args.file}: Tromp-Taylor {format_score(board.score())}; dead stones removed "
        f"{format_score(fs)} (dead: {' '.join(dead) or 'none'})",
    )
    return 0


def cmd_patterns(args: argparse.Namespace) -> int:
    import numpy as np

    from bitgames.core.cli import INTERRUPTED
    from bitgames.core.errors import BitgamesError
    from bitgames.core.progress import bar
    from bitgames.go import features as F
    from bitgames.go import spatial

    texts = F.read_games(args.sgf)
    if len(texts) <= args.test:
        raise SystemExit(f"go patterns: {len(texts)} games found, but --test holds out "
                         f"{args.test}: nothing is left to train on")
    train_texts = texts[:len(texts) - args.test][:args.games]
    test_texts = texts[len(texts) - args.test:]
    try:
        with bar(len(train_texts), "harvesting patterns", "game") as shown:
            dictionary = F.harvest(train_texts, args.min_count,
                                   on_game=lambda: shown.update(1))
        with bar(len(train_texts) + len(test_texts), "reading games", "game") as shown:
            train = F.sgf_positions(train_texts, dictionary, on_game=lambda: shown.update(1))
            test = F.sgf_positions(test_texts, dictionary, on_game=lambda: shown.update(1))
        if not train.positions:
            raise SystemExit("go patterns: no usable game in the training set")
        source = (f"{len(train_texts)} games, {train.positions} moves, from "
                  f"{', '.join(str(p) for p in args.sgf)}, spatial patterns of at least "
                  f"{args.min_count} moves")
        with bar(args.sweeps, "fitting", "sweep") as shown:
            def save(gammas: F.Gammas) -> None:
                gammas.source = source
                gammas.save(args.out)
                shown.update(1)

            gammas = F.fit(train, args.sweeps, on_sweep=save)
    except KeyboardInterrupt:
        emit({"out": str(args.out), "stopped": True}, args.json,
             f"{args.out}: stopped (the last finished sweep, if any, is saved)")
        return INTERRUPTED
    record: dict[str, Any] = {"out": str(args.out), "train_games": len(train_texts),
                              "train_moves": train.positions,
                              "patterns": spatial.patterns(dictionary),
                              "test_games": len(test_texts), "test_moves": test.positions}
    lines = [f"{args.out}: fitted on {train.positions} moves of {len(train_texts)} games, "
             f"{spatial.patterns(dictionary)} spatial patterns"]
    if test.positions:
        tables = [("fit", gammas)]
        try:
            tables.append(("shipped", F.Gammas.read(F.DEFAULT_PATH)))
        except BitgamesError as exc:
            lines.append(f"shipped: not compared ({exc})")
        for name, table in tables:
            if not np.array_equal(table.dictionary, test.dictionary):
                test = F.sgf_positions(test_texts, table.dictionary)
            loglik, top = F.evaluate(table, test)
            record[name] = {"log_likelihood": loglik, "top1": top}
            lines.append(f"{name}: on {test.positions} held-out moves, mean log-probability "
                         f"{loglik:.3f}, first choice {100 * top:.1f} %")
    emit(record, args.json, "\n".join(lines))
    return 0

