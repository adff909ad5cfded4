"""A model's reading of a task as it answers the contract schema: what the tests of a model's
reading replay."""

from __future__ import annotations

from typing import Any


def answer(**fields: Any) -> dict[str, Any]:
    """A contract answer that replenishes with every list empty, `fields` over it."""
    base: dict[str, Any] = {
        "action": "replenish",
        "writes_allowed": True,
        "deferred": False,
        "warehouses": [],
        "exclude_warehouses": [],
        "skus": [],
        "exclude_skus": [],
        "quantities": [],
        "quantity_rule": None,
        "order_ids": [],
    }
    return {**base, **fields}
