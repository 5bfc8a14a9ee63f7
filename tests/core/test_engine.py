"""The shared engine interface: scores, limits, the stop signal, the time manager."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from bitgames.core.engine import (
    End,
    Limit,
    Score,
    StopSignal,
    TimeManager,
    Unit,
    interruptible,
    uninterrupted,
)
from bitgames.core.errors import BitgamesError


def test_score_order_wins_before_values_before_losses() -> None:
    ladder = [
        -Score.win_in(2, Unit.PAWNS),  # lost soonest: worst
        -Score.win_in(9, Unit.PAWNS),
        -Score.win(Unit.PAWNS),  # lost, distance unknown
        Score(-30.0, Unit.PAWNS),
        Score(0.0, Unit.PAWNS),
        Score(4.5, Unit.PAWNS),
        Score.win(Unit.PAWNS),
        Score.win_in(9, Unit.PAWNS),
        Score.win_in(2, Unit.PAWNS),  # won soonest: best
    ]
    for worse, better in zip(ladder, ladder[1:], strict=False):
        assert worse < better and better > worse, (worse, better)


def test_score_negation_is_the_other_side() -> None:
    assert -Score(1.5, Unit.DISCS) == Score(-1.5, Unit.DISCS)
    assert -Score(0.75, Unit.WINRATE) == Score(0.25, Unit.WINRATE)
    loss = -Score.win_in(4, Unit.MEN)
    assert loss.is_loss and not loss.is_win and loss.plies == 4
    assert str(loss) == "loss in 4"
    assert loss.to_dict() == {"value": "loss", "plies": 4, "unit": "men", "exact": True}
    wld = -Score.win(Unit.DISCS)
    assert wld.is_loss and str(wld) == "loss" and wld.to_dict()["plies"] is None


def test_score_repr_evaluates_back() -> None:
    for score in (Score(1.25, Unit.MEN), Score(-8.0, Unit.DISCS, exact=True),
                  Score.win_in(5, Unit.PAWNS), Score(0.5, Unit.WINRATE),
                  -Score.win(Unit.DISCS)):
        assert eval(repr(score)) == score


def test_limit_rejects_nonsense() -> None:
    with pytest.raises(BitgamesError, match="depth must be at least 1"):
        Limit(depth=0)
    for field in ("time", "remaining", "increment"):
        for value in (-1.0, math.inf, math.nan):
            with pytest.raises(BitgamesError, match=f"{field} must be a finite number"):
                Limit(**{field: value})


def test_stop_signal_raises_attached_slots_and_times_out() -> None:
    import numpy as np

    stop = StopSignal()
    ctl = np.zeros(4, dtype=np.int64)
    stop.attach(ctl, 2)
    stop.set()
    assert ctl[2] == 1 and stop.end() is End.STOPPED
    stop.clear()
    assert ctl[2] == 0 and not stop.is_set() and stop.end() is End.COMPLETED
    stop.arm(0.05)
    deadline = time.monotonic() + 5
    while not stop.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stop.is_set() and ctl[2] == 1 and stop.end() is End.TIME
    stop.clear()
    stop.arm(10.0)
    stop.disarm()
    time.sleep(0.05)
    assert not stop.is_set()



def test_alarms_fire_in_deadline_order_and_rearming_replaces_the_deadline() -> None:
    """Many signals share one alarm thread: each fires at its own deadline, a re-armed
    one at its new deadline only, a disarmed one never, and arming for no time at once."""
    early, late, moved, dropped = (StopSignal() for _ in range(4))
    start = time.monotonic()  # before arming: on a loaded machine arming takes a while
    late.arm(0.3)
    early.arm(0.05)
    moved.arm(5.0)
    moved.arm(0.1)
    dropped.arm(0.1)
    dropped.disarm()
    fired: dict[str, float] = {}
    while len(fired) < 3 and time.monotonic() - start < 10:
        for name, stop in (("early", early), ("late", late), ("moved", moved)):
            if stop.is_set() and name not in fired:
                fired[name] = time.monotonic() - start
        time.sleep(0.002)
    assert fired["early"] < fired["moved"] < fired["late"], fired
    assert fired["late"] >= 0.3 and fired["moved"] < 3.0
    assert not dropped.is_set() and late.end() is End.TIME
    now = StopSignal()
    now.arm(0.0)
    assert now.is_set() and now.end() is End.TIME

def test_time_manager_spends_the_clock_by_the_weights() -> None:
    tm = TimeManager()
    flat = tm.budget(Limit(remaining=100.0), [1.0] * 40)
    heavy = tm.budget(Limit(remaining=100.0), [3.0] + [1.0] * 39)
    assert heavy.optimum > 2.5 * flat.optimum
    assert flat.optimum <= flat.maximum <= 0.25 * 100
    # the increment is mostly spent; moves to go cut the horizon
    inc = tm.budget(Limit(remaining=100.0, increment=2.0), [1.0] * 40)
    assert inc.optimum == pytest.approx(flat.optimum + 1.6)
    togo = tm.budget(Limit(remaining=100.0, moves_to_go=5), [1.0] * 40)
    assert togo.optimum > 5 * flat.optimum


def test_time_manager_never_loses_on_time() -> None:
    """Playing every move at its maximum never runs the clock out, whatever the weights."""
    tm = TimeManager()
    for weights in ([1.0] * 60, [5.0, 0.1], [0.1] * 3):
        remaining = 30.0
        for _ in range(200):
            budget = tm.budget(Limit(remaining=remaining, increment=0.05), weights)
            assert budget.optimum <= budget.maximum < remaining
            remaining = remaining - budget.maximum + 0.05
        assert remaining > 0


def test_the_last_move_before_a_time_control_may_use_the_rest() -> None:
    budget = TimeManager().budget(Limit(remaining=5.0, moves_to_go=1), [1.0] * 30)
    assert 4.0 < budget.maximum < 5.0  # a byo-yomi period of one stone


def test_run_in_worker_returns_and_raises() -> None:
    from bitgames.core.engine import run_in_worker

    assert run_in_worker(lambda: threading.current_thread().name) == "bitgames-worker"
    with pytest.raises(ZeroDivisionError):
        run_in_worker(lambda: 1 // 0)


def test_time_manager_fixed_and_unlimited() -> None:
    tm = TimeManager()
    assert tm.budget(Limit(time=1.5), [1.0]).maximum == 1.5
    assert math.isinf(tm.budget(Limit(nodes=100), [1.0]).optimum)
    both = tm.budget(Limit(time=50.0, remaining=10.0), [1.0] * 20)
    assert both.maximum < 10.0


def test_interruptible_turns_sigint_into_a_stop() -> None:
    stopped = threading.Event()
    with interruptible(stopped.set) as pressed:
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 5
        while not stopped.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pressed == [True] and stopped.is_set()
    # the previous handler is back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_uninterrupted_holds_sigint_until_the_block_ends() -> None:
    finished = []
    with pytest.raises(KeyboardInterrupt):
        with uninterrupted():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)  # the signal is delivered here, and waits
            finished.append(True)
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    # inside interruptible, the held Ctrl-C goes to its handler instead of raising
    stopped = threading.Event()
    with interruptible(stopped.set) as pressed:
        with uninterrupted():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)
            assert pressed == [False]
        assert pressed == [True] and stopped.is_set()


def test_second_sigint_raises_keyboard_interrupt() -> None:
    code = (
        "import os, signal, time\n"
        "from bitgames.core.engine import interruptible\n"
        "try:\n"
        "    with interruptible(lambda: print('stop', flush=True)):\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        time.sleep(0.1)\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=30)
    assert out.stdout.split() == ["stop", "interrupted"], out.stderr
