"""Evaluation terms, search and the UCI adapter."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bitgames.core import smp
from bitgames.core.engine import End, Info, Limit, Score, Unit
from bitgames.leiserchess import kernels as K
from bitgames.leiserchess import search as S
from bitgames.leiserchess.board import BLACK, WHITE, Board
from bitgames.leiserchess.eval import (
    OPTIONS,
    P_DRAW,
    P_HMB,
    P_USE_NMM,
    course_params,
    default_params,
    evaluate_board,
    material_params,
)
from bitgames.leiserchess.notation import START_FEN
from bitgames.leiserchess.uci import run_uci

from .test_rules import SUICIDE, TACTIC, random_positions


def rotate180(fen: str) -> str:
    """The same position seen from the other side: board turned 180 degrees, colours and
    side to move swapped (orientations turn 180 degrees too)."""
    ranks, side = fen.split()
    turn = {"NN": "SS", "SS": "NN", "EE": "WW", "WW": "EE",
            "NW": "SE", "SE": "NW", "NE": "SW", "SW": "NE"}
    rows = []
    for row in ranks.split("/"):
        cells: list[str] = []
        j = 0
        while j < len(row):
            if row[j].isdigit():
                cells += [""] * int(row[j])
                j += 1
            else:
                code = row[j : j + 2]
                new = turn[code.upper()]
                cells.append(new.lower() if code.isupper() else new)
                j += 2
        rows.append(cells[::-1])
    out = []
    for cells in rows[::-1]:
        text, run = "", 0
        for c in cells:
            if c:
                text += (str(run) if run else "") + c
                run = 0
            else:
                run += 1
        out.append(text + (str(run) if run else ""))
    return "/".join(out) + (" B" if side == "W" else " W")


def test_rotate180_of_start_is_start() -> None:
    assert rotate180(START_FEN).split()[0] == START_FEN.split()[0]


def test_eval_start_is_zero() -> None:
    assert evaluate_board(Board()) == 0


def test_eval_hand_computed() -> None:
    # Worked by hand from the reference formulas (ev units, 1 pawn = 10000):
    # Tangerine King h0 facing E: kface -7*5000/14 = -2500, kaggressive 26000*1/64 = 406,
    # hattack trunc(1/8 + 1/8) = 0, mobility 4 squares * 400 = 1600 -> -494.
    # Lavender King a7 facing S: kface 2500, kaggressive 406,
    # hattack trunc(8/8 + H(8)) = 3 -> 2700, mobility 1600 -> 7206.
    # (-494 - 7206) / 100 = -77 centipawns for Tangerine.
    # (the course's weights; the default ones are fitted to game results)
    assert evaluate_board(Board("ss7/8/8/8/8/8/8/7EE W"), course_params(search=True)) == -77
    assert evaluate_board(Board("ss7/8/8/8/8/8/8/7EE B"), course_params(search=True)) == 77


def test_eval_hattack_whole_sum() -> None:
    # Tangerine's beam d0 -> a0 against the King on b5: 1/3+1/6 + 1/2+1/6 + 1+1/6 + 1/2+1/6
    # = 3 exactly; the truncated sum must be 3 in both colours' frames
    fen = "8/8/1nn6/8/8/8/8/3WW4 W"
    assert evaluate_board(Board(fen)) == evaluate_board(Board(rotate180(fen)))


def test_material_only_eval() -> None:
    p = material_params()
    assert evaluate_board(Board(), p) == 0
    assert evaluate_board(Board("ss7/8/8/8/8/8/NW7/7NN W"), p) == 100
    assert evaluate_board(Board("ss7/8/8/8/8/8/NW7/7NN B"), p) == -100


@settings(max_examples=100, deadline=None)
@given(random_positions())
def test_eval_colour_symmetry(fen: str) -> None:
    # kaggressive breaks ties (Kings on one file or rank) in the order NE, NW, SW, SE,
    # which is not symmetric; elsewhere the evaluation must be colour-blind
    board = Board(fen)
    wk, bk = board.king_square(WHITE), board.king_square(BLACK)
    assert wk is not None and bk is not None
    assume(wk & 7 != bk & 7 and wk >> 3 != bk >> 3)
    assert evaluate_board(Board(fen)) == evaluate_board(Board(rotate180(fen)))


def _every_zap(board: Board) -> tuple[bool, list[int]]:
    """Whether one of the side to move's moves zaps the enemy King, and the moves that zap
    enemy Pawns, found by making every pseudo-legal move."""
    bb = [np.uint64(x) for x in board.bitboards()]
    side = board.side
    enemy_path = np.uint64(K.laser_path(*bb, 1 - side))
    every = np.zeros(K.MAX_MOVES, dtype=np.int64)
    expected: list[int] = []
    king = False
    for m in every[: K.gen_moves(*bb, side, enemy_path, every)]:
        nw, nb, _k, _o0, _o1, zapped, res = K.make_move(*bb, side, int(m))
        if res != K.NONE:
            king = king or (res == K.BLACK_KING_ZAPPED) == (side == K.WHITE)
        elif bin(int(nb if side == K.WHITE else nw)).count("1") < bin(
                int(bb[1] if side == K.WHITE else bb[0])).count("1"):
            expected.append(int(m))
    return king, expected


@settings(max_examples=300, deadline=None)
@given(random_positions())
def test_zapping_moves_are_the_moves_that_zap(fen: str) -> None:
    # Quiescence makes only the moves touching the beam's squares; making every move
    # must find the same zaps.
    board = Board(fen)
    bb = [np.uint64(x) for x in board.bitboards()]
    side = board.side
    enemy_path = np.uint64(K.laser_path(*bb, 1 - side))
    king, expected = _every_zap(board)
    out = np.zeros(K.MAX_MOVES, dtype=np.int64)
    n = S.zapping_moves(*bb, side, enemy_path, out)
    # the King threat of the kthreat term tries only the moves touching the beam, too
    assert S.zaps_king_next(*bb, side, enemy_path) == king
    if king:
        assert n == -1
    else:
        assert list(out[:n]) == expected


@pytest.mark.parametrize("fen", [
    # from games of the engine: the only zaps of the Tangerine King go through a Pawn
    # that the same shot zaps first, so the beam's last stretch crosses an emptied square
    "ee5nw1/3swnw3/se1nw3SE1/5SE2/6SW1/1NE1SENESE2/6NN1/8 B",
    "ee5nw1/2sw1SE3/se1nw2NEsw1/8/6SW1/1NE1SENESE2/6NN1/8 B",
])
def test_a_king_zap_through_a_zapped_pawn_is_a_threat(fen: str) -> None:
    board = Board(fen)
    bb = [np.uint64(x) for x in board.bitboards()]
    enemy_path = np.uint64(K.laser_path(*bb, 1 - board.side))
    assert _every_zap(board)[0]
    assert S.zaps_king_next(*bb, board.side, enemy_path)


def test_engine_zaps_king_when_it_can() -> None:
    board = Board(TACTIC)
    board.push("c2b1")
    res = S.Engine(table_bits=12).search(board, Limit(depth=3))
    # d6c7 (the PDF's move) zaps the Tangerine King; so does a4a3 (via g3 and h3)
    assert str(res.move) in ("d6c7", "a4a3") and res.score == Score.win_in(1, Unit.PAWNS)
    assert res.ended is End.COMPLETED
    board.push(res.move)
    assert board.result() == "0-1"


def test_engine_avoids_suicide() -> None:
    res = S.Engine(table_bits=12).search(Board(SUICIDE), Limit(depth=3))
    assert str(res.move) != "g0R"
    b = Board(SUICIDE)
    b.push(res.move)
    assert b.result() != "0-1"


#: The course's staff reference player (github.com/sillycross/Leiserchess---MIT-6.172-
#: Fall16-Final-Project, commit 0bbb272, player/, gcc -O3), `go depth N` from the start:
#: the move and centipawns of its last `info` lines for N = 1..5 (at 6 and 7: h4g5 +4, -2).
REFERENCE_FROM_START = [("h4g4", 15), ("h4g4", 3), ("g3R", 15), ("h4g5", 13), ("h4g5", 8)]


def test_without_null_moves_the_search_matches_the_course_reference() -> None:
    # The same evaluation and, null-move pruning aside, pruning and ordering close to the
    # course player's (late moves reduced only at null-window nodes, its history): the
    # same move and score at depths 1 to 5. Reducing the root's late moves too gave g3R
    # +0.03 at depth 4. At depths 6-7 matching the reference needs its table in
    # quiescence too, which we dropped for speed (we give h4h5 +0.20 at depth 6).
    # One search reports every iteration, as the reference's one `go depth` did.
    params = course_params(search=True)
    params[P_USE_NMM] = 0
    infos: list[Info] = []
    S.Engine(params=params).search(Board(), Limit(depth=len(REFERENCE_FROM_START)),
                                   on_info=infos.append)
    assert [(str(i.pv[0]), S.to_centipawns(i.score)) for i in infos if i.score is not None] \
        == REFERENCE_FROM_START


def test_a_search_out_of_time_before_its_first_iteration_still_searches_one_ply() -> None:
    # a clock already run out raises the stop before the first iteration: it still runs,
    # and answers what the course player answers at depth 1 (not the first legal move)
    assert str(next(iter(Board().legal_moves))) != REFERENCE_FROM_START[0][0]
    course = course_params(search=True)
    res = S.Engine(table_bits=12, params=course).search(Board(), Limit(remaining=0.0))
    assert (str(res.move), S.to_centipawns(res.score)) == REFERENCE_FROM_START[0]
    assert res.depth == 1 and res.ended is End.TIME


def test_engine_depth_and_nodes_limits() -> None:
    e = S.Engine(table_bits=14)
    res = e.search(Board(), Limit(depth=4))
    assert res.depth == 4 and Board().is_legal(res.move)
    res = e.search(Board(), Limit(nodes=3000))
    assert Board().is_legal(res.move) and res.nodes == 3000  # checked at every node
    # the first iteration always ends: a limit below it stops at the next iteration's root
    one_ply = S.Engine(table_bits=14).search(Board(), Limit(depth=1)).nodes
    res = S.Engine(table_bits=14).search(Board(), Limit(nodes=1))
    assert (res.depth, res.nodes) == (1, one_ply + 1)


def test_engine_time_limit() -> None:
    start = time.perf_counter()
    res = S.Engine(table_bits=16).search(Board(), Limit(time=0.3))
    assert time.perf_counter() - start < 2.0
    assert Board().is_legal(res.move)


@settings(max_examples=20, deadline=None)
@given(random_positions())
def test_engine_returns_legal_move(fen: str) -> None:
    board = Board(fen)
    if board.is_game_over():
        return
    res = S.Engine(table_bits=10).search(board, Limit(depth=2))
    assert board.is_legal(res.move)


def test_search_without_jit_matches(run_without_jit: Callable[..., str]) -> None:
    code = (
        "from bitgames.leiserchess.board import Board\n"
        "from bitgames.leiserchess.search import Engine\n"
        "from bitgames.core.engine import Limit\n"
        "r = Engine(table_bits=10).search(Board(), Limit(depth=2))\n"
        "print(r.move, r.score.value, r.nodes)\n"
    )
    out = run_without_jit(code, timeout=300)
    r = S.Engine(table_bits=10).search(Board(), Limit(depth=2))
    assert out.split() == [str(r.move), str(r.score.value), str(r.nodes)]


def _kernel_state(engine: S.Engine, board: Board, ply: int
                  ) -> tuple[tuple[np.uint64, ...], S.SearchState]:
    """The bitboards of ``board`` and a :class:`SearchState` of ``engine`` to call the
    kernels directly with ``board`` at ``ply`` (no history: no repetitions)."""
    bb = tuple(np.uint64(x) for x in board.bitboards())
    boards = np.zeros((S.MAX_PLY + 4, 5), dtype=np.uint64)
    boards[ply + 1] = bb
    hashes = np.zeros(S.MAX_PLY + 8, dtype=np.uint64)
    moves = np.zeros((S.MAX_PLY + 2, 96), dtype=np.int64)
    scores = np.zeros((S.MAX_PLY + 2, 96), dtype=np.int64)
    stats = np.zeros(16, dtype=np.int64)
    stats[S.S_LIMIT] = 1 << 40
    stats[S.S_TT_GEN] = 1
    stats[S.S_ROOT_SIDE] = board.side if ply % 2 == 0 else 1 - board.side
    empty = np.zeros(0, dtype=np.uint8)
    return bb, S.SearchState(boards, hashes, moves, scores, engine.killers, engine.history,
                             engine.table, engine.params, stats, engine.stop_signal.flag,
                             empty, empty, smp.busy_table(1))


def test_recursive_search_kernels_have_one_signature() -> None:
    # Call the recursive kernels directly with the production argument types (when the
    # caller search_root comes from the on-disk cache they are never compiled otherwise).
    board = Board(TACTIC)
    e = S.Engine(table_bits=10)
    bb, st = _kernel_state(e, board, 0)
    one, zero = 1, 0
    S.pvs(*bb, board.side, 3, zero, -S.INF, S.INF, one, one, zero, st)
    S.qsearch(*bb, board.side, zero, -S.INF, S.INF, st)
    assert len(S.pvs.signatures) == 1
    assert len(S.qsearch.signatures) == 1


def test_repetition_is_scored_as_draw() -> None:
    # Kings only; after h0R a7R h0L a7L the start position is back. Playing h0R again
    # repeats the position after the first h0R, which the search scores as a draw. With
    # the draw score set to +100 (from the root side's view) that is the best move.
    board = Board("ss7/8/8/8/8/8/8/7NN W")
    for m in ("h0R", "a7R", "h0L", "a7L"):
        board.push(m)
    params = default_params()
    params[P_DRAW] = 100
    params[P_HMB] = 0
    res = S.Engine(table_bits=12, params=params).search(board, Limit(depth=1))
    assert (str(res.move), S.to_centipawns(res.score)) == ("h0R", 100)
    # without the history the same move is not a repetition
    fresh = S.Engine(table_bits=12, params=params).search(Board(board.fen()), Limit(depth=1))
    assert S.to_centipawns(fresh.score) != 100


# -- UCI ---------------------------------------------------------------------------------


def uci(script: str) -> list[str]:
    out = io.StringIO()
    run_uci(io.StringIO(script), out, io.StringIO())
    return out.getvalue().splitlines()


def test_uci_handshake_and_options() -> None:
    lines = uci("uci\nisready\nquit\n")
    assert lines[0].startswith("id name")
    assert "uciok" in lines and lines[-1] == "readyok"
    assert any(line.startswith("option name pbetween type spin") for line in lines)


def test_uci_bad_lines_never_kill() -> None:
    lines = uci(
        "\n"
        "garbage here\n"
        "setoption name pbetween value lots\n"
        "setoption name nosuch value 3\n"
        "setoption name PBetween value 99999\n"
        "position fen not/a/fen W\n"
        "position\n"
        "go depth x\n"
        "position startpos moves h4g5 h0h0 a3a2\n"
        "isready\n"
    )
    assert "info string option pbetween must be an integer, got 'lots'" in lines
    assert "info string unknown option nosuch" in lines
    assert any("pbetween must be at most" in x for x in lines)
    assert any(x.startswith("info string bad FEN") for x in lines)
    assert "info string Move h0h0 is illegal" in lines
    assert lines[-1] == "readyok"


def test_uci_illegal_move_falls_back_to_base_position() -> None:
    lines = uci("position startpos moves h4g5 h0h0\ndisplay\n")
    board_rows = [x for x in lines if x.startswith("info string ") and "  " in x]
    # h4 still holds its pawn: none of the moves were applied
    assert any(x.startswith("info string 4  ++ nw") and x.rstrip().endswith("SE 4")
               for x in board_rows)


def test_uci_go_depth_and_setoption() -> None:
    lines = uci("setoption name pbetween value 0\nposition startpos moves h4g5\ngo depth 3\n")
    best = [x for x in lines if x.startswith("bestmove")]
    assert len(best) == 1
    board = Board()
    board.push("h4g5")
    assert board.is_legal(best[0].split()[1])
    infos = [x for x in lines if x.startswith("info depth")]
    assert [int(x.split()[2]) for x in infos] == [1, 2, 3]
    assert all(" nodes " in x for x in infos)


def test_uci_keeps_playing_where_the_rules_would_draw() -> None:
    # threefold repetition: the referee adjudicates, the engine must still answer a move
    moves = " ".join(["h0R a7R h0L a7L"] * 2)
    lines = uci(f"position fen ss7/8/8/8/8/8/8/7NN W moves {moves}\ngo depth 2\n")
    assert lines[-1].startswith("bestmove ") and lines[-1] != "bestmove (none)"


def test_uci_go_time_inc() -> None:
    lines = uci("position fen ss7/8/8/8/8/8/8/WW7 W\ngo time 1000 inc 100\n")
    assert lines[-1] == "bestmove a0R"


def test_uci_isready_while_searching_subprocess() -> None:
    env = dict(os.environ)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bitgames.cli", "leiserchess", "uci"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("position startpos\ngo infinite\n")
        proc.stdin.flush()
        time.sleep(1.0)
        proc.stdin.write("isready\n")
        proc.stdin.flush()
        seen = []
        while True:
            line = proc.stdout.readline().strip()
            seen.append(line)
            if line == "readyok":
                break
            assert not line.startswith("bestmove"), "search ended before isready was answered"
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        while True:
            line = proc.stdout.readline().strip()
            if line.startswith("bestmove"):
                assert Board().is_legal(line.split()[1])
                break
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_engine_params_are_copied() -> None:
    p = default_params()
    e = S.Engine(table_bits=10, params=p)
    e.params[1] = 0
    assert p[1] == OPTIONS["pbetween"][1] != 0
    assert isinstance(e.params, np.ndarray)


@pytest.mark.parametrize("fen", [START_FEN, TACTIC])
def test_search_cli_json(fen: str) -> None:
    from bitgames.cli import main

    assert main(["leiserchess", "search", "--fen", fen, "--depth", "2", "--json"]) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=40).filter(lambda s: "\n" not in s and "\r" not in s),
                max_size=6))
def test_uci_random_lines_never_kill(lines: list[str]) -> None:
    safe = [x for x in lines if not x.strip().lower().startswith(("go", "perft", "quit"))]
    out = uci("\n".join(safe + ["isready"]) + "\n")
    assert out[-1] == "readyok"


# Side to move zaps the enemy King by force on its second move (3 plies) and not sooner:
# found by a plain minimax over Board.legal_moves (findable again with _wins_within).
WIN_IN_3 = ("ee7/8/8/8/8/8/1NE6/4NN3 W", "ss7/8/8/8/2ne5/6NN1/8/3SE4 B",
            "8/1ee6/8/4sw3/8/8/6SW1/5WW2 B", "ww7/8/5se2/8/8/8/2NE5/7WW W")


def _wins_within(board: Board, plies: int) -> bool:
    """Plain minimax: the side to move can force a King zap within ``plies`` (odd) plies."""
    for move in list(board.legal_moves):
        board.push(move)
        outcome = board.outcome()
        won = outcome is not None and outcome.winner is not None and outcome.winner != board.turn
        forced = outcome is None and plies >= 3 and _replies_lose(board, plies - 1)
        board.pop()
        if won or forced:
            return True
    return False


def _replies_lose(board: Board, plies: int) -> bool:
    """Every reply of the side to move loses within ``plies`` (even) plies."""
    for move in list(board.legal_moves):
        board.push(move)
        outcome = board.outcome()
        ok = outcome is None and _wins_within(board, plies - 1)
        lost_here = (outcome is not None and outcome.winner is not None
                     and outcome.winner == board.turn)  # the reply zapped its own King
        board.pop()
        if not (ok or lost_here):
            return False
    return True


@pytest.mark.parametrize("fen", WIN_IN_3)
def test_win_distances_stay_right_through_the_table(fen: str) -> None:
    # One engine searches the positions two plies into the win first, then the start:
    # their table entries (forced zaps found at ply 0) are read back at ply 2, where
    # the distance must grow by two. The distances are checked against plain minimax.
    board = Board(fen)
    assert _wins_within(board, 3) and not _wins_within(board, 1)
    engine = S.Engine(table_bits=12)
    for move in board.legal_moves:
        board.push(move)
        if board.outcome() is None and _replies_lose(board, 2):
            for reply in list(board.legal_moves):
                board.push(reply)
                if board.outcome() is None:
                    res = engine.search(board, Limit(depth=4))
                    assert res.score == Score.win_in(1, Unit.PAWNS), (move, reply)
                board.pop()
        board.pop()
    res = engine.search(board, Limit(depth=6))
    assert res.score == Score.win_in(3, Unit.PAWNS)


def test_a_lone_thread_marking_the_moves_it_searches_searches_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # one thread given the shared table of positions being searched (bitgames.core.smp)
    # marks each move while it searches it and unmarks it after: with nobody else
    # searching, a mark left behind would put off a later move and change the tree, so
    # the node count must be exactly the one without the table
    board = Board()  # the opening: no first move zaps, so no root move is extended
    before = S.Engine(table_bits=16).search(board, Limit(depth=6))
    full = smp.busy_table(2)
    monkeypatch.setattr(S.smp, "busy_table", lambda threads: full)
    marked = S.Engine(table_bits=16).search(board, Limit(depth=6))
    assert (marked.move, marked.score, marked.nodes) == (before.move, before.score,
                                                          before.nodes)
    assert not full.any()  # every mark was taken back
    # marks of another thread: a marked move (not a node's first) waits for a second
    # pass over the list. To depth SPREAD_DEPTH only the root puts moves off (its children
    # have fewer plies left and none is extended here), so no mark of the search's own
    # can overwrite the marks set here. Marked alone, a move goes last and the tree
    # changes; with every root move marked, the second pass searches them in the first
    # pass's order (no pruning at the root, so none is skipped): the same tree
    depth = S.SPREAD_DEPTH
    before = S.Engine(table_bits=16).search(board, Limit(depth=depth))
    tags = []
    for m in board.legal_moves:
        child = board.copy()
        child.push(m)
        keys = S.table_keys(*(np.uint64(x) for x in child.bitboards()), child.side)
        tags.append(np.uint64(smp.busy_tag(*(np.uint64(x) for x in keys))))
    counts = set()
    for tag in tags[:12]:
        smp.mark_busy(full, tag)
        res = S.Engine(table_bits=16).search(board, Limit(depth=depth))
        counts.add(res.nodes)
        assert res.move in list(board.legal_moves)
        smp.clear_busy(full, tag)
    assert len(counts) > 1
    for tag in tags:
        smp.mark_busy(full, tag)
    again = S.Engine(table_bits=16).search(board, Limit(depth=depth))
    assert (again.move, again.score, again.nodes) == (before.move, before.score,
                                                      before.nodes)


@pytest.mark.parametrize("fen", WIN_IN_3)
def test_parallel_search_finds_the_win_in_three(fen: str) -> None:
    # four threads on a table of 16 entries; the distance is checked by plain minimax
    board = Board(fen)
    assert _wins_within(board, 3) and not _wins_within(board, 1)
    res = S.Engine(table_bits=4, threads=4).search(board, Limit(depth=6))
    assert res.score == Score.win_in(3, Unit.PAWNS) and res.move in list(board.legal_moves)


def _play_into_the_win(board: Board) -> None:
    """Push the winning move of a WIN_IN_3 position and a reply that does not end the game."""
    for move in list(board.legal_moves):
        board.push(move)
        if board.outcome() is None and _replies_lose(board, 2):
            for reply in board.legal_moves:
                board.push(reply)
                if board.outcome() is None:
                    return
                board.pop()
        board.pop()
    raise AssertionError(f"no forced win in {board.fen()}")


@pytest.mark.parametrize("fen", WIN_IN_3)
def test_a_stored_win_is_read_back_relative_to_the_node(fen: str) -> None:
    # The position two plies into the forced win: its side to move zaps at once.
    board = Board(fen)
    _play_into_the_win(board)
    assert _wins_within(board, 1)
    engine = S.Engine(table_bits=12)
    bb, st = _kernel_state(engine, board, 0)
    assert S.pvs(*bb, board.side, 3, 0, -S.INF, S.INF, 1, 1, 0, st) == S.MATE - 1
    # the same position two plies down, in a non-PV node: the table settles it at once
    # (one node), with the zap now three plies from the root
    bb, st = _kernel_state(engine, board, 2)
    assert S.pvs(*bb, board.side, 3, 2, -S.INF, S.INF, 0, 1, 2, st) == S.MATE - 3
    assert st.stats[S.S_NODES] == 1


def test_a_stopped_iteration_keeps_a_better_move_it_finished() -> None:
    # depth 3 changes its mind (a3b2 at depth 2, a3b3 at depth 3): stopped by a node limit
    # in the middle of the third iteration, after a3b3 was searched to the end, the search
    # plays it, although the last finished iteration is the second (with the course's
    # weights, for which the position was found)
    board = Board("ee7/3sw4/8/1se1nw1SESE1/nw1ne2SE2/3SENESE2/6WW1/2NE5 B")
    p = course_params(search=True)
    two = S.Engine(table_bits=16, params=p).search(board, Limit(depth=2))
    three = S.Engine(table_bits=16, params=p).search(board, Limit(depth=3))
    assert two.move != three.move
    stopped = [S.Engine(table_bits=16, params=p).search(board, Limit(nodes=n))
               for n in range(1024, three.nodes, 1024)]
    assert any(r.depth == 2 and r.move == three.move for r in stopped)
