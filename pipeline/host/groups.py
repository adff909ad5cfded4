"""Choose the tool groups a task needs, once, at the start of a run.

Changing the tool list between hops rewrites the prompt prefix and throws away a runtime's
prefix cache, so the choice is made from the task alone and kept for the whole run.
"""

from __future__ import annotations

import re

__all__ = ["ALL_GROUPS", "choose_groups"]

ALL_GROUPS = ("inventory", "orders", "warehouses")

_INTENTS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        re.compile(
            r"replenish|re-?order|restock|top[- ]?up|purchase|raise .*orders?|create .*orders?|"
            r"place .*orders?|\border\b|\borders\b|cancel|补货|补充|下单|订货|采购|订单|取消",
            re.IGNORECASE,
        ),
        ("inventory", "orders", "warehouses"),
    ),
    (
        re.compile(
            r"stock|inventory|low|short|on hand|level|sku|item|库存|缺货|不足|低于|警戒|商品",
            re.IGNORECASE,
        ),
        ("inventory", "warehouses"),
    ),
    (re.compile(r"warehouse|location|site|仓库|库房", re.IGNORECASE), ("warehouses",)),
)


def choose_groups(task: str) -> tuple[str, ...]:
    """Groups in a fixed order; a task that names nothing gets the read-only inventory view."""
    chosen: set[str] = set()
    for pattern, groups in _INTENTS:
        if pattern.search(task):
            chosen.update(groups)
    if not chosen:
        chosen = {"inventory", "warehouses"}
    return tuple(g for g in ALL_GROUPS if g in chosen)
