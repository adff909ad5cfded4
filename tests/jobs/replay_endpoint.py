"""A replay of an OpenAI-compatible model endpoint (a test double for the model only): it
answers by how far the conversation has got, and can hold one step until released.

Step 0 reads live stock, step 1 orders, step 2 answers. Each request gets the step that
the number of tool results in it names, so a run executed again replays the same calls.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["ReplayEndpoint", "replay_endpoint"]

SKU, WAREHOUSE = "SKU-10232", "WH-01"


def _call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"call-{name}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


STEPS = (
    _call("inventory_query_stock", {"warehouse_id": WAREHOUSE, "skus": [SKU]}),
    _call("orders_create_replenishment", {"warehouse_id": WAREHOUSE, "sku": SKU}),
    {"role": "assistant", "content": f"Replenishment for {SKU} in {WAREHOUSE} is on order."},
)


class ReplayEndpoint:
    def __init__(self, hold_step: int | None) -> None:
        self.hold_step = hold_step
        self.reached = threading.Event()
        """Set when a request for the held step arrives."""
        self.release = threading.Event()
        self.steps: list[int] = []
        self.url = ""


@contextmanager
def replay_endpoint(hold_step: int | None = None) -> Iterator[ReplayEndpoint]:
    endpoint = ReplayEndpoint(hold_step)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            step = min(sum(m.get("role") == "tool" for m in body["messages"]), len(STEPS) - 1)
            endpoint.steps.append(step)
            if step == endpoint.hold_step and not endpoint.release.is_set():
                endpoint.reached.set()
                endpoint.release.wait(timeout=120)
            message = STEPS[step]
            reply = {
                "id": "replay",
                "object": "chat.completion",
                "model": "replay",
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": "tool_calls" if "tool_calls" in message else "stop",
                    }
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
            }
            data = json.dumps(reply).encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the worker that asked was killed

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    endpoint.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        endpoint.release.set()
        server.shutdown()
        server.server_close()
