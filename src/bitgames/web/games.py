"""The games the web app offers, each described once: its board and engine (through the
game's match kit), its picture, its record format, and which squares of the picture a
move is made by clicking.

>>> sorted(GAMES)
['english', 'go13', 'go19', 'go9', 'leiserchess', 'othello', 'russian']
>>> kind = GAMES["english"]
>>> board = kind.kit().new_board()
>>> [kind.squares(board, m) for m in list(board.legal_moves)[:2]]
[['b6', 'a5'], ['b6', 'c5']]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bitgames.core.engine import Limit
from bitgames.core.errors import BitgamesError


@dataclass(frozen=True)
class GameKind:
    """One game (and variant) of the web app."""

    #: the name in URLs and requests
    key: str
    #: what the page shows
    title: str
    #: the game's match kit: new board, built-in engine, outside engines, records
    kit: Callable[[], Any]
    #: the board as SVG: ``picture(board, lastmove=None, arrows=(), size=...)``
    picture: Callable[..., str]
    #: a game record (the game's own format) -> the board with its moves
    read: Callable[[str], Any]
    #: the picture's squares (``data-square``) a move is made by clicking, in order
    squares: Callable[[Any, Any], list[str]]
    #: the record format's name and file extension
    record_format: str
    extension: str
    #: the strongest level of the built-in engine
    max_level: int
    #: how much worse than the best move (in the engine's score unit) a move must be to be
    #: marked a mistake by the analysis
    mistake: float
    #: the analysis's limits at a level: for the position before a move, and for the one
    #: after it (one ply less deep, so that both values look as far ahead)
    analysis_limits: Callable[[int], tuple[Limit, Limit]] = lambda level: _plies(level)
    #: what players call the two sides: (White's name, Black's name)
    sides: tuple[str, str] = ("white", "black")

    def side_name(self, color: bool) -> str:
        """The name of side ``color`` (``True``: White, as in every game's ``Board``)."""
        return self.sides[0] if color else self.sides[1]


def _plies(level: int) -> tuple[Limit, Limit]:
    """Alpha-beta engines: depth ``level + 2`` (3..10) before a move, one less after it.

    >>> [limit.depth for limit in _plies(3)]
    [5, 4]
    """
    depth = min(max(level + 2, 3), 10)
    return Limit(depth=depth), Limit(depth=depth - 1)


def _playouts(level: int) -> tuple[Limit, Limit]:
    """Go's tree search: 500 playouts per level, before and after a move alike."""
    return Limit(nodes=500 * level), Limit(nodes=500 * level)


def _othello_read(text: str) -> Any:
    from bitgames.othello.ggf import load_transcript, parse_ggf

    text = text.strip()
    return parse_ggf(text).board if text.startswith("(") else load_transcript(text)


def _othello_squares(board: Any, move: Any) -> list[str]:
    return [] if move.is_pass() else [str(move)]


def _othello() -> GameKind:
    from bitgames.othello import svg
    from bitgames.othello.cli import match_kit

    return GameKind("othello", "Othello", match_kit, svg, _othello_read, _othello_squares,
                    "GGF", ".ggf", 20, 4.0)


def _draughts(variant: str) -> GameKind:
    from bitgames.draughts import svg
    from bitgames.draughts.cli import match_kit
    from bitgames.draughts.geometry import NAMES

    def read(text: str) -> Any:
        from bitgames.draughts.pdn import read_game

        board = read_game(text).board
        if board.variant != variant:
            raise BitgamesError(f"this PDN is a game of {board.variant} draughts, "
                                f"not {variant}")
        return board

    def squares(board: Any, move: Any) -> list[str]:
        return [NAMES[move.start], *(NAMES[s] for s in move.path or (move.end,))]

    title = "Russian draughts" if variant == "russian" else "English checkers"
    return GameKind(variant, title, lambda: match_kit(variant), svg, read, squares, "PDN",
                    ".pdn", 10, 0.6)


def _go(size: int) -> GameKind:
    from bitgames.go import svg
    from bitgames.go.cli import match_kit

    def read(text: str) -> Any:
        from bitgames.go.sgf import read_sgf

        board = read_sgf(text)
        if board.size != size:
            raise BitgamesError(f"this SGF is a game on {board.size}x{board.size}, "
                                f"not {size}x{size}")
        return board

    def squares(board: Any, move: Any) -> list[str]:
        return [] if move.is_pass or move.is_resign else [str(move)]

    return GameKind(f"go{size}", f"Go {size}x{size}", lambda: match_kit(size=size), svg, read,
                    squares, "SGF", ".sgf", 10, 0.15, _playouts)


def _leiserchess() -> GameKind:
    from bitgames.leiserchess import svg
    from bitgames.leiserchess.cli import match_kit
    from bitgames.leiserchess.notation import square_name

    def read(text: str) -> Any:
        from bitgames.leiserchess.pgn import read_games

        games = read_games(text)
        if not games:
            raise BitgamesError("no game in this record")
        return games[0].board

    def squares(board: Any, move: Any) -> list[str]:
        start = square_name(move.from_square)
        return [start, start] if move.is_rotation() else [start, square_name(move.to_square)]

    return GameKind("leiserchess", "Leiserchess", match_kit, svg, read, squares,
                    "6.172 game record", ".txt", 10, 0.6, sides=("tangerine", "lavender"))


GAMES: dict[str, GameKind] = {kind.key: kind for kind in (
    _othello(), _draughts("russian"), _draughts("english"), _go(9), _go(13), _go(19),
    _leiserchess())}
