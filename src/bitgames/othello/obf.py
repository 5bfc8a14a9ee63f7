"""Reading endgame positions: Edax OBF lines and the FFO suite (``othello solve``).

OBF: ``<64 squares a1..h8> <side>; <MOVE>:<score>; ...`` (the move scores are optional);
FFO-suite lines: ``<id> <64 squares> <side> <score> <best moves>``. Any other non-blank
line is read as a bare board string.

>>> import io
>>> obf = "-" * 27 + "OX------XO" + "-" * 27 + " X; F5:+0; D3:+0; C4:+0; E6:+0"
>>> [(pr.name, pr.expected_score, pr.expected_moves) for pr in read_problems(io.StringIO(obf),
...                                                                             "start.obf")]
[('start.obf:1', 0, ('f5', 'd3', 'c4', 'e6'))]
>>> ffo = ffo_problems(1, 1)[0]
>>> ffo.name, ffo.expected_score, ffo.expected_moves
('#1', 18, ('g8',))
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import TextIO


@dataclass
class Problem:
    """A position to solve and, when known, the expected score and best moves."""

    name: str
    board: str
    expected_score: int | None = None
    expected_moves: tuple[str, ...] = ()
    #: the expected exact score of each move given (OBF move scores; the FFO suite's
    #: published scores of every legal move)
    move_scores: dict[str, int] = field(default_factory=dict)

    def is_answer(self, score: int, move: str) -> bool:
        """Whether ``score`` is the expected one and ``move`` one of the best moves.

        >>> Problem("#1", "-" * 64 + " X", 18, ("g8",)).is_answer(18, "g8")
        True
        """
        return score == self.expected_score and move in self.expected_moves


def _move_scores(items: list[str], where: str) -> dict[str, int]:
    """``MOVE:score`` items (blank ones skipped) as a dict of lower-case move names."""
    scores: dict[str, int] = {}
    for item in items:
        if not item:
            continue
        try:
            move, value = item.split(":")
            scores[move.strip().lower()] = int(value)
        except ValueError:
            raise ValueError(f"{where}: bad move score {item!r}") from None
    return scores


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
            scores = _move_scores(rest, where)
            best = max(scores.values()) if scores else None
            moves = tuple(m for m, v in scores.items() if v == best)
            yield Problem(where, board, best, moves, scores)
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
    """The shipped FFO positions #lo..#hi (1-79) with their published answers: the score,
    the best moves and the score of every legal move.

    >>> ffo_problems(78, 78)[0].move_scores["a7"]
    6
    """
    if hi > 79:
        raise ValueError(f"the FFO suite has positions 1-79, not {hi}")
    data = resources.files("bitgames.othello").joinpath("data")
    problems = list(read_problems(io.StringIO(data.joinpath("ffo.txt").read_text()), "ffo.txt"))
    # ffo_moves.txt: "<id> <empties> <MOVE>:<score> ..." per position
    for number, line in enumerate(data.joinpath("ffo_moves.txt").read_text().splitlines(), 1):
        position, _, *scores = line.split()
        problems[int(position) - 1].move_scores = _move_scores(scores, f"ffo_moves.txt:{number}")
    return [pr for pr in problems if lo <= int(pr.name[1:]) <= hi]
