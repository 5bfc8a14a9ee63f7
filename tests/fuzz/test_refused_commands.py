"""A refused command leaves a session exactly as it was, in every dialect: each bad line of
the issue (Unicode digits, ``inf``, ``nan``, huge, negative and zero values, files that
never end) is sent after a known state, the dialect's error form is checked, then the
state."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from bitgames.core.engine import Limit
from bitgames.core.protocol import Session, SessionHarness


def _gtp() -> tuple[SessionHarness, Callable[[Session], Any]]:
    from bitgames.go.gtp import GtpSession
    from bitgames.go.mcts import Engine

    h = SessionHarness(GtpSession, limit=Limit(nodes=20), engine=Engine(seed=1))
    for line in ("boardsize 7", "komi 6.5", "play b D4", "time_settings 30 0 0",
                 "time_left w 20 0"):
        h.send(line)
    h.output()
    return h, lambda s: (s.board.fen(), s.board.komi, s.main_time, s.byo_time,
                         s.byo_stones, dict(s.time_left))


def _hub() -> tuple[SessionHarness, Callable[[Session], Any]]:
    from bitgames.draughts.hub import HubSession

    h = SessionHarness(HubSession)
    for line in ("set-param name=tt-bits value=12", "level depth=3",
                 "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"):
        h.send(line)
    h.output()
    return h, lambda s: (s.variant, s.dialect, s.table_bits, s.board.fen(), s.limit)


def _nboard() -> tuple[SessionHarness, Callable[[Session], Any]]:
    from bitgames.othello.nboard import NBoardSession
    from bitgames.othello.search import Engine

    h = SessionHarness(NBoardSession, engine=Engine(level=1, evaluation="classic"))
    for line in ("nboard 2", "set depth 3", "set contempt 50", "move f5"):
        h.send(line)
    h.output()
    return h, lambda s: (s.version, s.depth, s.contempt, s.board.fen(),
                         s.engine.level)


def _uci() -> tuple[SessionHarness, Callable[[Session], Any]]:
    from bitgames.leiserchess.search import Engine
    from bitgames.leiserchess.uci import UciSession

    h = SessionHarness(UciSession, engine=Engine())
    h.send("position startpos moves h4g5")
    h.output()
    return h, lambda s: (s.board.fen(), np.array(s.engine.params).tolist())


SESSIONS = {"gtp": _gtp, "hub": _hub, "nboard": _nboard, "uci": _uci}

#: (dialect, bad line, the reply expected: a string, a pattern, or None for no reply)
REFUSED: list[tuple[str, str, str | re.Pattern[str] | None]] = [
    ("gtp", "boardsize ٩", "? boardsize not an integer"),
    ("gtp", "boardsize 1", "? unacceptable size"),
    ("gtp", "boardsize 99999999999999999999", "? unacceptable size"),
    ("gtp", "komi nan", "? komi not a float"),
    ("gtp", "komi inf", "? komi not a float"),
    ("gtp", "komi 1e999", "? komi not a float"),
    ("gtp", "time_settings inf 0 0", "? syntax error"),
    ("gtp", "time_settings 10 0 -1", "? syntax error"),
    ("gtp", "time_left b nan 0", "? syntax error"),
    ("gtp", "time_left b 5 ²", "? syntax error"),
    ("gtp", "play b D4", "? illegal move"),
    ("gtp", "play b Z9", "? invalid color or coordinate"),
    ("gtp", "loadsgf /dev/zero", "? cannot load file"),
    ("gtp", "loadsgf /nonexistent.sgf", "? cannot load file"),
    ("gtp", "fixed_handicap ٢", "? handicap not an integer"),
    ("hub", "set-param name=tt-bits value=²", re.compile("error message=.*tt-bits.*")),
    ("hub", "set-param name=tt-bits value=99", re.compile("error message=.*at most 26.*")),
    ("hub", "set-param name=variant value=chess", re.compile("error message=.*variant.*")),
    ("hub", "level depth=0", re.compile("error message=.*at least 1.*")),
    ("hub", "level depth=-2", re.compile("error message=.*at least 1.*")),
    ("hub", "level nodes=99999999999999999999", re.compile("error message=.*at most.*")),
    ("hub", "level move-time=nan", re.compile("error message=.*finite.*")),
    ("hub", "level time=inf", re.compile("error message=.*finite.*")),
    ("hub", "pos pos=Wxx", re.compile("error message=.*hub position.*")),
    ("hub", 'pos pos="unclosed', re.compile("error message=.*")),
    ("nboard", "set depth ²", None),
    ("nboard", "set depth 0", None),
    ("nboard", "set contempt 1e30", None),
    ("nboard", "nboard ٢", None),
    ("nboard", "move z9", None),
    ("nboard", "set game (;GM[Chess];)", None),
    ("uci", "setoption name pbetween value ²", re.compile("info string .*integer.*")),
    ("uci", "setoption name pbetween value 99999999", re.compile("info string .*at most.*")),
    ("uci", "position fen x y", re.compile("info string .*")),
    ("uci", "perft ٣", re.compile("info string .*integer.*")),
    ("uci", "position nonsense", re.compile("info string .*")),
]


@pytest.mark.parametrize(("dialect", "line", "reply"), REFUSED,
                         ids=[f"{d}:{line}" for d, line, _ in REFUSED])
def test_refused_command_changes_nothing(dialect: str, line: str,
                                         reply: str | re.Pattern[str] | None) -> None:
    harness, state = SESSIONS[dialect]()
    before = state(harness.session)
    harness.send(line)
    if reply is None:
        harness.expect_silence()
        assert "bad line" in harness.log.getvalue() or "unknown" in harness.log.getvalue()
    else:
        harness.expect(reply, timeout=10)
        if dialect == "gtp":
            harness.expect("")
    harness.session.wait()
    assert state(harness.session) == before
    assert "Traceback" not in harness.log.getvalue()
