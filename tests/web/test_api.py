"""The web app's routes, as the page and scripts use them: every game, every action, and
the errors of bad requests (the server answers each with status 400/404 and a message,
and goes on)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from bitgames.web.app import Games, create_app  # noqa: E402
from bitgames.web.games import GAMES  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Games(max_games=8))) as c:
        yield c


def settle(client: TestClient, game_id: str, timeout: float = 120.0) -> dict[str, Any]:
    """The game's state once no engine is thinking."""
    deadline = time.monotonic() + timeout
    while True:
        state = client.get(f"/api/games/{game_id}").json()
        if not state["thinking"] or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"level": 1, **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<svg" not in page.text and "app.js" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    kinds = client.get("/api/kinds").json()
    assert [k["key"] for k in kinds] == list(GAMES)


@pytest.mark.parametrize("key", ["othello", "russian", "english", "go9", "leiserchess"])
def test_a_move_the_answer_a_take_back_and_the_record(client: TestClient, key: str) -> None:
    state = new(client, game=key)
    game_id, start = state["id"], state["fen"]
    assert state["svg"].startswith("<svg") and state["to_move"] == "human"
    first = state["legal"][0]
    assert all(f'data-square="{s}"' in state["svg"] for s in first["squares"])
    state = client.post(f"/api/games/{game_id}/move", json={"move": first["move"]}).json()
    assert state["moves"][:1] == [first["move"]]  # the engine answers on its own thread
    state = settle(client, game_id)
    assert len(state["moves"]) == 2 and state["to_move"] == "human", state["error"]
    assert state["live"] is not None and state["live"]["depth"] >= 1
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    replayed = GAMES[key].read(record.text)  # the game's own reader takes it back
    assert [str(m) for m in replayed.move_stack] == state["moves"]
    state = client.post(f"/api/games/{game_id}/undo").json()
    assert state["moves"] == [] and state["fen"] == start  # the answer and the move
    loaded = client.post(f"/api/games/{game_id}/load", json={"text": record.text}).json()
    assert loaded["moves"] == [str(m) for m in replayed.move_stack] and loaded["paused"]
    assert client.delete(f"/api/games/{game_id}").status_code == 200
    assert client.get(f"/api/games/{game_id}").status_code == 404


def test_hint_position_and_analysis(client: TestClient) -> None:
    game_id = new(client, game="othello", players=["human", "human"])["id"]
    for move in ("f5", "d6", "c3", "d3"):
        client.post(f"/api/games/{game_id}/move", json={"move": move})
    client.post(f"/api/games/{game_id}/hint")
    state = settle(client, game_id)
    assert state["hint"]["move"] in [m["move"] for m in state["legal"]]
    client.post(f"/api/games/{game_id}/analyse")
    state = settle(client, game_id)
    rows = state["analysis"]
    assert [r["ply"] for r in rows] == [1, 2, 3, 4]
    assert all(r["loss"] >= 0 and r["mistake"] == (r["loss"] >= 4.0) for r in rows)
    view = client.get(f"/api/games/{game_id}/view?ply=1").json()  # stepping through
    from bitgames.othello.board import Board

    after_f5 = Board()
    after_f5.push("f5")
    assert view["fen"] == after_f5.fen() and view["analysis"]["move"] == "f5"
    assert view["svg"].count('class="disc black"') == 4
    assert client.get(f"/api/games/{game_id}/view?ply=0").json()["fen"] == Board().fen()
    for bad in ("5", "-1", "x", "", "²"):
        response = client.get(f"/api/games/{game_id}/view", params={"ply": bad})
        assert response.status_code == 400 and "ply must be" in response.json()["error"]
    fen = "---------------------------OX------XX-------X------------------- O"
    state = client.post(f"/api/games/{game_id}/position", json={"fen": fen}).json()
    assert state["fen"] == fen and state["moves"] == [] and state["turn"] == "white"
    client.delete(f"/api/games/{game_id}")


def test_engines_play_each_other_until_stopped(client: TestClient) -> None:
    game_id = new(client, game="english", players=["engine", "engine"])["id"]
    deadline = time.monotonic() + 60
    while len(client.get(f"/api/games/{game_id}").json()["moves"]) < 4:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    client.post(f"/api/games/{game_id}/stop")
    played = len(settle(client, game_id)["moves"])
    time.sleep(0.5)
    state = client.get(f"/api/games/{game_id}").json()
    assert state["paused"] and len(state["moves"]) == played
    response = client.post(f"/api/games/{game_id}/engine")
    if state["over"]:  # on a loaded machine the engines may finish the game before the stop
        assert response.status_code == 400 and "game is over" in response.json()["error"]
    else:
        assert response.status_code == 200, response.text
        state = response.json()
        assert state["thinking"] == "move" or len(state["moves"]) > played
    client.post(f"/api/games/{game_id}/stop")
    client.delete(f"/api/games/{game_id}")


