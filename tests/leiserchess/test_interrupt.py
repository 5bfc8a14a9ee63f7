"""Ctrl-C: long commands stop within a second, print what they have, exit with 130."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from bitgames.leiserchess import closebook as cb
from tests.commands import interrupt, started


def ctrl_c(argv: list[str], ready: str, *, after: float = 1.0,
           ) -> tuple[int, float, str, str]:
    """Run ``bitgames leiserchess ARGV``, wait for ``ready`` on stderr (or for the
    process to be busy), send SIGINT ``after`` seconds later; return the exit status, the
    seconds from the signal to the exit, stdout and stderr."""
    with started(["leiserchess", *argv]) as proc:
        assert proc.stderr is not None
        err = ""
        if ready:
            for line in proc.stderr:
                err += line
                if ready in line:
                    break
        time.sleep(after)
        end = interrupt(proc, timeout=60)
    return end.code, end.seconds, end.out, err + end.err


def test_perft_stops_on_ctrl_c() -> None:
    # compile first (a first run compiles for tens of seconds); perft 7 takes many minutes
    subprocess.run([sys.executable, "-m", "bitgames.cli", "leiserchess", "perft", "1"],
                   check=True, capture_output=True)
    code, seconds, out, _ = ctrl_c(["perft", "7", "--legal"], "", after=4.0)
    assert code == 130 and seconds < 3.0
    assert out.startswith("stopped: perft 7 (legal): ")
    assert int(out.split(": ")[2].split()[0]) > 0


def test_closebook_build_stops_and_keeps_the_kings_table(tmp_path: Path) -> None:
    path = tmp_path / "book.npz"
    code, seconds, out, _ = ctrl_c(["closebook", "build", "--out", str(path)],
                                   "solving the one-Pawn table", after=1.0)
    assert code == 130 and seconds < 3.0
    assert out.startswith("stopped: the Kings-only table saved")
    book = cb.Closebook.load(path)
    assert book.pawn.size == 0 and book.kings.size == (cb.N_KINGS + 3) // 4


@pytest.mark.parametrize("legal", [False, True])
def test_perft_stop_flag_gives_partial_counts(legal: bool) -> None:
    import numpy as np

    from bitgames.leiserchess import Board
    from bitgames.leiserchess.perft import perft_board

    stop = np.ones(1, dtype=np.int64)
    assert perft_board(Board(), 3, legal=legal, stop=stop)["total"] == 0
    stop[0] = 0
    assert perft_board(Board(), 3, legal=legal, stop=stop)["total"] == (
        281_474 if legal else 473_126)
