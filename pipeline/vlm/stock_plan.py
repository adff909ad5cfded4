"""The rules model's plan for stock tasks (report, replenish, order): the targets (the SKUs
the task names, or the rows the screenshots show low, within the contract's warehouses and
exclusions), their live reads, the orders for those still low live, and the answer with the
live numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.contract import TaskContract
from pipeline.models import JsonObject
from pipeline.screentext import ScreenRow, ScreenText
from pipeline.toolfacts import (
    CREATE_TOOL,
    GET_ITEM_TOOL,
    LIST_WAREHOUSES_TOOL,
    QUERY_TOOL,
    Facts,
    Live,
)

__all__ = ["live_reads", "orders_to_create", "plan_targets", "scope_words", "stock_summary"]


@dataclass(frozen=True)
class _Target:
    sku: str
    warehouse: str
    row: ScreenRow | None = None
    captured_at: str | None = None


@dataclass(frozen=True)
class _Plan:
    """Targets placed in a warehouse, or a reason to stop and say something."""

    targets: tuple[_Target, ...] = ()
    calls: tuple[tuple[str, JsonObject], ...] = ()
    say: str | None = None


# ---- stock: report, replenish, order


def scope_words(contract: TaskContract) -> str:
    parts = []
    if contract.warehouses:
        parts.append("in " + ", ".join(contract.warehouses))
    if contract.skus:
        parts.append("among " + ", ".join(contract.skus))
    if contract.exclude_skus or contract.exclude_warehouses:
        parts.append("except " + ", ".join([*contract.exclude_skus, *contract.exclude_warehouses]))
    return (" " + " ".join(parts)) if parts else ""


def plan_targets(
    contract: TaskContract, screens: Sequence[ScreenText], facts: Facts, offered: set[str]
) -> _Plan:
    if contract.skus:
        return _named_targets(contract, screens, facts, offered)
    if not screens:
        return _Plan(
            say="I found no inventory table in what you sent. Please attach a screenshot of a "
            "stock list (SKU, on hand, reorder point, warehouse)."
        )
    if not contract.screen_only:
        return _warehouse_targets(contract, screens, facts, offered)
    targets: list[_Target] = []
    unplaced: list[str] = []
    single = contract.warehouses[0] if len(contract.warehouses) == 1 else None
    for screen in screens:
        for row in screen.rows:
            if not row.low or row.sku is None or not contract.allows_sku(row.sku):
                continue
            warehouse = screen.warehouse_of(row) or single
            if warehouse is None:
                unplaced.append(row.sku)
                continue
            if not contract.allows_warehouse(warehouse):
                continue
            _add(targets, _Target(row.sku, warehouse, row, _stamp(screen, row)))
    if unplaced:
        if LIST_WAREHOUSES_TOOL in offered and not facts.warehouses_listed:
            return _Plan(calls=((LIST_WAREHOUSES_TOOL, {}),))
        known = ", ".join(facts.warehouses or []) or "unknown"
        return _Plan(
            say=f"The screenshot does not say which warehouse {', '.join(dict.fromkeys(unplaced))} "
            f"belong to. Which warehouse is this screen for? (warehouses: {known})"
        )
    if not targets:
        return _Plan(
            say=f"No SKU on the screenshot{scope_words(contract)} is below its reorder point; "
            "nothing to do."
        )
    return _Plan(targets=tuple(targets))


def _named_targets(
    contract: TaskContract, screens: Sequence[ScreenText], facts: Facts, offered: set[str]
) -> _Plan:
    """The SKUs the task names, each in the warehouse the screens, the task or a lookup give."""
    targets: list[_Target] = []
    lookups: list[str] = []
    problems: list[str] = []
    for sku in contract.skus:
        placed = [
            _Target(sku, warehouse, row, _stamp(screen, row))
            for screen in screens
            for row in screen.rows
            if row.sku == sku
            and (warehouse := screen.warehouse_of(row)) is not None
            and contract.allows_warehouse(warehouse)
        ]
        if not placed and contract.warehouses:
            placed = [_Target(sku, w) for w in contract.warehouses]
        if not placed and sku in facts.located:
            where = [w for w in facts.located[sku] if contract.allows_warehouse(w)]
            if len(where) == 1:
                placed = [_Target(sku, where[0])]
            elif where:
                problems.append(
                    f"{sku} is stocked in {', '.join(where)}: which warehouse do you mean?"
                )
                continue
            else:
                problems.append(f"{sku} is not stocked in any warehouse the task allows")
                continue
        if not placed and sku in facts.item_errors:
            problems.append(f"{sku}: {facts.item_errors[sku]}")
            continue
        if not placed:
            if GET_ITEM_TOOL in offered:
                lookups.append(sku)
                continue
            problems.append(f"which warehouse is {sku} for?")
            continue
        for target in placed:
            _add(targets, target)
    if lookups:
        return _Plan(calls=tuple((GET_ITEM_TOOL, {"sku": sku}) for sku in lookups))
    if problems:
        # One open question stops the whole request: nothing is ordered on a guess.
        return _Plan(say="Nothing was ordered. " + " ".join(problems))
    return _Plan(targets=tuple(targets))


def _warehouse_targets(
    contract: TaskContract, screens: Sequence[ScreenText], facts: Facts, offered: set[str]
) -> _Plan:
    """Beyond the screen: every SKU low live in the warehouses the task or the screens name."""
    named = list(contract.warehouses) or sorted(
        {w for s in screens for row in s.rows if (w := s.warehouse_of(row)) is not None}
    )
    warehouses = [w for w in named if contract.allows_warehouse(w)]
    if not warehouses:
        return _Plan(say="Which warehouse should I look at? The task and the screen name none.")
    if QUERY_TOOL in offered:
        pending = [w for w in warehouses if w not in facts.queried]
        if pending:
            return _Plan(calls=tuple((QUERY_TOOL, {"warehouse_id": w}) for w in pending))
    targets: list[_Target] = []
    rows = {
        (row.sku, s.warehouse_of(row)): (row, _stamp(s, row)) for s in screens for row in s.rows
    }
    for (sku, warehouse), live in sorted(facts.live.items()):
        if warehouse in warehouses and live.needs_reorder and contract.allows_sku(sku):
            row, stamp = rows.get((sku, warehouse), (None, None))
            targets.append(_Target(sku, warehouse, row, stamp))
    if not targets:
        errors = [f"{w}: {facts.query_errors[w]}" for w in warehouses if w in facts.query_errors]
        why = f" ({'; '.join(errors)})" if errors else ""
        return _Plan(
            say="Nothing is below its reorder point in "
            f"{', '.join(warehouses)}{scope_words(contract)} now{why}."
        )
    return _Plan(targets=tuple(targets))


def _stamp(screen: ScreenText, row: ScreenRow) -> str:
    """When the row was seen: its own capture in a merged view, else the screen's."""
    return screen.captured_at_of(row).isoformat(timespec="seconds")


