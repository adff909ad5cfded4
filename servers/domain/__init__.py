"""The rules behind the tools, as plain functions over a `Store`.

Reads check their ids and return live numbers. Writes run in one store write transaction
that re-reads everything they decide on, and leave an audit entry whether they are
accepted or refused; a refusal raises `Refused` after its audit entry is committed.
`now` is passed in so that callers (and tests) own the clock.

The package, by concern: `reads` (ids checked, live numbers), `finding` (items by SKU, code
or name), `writes` (replenishments and cancellations, audited), `policy` (how much to order),
`loading` (CSV import and seed) and
`base` (the audit actions, the id checks and the audited write every rule shares). Callers
use the names here.
"""

from __future__ import annotations

from servers.domain.base import CANCEL, CREATE, IMPORT, SEED, check_quantity
from servers.domain.finding import find_items, match_items
from servers.domain.loading import import_records, seed
from servers.domain.policy import POLICY, policy_cap, policy_quantity, policy_units
from servers.domain.reads import (
    audit_log,
    get_item,
    get_order,
    get_warehouse,
    list_orders,
    list_warehouses,
    live_level,
    planned_order,
    query_stock,
)
from servers.domain.writes import (
    ORDER_CANCELLED,
    ORDER_CREATED,
    cancel_order,
    create_replenishment,
    create_replenishments,
    live_refusal,
    not_low,
    order_key,
)

__all__ = [
    "CANCEL",
    "CREATE",
    "IMPORT",
    "ORDER_CANCELLED",
    "ORDER_CREATED",
    "POLICY",
    "SEED",
    "audit_log",
    "cancel_order",
    "check_quantity",
    "create_replenishment",
    "create_replenishments",
    "find_items",
    "get_item",
    "get_order",
    "get_warehouse",
    "import_records",
    "list_orders",
    "list_warehouses",
    "live_level",
    "live_refusal",
    "match_items",
    "not_low",
    "order_key",
    "planned_order",
    "policy_cap",
    "policy_quantity",
    "policy_units",
    "query_stock",
    "seed",
]
