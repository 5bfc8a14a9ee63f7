"""Handicap games: the match runner's ``--handicap`` and ``--no-swap``, handicap stones sent
to GTP engines as handicap, and the engine's dynamic komi (its schedule, that the search
scores with it, and no resignation while it takes a handicap)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bitgames.cli import main
from bitgames.core.engine import Limit
from bitgames.core.errors import BitgamesError
from bitgames.core.protocol import MockTransport
from bitgames.go import WHITE, Board, Engine, GtpClient, Move
from bitgames.go.cli import match_kit
from bitgames.go.sgf import parse_sgf, read_sgf
from tests.match_checks import json_lines

GTP = f'cmd:"{sys.executable} -m bitgames.cli go gtp --playouts 50"'


def handicap_board(size: int = 9, stones: tuple[str, ...] = ("C3", "G7"),
                   komi: float = 0.5) -> Board:
    board = Board(size=size, komi=komi)
    board.place_handicap(stones)
    return board


def test_handicap_is_black_setup_stones_alone() -> None:
    assert handicap_board().handicap == 2
    assert Board(size=9).handicap == 0
    one = Board(size=9)
    one.setup(["E5"])
    assert one.handicap == 0  # one stone is no handicap (GTP: 2 to 9)
    problem = Board(size=9)
    problem.setup(["C3", "G7"], ["E5"])
    assert problem.handicap == 0  # a set-up position with White stones is no handicap


def test_dynamic_komi_falls_linearly_to_the_board_komi() -> None:
    """7 points a stone at the first move, none after 0.555 moves a point (44.955 moves on
    9x9, 200.355 on 19x19), by the rule of ``Engine.search_komi``."""
    engine = Engine(dynamic_komi=7)
    board = handicap_board()
    komis = []
    for _ in range(60):
        komis.append(engine.search_komi(board))
        board.push(Move.PASS if not board.legal_moves else next(iter(board.legal_moves)))
    assert komis[0] == pytest.approx(0.5 + 14)
    assert komis[20] == pytest.approx(0.5 + 14 * (1 - 20 / 44.955))
    assert komis[44] == pytest.approx(0.5 + 14 * (1 - 44 / 44.955))
    assert komis[45:] == [0.5] * 15
    big = handicap_board(19, ("D4", "Q16", "D16", "Q4"), komi=0.5)
    for _ in range(100):
        big.push(next(iter(big.legal_moves)))
    assert engine.search_komi(big) == pytest.approx(0.5 + 28 * (1 - 100 / 200.355))
    # no handicap, or the option off: the board's komi
    even = Board(size=9, komi=7.5)
    assert engine.search_komi(even) == 7.5
    assert Engine().search_komi(handicap_board()) == 0.5  # off by default


def test_the_search_scores_its_playouts_with_the_dynamic_komi() -> None:
    """White, two stones down with komi 0.5: 60 points of komi a stone makes every
    playout a White win, none makes White the underdog."""
    rates = {}
    for points in (0.0, 60.0):
        engine = Engine(seed=1, dynamic_komi=points)
        rates[points] = engine.search(handicap_board(), Limit(nodes=2000)).score.value
    assert rates[60.0] > 0.95 and rates[0.0] < 0.6


def test_no_resignation_while_taking_a_handicap() -> None:
    """Black with the stones, asked by its dynamic komi to win by 400 points, finds every
    move losing (below the resignation threshold, set to one half here: with few
    playouts the children's priors keep the win rate off zero) and plays on; a real komi
    of 400 makes it resign."""
    board = handicap_board()
    board.push("E5")  # White's first move: Black to play
    result = Engine(seed=1, dynamic_komi=200, resign=0.5).search(board, Limit(nodes=500))
    assert result.score.value < 0.5 and result.move != Move.RESIGN
    assert board.is_legal(result.move)
    lost = handicap_board(komi=400.5)
    lost.push("E5")
    engine = Engine(seed=1, dynamic_komi=0, resign=0.5)
    assert engine.search(lost, Limit(nodes=500)).move == Move.RESIGN


def test_handicap_stones_go_to_a_gtp_engine_as_handicap() -> None:
    mock = MockTransport()
    mock.expect("name", ["= Scripted", ""])
    client = GtpClient(mock)
    for line in ("boardsize 9", "clear_board", "komi 0.5", "set_free_handicap C3 G7"):
        mock.expect(line, ["= ", ""])
    mock.expect("genmove w", ["= E5", ""])
    assert client.play(handicap_board(), Limit()).move == Move.from_gtp("E5")
    # an engine that does not know the command gets the stones as Black's moves
    client.new_game()
    for line in ("boardsize 9", "clear_board", "komi 0.5"):
        mock.expect(line, ["= ", ""])
    mock.expect("set_free_handicap C3 G7", ["? unknown command", ""])
    for line in ("play b C3", "play b G7"):
        mock.expect(line, ["= ", ""])
    mock.expect("genmove w", ["= D4", ""])
    assert client.play(handicap_board(), Limit()).move == Move.from_gtp("D4")
    mock.expect("quit", ["= ", ""])
    client.close()
    mock.assert_done()


def test_a_handicap_match_without_swapping(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A gives two stones in every game (it moves first, as White), from a new opening
    each game; the records carry the handicap."""
    records = tmp_path / "games.sgf"
    argv = ["go", "match", "nodes:100,seed:1", GTP, "--games", "2", "--size", "9",
            "--komi", "0.5", "--handicap", "2", "--no-swap", "--random-plies", "2",
            "--scheduler", "serial", "--records", str(records), "--json"]
    assert main(argv) == 0
    games = json_lines(capsys.readouterr().out)[:-1]
    assert [g["a_first"] for g in games] == [True, True]
    assert games[0]["moves"][:2] != games[1]["moves"][:2]  # two openings, not one twice
    for line in records.read_text().splitlines():
        root = parse_sgf(line).root
        assert root["HA"] == ["2"] and sorted(root["AB"]) == ["cg", "gc"]
        assert root["PW"] == ["nodes:100,seed:1"]
        board = read_sgf(line)
        assert board.handicap == 2 and board.colored_moves()[0][0] == WHITE


def test_a_handicap_the_board_cannot_take_is_refused() -> None:
    with pytest.raises(BitgamesError, match="--handicap 5: a 7x7 board has no fixed handicap"):
        match_kit(size=7, handicap=5)
    with pytest.raises(BitgamesError, match="--handicap 1"):
        match_kit(size=9, handicap=1)


def test_the_command_line_engine_takes_the_dynamic_komi() -> None:
    from bitgames.cli import build_parser
    from bitgames.go.cli import _engine

    parser = build_parser()
    assert _engine(parser.parse_args(["go", "gtp"])).dynamic_komi == 0
    assert _engine(parser.parse_args(["go", "gtp", "--dynamic-komi", "7"])).dynamic_komi == 7
