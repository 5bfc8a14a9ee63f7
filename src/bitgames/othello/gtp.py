"""Outside Othello engines that speak GTP (GRhino's ``gtp-rhino``, or a GTP driver wrapped
around a console program such as Zebra), as players for matches.

GTP was written for Go; Othello programs use it with ``boardsize 8``, moves named as in
Othello (``f5``, any case) and colours ``b``/``w``. A pass is implicit in Othello: the
client never sends one (GRhino refuses ``play w pass``), it names each move with its
player's colour, and it answers for its engine when the engine has no move.

>>> from bitgames.core.protocol import MockTransport
>>> mock = MockTransport()
>>> mock.expect("name", ["= GRhino", ""])
>>> for line in ("boardsize 8", "clear_board", "play b f5"):
...     mock.expect(line, ["=", ""])
>>> mock.expect("genmove w", ["= F6", ""])
>>> client = GtpClient(mock)
>>> client.play(Board.from_transcript("f5"), Limit()).move
Move.from_str('f6')
>>> mock.assert_done()
"""

from __future__ import annotations

import time
from typing import Any

from bitgames.core.engine import Limit, SearchResult
from bitgames.core.errors import BitgamesError, EngineError
from bitgames.core.protocol import GtpController, Transport
from bitgames.othello.board import BLACK, PASS, Board, Move

__all__ = ["GtpClient"]

_START = Board().fen()


def _color(turn: Any) -> str:
    return "b" if turn == BLACK else "w"


class GtpClient(GtpController):
    """An outside GTP engine playing Othello, as a :class:`~bitgames.core.engine.Player`.

    :meth:`play` brings the engine to the board's game (``boardsize 8`` and
    ``clear_board`` when the game is new or went another way, then the moves it has not
    seen, passes left out), tells it the limit's time (GTP has no depth or node limit: set
    those on the engine's command line) and asks ``genmove``. GTP has no way to set up a
    position, so a game must start from the standard start.

    >>> from bitgames.core.protocol import MockTransport
    >>> mock = MockTransport()
    >>> mock.expect("name", ["= Mock", ""])
    >>> client = GtpClient(mock)
    >>> client.play(Board("-" * 64 + " X"), Limit())
    Traceback (most recent call last):
    ...
    bitgames.core.errors.EngineError: GTP has no set-up command: the game must start from \
the start position, not ---------------------------------------------------------------- X
    """

    def __init__(self, transport: Transport, timeout: float = 600.0,
                 name: str | None = None) -> None:
        super().__init__(transport, timeout, name)
        self._sent: list[tuple[str, Move]] | None = None

    def new_game(self) -> None:
        self._sent = None

    def sync(self, board: Board) -> None:
        """Send what the engine lacks of ``board``'s game."""
        root = board.copy()
        played: list[tuple[str, Move]] = []
        while root.move_stack:
            move = root.pop()
            if not move.is_pass():
                played.append((_color(root.turn), move))
        if root.fen() != _START:
            raise EngineError("GTP has no set-up command: the game must start from the "
                              f"start position, not {root.fen()}")
        played.reverse()
        if self._sent is None or played[: len(self._sent)] != self._sent:
            self.command("boardsize 8")
            self.command("clear_board")
            self._sent, self._time = [], None
        for color, move in played[len(self._sent):]:
            self.command(f"play {color} {move}")
            self._sent.append((color, move))

    def play(self, board: Board, limit: Limit) -> SearchResult:
        """The engine's move in ``board`` (a pass, without asking, when it has none)."""
        start = time.perf_counter()
        if board.must_pass():
            return SearchResult(Move(PASS), time=0.0)
        self.sync(board)
        color = _color(board.turn)
        self.send_time(color, limit)
        reply = self.command(f"genmove {color}")
        try:
            move = board.parse_move(reply.lower())  # a pass is illegal here: we have moves
        except BitgamesError as exc:
            raise EngineError(f"GTP engine {self.name!r} answered genmove {color} with "
                              f"{reply!r} in {board.fen()}: {exc}") from exc
        assert self._sent is not None
        self._sent.append((color, move))
        return SearchResult(move, time=time.perf_counter() - start)
