"""`freshness`: a write for a SKU that the run only knows from a screenshot older than the limit,
with no live read of that SKU in that warehouse since. The live read comes first.

A live read is a stock read that returned that SKU's row in that warehouse
(`inventory_query_stock` or `inventory_get_item`); a result that merely mentions the SKU
(`SKU-1023` inside `SKU-10232`, an `orders_list`) is no live read."""

from __future__ import annotations

from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.host.record import executed_facts
from pipeline.models import ToolCall

__all__ = ["freshness"]


def freshness(call: ToolCall, state: GuardState) -> CallDecision:
    spec = state.tools.get(call.name)
    sku, warehouse = call.arguments.get("sku"), call.arguments.get("warehouse_id")
    if spec is None or spec.read_only or not isinstance(sku, str):
        return CallDecision()
    seen = [s for s in state.screens if sku in s.skus and s.captured_at is not None]
    if not seen:
        return CallDecision()
    newest = max(seen, key=lambda s: s.captured_at or state.now)
    assert newest.captured_at is not None
    age = (state.now - newest.captured_at).total_seconds()
    if age <= state.freshness_limit_s:
        return CallDecision()
    live = executed_facts(state.calls).live
    read_live = (
        (sku, warehouse) in live
        if isinstance(warehouse, str)
        else any(key[0] == sku for key in live)
    )
    if read_live:
        return CallDecision()
    return CallDecision(
        "block",
        message=f"Blocked: {sku} is known only from {newest.name}, captured "
        f"{newest.captured_at.isoformat(timespec='seconds')} ({age / 3600:.1f} h ago). Read its "
        f"live stock in {warehouse if isinstance(warehouse, str) else 'its warehouse'} with "
        "inventory_query_stock first, then decide.",
    )
