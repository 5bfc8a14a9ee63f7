"""The match runner on the toy game: referee, outside engines, saving, resuming, SPRT,
parallel games (processes and a Dask cluster), and the shared ``match`` command."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from bitgames.core.cli import add_match_options, run_match_command
from bitgames.core.engine import EnginePlayer, Limit
from bitgames.core.errors import BitgamesError
from bitgames.core.match import (
    GameRecord,
    MatchPlan,
    MatchResult,
    PlayerSpec,
    Sprt,
    TimeControl,
    load_saved,
    make_player,
    random_openings,
    referee,
    run_plan,
)
from tests.core.toy_game import Nim, NimClient, NimEngine, kit

KIT = "tests.core.toy_game:kit"
TOY = f"{sys.executable} {Path(__file__).with_name('toy_game.py')}"


def perfect() -> EnginePlayer:
    return EnginePlayer(NimEngine(level=2), name="perfect")


def test_referee_scores_and_reasons() -> None:
    # 21 stones, the first player faces a non-multiple of 4: perfect play wins
    assert referee(Nim(), perfect(), perfect(), Limit()) == (1.0, "no moves")
    assert referee(Nim(20), perfect(), perfect(), Limit()) == (0.0, "no moves")
    assert referee(Nim(), perfect(), perfect(), Limit(), max_plies=3) == (
        0.5, "adjudicated a draw after 3 plies")


@pytest.mark.parametrize(("fault", "reason"), [
    ("crash", "failed: engine"),
    ("illegal", "illegal move by"),
    ("slow", "lost on time"),
])
def test_an_outside_engine_that_misbehaves_loses(fault: str, reason: str) -> None:
    bad = NimClient(f"{TOY} --fault {fault}")
    try:
        score, why = referee(Nim(), bad, perfect(), Limit(),
                             clock=TimeControl(1.0) if fault == "slow" else None)
    finally:
        bad.close()
    assert score == 0.0 and reason in why, why


def test_an_outside_engine_plays_like_the_builtin() -> None:
    good = NimClient(TOY)
    try:
        assert referee(Nim(), good, perfect(), Limit()) == (1.0, "no moves")
        assert referee(Nim(20), good, perfect(), Limit()) == (0.0, "no moves")
    finally:
        good.close()


def test_each_players_thinking_time_is_recorded() -> None:
    import time

    from bitgames.core.engine import SearchResult

    class Slow:  # the perfect player, 0.25 s late at every move
        name = "slow"

        def __init__(self) -> None:
            self.inner = perfect()

        def new_game(self) -> None:
            self.inner.new_game()

        def play(self, board: Nim, limit: Limit) -> SearchResult:
            time.sleep(0.25)
            return self.inner.play(board, limit)

        def close(self) -> None:
            pass

    board = Nim()
    times: tuple[list[float], list[float]] = ([], [])
    assert referee(board, Slow(), perfect(), Limit(), move_times=times) == (1.0, "no moves")
    slow, fast = times
    assert len(slow) + len(fast) == len(board.move_stack) and len(slow) == len(fast) + 1
    assert min(slow) >= 0.25 and max(fast) < 0.25  # a loaded machine has room
    result = MatchResult()
    for a_first in (True, False):  # the same game with A second: B's times are A's above
        result.add(GameRecord(0, a_first, 1.0, a_seconds=sum(slow if a_first else fast),
                              a_moves=len(slow if a_first else fast),
                              b_seconds=sum(fast if a_first else slow),
                              b_moves=len(fast if a_first else slow)))
    a, b = result.seconds_per_move() or (0.0, 0.0)
    assert a == pytest.approx(b) and a >= 0.25 * len(slow) / len(board.move_stack)
    # a match's records count every move of the game, each on the side that played it
    run = run_plan(_plan(4), KIT, {}, scheduler="serial")
    assert all(g.a_moves + g.b_moves == g.plies for g in run.result.games)
    assert all(abs(g.a_moves - g.b_moves) <= 1 for g in run.result.games)
    assert run.result.seconds_per_move() is not None


def test_player_specs() -> None:
    spec = PlayerSpec.parse("level:1,depth:3,seed:9")
    assert spec.level == 1 and spec.limit == Limit(depth=3) and spec.options == {"seed": "9"}
    assert PlayerSpec.parse("2").level == 2
    assert PlayerSpec.parse("cmd:'my engine --x'").command == "my engine --x"
    with pytest.raises(BitgamesError, match="depth needs a number"):
        PlayerSpec.parse("depth:deep")
    with pytest.raises(BitgamesError, match="needs a command"):
        PlayerSpec.parse("cmd:")
    player = make_player(kit(), PlayerSpec.parse("level:1,seed:4"))
    assert player.engine.level == 1 and not player.engine.perfect
    assert player.engine.threads == 1


def test_threads_of_any_builtin_engine() -> None:
    player = make_player(kit(), PlayerSpec.parse("level:1,threads:3"))
    assert player.engine.threads == 3 and player.engine.level == 1
    for bad in ("threads:two", "threads:0", "threads:2000"):
        with pytest.raises(BitgamesError, match="threads must be a whole number from 1"):
            make_player(kit(), PlayerSpec.parse(bad))


def test_sprt_decides_for_the_stronger_side_and_not_too_early() -> None:
    test = Sprt(0.0, 50.0)
    assert test.decide(MatchResult(wins=400, draws=0, losses=100)) == "H1"
    assert test.decide(MatchResult(wins=100, draws=0, losses=400)) == "H0"
    assert test.decide(MatchResult(wins=6, draws=0, losses=4)) is None
    with pytest.raises(BitgamesError, match="ELO0 < ELO1"):
        Sprt.parse("10,0")


def _plan(games: int = 8, **kwargs: object) -> MatchPlan:
    openings = random_openings(lambda: Nim(21), 4, 1, seed=3)
    return MatchPlan("level:2", "level:1,seed:5", openings, games, **kwargs)  # type: ignore[arg-type]


def test_openings_are_played_with_both_colours() -> None:
    setups = _plan(6).setups()
    assert [(s.opening, s.a_first) for s in setups] == [
        (0, True), (0, False), (1, True), (1, False), (2, True), (2, False)]


def test_without_swapping_a_moves_first_from_each_opening_in_turn(tmp_path: Path) -> None:
    plan = _plan(5, swap=False)
    assert len(plan.openings) == 3  # the Nim openings of one ply: three different ones
    assert [(s.opening, s.a_first) for s in plan.setups()] == [
        (0, True), (1, True), (2, True), (0, True), (1, True)]
    # a match saved with colours swapped is not resumed without, nor the other way
    save = tmp_path / "match.jsonl"
    run = run_plan(_plan(2, swap=False), KIT, {}, scheduler="serial", save=save)
    assert [g.a_first for g in run.result.games] == [True, True]
    assert len(load_saved(save, _plan(2, swap=False))) == 2
    with pytest.raises(BitgamesError, match="holds another match"):
        load_saved(save, _plan(2))


def test_perfect_beats_random_serially_and_in_processes(tmp_path: Path) -> None:
    serial = run_plan(_plan(), KIT, {}, scheduler="serial", records=tmp_path / "games.txt")
    procs = run_plan(_plan(), KIT, {}, scheduler="processes", workers=2)
    assert serial.result.n == procs.result.n == 8
    assert serial.result.score > 0.75 and procs.result.score > 0.75
    records = (tmp_path / "games.txt").read_text().splitlines()
    assert len(records) == 8 and all(r.startswith("[") for r in records)


def test_save_and_resume_replays_only_the_missing_games(tmp_path: Path) -> None:
    save = tmp_path / "match.jsonl"
    run_plan(_plan(4), KIT, {}, scheduler="serial", save=save)
    lines = save.read_text().splitlines()
    assert len(lines) == 5 and "match" in json.loads(lines[0])
    save.write_text("\n".join(lines[:3]) + "\n" + lines[3][:10])  # killed mid-write
    assert len(load_saved(save, _plan(4))) == 2
    played = []
    run = run_plan(_plan(4), KIT, {}, scheduler="serial", save=save, resume=True,
                   on_game=lambda record, result: played.append(record.number))
    assert sorted(played) == [3, 4] and run.result.n == 4
    with pytest.raises(BitgamesError, match="holds another match"):
        load_saved(save, _plan(6))


def test_sprt_stops_the_match_early() -> None:
    run = run_plan(_plan(200, sprt=Sprt(-100.0, 0.0)), KIT, {}, scheduler="serial")
    assert run.stopped == "sprt H1" and run.result.n < 200


def test_games_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        run = run_plan(_plan(4), KIT, {}, scheduler=cluster.scheduler_address)
    assert run.result.n == 4 and run.result.score >= 0.75


def test_the_match_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_match_options(parser)
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\n1\n2 1\n")
    args = parser.parse_args(["level:2", f"cmd:{TOY}", "--games", "4", "--openings",
                              str(openings), "--scheduler", "serial", "--json"])
    assert run_match_command(args, KIT, {}) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line.get("game") for line in lines[:-1]] == [1, 2, 3, 4]
    assert lines[-1]["games"] == 4
    openings.write_text("1\n3 3 3 3 3 3 3 3\n")
    with pytest.raises(BitgamesError, match=r"openings.txt:2: "):
        run_match_command(args, KIT, {})


def test_kit_hooks_for_resignation_and_final_scoring() -> None:
    """A game whose engines may resign (a move never in legal_moves) and whose finished
    games are scored by the kit (Go removes dead stones): the referee uses both."""
    import dataclasses

    from bitgames.core.board import Outcome, Termination
    from bitgames.core.engine import SearchResult

    class Resigner:
        name = "resigner"

        def new_game(self) -> None:
            pass

        def play(self, board: Nim, limit: Limit) -> SearchResult:
            return SearchResult(0)  # 0 stones: "I resign"

        def close(self) -> None:
            pass

    class ResignableNim(Nim):
        def push(self, move: int | str) -> None:
            if move == 0:  # the game ends as if the opponent had taken the last stone
                self.stones = 0
                self.move_stack.append(0)
                return
            super().push(move)

    toy = kit()
    assert referee(ResignableNim(), Resigner(), perfect(), Limit(), kit=toy)[0] == 0.0
    resigning = dataclasses.replace(toy, is_resignation=lambda move: move == 0)
    # the resignation is pushed, so the game ends as the board says: the resigner lost
    assert referee(ResignableNim(), Resigner(), perfect(), Limit(), kit=resigning) == (
        0.0, "no moves")
    scored = dataclasses.replace(toy, final_result=lambda board: (
        Outcome(Termination.PASSES, None), "0"))
    assert referee(Nim(), perfect(), perfect(), Limit(), kit=scored) == (0.5, "two passes")


def test_an_outside_engine_gets_the_limits_of_its_spec() -> None:
    import dataclasses

    from bitgames.core.engine import SearchResult

    seen: list[Limit] = []

    class Recorder:
        name = "recorder"

        def new_game(self) -> None:
            pass

        def play(self, board: Nim, limit: Limit) -> SearchResult:
            seen.append(limit)
            return SearchResult(board.legal_moves[0])

        def close(self) -> None:
            pass

    toy = dataclasses.replace(kit(), client=lambda command: Recorder())
    plain = make_player(toy, PlayerSpec.parse("cmd:anything"))
    limited = make_player(toy, PlayerSpec.parse('cmd:"anything --x",depth:8'))
    referee(Nim(5), plain, limited, Limit(), clock=TimeControl(60.0))
    assert seen[0].depth is None and seen[1].depth == 8
    assert seen[1].remaining is not None and seen[1].remaining <= 60.0
    with pytest.raises(BitgamesError, match="takes only limits"):
        PlayerSpec.parse('cmd:"x",level:3')
    with pytest.raises(BitgamesError, match="quote is not closed"):
        PlayerSpec.parse('cmd:"x --y')


def test_a_player_may_have_a_clock_of_its_own() -> None:
    from bitgames.core.engine import SearchResult

    spec = PlayerSpec.parse('cmd:"anything",tc:2+0.5')
    assert spec.clock == TimeControl(2.0, 0.5) and spec.command == "anything"
    assert PlayerSpec.parse("level:1,tc:30").clock == TimeControl(30.0)
    with pytest.raises(BitgamesError, match="time control must be"):
        PlayerSpec.parse("tc:fast")
    seen: list[tuple[str, Limit]] = []

    class Slow:  # answers after 0.3 s and remembers the limit it was given
        def __init__(self, name: str) -> None:
            self.name = name

        def new_game(self) -> None:
            pass

        def play(self, board: Nim, limit: Limit) -> SearchResult:
            import time

            seen.append((self.name, limit))
            time.sleep(0.3)
            return SearchResult(board.legal_moves[0])

        def close(self) -> None:
            pass

    # a pair of clocks: the first player's, then the second's (None: no clock)
    score, why = referee(Nim(6), Slow("clocked"), Slow("free"), Limit(),
                         clock=(TimeControl(0.5, margin=0.05), None))
    assert (score, why) == (0.0, "clocked lost on time")
    assert seen[0][1].remaining == 0.5 and seen[1][1].remaining is None
    seen.clear()
    score, why = referee(Nim(6), Slow("free"), Slow("clocked"), Limit(),
                         clock=(None, TimeControl(0.5, margin=0.05)))
    assert (score, why) == (1.0, "clocked lost on time")
    # in a match, a spec's clock is that player's alone, whichever colour it has: the
    # outside engine (3 s a move) loses on its 1 s clock, with none for the other side
    openings = random_openings(lambda: Nim(21), 1, 1, seed=3)
    plan = MatchPlan(f'cmd:"{TOY} --fault slow",tc:1', "level:2", openings, 2)
    games = run_plan(plan, KIT, {}, scheduler="serial").result.games
    assert [(g.a_first, g.a_score) for g in games] == [(True, 0.0), (False, 0.0)]
    assert all(g.reason.endswith("lost on time") for g in games), [g.reason for g in games]


def test_bad_engine_options_fail_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_match_options(parser)
    args = parser.parse_args(["level:2,seed:many", "level:1", "--scheduler", "serial"])
    with pytest.raises(ValueError, match="many"):
        run_match_command(args, KIT, {})
    assert capsys.readouterr().out == ""


def test_an_engine_program_not_found_fails_before_any_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_match_options(parser)
    args = parser.parse_args(["level:2", 'cmd:"no-such-engine-anywhere --gtp"',
                              "--scheduler", "serial"])
    with pytest.raises(BitgamesError, match="'no-such-engine-anywhere' not found"):
        run_match_command(args, KIT, {})
    assert capsys.readouterr().out == ""


def test_an_engine_that_cannot_start_loses_the_game_not_the_match() -> None:
    plan = MatchPlan("level:2", "cmd:no-such-engine-anywhere", [()], 2)
    run = run_plan(plan, KIT, {}, scheduler="serial")
    assert run.result.n == 2 and run.result.score == 1.0
    assert all("could not start" in g.reason for g in run.result.games)


def test_a_match_loads_the_engine_kernels_before_its_first_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a cold cache compiles the built-in engine's groups before the games, not inside the
    # first move (on the clock); a match of outside engines needs only the rules
    import dataclasses

    from bitgames.core import jit
    from bitgames.core.match import load_kernels

    monkeypatch.setenv("BITGAMES_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setitem(jit.KERNEL_MODULES, "fake", ())
    monkeypatch.setitem(jit._WARMUPS, "fake", {})
    monkeypatch.setattr(jit, "source_hash", lambda game=None: "0" * 16)
    ran: list[str] = []
    for group in ("rules", "engine", "vector"):
        jit.register_warmup("fake", group)(lambda group=group: ran.append(group))
    toy = dataclasses.replace(kit(), game="fake", engine_groups=("engine",))
    load_kernels(toy)
    assert ran == ["rules"]
    load_kernels(toy, engine=True)
    assert "engine" in ran and "vector" not in ran and jit.is_warm("fake", "engine")
    # what the match's own scoring needs is loaded whoever plays, and only once
    ran.clear()
    scored = dataclasses.replace(toy, game="fake2", scoring_groups=("vector", "engine"))
    monkeypatch.setitem(jit.KERNEL_MODULES, "fake2", ())
    monkeypatch.setitem(jit._WARMUPS, "fake2", {})
    for group in ("rules", "engine", "vector"):
        jit.register_warmup("fake2", group)(lambda group=group: ran.append(group))
    load_kernels(scored)
    assert sorted(ran) == ["engine", "rules", "vector"]


@pytest.mark.parametrize("factory", ["bitgames.othello.cli:match_kit",
                                     "bitgames.draughts.cli:match_kit",
                                     "bitgames.go.cli:match_kit",
                                     "bitgames.leiserchess.cli:match_kit"])
def test_every_game_names_its_engine_kernels(factory: str) -> None:
    import importlib

    from bitgames.core import jit

    module, _, name = factory.partition(":")
    game_kit = getattr(importlib.import_module(module), name)()
    assert game_kit.engine_groups
    assert set(game_kit.engine_groups) <= set(jit.group_names(game_kit.game))
    assert set(game_kit.scoring_groups) <= set(jit.group_names(game_kit.game))

