"""MCP over HTTP lets no one in without the token or under another Host, and a run whose task
needs only read-only groups never executes a write, whatever the model asks for."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from pipeline.contract import parse_task
from pipeline.host.groups import choose_groups
from pipeline.host.loop import HostLimits
from pipeline.vlm.scripted import ScriptedModel
from servers import domain
from servers.models import ReplenishmentRequest
from store.models import OrderQuery
from store.stores import sqlite_store
from tests import mcp_http
from tests.api.serve import seed
from tests.hardening.conftest import FIGURES, GROUPS, PROFILE, examples, run_on
from tests.host.conftest import SEEDED_AT
from tests.servers.test_http_app import http_server

TOKEN = "hardening-token"
ACCEPT = {**mcp_http.ACCEPT, "Content-Type": "application/json"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`python -m servers all --transport http --port 0` with a token, on a seeded store."""
    db = seed(tmp_path_factory.mktemp("mcp-http") / "stockshot.db")
    with http_server("all", db, token=TOKEN) as base:
        yield base


def post(url: str, **headers: str) -> httpx.Response:
    return httpx.post(url, json=mcp_http.INITIALIZE, headers={**ACCEPT, **headers}, timeout=30)


@pytest.mark.parametrize("group", GROUPS)
@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong", f"Bearer {TOKEN}x", f"Basic {TOKEN}", TOKEN, "Bearer"],
    ids=["none", "wrong", "longer", "basic", "bare", "empty"],
)
def test_an_mcp_request_without_the_token_gets_401_on_every_group(
    served: str, group: str, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    response = post(f"{served}/{group}/mcp", **headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == 'Bearer realm="stockshot"'


@pytest.mark.parametrize("group", GROUPS)
def test_an_mcp_request_under_another_host_name_gets_421_even_with_the_token(
    served: str, group: str
) -> None:
    # What a page rebound by DNS to 127.0.0.1 sends: its own name as Host, its own Origin.
    bearer = f"Bearer {TOKEN}"
    port = served.rsplit(":", 1)[1]
    rebound = post(
        f"{served}/{group}/mcp",
        Authorization=bearer,
        Host=f"attacker.example:{port}",
        Origin=f"http://attacker.example:{port}",
    )
    foreign_origin = post(
        f"{served}/{group}/mcp", Authorization=bearer, Origin="http://attacker.example"
    )
    own = post(f"{served}/{group}/mcp", Authorization=bearer)
    assert rebound.status_code == 421
    assert foreign_origin.status_code == 403
    assert own.status_code == 200
    FIGURES["MCP over HTTP"] = {
        "no or wrong token": 401,
        "another Host": rebound.status_code,
        "another Origin": foreign_origin.status_code,
        "token and own Host": own.status_code,
    }


# ---- read-only selections


READ_ONLY_TASKS = (
    "show me the stock levels for WH-01",
    "which SKUs are low on this screen?",
    "list the warehouses",
    "库存是多少",
    "what does this screenshot say",
    "Which SKUs are low? Do not place any orders, just tell me.",
    "先别下单，看看哪些缺货",
    "replenish nothing, just report what is low",
)
WRITES: dict[str, dict[str, Any]] = {
    "orders_create_replenishment": {
        "sku": "SKU-10232",
        "warehouse_id": "WH-01",
        "quantity": 100,
        "idempotency_key": "read-only-test",
    },
    "orders_cancel": {"order_id": "PO-000001"},
}


def as_turn(kind: str, name: str, arguments: dict[str, Any], n: int) -> dict[str, Any]:
    """One assistant turn asking for `name`: as a proper tool call, or written in prose."""
    if kind == "prose":
        call = json.dumps({"name": name, "arguments": arguments})
        return {"content": f"<tool_call>{call}</tool_call>", "tool_calls": []}
    return {
        "content": "",
        "tool_calls": [
            {
                "id": f"call-{n}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


@pytest.fixture(scope="module")
def read_only_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = seed(tmp_path_factory.mktemp("read-only") / "stockshot.db")
    with sqlite_store(db) as store:
        # One open order, so a cancel has something it could cancel.
        domain.create_replenishment(
            store,
            ReplenishmentRequest(sku="SKU-10318", warehouse_id="WH-01", quantity=10),
            max_quantity=1000,
            now=SEEDED_AT,
        )
    return db


def ledger(db: Path) -> tuple[list[tuple[str, str]], int]:
    with sqlite_store(db) as store:
        orders = domain.list_orders(store, OrderQuery(limit=500)).orders
        audit = domain.audit_log(store, limit=500)
    return [(o.id, o.status) for o in orders], len(audit)


def test_every_read_only_task_selects_no_group_with_a_write_tool() -> None:
    for task in READ_ONLY_TASKS:
        assert "orders" not in choose_groups(parse_task(task)), task


def test_a_read_only_run_never_executes_a_write_whatever_the_model_asks(
    read_only_db: Path,
) -> None:
    before = ledger(read_only_db)
    attempts: list[str] = []

    @settings(settings.get_profile(PROFILE), max_examples=examples(25, 300))
    @given(
        task=st.sampled_from(READ_ONLY_TASKS),
        asks=st.lists(
            st.tuples(st.sampled_from(sorted(WRITES)), st.sampled_from(["call", "prose"])),
            min_size=1,
            max_size=4,
        ),
    )
    def fuzz(task: str, asks: list[tuple[str, str]]) -> None:
        turns = [as_turn(kind, name, WRITES[name], n) for n, (name, kind) in enumerate(asks)]
        record = _run(read_only_db, task, turns)
        assert "orders" not in record.groups
        attempts.extend(c.name for c in record.tool_calls if c.name in WRITES)
        for call in record.tool_calls:
            if call.name in WRITES:
                assert call.is_error, call
                assert "tools of this run are" in call.result or not call.executed, call

    fuzz()
    assert attempts, "no write request reached the host"
    assert ledger(read_only_db) == before
    FIGURES["read-only runs"] = {
        "write calls refused": len(attempts),
        "writes executed": 0,
    }


def _run(db: Path, task: str, turns: list[dict[str, Any]]) -> Any:
    async def go() -> Any:
        with sqlite_store(db) as store:
            # Only the task's selection of groups decides what the run may call.
            return await run_on(
                store,
                task=task,
                model=ScriptedModel(turns),
                limits=HostLimits(max_hops=len(turns) + 2, wall_clock_s=30),
            )

    return asyncio.run(go())
