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
    if spec is None or spec.read_only:
        return CallDecision()
    sku, skus = call.arguments.get("sku"), call.arguments.get("skus")
    warehouse = call.arguments.get("warehouse_id")
    wanted = [sku] if isinstance(sku, str) else skus if isinstance(skus, list) else []
    live: set[tuple[str, str]] | None = None
    for one in (s for s in wanted if isinstance(s, str)):
        seen = [s for s in state.screens if one in s.skus and s.captured_at is not None]
        if not seen:
            continue
        newest = max(seen, key=lambda s: s.captured_at or state.now)
        assert newest.captured_at is not None
        age = (state.now - newest.captured_at).total_seconds()
        if age <= state.freshness_limit_s:
            continue
        if live is None:
            live = set(executed_facts(state.calls).live)
        read_live = (
            (one, warehouse) in live
            if isinstance(warehouse, str)
            else any(key[0] == one for key in live)
        )
        if read_live:
            continue
        where = warehouse if isinstance(warehouse, str) else "its warehouse"
        return CallDecision(
            "block",
            message=f"Blocked: {one} is known only from {newest.name}, captured "
            f"{newest.captured_at.isoformat(timespec='seconds')} ({age / 3600:.1f} h ago). Read "
            f"its live stock in {where} with inventory_query_stock first, then decide.",
        )
    return CallDecision()
