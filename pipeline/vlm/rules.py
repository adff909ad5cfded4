"""`rules`: the embedded default model. A deterministic planner that reads the task contract and
the screenshot tables from the conversation and calls tools exactly as a model would.

It works only from the messages it is sent (never from host internals): the task and the
contract block the host writes below it (`pipeline.contract`), the screens as ingest renders
them (`pipeline.screentext`), and the tool results (`pipeline.toolfacts`). So it exercises the
same path as a real model, and it is the fallback that does not depend on a model's cooperation.

Plan, re-derived from the conversation at every request:
- not understood: answer what was not understood and what can be asked instead; no call;
- `report`, `replenish`, `order`: the targets are the SKUs the task names, or else the rows the
  screenshots show low (the whole warehouse when the task asks beyond the screen), within the
  contract's warehouses and exclusions; read their live stock per warehouse (a named SKU the
  screen does not place is looked up with `inventory_get_item`); then, unless the task only
  asks to report, order each one still low live (`on_hand + on_order < reorder_point`): the
  quantity the task gives, or its rule, or no quantity at all, so the server's documented
  policy decides. A SKU named with an explicit quantity is sent even when it is not low live,
  so the server's re-check answers for it;
- `cancel`: list the open orders (of the named SKUs), then cancel the ones the task names;
- answer with what it did, what it skipped and why, with the live numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.contract import HELP, TaskContract, contract_in, only_unclear
from pipeline.models import Message, ModelResponse, ModelSettings, ToolCall, ToolSpec
from pipeline.screentext import ScreenRow, ScreenText, screens_in
from pipeline.toolfacts import (
    CANCEL_TOOL,
    CREATE_TOOL,
    GET_ITEM_TOOL,
    LIST_ORDERS_TOOL,
    LIST_WAREHOUSES_TOOL,
    QUERY_TOOL,
    Facts,
    Live,
    from_messages,
    read_facts,
)

__all__ = ["RulesModel"]


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
    calls: tuple[tuple[str, dict[str, Any]], ...] = ()
    say: str | None = None


class RulesModel:
    """Deterministic; never invents data; asks the user when the screen cannot say."""

    name = "rules"

    def __init__(self) -> None:
        self._counter = 0

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        offered = {t.name for t in tools}
        contract = contract_in(messages)
        left_out = [n for n in contract.notes if n.startswith("left ")]
        if not contract.understood and not only_unclear(contract):
            return self._say(
                "I did not act on this request: "
                + "; ".join(contract.not_understood)
                + ". "
                + "".join(f"I {n}. " for n in left_out)
                + "Nothing was written. "
                + HELP
            )
        response = self._plan(contract, messages, offered)
        if contract.understood or response.tool_calls:
            return response
        # Words it could not account for: a report of what the rest asks, saying so.
        caveat = (
            "I only reported and wrote nothing: "
            + "; ".join(contract.not_understood)
            + ". "
            + "".join(f"I {n}. " for n in left_out)
            + HELP
        )
        return self._say(caveat + "\n" + response.content)

    def _plan(
        self, contract: TaskContract, messages: Sequence[Message], offered: set[str]
    ) -> ModelResponse:
        facts = read_facts(from_messages(messages))
        if contract.action == "cancel":
            return self._cancel(contract, facts, offered)
        screens = screens_in(messages)
        plan = _targets(contract, screens, facts, offered)
        if plan.say is not None:
            return self._say(plan.say)
        if plan.calls:
            return self._call(list(plan.calls))
        reads = _reads(plan.targets, contract, facts, offered)
        if reads:
            return self._call(reads)
        if contract.writes_allowed and CREATE_TOOL in offered:
            creates = _creates(plan.targets, contract, facts)
            if creates:
                return self._call(creates)
        return self._say(_summary(plan.targets, contract, facts, ordering=CREATE_TOOL in offered))

    def _cancel(self, contract: TaskContract, facts: Facts, offered: set[str]) -> ModelResponse:
        if CANCEL_TOOL not in offered:
            return self._say("I was not given a tool to cancel orders; nothing was cancelled.")
        single = contract.warehouses[0] if len(contract.warehouses) == 1 else None
        listings: list[tuple[str, dict[str, Any]]] = []
        if LIST_ORDERS_TOOL in offered:
            if contract.order_ids and not facts.listed_orders(status="open"):
                listings.append((LIST_ORDERS_TOOL, {"status": "open", "limit": 500}))
            for sku in contract.skus:
                query: dict[str, Any] = {"sku": sku, "status": "open"}
                if single is not None:
                    query["warehouse_id"] = single
                if not facts.listed_orders(**{k: v for k, v in query.items()}):
                    listings.append((LIST_ORDERS_TOOL, {**query, "limit": 500}))
        if listings:
            return self._call(listings)
        wanted = _cancel_targets(contract, facts, listed=LIST_ORDERS_TOOL in offered)
        todo = [
            order_id
            for order_id in wanted
            if order_id not in facts.cancelled
            and order_id not in facts.cancel_errors
            and order_id not in facts.proposed_cancels
            and not facts.recorded_cancel(order_id)
        ]
        if todo:
            return self._call([(CANCEL_TOOL, {"order_id": order_id}) for order_id in todo])
        return self._say(_cancel_summary(contract, facts, wanted))

    def _say(self, text: str) -> ModelResponse:
        return ModelResponse(content=text, finish_reason="stop", model=self.name)

    def _call(self, calls: list[tuple[str, dict[str, Any]]]) -> ModelResponse:
        made = []
        for name, arguments in calls:
            self._counter += 1
            made.append(ToolCall(id=f"rules_{self._counter}", name=name, arguments=arguments))
        return ModelResponse(tool_calls=made, finish_reason="tool_calls", model=self.name)


# ---- stock: report, replenish, order


def _scope(contract: TaskContract) -> str:
    parts = []
    if contract.warehouses:
        parts.append("in " + ", ".join(contract.warehouses))
    if contract.skus:
        parts.append("among " + ", ".join(contract.skus))
    if contract.exclude_skus or contract.exclude_warehouses:
        parts.append("except " + ", ".join([*contract.exclude_skus, *contract.exclude_warehouses]))
    return (" " + " ".join(parts)) if parts else ""


def _targets(
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
            say=f"No SKU on the screenshot{_scope(contract)} is below its reorder point; "
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
            say=f"Nothing is below its reorder point in {', '.join(warehouses)}{_scope(contract)}"
            f" now{why}."
        )
    return _Plan(targets=tuple(targets))


def _stamp(screen: ScreenText, row: ScreenRow) -> str:
    """When the row was seen: its own capture in a merged view, else the screen's."""
    return screen.captured_at_of(row).isoformat(timespec="seconds")


