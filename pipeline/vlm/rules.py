"""`rules`: the embedded default model. A deterministic planner that reads the screenshot table
from the conversation and calls tools exactly as a model would.

It works only from the messages it is sent (never from host internals), so it exercises the same
path as a real model, and it is the fallback that does not depend on a model's cooperation.

Plan, re-derived from the conversation at every request:
1. list warehouses (when the tool is offered), so ids can be checked;
2. query live stock, per warehouse, for the rows the screenshot shows low;
3. for each SKU still low live (on_hand + on_order < reorder_point), raise one replenishment
   order; quantity policy: bring projected stock (on_hand + on_order) up to twice the reorder
   point, at least one unit;
4. answer with what it ordered, what it skipped and why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.models import Message, ModelResponse, ModelSettings, ToolCall, ToolSpec

__all__ = ["RulesModel", "Screen", "ScreenRow", "parse_screens", "reorder_quantity"]

_CAPTURED = re.compile(r"Screenshot captured at (\S+) \(a past view\)")
_PAGE_WAREHOUSE = re.compile(r"\b(WH-\d{1,3})\b")


@dataclass(frozen=True)
class ScreenRow:
    sku: str
    warehouse_id: str | None
    on_hand: int | None
    reorder_point: int | None
    low: bool


@dataclass
class Screen:
    captured_at: str | None
    rows: list[ScreenRow] = field(default_factory=list)
    page_warehouse: str | None = None
    """The one warehouse id this screen's `Page:` line names, if exactly one."""


def reorder_quantity(on_hand: int, on_order: int, reorder_point: int) -> int:
    """Bring projected stock up to twice the reorder point."""
    return max(1, 2 * reorder_point - (on_hand + on_order))


def _int(text: str) -> int | None:
    digits = text.replace(",", "").strip()
    return int(digits) if digits.lstrip("-").isdigit() else None


def parse_screens(messages: Sequence[Message]) -> list[Screen]:
    """Every screenshot table the user sent, in the Markdown the ingest renders."""
    screens: list[Screen] = []
    for message in messages:
        if message.role != "user":
            continue
        current: Screen | None = None
        header: list[str] | None = None
        for line in message.content.splitlines():
            if match := _CAPTURED.search(line):
                current = Screen(captured_at=match[1])
                screens.append(current)
                header = None
                continue
            if current is not None and line.startswith("Page:"):
                found = set(_PAGE_WAREHOUSE.findall(line))
                current.page_warehouse = found.pop() if len(found) == 1 else None
            if current is None or not line.startswith("|"):
                header = None if not line.startswith("|") else header
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
                continue
            if set("".join(cells)) <= set("-: "):
                continue
            values = dict(zip(header, cells, strict=False))
            if not values.get("sku"):
                continue
            current.rows.append(
                ScreenRow(
                    sku=values["sku"],
                    warehouse_id=values.get("warehouse_id") or None,
                    on_hand=_int(values.get("on_hand", "")),
                    reorder_point=_int(values.get("reorder_point", "")),
                    low=values.get("low", "").lower() == "yes",
                )
            )
    return [s for s in screens if s.rows]


@dataclass
class _Ledger:
    """What the tool results in the conversation established so far."""

    listed: bool = False
    warehouses: list[str] | None = None
    live: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    missing: dict[tuple[str, str], str] = field(default_factory=dict)
    queried: set[str] = field(default_factory=set)
    query_errors: dict[str, str] = field(default_factory=dict)
    orders: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    refusals: dict[tuple[str, str], str] = field(default_factory=dict)


def _read_ledger(messages: Sequence[Message]) -> _Ledger:
    ledger = _Ledger()
    calls: dict[str, ToolCall] = {}
    for message in messages:
        for call in message.tool_calls:
            calls[call.id] = call
        if message.role != "tool" or message.tool_call_id not in calls:
            continue
        call = calls[message.tool_call_id]
        data = _json(message.content)
        if call.name == "warehouses_list":
            ledger.listed = True
            if not message.is_error and data:
                ledger.warehouses = [w["warehouse_id"] for w in data.get("warehouses", [])]
        elif call.name == "inventory_query_stock":
            warehouse = str(call.arguments.get("warehouse_id", ""))
            ledger.queried.add(warehouse)
            if message.is_error or not data:
                ledger.query_errors[warehouse] = message.content
                continue
            for item in data.get("items", []):
                ledger.live[(item["sku"], item["warehouse_id"])] = item
            for missing in data.get("not_found", []):
                ledger.missing[(missing["sku"], warehouse)] = missing.get("message", "not found")
        elif call.name == "orders_create_replenishment":
            key = (str(call.arguments.get("sku")), str(call.arguments.get("warehouse_id")))
            if message.is_error or not data:
                ledger.refusals[key] = message.content
            else:
                ledger.orders[key] = data
    return ledger


