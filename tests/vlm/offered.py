"""The live-stock read that the adapter and step tests offer a model, as its server names it."""

from __future__ import annotations

from typing import Any

from pipeline.models import ToolSpec

__all__ = ["query_stock"]


def query_stock(**properties: dict[str, Any]) -> ToolSpec:
    """`inventory_query_stock`: a read of one warehouse's live stock, with a required
    `warehouse_id` and the optional `properties` a test's schema adds."""
    return ToolSpec(
        name="inventory_query_stock",
        group="inventory",
        read_only=True,
        description="Live stock in one warehouse.",
        input_schema={
            "type": "object",
            "properties": {"warehouse_id": {"type": "string"}, **properties},
            "required": ["warehouse_id"],
        },
    )
