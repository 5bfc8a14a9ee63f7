"""The web app served on 127.0.0.1 for the browser and load tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The address of a live server (uvicorn on a thread, a free port)."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")

    from bitgames.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(10)
