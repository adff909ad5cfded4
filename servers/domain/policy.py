"""The replenishment policy: how much to order for a stock row, within the per-order limit."""

from __future__ import annotations

from store.models import StockLevel

__all__ = ["POLICY", "policy_cap", "policy_quantity", "policy_units"]

POLICY = (
    "without a quantity, the server orders enough to bring on_hand + on_order up to twice "
    "the reorder point, at least 1 unit (and at most at_most units, when given)"
)


def policy_quantity(level: StockLevel) -> int:
    """The replenishment quantity when the caller gives none: projected stock (on hand plus on
    order) up to twice the reorder point, at least one unit."""
    return policy_units(level.on_hand + level.on_order, level.reorder_point)


def policy_units(projected: int, reorder_point: int) -> int:
    """`policy_quantity` of projected stock (on hand plus on order) and a reorder point."""
    return max(1, 2 * reorder_point - projected)


def policy_cap(max_quantity: int, at_most: int | None) -> int:
    """The most a policy quantity may come to: the per-order limit, and `at_most` if given."""
    return min(max_quantity, at_most) if at_most is not None else max_quantity