def _add(targets: list[_Target], target: _Target) -> None:
    if all((t.sku, t.warehouse) != (target.sku, target.warehouse) for t in targets):
        targets.append(target)


def live_reads(
    targets: Sequence[_Target], contract: TaskContract, facts: Facts, offered: set[str]
) -> list[tuple[str, JsonObject]]:
    if QUERY_TOOL not in offered:
        return []
    by_warehouse: dict[str, list[str]] = {}
    for target in targets:
        if (target.sku, target.warehouse) not in facts.live:
            by_warehouse.setdefault(target.warehouse, []).append(target.sku)
    return [
        (QUERY_TOOL, {"warehouse_id": w, "skus": [*skus]})
        for w, skus in sorted(by_warehouse.items())
        if w not in facts.queried
    ]


_POLICY = 0
"""Order, and leave the quantity to the server's policy."""


def _quantity(target: _Target, contract: TaskContract, live: Live) -> int | None:
    """Units to order for `target` (`_POLICY`: the server decides), or None: no order."""
    explicit = contract.quantity_for(target.sku)
    if explicit is not None:
        named = target.sku in contract.skus and target.sku in contract.quantities
        return explicit if live.needs_reorder or named else None
    if not live.needs_reorder or not contract.allows_on_hand(live.on_hand):
        return None
    rule = contract.quantity_rule
    level = rule.target(live.reorder_point) if rule is not None else None
    if level is not None:
        wanted = level - live.projected
        return wanted if wanted >= 1 else None
    return _POLICY