@pytest.mark.parametrize("body, fragment", [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({}, "'game' must be given"),
    ({"game": "othello", "level": 99}, "level must be 1..20"),
    ({"game": "othello", "level": "3"}, "'level' must be a whole number"),
    ({"game": "othello", "level": True}, "'level' must be a whole number"),
    ({"game": "othello", "seconds": -1}, "seconds per move must be more than 0"),
    ({"game": "othello", "players": ["human"]}, "players must be two texts"),
    ({"game": "othello", "players": ["human", "cmd:"]}, "cmd"),
    ({"game": "othello", "fen": "xyz"}, "bad position string"),
    ({"game": "go9", "fen": 7}, "'fen' must be text"),
])
def test_bad_new_games_are_refused(client: TestClient, body: dict[str, Any],
                                   fragment: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400 and fragment in response.json()["error"], response.text


def test_bad_requests_to_a_game(client: TestClient) -> None:
    game_id = new(client, game="leiserchess", players=["human", "human"])["id"]
    url = f"/api/games/{game_id}"
    cases = [
        (client.post(f"{url}/move", json={"move": "z9z9"}), 400, "bad square 'z9'"),
        (client.post(f"{url}/move", json={"move": 7}), 400, "'move' must be given"),
        (client.post(f"{url}/move", content=b"{not json"), 400, "not JSON"),
        (client.post(f"{url}/move", content=b"[1, 2]"), 400, "JSON object"),
        (client.post(f"{url}/move", content=b"\xff\xfe"), 400, "not JSON"),
        (client.post(f"{url}/undo"), 400, "no move to take back"),
        (client.post(f"{url}/engine"), 400, "no engine is to move"),
        (client.post(f"{url}/position", json={"fen": "8/8 W"}), 400, "bad position"),
        (client.post(f"{url}/load", json={"text": "nonsense"}), 400,
         "cannot read this 6.172 game record: game 1, move 1"),
        (client.post(f"{url}/players", json={"first": "level:x", "second": "human"}), 400,
         "level"),
        (client.post(f"{url}/move", content=b"x" * (2 << 20)), 400, "too large"),
        (client.get("/api/games/nosuchgame"), 404, "no game 'nosuchgame'"),
        (client.post("/api/games/nosuchgame/move", json={"move": "e1e2"}), 404, "no game"),
    ]
    for response, status, fragment in cases:
        assert response.status_code == status and fragment in response.json()["error"], (
            response.status_code, response.text[:200])
    state = client.get(url).json()  # nothing was changed by the refused requests
    assert state["turn"] == "tangerine"  # Leiserchess's own names for the sides
    assert state["moves"] == [] and state["fen"] == GAMES["leiserchess"].kit().new_board().fen()
    client.delete(url)


def test_games_are_capped_and_closing_frees_them() -> None:
    with TestClient(create_app(Games(max_games=2))) as c:
        ids = [new(c, game="othello", players=["human", "human"])["id"] for _ in range(2)]
        refused = c.post("/api/games", json={"game": "othello"})
        assert refused.status_code == 400 and "2 games are open" in refused.json()["error"]
        c.post(f"/api/games/{ids[0]}/close")
        assert c.post("/api/games", json={"game": "othello"}).status_code == 201


def test_a_finished_go_game_is_scored_as_matches_score_it(client: TestClient) -> None:
    """Area with the dead stones judged and removed (the match runner's scoring), not the
    bare count of ``Board.result``."""
    from bitgames.go.cli import match_kit

    game_id = new(client, game="go9", players=["human", "human"])["id"]
    # a black wall on the D file, a lone white stone on B5 behind it: dead
    moves = ["D1", "B5"] + [m for rank in range(2, 10) for m in (f"D{rank}", "pass")] + ["pass"]
    for move in moves:
        state = client.post(f"/api/games/{game_id}/move", json={"move": move}).json()
    assert state["over"]
    board = GAMES["go9"].read(client.get(f"/api/games/{game_id}/record").text)
    expected = match_kit(size=9).final_result(board)[1]
    assert state["result"] == expected == "B+73.5"  # B5 removed: the A-C files are Black's
    assert board.result() == "B+45.5"  # the bare area count leaves them to no one
    client.delete(f"/api/games/{game_id}")
