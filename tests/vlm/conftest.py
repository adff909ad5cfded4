"""The local chat-completions endpoint, started once per module, and an HTTP client."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Route

from tests.vlm.chat_endpoint import FakeEndpoint


@pytest.fixture(scope="module")
def server() -> Iterator[FakeEndpoint]:
    endpoint = FakeEndpoint()
    app = Starlette(
        routes=[
            Route("/v1/chat/completions", endpoint.completions, methods=["POST"]),
            Route("/health", endpoint.health),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not uv.started:
            assert thread.is_alive(), "the test server thread died while starting"
            assert time.monotonic() < deadline, "the test server did not start within 10 s"
            # The socket already listens: this waits in the backlog until uvicorn serves it.
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=1, trust_env=False)
            except httpx.TransportError:
                continue
        endpoint.base_url = f"http://127.0.0.1:{port}/v1"
        yield endpoint
    finally:
        uv.should_exit = True
        thread.join(timeout=10)
        sock.close()
        assert not thread.is_alive(), "the test server did not stop within 10 s"


@pytest.fixture
def endpoint(server: FakeEndpoint) -> Iterator[FakeEndpoint]:
    server.received.clear()
    server.replies.clear()
    yield server
    assert not server.replies, "a canned reply was never requested"


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(trust_env=False) as client:
        yield client
