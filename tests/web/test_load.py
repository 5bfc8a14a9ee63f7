"""Many games at once on a live server (127.0.0.1): each client plays moves against the
engine and waits for the answers, all at the same time. Every game must finish its moves
within the time bound with no error, and once the games are closed the server's memory
must be back near where it was after one game of each kind (no engine left behind).

``python -m tests.web.test_load [GAMES]`` prints the figures docs/PERFORMANCE.md records.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")

KINDS = ["othello", "english", "russian", "go9", "leiserchess"]


def resident_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def answer(response: Any) -> Any:
    """The JSON of a successful response; a failed one fails the test with the server's
    own words (its ``error``), not only the status."""
    assert response.is_success, (response.request.method, str(response.request.url),
                                 response.status_code, response.text)
    return response.json()


def play(server: str, kind: str, moves: int = 3, timeout: float = 120.0) -> int:
    """One client: a game of ``kind`` against the engine at level 1, ``moves`` of the
    person's moves, each answered; the game closed. Returns the moves on the board."""
    with httpx.Client(base_url=server, timeout=30) as client:
        state: dict[str, Any] = answer(client.post("/api/games",
                                                   json={"game": kind, "level": 1}))
        deadline = time.monotonic() + timeout
        for _ in range(moves):
            if state["over"]:
                break
            clicked = [m for m in state["legal"] if m["squares"]] or state["legal"]
            state = answer(client.post(f"/api/games/{state['id']}/move",
                                       json={"move": clicked[0]["move"]}))
            while state["thinking"] or (state["to_move"] != "human" and not state["over"]):
                assert time.monotonic() < deadline, f"{kind}: no answer in time"
                time.sleep(0.05)
                state = answer(client.get(f"/api/games/{state['id']}"))
            assert state["error"] is None, state["error"]
        answer(client.delete(f"/api/games/{state['id']}"))
        return len(state["moves"])


def load(server: str, games: int, rounds: int = 2) -> dict[str, Any]:
    """``rounds`` times ``games`` games at once; the seconds of each round and the
    server's memory (MB) before the first and after each."""
    for kind in KINDS:  # warm-up: every kind's kernels loaded once
        play(server, kind, moves=1)
    figures: dict[str, Any] = {"games": games, "seconds": [], "rss_mb": [round(resident_mb())]}
    for _ in range(rounds):
        start = time.monotonic()
        with ThreadPoolExecutor(games) as pool:
            played = list(pool.map(lambda i: play(server, KINDS[i % len(KINDS)]),
                                   range(games)))
        figures["seconds"].append(round(time.monotonic() - start, 1))
        figures["rss_mb"].append(round(resident_mb()))
        assert all(n >= 2 for n in played), played
    return figures


@pytest.mark.slow
def test_forty_games_at_once(server: str) -> None:
    figures = load(server, 40)
    assert max(figures["seconds"]) < 120, figures
    first, *after = figures["rss_mb"]
    assert max(after) - first < 150, figures  # closed games give their memory back


if __name__ == "__main__":
    import threading

    import uvicorn

    from bitgames.web.app import create_app

    instance = uvicorn.Server(uvicorn.Config(create_app(), port=8765, log_level="warning"))
    threading.Thread(target=instance.run, daemon=True).start()
    while not instance.started:
        time.sleep(0.05)
    print(load("http://127.0.0.1:8765", int(sys.argv[1]) if len(sys.argv) > 1 else 40))
    instance.should_exit = True
