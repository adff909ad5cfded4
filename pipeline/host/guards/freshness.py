"""`freshness`: a write for a SKU that the run only knows from a screenshot older than the limit,
with no live read of that SKU since. The live read comes first."""

from __future__ import annotations

from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.models import ToolCall

__all__ = ["freshness"]


def freshness(call: ToolCall, state: GuardState) -> CallDecision:
    spec = state.tools.get(call.name)
    sku = call.arguments.get("sku")
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
    read_live = any(
        record.executed
        and not record.is_error
        and state.tools.get(record.name, spec).read_only
        and sku in record.result
        for record in state.calls
    )
    if read_live:
        return CallDecision()
    return CallDecision(
        "block",
        message=f"Blocked: {sku} is known only from {newest.name}, captured "
        f"{newest.captured_at.isoformat(timespec='seconds')} ({age / 3600:.1f} h ago). Read its "
        "live stock with inventory_query_stock first, then decide.",
    )