def _add(targets: list[_Target], target: _Target) -> None:
    if all((t.sku, t.warehouse) != (target.sku, target.warehouse) for t in targets):
        targets.append(target)


def _reads(
    targets: Sequence[_Target], contract: TaskContract, facts: Facts, offered: set[str]
) -> list[tuple[str, dict[str, Any]]]:
    if QUERY_TOOL not in offered:
        return []
    by_warehouse: dict[str, list[str]] = {}
    for target in targets:
        if (target.sku, target.warehouse) not in facts.live:
            by_warehouse.setdefault(target.warehouse, []).append(target.sku)
    return [
        (QUERY_TOOL, {"warehouse_id": w, "skus": skus})
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
    if not live.needs_reorder:
        return None
    rule = contract.quantity_rule
    if rule is not None and rule.kind == "up_to":
        wanted = math.ceil(rule.value * live.reorder_point) - live.projected
        return wanted if wanted >= 1 else None
    return _POLICY


def _creates(
    targets: Sequence[_Target], contract: TaskContract, facts: Facts
) -> list[tuple[str, dict[str, Any]]]:
    creates: list[tuple[str, dict[str, Any]]] = []
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
        arguments: dict[str, Any] = {"sku": target.sku, "warehouse_id": target.warehouse}
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


def _summary(
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
        head = (
            f"{low_now} of {len(targets)} SKUs{_scope(contract)} are low now; nothing was ordered."
        )
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


# ---- cancel


def _cancel_targets(contract: TaskContract, facts: Facts, *, listed: bool) -> list[str]:
    """Order ids to cancel: the named ones (open in the listing, when one was read) and the
    open orders of the named SKUs in the task's warehouses."""
    wanted: list[str] = []
    for order_id in contract.order_ids:
        order = facts.orders.get(order_id)
        if not listed or (order is not None and order.status == "open"):
            wanted.append(order_id)
    for order in facts.orders.values():
        if (
            order.sku in contract.skus
            and order.status == "open"
            and contract.allows_warehouse(order.warehouse_id)
            and order.id not in wanted
        ):
            wanted.append(order.id)
    wanted += [o for o in facts.cancelled if o not in wanted]
    return wanted


def _cancel_summary(contract: TaskContract, facts: Facts, wanted: Sequence[str]) -> str:
    lines: list[str] = []
    for order_id in wanted:
        if order_id in facts.proposed_cancels:
            lines.append(
                f"cancel of {order_id} waiting for approval as {facts.proposed_cancels[order_id]}"
            )
        elif order_id in facts.cancelled:
            order = facts.cancelled[order_id]
            lines.append(
                f"cancelled {order_id} ({order.sku} in {order.warehouse_id}, {order.quantity})"
            )
        elif order_id in facts.cancel_errors:
            lines.append(f"{order_id} not cancelled: {facts.cancel_errors[order_id]}")
    for order_id in contract.order_ids:
        if order_id not in wanted:
            known = facts.orders.get(order_id)
            state = f"it is {known.status}" if known else "no open order has this id"
            lines.append(f"{order_id} not cancelled: {state}")
    for sku in contract.skus:
        if not any(facts.orders[o].sku == sku for o in wanted if o in facts.orders):
            lines.append(f"{sku}: no open order{_scope(contract)} to cancel")
    done = len([o for o in wanted if o in facts.cancelled])
    return "\n".join([f"Cancelled {done}.", *(f"- {line}" for line in lines)])