def _json(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    return value if isinstance(value, dict) else None


class RulesModel:
    """Deterministic; never invents data; asks the user when the screen cannot say."""

    name = "rules"

    def __init__(self) -> None:
        self._counter = 0

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        offered = {t.name for t in tools}
        screens = parse_screens(messages)
        if not screens:
            return self._say(
                "I found no inventory table in what you sent. Please attach a screenshot of a "
                "stock list (SKU, on hand, reorder point, warehouse)."
            )
        ledger = _read_ledger(messages)
        low: list[tuple[ScreenRow, str | None, str | None]] = []
        seen: set[tuple[str, str | None]] = set()
        for screen in screens:
            for row in screen.rows:
                warehouse = row.warehouse_id or screen.page_warehouse
                if row.low and (row.sku, warehouse) not in seen:
                    seen.add((row.sku, warehouse))
                    low.append((row, warehouse, screen.captured_at))
        if not low:
            return self._say("No SKU on the screenshot is below its reorder point; nothing to do.")
        if "warehouses_list" in offered and not ledger.listed:
            return self._call([("warehouses_list", {})])
        unplaced = [row.sku for row, warehouse, _ in low if warehouse is None]
        if unplaced:
            known = ", ".join(ledger.warehouses or []) or "unknown"
            return self._say(
                f"The screenshot does not say which warehouse {', '.join(unplaced)} "
                f"belong to. Which warehouse is this screen for? (warehouses: {known})"
            )
        by_warehouse: dict[str, list[str]] = {}
        for row, warehouse, _ in low:
            assert warehouse is not None
            by_warehouse.setdefault(warehouse, []).append(row.sku)
        if "inventory_query_stock" in offered:
            pending = [w for w in sorted(by_warehouse) if w not in ledger.queried]
            if pending:
                return self._call(
                    [
                        ("inventory_query_stock", {"warehouse_id": w, "skus": by_warehouse[w]})
                        for w in pending
                    ]
                )
        creates: list[tuple[str, dict[str, Any]]] = []
        if "orders_create_replenishment" in offered:
            for row, warehouse, captured_at in low:
                assert warehouse is not None
                key = (row.sku, warehouse)
                live = ledger.live.get(key)
                if live is None or key in ledger.orders or key in ledger.refusals:
                    continue
                if live["on_hand"] + live["on_order"] >= live["reorder_point"]:
                    continue
                arguments: dict[str, Any] = {
                    "sku": row.sku,
                    "warehouse_id": warehouse,
                    "quantity": reorder_quantity(
                        live["on_hand"], live["on_order"], live["reorder_point"]
                    ),
                    "idempotency_key": f"replenish-{row.sku}-{warehouse}-{captured_at or 'now'}",
                }
                if row.on_hand is not None:
                    arguments["observed_on_hand"] = row.on_hand
                if captured_at:
                    arguments["observed_at"] = captured_at
                creates.append(("orders_create_replenishment", arguments))
        if creates:
            return self._call(creates)
        return self._say(_summary(low, ledger, ordering="orders_create_replenishment" in offered))

    def _say(self, text: str) -> ModelResponse:
        return ModelResponse(content=text, finish_reason="stop", model=self.name)

    def _call(self, calls: list[tuple[str, dict[str, Any]]]) -> ModelResponse:
        made = []
        for name, arguments in calls:
            self._counter += 1
            made.append(ToolCall(id=f"rules_{self._counter}", name=name, arguments=arguments))
        return ModelResponse(tool_calls=made, finish_reason="tool_calls", model=self.name)


def _summary(
    low: list[tuple[ScreenRow, str | None, str | None]], ledger: _Ledger, *, ordering: bool
) -> str:
    ordered: list[str] = []
    skipped: list[str] = []
    for row, warehouse, _ in low:
        assert warehouse is not None
        key = (row.sku, warehouse)
        shown = f"screen showed {row.on_hand}" if row.on_hand is not None else "screen showed low"
        if key in ledger.orders:
            order = ledger.orders[key].get("order", {})
            ordered.append(
                f"{row.sku} in {warehouse}: ordered {order.get('quantity')} "
                f"({order.get('order_id', order.get('id', 'order'))})"
            )
        elif key in ledger.refusals:
            skipped.append(
                f"{row.sku} in {warehouse}: refused by the server: {ledger.refusals[key]}"
            )
        elif key in ledger.missing:
            skipped.append(f"{row.sku} in {warehouse}: {ledger.missing[key]}")
        elif warehouse in ledger.query_errors:
            skipped.append(f"{row.sku} in {warehouse}: {ledger.query_errors[warehouse]}")
        elif key in ledger.live:
            live = ledger.live[key]
            if live["on_hand"] >= live["reorder_point"]:
                skipped.append(
                    f"{row.sku} in {warehouse}: not low any more: live on_hand "
                    f"{live['on_hand']} >= reorder_point {live['reorder_point']} ({shown})"
                )
            elif live["on_hand"] + live["on_order"] >= live["reorder_point"]:
                skipped.append(
                    f"{row.sku} in {warehouse}: already covered by {live['on_order']} on order: "
                    f"on_hand {live['on_hand']} + on_order {live['on_order']} >= reorder_point "
                    f"{live['reorder_point']}"
                )
            elif not ordering:
                skipped.append(
                    f"{row.sku} in {warehouse}: still low live (on_hand {live['on_hand']}, "
                    f"on_order {live['on_order']}, reorder_point {live['reorder_point']}); "
                    "no ordering tools were offered"
                )
        else:
            skipped.append(f"{row.sku} in {warehouse}: live stock was not available")
    lines = [f"Ordered {len(ordered)}, skipped {len(skipped)}."]
    lines += [f"- ordered: {o}" for o in ordered]
    lines += [f"- skipped: {s}" for s in skipped]
    return "\n".join(lines)
