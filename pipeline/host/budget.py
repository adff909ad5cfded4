"""The hop budget a run gets, from the work its contract implies, and whether its ledger
already covers that work when the budget runs out.

The rows in scope are the screens' rows the contract allows (and the SKUs it names that no
screen shows). A run may need a read of each warehouse, and a read and a write for each row it
may write (the rows the screen shows low, for a replenishment or an order; the orders or SKUs
named, for a cancel), plus slack for an answer, a bounce and a retry. The budget is that,
never less than the configured floor (`HostLimits.max_hops`) nor more than its ceiling
(`HostLimits.max_hops_ceiling`), and it is stated in the run record.

A run that reaches its budget without an answer is complete when every row it may write is
accounted for by the ledger (ordered, refused, queued, recorded in a dry run, or shown by a
live read to need no order, for a cancel: cancelled, refused or queued): it ends `done` with the
ledger summary, written by the host. Otherwise it ends `limit`, naming what is left. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from pipeline.contract import TaskContract
from pipeline.screentext import ScreenText
from pipeline.toolfacts import Facts

__all__ = [
    "SLACK",
    "HopBudget",
    "Pending",
    "Row",
    "hop_budget",
    "rows_in_scope",
    "uncovered",
    "unplaced",
]

SLACK = 4
"""Hops beyond the work: the answer, a bounce, a retry and one more."""


@dataclass(frozen=True)
class Row:
    """A row the contract covers: its SKU, the warehouse the screen (or the task) puts it in,
    and whether a write may be for it."""

    sku: str
    warehouse: str | None
    writable: bool


@dataclass(frozen=True)
class Pending:
    """Work the run may still do: an order to cancel, or a row to order (with its SKU)."""

    text: str
    """As the user reads it: `PO-000042`, `SKU-1 in WH-01`."""
    sku: str | None = None


class HopBudget(BaseModel):
    """The hops a run may take and the work they were counted from."""

    model_config = ConfigDict(frozen=True)

    hops: int
    rows: int
    """Rows in scope."""
    writes: int
    """Rows (or orders) a write may be for: a read and a write each."""
    warehouses: int
    slack: int
    floor: int
    ceiling: int

    def describe(self) -> str:
        return (
            f"{self.hops} hops: {self.warehouses} warehouse read(s), a read and a write for "
            f"each of {self.writes} of {self.rows} rows in scope, {self.slack} slack (at least "
            f"{self.floor}, at most {self.ceiling})"
        )


def _creates(contract: TaskContract) -> bool:
    return contract.writes_allowed and contract.action in ("replenish", "order")


def rows_in_scope(contract: TaskContract, screens: Sequence[ScreenText]) -> list[Row]:
    """The screens' rows the contract allows, then the SKUs it names that no screen shows."""
    rows: list[Row] = []
    seen: set[tuple[str, str | None]] = set()
    named = set(contract.quantities) | set(contract.skus)
    for screen in screens:
        for shown in screen.rows:
            warehouse = screen.warehouse_of(shown)
            if not shown.sku or not contract.allows_sku(shown.sku):
                continue
            if warehouse is not None and not contract.allows_warehouse(warehouse):
                continue
            key = (shown.sku, warehouse)
            if key in seen:
                continue
            seen.add(key)
            writable = _creates(contract) and (shown.low or shown.sku in named)
            rows.append(Row(shown.sku, warehouse, writable))
    on_screen = {sku for sku, _ in seen}
    only = contract.warehouses[0] if len(contract.warehouses) == 1 else None
    for sku in dict.fromkeys((*contract.skus, *contract.quantities)):
        if sku not in on_screen and contract.allows_sku(sku):
            rows.append(Row(sku, only, _creates(contract)))
    return rows


def unplaced(contract: TaskContract, screens: Sequence[ScreenText]) -> list[str]:
    """The SKUs a replenishment or an order would write that a screen shows without a
    warehouse, where no screen places them and the task names not exactly one warehouse. No
    write can be for them (the `scope` guard takes a row without a warehouse for a question,
    never a guess), so the run must ask which warehouse they are for."""
    if not _creates(contract) or len(contract.warehouses) == 1:
        return []
    named = set(contract.quantities) | set(contract.skus)
    placed: set[str] = set()
    bare: list[str] = []
    for screen in screens:
        for shown in screen.rows:
            if not shown.sku or not contract.allows_sku(shown.sku):
                continue
            if screen.warehouse_of(shown) is not None:
                placed.add(shown.sku)
            elif shown.low or shown.sku in named:
                bare.append(shown.sku)
    return [sku for sku in dict.fromkeys(bare) if sku not in placed]


def _writes(contract: TaskContract, rows: Sequence[Row]) -> int:
    if not contract.writes_allowed:
        return 0
    if contract.action == "cancel":
        return len(contract.order_ids) + len(contract.skus)
    return sum(1 for r in rows if r.writable)


def hop_budget(
    contract: TaskContract, screens: Sequence[ScreenText], *, floor: int, ceiling: int
) -> HopBudget:
    """The budget for a run of `contract` over `screens` (see the module docstring)."""
    rows = rows_in_scope(contract, screens)
    writes = _writes(contract, rows)
    places = {r.warehouse for r in rows if r.warehouse} | set(contract.warehouses)
    warehouses = max(1, len(places))
    work = warehouses + 2 * writes + SLACK
    hops = max(floor, min(ceiling, work))
    return HopBudget(
        hops=hops,
        rows=len(rows),
        writes=writes,
        warehouses=warehouses,
        slack=SLACK,
        floor=floor,
        ceiling=max(ceiling, floor),
    )


def _row_done(row: Row, facts: Facts) -> bool:
    def same(key: tuple[str, str]) -> bool:
        return key[0] == row.sku and (row.warehouse is None or key[1] == row.warehouse)

    if any(same(k) for k in (*facts.created, *facts.refusals, *facts.proposed)):
        return True
    places = (
        [row.warehouse] if row.warehouse else [str(a.get("warehouse_id")) for _, a in facts.dry_run]
    )
    if any(facts.recorded((row.sku, w)) for w in places):
        return True
    return any(same(k) and not level.needs_reorder for k, level in facts.live.items())


def uncovered(contract: TaskContract, rows: Sequence[Row], facts: Facts) -> list[Pending] | None:
    """What the run may still write and the ledger does not account for (empty: the work is
    done), or None when nothing can be said complete this way (a report, a task with no rows
    or orders to write)."""
    if not contract.writes_allowed:
        return None
    if contract.action == "cancel":
        if contract.skus or not contract.order_ids:
            return None
        done = {*facts.cancelled, *facts.cancel_errors, *facts.proposed_cancels}
        done |= {str(args.get("order_id")) for _, args in facts.dry_run}
        return [Pending(o) for o in contract.order_ids if o not in done]
    writable = [r for r in rows if r.writable]
    if not writable:
        return None
    return [
        Pending(f"{r.sku} in {r.warehouse}" if r.warehouse else r.sku, r.sku)
        for r in writable
        if not _row_done(r, facts)
    ]