def orders_to_create(
    targets: Sequence[_Target], contract: TaskContract, facts: Facts
) -> list[tuple[str, JsonObject]]:
    creates: list[tuple[str, JsonObject]] = []
    for target in targets:
        key = (target.sku, target.warehouse)
        live = facts.live.get(key)
        done = (
            key in facts.created
            or key in facts.refusals
            or key in facts.proposed
            or facts.recorded(key)
        )
        if live is None or done:
            continue
        quantity = _quantity(target, contract, live)
        if quantity is None:
            continue
        arguments: JsonObject = {"sku": target.sku, "warehouse_id": target.warehouse}
        if quantity != _POLICY:
            arguments["quantity"] = quantity
        elif contract.quantity_rule is not None and contract.quantity_rule.kind == "at_most":
            arguments["at_most"] = int(contract.quantity_rule.value)
        if target.captured_at:
            suffix = f"-q{quantity}" if contract.quantity_for(target.sku) is not None else ""
            arguments["idempotency_key"] = (
                f"replenish-{target.sku}-{target.warehouse}-{target.captured_at}{suffix}"
            )
        if target.row is not None and target.row.on_hand is not None:
            arguments["observed_on_hand"] = target.row.on_hand
        if target.captured_at:
            arguments["observed_at"] = target.captured_at
        creates.append((CREATE_TOOL, arguments))
    return creates


def stock_summary(
    targets: Sequence[_Target], contract: TaskContract, facts: Facts, *, ordering: bool
) -> str:
    report = contract.action == "report"
    ordered: list[str] = []
    earlier: list[str] = []
    proposed: list[str] = []
    lines: list[str] = []
    low_now = 0
    for target in targets:
        key = (target.sku, target.warehouse)
        where = f"{target.sku} in {target.warehouse}"
        shown = (
            f" (screen showed {target.row.on_hand})"
            if target.row is not None and target.row.on_hand is not None
            else ""
        )
        live = facts.live.get(key)
        if key in facts.created and facts.created[key].id not in facts.new_orders:
            # The request's idempotency key returned an order made before, not by this run.
            order = facts.created[key]
            state = ", since cancelled" if order.status == "cancelled" else ""
            earlier.append(f"{where}: {order.id} for {order.quantity} (made before{state})")
        elif key in facts.created:
            order = facts.created[key]
            ordered.append(f"{where}: ordered {order.quantity} ({order.id})")
        elif facts.recorded(key):
            ordered.append(f"{where}: recorded in the dry run, not ordered")
        elif key in facts.proposed:
            proposal = facts.proposed[key]
            units = facts.proposed_quantities.get(proposal)
            amount = f"{units} units" if units is not None else "an order"
            proposed.append(f"{where}: {amount}, waiting for approval as {proposal}")
        elif key in facts.refusals:
            lines.append(f"{where}: refused by the server: {facts.refusals[key]}")
        elif key in facts.missing:
            lines.append(f"{where}: {facts.missing[key]}")
        elif target.warehouse in facts.query_errors:
            lines.append(f"{where}: {facts.query_errors[target.warehouse]}")
        elif live is None:
            lines.append(f"{where}: live stock was not available")
        elif live.needs_reorder:
            low_now += 1
            if report or not contract.writes_allowed:
                lines.append(f"{where}: low now: {live.numbers()}{shown}")
            elif not ordering:
                lines.append(
                    f"{where}: still low live ({live.numbers()}); no ordering tools were offered"
                )
            else:
                lines.append(f"{where}: low now, not ordered: {live.numbers()}")
        elif live.on_hand >= live.reorder_point:
            lines.append(
                f"{where}: not low any more: live on_hand {live.on_hand} >= reorder_point "
                f"{live.reorder_point}{shown}"
            )
        else:
            lines.append(
                f"{where}: already covered by {live.on_order} on order: {live.numbers()}{shown}"
            )
    if report:
        low = f"{low_now} of {len(targets)} SKUs{scope_words(contract)} are low now"
        head = f"{low}; nothing was ordered."
        return "\n".join([head, *(f"- {line}" for line in lines)])
    head = f"Ordered {len(ordered)}, skipped {len(lines)}."
    if proposed:
        head = (
            f"Proposed {len(proposed)} for approval, ordered {len(ordered)}, skipped {len(lines)}."
        )
    if earlier:
        head += f" Already ordered by this same request before: {len(earlier)}."
    return "\n".join(
        [
            head,
            *(f"- ordered: {o}" for o in ordered),
            *(f"- already ordered: {e}" for e in earlier),
            *(f"- proposed: {p}" for p in proposed),
            *(f"- skipped: {s}" for s in lines),
        ]
    )
