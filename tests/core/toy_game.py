"""A toy game with the bitgames board API, for testing the game-independent match runner.

Nim: 21 stones, take 1-3, whoever takes the last stone wins; White moves first. Moves are
the number taken (``"1"``..``"3"``). The perfect player leaves a multiple of four.

Run as a program it is an outside engine speaking a tiny protocol on stdin/stdout
(``stones N`` then ``go`` -> ``move K``), with a ``--fault`` to misbehave:
``crash`` (exits at its first move), ``illegal`` (takes 4), ``slow`` (sleeps 3 s).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from bitgames.core.board import BLACK, WHITE, Outcome, Termination
from bitgames.core.engine import Engine, Limit, SearchResult, Unit
from bitgames.core.errors import IllegalMoveError, InvalidMoveError
from bitgames.core.match import GameKit
from bitgames.core.protocol import Client, ProcessTransport


class Nim:
    def __init__(self, stones: int = 21) -> None:
        self.stones = stones
        self.turn = WHITE
        self.move_stack: list[int] = []

    @property
    def legal_moves(self) -> list[int]:
        return list(range(1, min(3, self.stones) + 1))

    def parse_move(self, text: str) -> int:
        if text not in ("1", "2", "3"):
            raise InvalidMoveError(f"not a Nim move: {text!r}")
        return int(text)

    def push(self, move: int | str) -> None:
        move = self.parse_move(move) if isinstance(move, str) else move
        if move not in self.legal_moves:
            raise IllegalMoveError(f"cannot take {move} of {self.stones}")
        self.stones -= move
        self.move_stack.append(move)
        self.turn = not self.turn

    def outcome(self) -> Outcome | None:
        if self.stones:
            return None
        return Outcome(Termination.NO_MOVES, not self.turn)  # the last taker won

    def is_game_over(self) -> bool:
        return self.stones == 0

    def result(self) -> str:
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    def copy(self) -> Nim:
        other = Nim(self.stones)
        other.turn, other.move_stack = self.turn, list(self.move_stack)
        return other

    def fen(self) -> str:
        return f"{self.stones} {'w' if self.turn else 'b'}"


class NimEngine(Engine):
    """Level 1 plays at random, level 2 perfectly."""

    MAX_LEVEL = 2
    unit = Unit.WINRATE

    def __init__(self, level: int | None = None, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        super().__init__(level)

    def _apply_level(self, n: int) -> None:
        self.perfect = n == 2

    def new_game(self) -> None:
        pass

    def search(self, board: Any, limit: Limit | None = None,
               on_info: Any = None) -> SearchResult:
        if self.perfect and board.stones % 4:
            return SearchResult(board.stones % 4)
        return SearchResult(self.rng.choice(board.legal_moves))


class NimClient(Client):
    """Drives ``python tests/core/toy_game.py`` (a Player)."""

    def __init__(self, command: str) -> None:
        super().__init__(ProcessTransport(command), timeout=10)
        self.name = command.split()[-1]

    def new_game(self) -> None:
        pass

    def play(self, board: Nim, limit: Limit) -> SearchResult:
        self.send(f"stones {board.stones}")
        self.send("go")
        line = self.read_until(lambda s: s.startswith("move"))[-1]
        return SearchResult(line.split()[1])


def record(board: Nim, white: str, black: str, result: str) -> str:
    return f"[{white} - {black}] {' '.join(map(str, board.move_stack))} {result}"


def kit(stones: int = 21) -> GameKit:
    return GameKit("nim", lambda: Nim(stones), lambda options: NimEngine(
        seed=int(options.get("seed", 0))), NimClient, record)


def main() -> None:  # the outside engine
    fault = sys.argv[sys.argv.index("--fault") + 1] if "--fault" in sys.argv else ""
    stones = 21
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["stones"]:
            stones = int(words[1])
        elif words[:1] == ["go"]:
            if fault == "crash":
                sys.exit(3)
            if fault == "slow":
                time.sleep(3)
            take = 4 if fault == "illegal" else (stones % 4 or 1)
            print(f"move {take}", flush=True)


assert BLACK is False
if __name__ == "__main__":
    main()
