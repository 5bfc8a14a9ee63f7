"""One game on the web page: its board, its engine and who plays which side.

A :class:`Game` is what a browser tab talks to. It is used from the server's threads
(every method holds the game's lock); the engine searches on a thread of its own, so a
request never waits for it: the page asks for :meth:`Game.state` again and sees the
search's live depth, score and principal variation, then the move.

>>> game = Game(GAMES["othello"], level=1)
>>> game.play("f5")
>>> state = game.state()
>>> state["moves"], state["turn"], len(state["legal"])
(['f5'], 'white', 3)
>>> game.undo()
>>> game.state()["moves"]
[]
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

from bitgames.core.engine import Info, Limit, SearchResult
from bitgames.core.errors import BitgamesError
from bitgames.core.match import PlayerSpec, make_player
from bitgames.web.games import GAMES, GameKind

#: how the engine of a side is named in a request: ``"human"``, ``"engine"`` (the
#: built-in engine at the game's level) or a match player spec (``level:3``,
#: ``cmd:"gnugo --mode gtp"``)
HUMAN = "human"
ENGINE = "engine"


def _score(result: SearchResult | Info) -> str | None:
    return None if result.score is None else str(result.score)


class Game:
    """A game between two sides, each a person or an engine, with undo, hints, position
    strings, records and analysis.

    ``players`` are the sides in the order they move from the start position (first,
    second); ``seconds`` limits each engine move (default: the level's own limits).
    """

    def __init__(self, kind: GameKind, level: int = 3, seconds: float | None = None,
                 players: tuple[str, str] = (HUMAN, ENGINE), fen: str | None = None) -> None:
        if not 1 <= level <= kind.max_level:
            raise BitgamesError(f"level must be 1..{kind.max_level}, got {level}")
        if seconds is not None and not 0 < seconds <= 60:
            raise BitgamesError(f"seconds per move must be more than 0 and at most 60, "
                                f"got {seconds}")
        self.id = uuid.uuid4().hex
        self.kind = kind
        self.kit = kind.kit()
        self.level = level
        self.limit = Limit() if seconds is None else Limit(time=seconds)
        self.board = self.kit.new_board()
        if fen:
            self.set_position(fen)
        self.first_color = self.board.turn
        self.engine = self.kit.engine({})
        self.engine.level = level
        self.players: dict[bool, Any] = {}
        self.specs: tuple[str, str] = (HUMAN, HUMAN)
        self.set_players(players)
        self.lock = threading.RLock()
        self.thinking: str | None = None  # "move", "hint" or "analysis"
        self.live: Info | None = None
        self.hint: SearchResult | None = None
        self.error: str | None = None
        self.analysis: list[dict[str, Any]] = []
        self.paused = False  # no engine moves until resumed (after a load, an undo)
        self._final: tuple[Any, str] | None = None  # (position, result) of a finished game
        self.last_used = time.monotonic()
        self._worker: threading.Thread | None = None

    # -- sides ------------------------------------------------------------------------------

    def set_players(self, players: tuple[str, str]) -> None:
        """Who plays first and second: :data:`HUMAN`, :data:`ENGINE` or a player spec."""
        made: dict[bool, Any] = {}
        for color, spec in zip((self.first_color, not self.first_color), players,
                               strict=True):
            if spec not in (HUMAN, ENGINE):
                made[color] = make_player(self.kit, PlayerSpec.parse(spec))
        self.close_players()
        self.players = made
        self.specs = (players[0], players[1])

    def side(self, color: bool) -> str:
        """What plays ``color``: ``human``, ``engine`` or the spec of an outside player."""
        return self.specs[0] if color == self.first_color else self.specs[1]

    def engine_to_move(self) -> bool:
        """Whether the side to move is played by an engine (and the game is on)."""
        return not self.board.is_game_over() and self.side(self.board.turn) != HUMAN

    # -- moves -------------------------------------------------------------------------------

    def play(self, text: str) -> None:
        """Play ``text`` for the side to move (a person's move: refused while an engine
        thinks, or when it is not legal, with the reason)."""
        with self.lock:
            self._touch()
            if self.thinking:
                raise BitgamesError(f"the engine is thinking ({self.thinking}); wait or stop it")
            self.board.push(text)
            self.hint = None

    def undo(self) -> None:
        """Take back the last move, and the engine's answer before it when a person plays
        against the engine (so the person is to move again)."""
        with self.lock:
            self._touch()
            self._stop_and_wait()
            if not self.board.move_stack:
                raise BitgamesError("no move to take back")
            self.board.pop()
            while (self.board.move_stack and self.side(self.board.turn) != HUMAN
                   and HUMAN in self.specs):
                self.board.pop()
            self.hint = None
            self.paused = HUMAN not in self.specs

    def new_position(self, fen: str) -> None:
        """Stop the engine and start again from a position string; an engine to move
        waits for :meth:`resume`."""
        with self.lock:
            self._stop_and_wait()
            self.set_position(fen)
            self.analysis, self.hint, self.paused = [], None, True

    def change_players(self, players: tuple[str, str]) -> None:
        """Who plays first and second from now on (:meth:`set_players`); an engine to
        move starts."""
        with self.lock:
            self._stop_and_wait()
            self.set_players(players)
            self.paused = False
            self.advance()

    def set_position(self, fen: str) -> None:
        """Start again from a position string (the game's FEN)."""
        board = self.kit.new_board()
        try:
            board.set_fen(fen.strip())
        except (ValueError, IndexError) as exc:
            raise BitgamesError(f"bad position string: {exc}") from None
        self.board = board

    def load(self, text: str) -> None:
        """Replace the game by a record in the game's own format."""
        with self.lock:
            self._stop_and_wait()
            try:
                board = self.kind.read(text)
            except (ValueError, IndexError, KeyError) as exc:
                raise BitgamesError(f"cannot read this {self.kind.record_format}: {exc}"
                                    ) from None
            self.board = board
            self.analysis, self.hint, self.paused = [], None, True

    def record(self) -> str:
        """The game in its format, the sides named."""
        with self.lock:
            first, second = (self._name(c) for c in (self.first_color, not self.first_color))
            white, black = (first, second) if self.first_color else (second, first)
            result = self._result() if self.board.is_game_over() else "*"
            return str(self.kit.record(self.board.copy(), white, black, result))

    def _name(self, color: bool) -> str:
        spec = self.side(color)
        return "person" if spec == HUMAN else (f"bitgames level {self.level}"
                                                if spec == ENGINE else spec)

    # -- the engine ------------------------------------------------------------------------

    def advance(self) -> None:
        """Let the engine of the side to move think on its own thread, then play (and the
        next one, when engines play both sides), unless paused."""
        with self.lock:
            if not self.paused and not self.thinking and self.engine_to_move():
                self._start("move", self._engine_move)

    def resume(self) -> None:
        """Engines play again: the side to move must be an engine (a person who wants
        the engine's move in their place asks for a hint, or hands the side over with
        :meth:`change_players`)."""
        with self.lock:
            if not self.engine_to_move():
                raise BitgamesError("no engine is to move: the side to move is played by "
                                    "a person, or the game is over")
            self.paused = False
            self.advance()

    def pause(self) -> None:
        """Stop the search now (a move search plays its best move so far) and make no
        more engine moves until :meth:`resume`."""
        with self.lock:
            self.paused = True
            self.stop()

    def start_hint(self) -> None:
        """Search the position for the side to move, without playing: :attr:`hint`."""
        with self.lock:
            if self.board.is_game_over():
                raise BitgamesError("the game is over")
            self.hint = None
            self._start("hint", self._hint)

    def start_analysis(self) -> None:
        """Score every position of the game, from the start (:attr:`analysis`)."""
        with self.lock:
            self.analysis = []
            self._start("analysis", self.analyse)

    def stop(self) -> None:
        """Make a search end now (it plays or reports its best move so far)."""
        self.engine.stop()
        for player in self.players.values():
            stop = getattr(player, "stop", None)
            if stop is not None:
                stop()

    def _start(self, what: str, job: Any) -> None:
        self._touch()
        if self.thinking:
            raise BitgamesError(f"the engine is thinking ({self.thinking}); wait or stop it")
        self.thinking, self.live, self.error = what, None, None
        board = self.board.copy()

        def run() -> None:
            try:
                job(board)
            except Exception as exc:  # shown on the page; the server goes on
                with self.lock:
                    self.error = f"{type(exc).__name__}: {exc}"
            finally:
                with self.lock:
                    self.thinking = None
                    if what == "move" and self.error is None:
                        self.advance()

        self._worker = threading.Thread(target=run, daemon=True)
        self._worker.start()

    def _on_info(self, info: Info) -> None:
        self.live = info

    def _search(self, board: Any, limit: Limit | None = None) -> SearchResult:
        result: SearchResult = self.engine.search(board, limit or self.limit,
                                                  on_info=self._on_info)
        return result

    def _engine_move(self, board: Any) -> None:
        player = self.players.get(board.turn)
        result = (self._search(board) if player is None else player.play(board, self.limit))
        with self.lock:
            if self.board.fen() != board.fen() or result.move is None:
                return  # the game changed meanwhile (undo, load): the answer is stale
            self.board.push(result.move)
            self.live = result.info()

    def _hint(self, board: Any) -> None:
        result = self._search(board)
        with self.lock:
            self.hint = result

    def analyse(self, board: Any) -> None:
        """Score each move of ``board``'s game into :attr:`analysis` (a row per move, added
        as it is done): the best move and its value for the side that moved, the value of
        the move played (``after``, from a search one ply less deep, so both look as far
        ahead), the ``loss`` between them and whether it is a ``mistake``."""
        moves = list(board.move_stack)
        while board.move_stack:
            board.pop()
        before_limit, after_limit = self.kind.analysis_limits(self.level)
        for move in moves:
            if self.engine.stop_signal.is_set():
                return
            before = self.engine.search(board.copy(), before_limit)
            mover = board.turn
            board.push(move)
            row: dict[str, Any] = {
                "ply": len(board.move_stack), "move": str(move),
                "color": self.kind.side_name(mover),
                "best": None if before.move is None else str(before.move),
                "best_score": _score(before), "value": _value(before)}
            if not board.is_game_over():
                after = self.engine.search(board.copy(), after_limit)
                row["score"] = _score(after)
                value = _value(after)
                row["after"] = None if value is None else _turned(value, after)
                if row["value"] is not None and row["after"] is not None:
                    row["loss"] = round(max(0.0, row["value"] - row["after"]), 3)
                    row["mistake"] = row["loss"] >= self.kind.mistake
            with self.lock:
                self.analysis.append(row)

    def _stop_and_wait(self) -> None:
        if self._worker is not None and self._worker.is_alive():
            self.stop()
            self._worker.join(30)
        self.thinking = None

    def _touch(self) -> None:
        self.last_used = time.monotonic()

    def close_players(self) -> None:
        for player in self.players.values():
            player.close()
        self.players = {}

    def close(self) -> None:
        """Stop the engine and the outside players: the tab is gone."""
        self._stop_and_wait()
        self.close_players()

    # -- what the page shows -----------------------------------------------------------------

    def _result(self) -> str:
        """The finished game's result as the match runner scores it (Go: with the dead
        stones judged and removed, ``B+3.5``), worked out once per final position."""
        key = (self.board.fen(), len(self.board.move_stack))
        if self._final is None or self._final[0] != key:
            final = self.kit.final_result
            text = str(final(self.board)[1] if final is not None else self.board.result())
            self._final = (key, text)
        return self._final[1]

    def view(self, ply: int, size: int = 480) -> dict[str, Any]:
        """The position after ``ply`` moves of the game (0: the start), to step through
        it: its picture (the move that led to it marked), position string and, once the
        game is analysed, that move's row of the analysis."""
        with self.lock:
            moves = len(self.board.move_stack)
            if not 0 <= ply <= moves:
                raise BitgamesError(f"ply must be 0..{moves}, got {ply}")
            board = self.board.copy()
            for _ in range(moves - ply):
                board.pop()
            row = next((r for r in self.analysis if r["ply"] == ply), None)
            return {"ply": ply, "plies": moves, "svg": self.kind.picture(board, size=size),
                    "fen": board.fen(), "turn": self.kind.side_name(board.turn),
                    "analysis": row}

    def state(self, size: int = 480) -> dict[str, Any]:
        """Everything the page draws, JSON-ready."""
        with self.lock:
            board = self.board
            over = board.is_game_over()
            legal = [] if over else [{"move": str(m), "squares": self.kind.squares(board, m)}
                                     for m in board.legal_moves]
            arrows = []
            if self.hint is not None and self.hint.move is not None:
                path = self.kind.squares(board, self.hint.move)
                if len(path) >= 2 and path[0] != path[-1]:
                    arrows.append((path[0], path[-1]))
            try:
                picture = self.kind.picture(board, arrows=arrows, size=size)
            except (ValueError, TypeError):
                picture = self.kind.picture(board, size=size)
            live = self.live
            return {
                "id": self.id, "game": self.kind.key, "title": self.kind.title,
                "svg": picture, "fen": board.fen(), "turn": self.kind.side_name(board.turn),
                "moves": [str(m) for m in board.move_stack], "legal": legal,
                "over": over, "result": self._result() if over else None,
                "players": {"first": self.specs[0], "second": self.specs[1]},
                "to_move": self.side(board.turn), "level": self.level,
                "thinking": self.thinking, "paused": self.paused, "error": self.error,
                "live": None if live is None else {
                    "depth": live.depth, "score": _score(live), "nodes": live.nodes,
                    "pv": [str(m) for m in live.pv], "probability": live.probability},
                "hint": None if self.hint is None else {
                    "move": None if self.hint.move is None else str(self.hint.move),
                    "score": _score(self.hint), "pv": [str(m) for m in self.hint.pv]},
                "analysis": list(self.analysis),
                "format": self.kind.record_format, "extension": self.kind.extension,
            }


def _turned(value: float, result: SearchResult) -> float:
    """A score of the side to move as the other side's (a win rate is ``1 - p``)."""
    from bitgames.core.engine import Unit

    if result.score is not None and result.score.unit == Unit.WINRATE:
        return 1.0 - value
    return -value


def _value(result: SearchResult) -> float | None:
    """A score as a number for the graph (wins as +-100)."""
    score = result.score
    if score is None:
        return None
    if score.is_win:
        return 100.0
    if score.is_loss:
        return -100.0
    return float(score.value)


__all__ = ["ENGINE", "GAMES", "HUMAN", "Game"]
