"""``bitgames serve``: the web app (Starlette, served by uvicorn).

The page (``static/``: plain HTML, CSS and JavaScript, nothing fetched from elsewhere)
talks JSON to these routes; each browser tab has its own :class:`~bitgames.web.session.Game`:

=================================  ===============================================
``GET /api/kinds``                 the games and variants offered
``POST /api/games``                a new game ``{game, level, seconds, players, fen}``
``GET /api/games/ID``              its state (picture, moves, legal moves, engine)
``POST /api/games/ID/move``        ``{move}``: a person's move
``POST /api/games/ID/undo``        take back
``POST /api/games/ID/hint``        the engine's advice (no move played)
``POST /api/games/ID/engine``      the engine of the side to move plays
``POST /api/games/ID/stop``        stop a search (it plays its best move so far)
``POST /api/games/ID/position``    ``{fen}``: start from a position string
``POST /api/games/ID/load``        ``{text}``: a game record in the game's format
``POST /api/games/ID/players``     ``{first, second}``: who plays each side
``POST /api/games/ID/analyse``     score every move of the game
``GET /api/games/ID/view?ply=N``   the position after N moves, to step through
``GET /api/games/ID/record``       the game record, as a file
``DELETE /api/games/ID``           end the game (the page does so when it closes)
=================================  ===============================================

A bad request gets status 400 (404 for an unknown game) and ``{"error": "..."}``; the
server goes on. Games idle for an hour are ended.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bitgames.core.errors import BitgamesError
from bitgames.web.games import GAMES
from bitgames.web.session import ENGINE, HUMAN, Game

STATIC = Path(__file__).parent / "static"
#: the most games open at once, and how long one may sit idle (seconds)
MAX_GAMES = 64
IDLE = 3600.0
#: the largest request body (a game record)
MAX_BODY = 1 << 20


class Games:
    """The open games, by id."""

    def __init__(self, max_games: int = MAX_GAMES, idle: float = IDLE) -> None:
        self.games: dict[str, Game] = {}
        self.max_games = max_games
        self.idle = idle

    def add(self, game: Game) -> None:
        self.expire()
        if len(self.games) >= self.max_games:
            game.close()
            raise BitgamesError(f"{self.max_games} games are open already; close one first")
        self.games[game.id] = game

    def get(self, game_id: str) -> Game:
        game = self.games.get(game_id)
        if game is None:
            raise KeyError(game_id)
        return game

    def close(self, game_id: str) -> None:
        game = self.games.pop(game_id, None)
        if game is not None:
            game.close()
            del game
            release_memory()

    def expire(self) -> None:
        now = time.monotonic()
        for game_id, game in list(self.games.items()):
            if now - game.last_used > self.idle and not game.thinking:
                self.close(game_id)

    def close_all(self) -> None:
        for game_id in list(self.games):
            self.close(game_id)


def release_memory() -> None:
    """Hand freed memory back to the system (glibc's ``malloc_trim``; nothing elsewhere).

    Each search runs on a new thread, and glibc keeps what a thread's allocations freed
    in that thread's arena: without a trim, a server that saw many games holds hundreds
    of MB it no longer uses.
    """
    import ctypes
    import ctypes.util
    import gc

    gc.collect()
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim(0)
    except (OSError, AttributeError, TypeError):
        pass


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BitgamesError(f"request too large ({len(raw)} bytes, at most {MAX_BODY})")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BitgamesError(f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BitgamesError("the request must be a JSON object")
    return data


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise BitgamesError(f"{key!r} must be given, as text")
    return value


def _number(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            kind is int and not isinstance(value, int)):
        raise BitgamesError(f"{key!r} must be a {'whole ' if kind is int else ''}number, "
                            f"got {value!r}")
    return value


def _players(data: dict[str, Any]) -> tuple[str, str]:
    players = data.get("players", [HUMAN, ENGINE])
    if (not isinstance(players, list) or len(players) != 2
            or not all(isinstance(p, str) and p.strip() for p in players)):
        raise BitgamesError('players must be two texts: "human", "engine" or a player '
                            'spec such as "level:3"')
    return players[0].strip(), players[1].strip()


def create_app(games: Games | None = None) -> Starlette:
    """The web app, with its own table of open games."""
    table = games if games is not None else Games()

    def guarded(handler: Callable[[Request], Awaitable[Response]]
                ) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except KeyError as exc:
                return _error(f"no game {exc.args[0]!r} (it ended, or the server restarted)",
                              404)
            except (BitgamesError, ValueError) as exc:
                return _error(str(exc))
        return run

    def action(method: Callable[[Game, dict[str, Any]], Any]
               ) -> Callable[[Request], Awaitable[Response]]:
        """A route that does ``method(game, body)`` off the event loop, then answers with
        the game's state."""
        @guarded
        async def run(request: Request) -> Response:
            game = table.get(request.path_params["game_id"])
            data = await _body(request)
            await run_in_threadpool(method, game, data)
            return JSONResponse(await run_in_threadpool(game.state))
        return run

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def kinds(request: Request) -> Response:
        return JSONResponse([{"key": k.key, "title": k.title, "max_level": k.max_level,
                              "format": k.record_format, "extension": k.extension}
                             for k in GAMES.values()])

    @guarded
    async def new_game(request: Request) -> Response:
        data = await _body(request)
        key = _text(data, "game")
        if key not in GAMES:
            raise BitgamesError(f"unknown game {key!r}; the games are {', '.join(GAMES)}")
        level = _number(data, "level", int)
        seconds = _number(data, "seconds", float)
        fen = data.get("fen")
        if fen is not None and not isinstance(fen, str):
            raise BitgamesError("'fen' must be text")
        game = await run_in_threadpool(
            lambda: Game(GAMES[key], level=3 if level is None else level, seconds=seconds,
                         players=_players(data), fen=fen or None))
        table.add(game)
        game.advance()
        return JSONResponse(await run_in_threadpool(game.state), status_code=201)

    @guarded
    async def state(request: Request) -> Response:
        game = table.get(request.path_params["game_id"])
        return JSONResponse(await run_in_threadpool(game.state))

    @guarded
    async def view(request: Request) -> Response:
        game = table.get(request.path_params["game_id"])
        text = request.query_params.get("ply", "")
        if not text.isdigit() or not text.isascii():
            raise BitgamesError(f"ply must be a whole number, got {text!r}")
        return JSONResponse(await run_in_threadpool(game.view, int(text)))

    @guarded
    async def record(request: Request) -> Response:
        game = table.get(request.path_params["game_id"])
        text = await run_in_threadpool(game.record)
        name = f"bitgames-{game.kind.key}{game.kind.extension}"
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @guarded
    async def close(request: Request) -> Response:
        await run_in_threadpool(table.close, request.path_params["game_id"])
        return JSONResponse({"closed": request.path_params["game_id"]})

    def move(game: Game, data: dict[str, Any]) -> None:
        game.play(_text(data, "move"))
        game.advance()

    def position(game: Game, data: dict[str, Any]) -> None:
        game.new_position(_text(data, "fen"))

    def load(game: Game, data: dict[str, Any]) -> None:
        game.load(_text(data, "text"))

    def players(game: Game, data: dict[str, Any]) -> None:
        game.change_players((_text(data, "first"), _text(data, "second")))

    routes = [
        Route("/", index),
        Route("/api/kinds", kinds),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", state),
        Route("/api/games/{game_id}", close, methods=["DELETE"]),
        Route("/api/games/{game_id}/close", close, methods=["POST"]),
        Route("/api/games/{game_id}/record", record),
        Route("/api/games/{game_id}/view", view),
        Route("/api/games/{game_id}/move", action(move), methods=["POST"]),
        Route("/api/games/{game_id}/undo", action(lambda g, d: g.undo()), methods=["POST"]),
        Route("/api/games/{game_id}/hint", action(lambda g, d: g.start_hint()),
              methods=["POST"]),
        Route("/api/games/{game_id}/engine", action(lambda g, d: g.resume()),
              methods=["POST"]),
        Route("/api/games/{game_id}/stop", action(lambda g, d: g.pause()), methods=["POST"]),
        Route("/api/games/{game_id}/position", action(position), methods=["POST"]),
        Route("/api/games/{game_id}/load", action(load), methods=["POST"]),
        Route("/api/games/{game_id}/players", action(players), methods=["POST"]),
        Route("/api/games/{game_id}/analyse", action(lambda g, d: g.start_analysis()),
              methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        table.close_all()

    return Starlette(routes=routes, lifespan=lifespan)


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the web app until Ctrl-C, printing its address."""
    import uvicorn

    print(f"bitgames: open http://{host}:{port}/ in a browser (Ctrl-C stops the server)",
          flush=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
