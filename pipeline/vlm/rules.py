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

from collections.abc import Sequence

from pipeline.contract import HELP, TaskContract, contract_in, only_unclear
from pipeline.models import JsonObject, Message, ModelResponse, ModelSettings, ToolCall, ToolSpec
from pipeline.screentext import screens_in
from pipeline.toolfacts import (
    CANCEL_TOOL,
    CREATE_TOOL,
    LIST_ORDERS_TOOL,
    Facts,
    from_messages,
    read_facts,
)
from pipeline.vlm.stock_plan import (
    live_reads,
    orders_to_create,
    plan_targets,
    scope_words,
    stock_summary,
)

__all__ = ["RulesModel"]


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
        plan = plan_targets(contract, screens, facts, offered)
        if plan.say is not None:
            return self._say(plan.say)
        if plan.calls:
            return self._call(list(plan.calls))
        reads = live_reads(plan.targets, contract, facts, offered)
        if reads:
            return self._call(reads)
        if contract.writes_allowed and CREATE_TOOL in offered:
            creates = orders_to_create(plan.targets, contract, facts)
            if creates:
                return self._call(creates)
        return self._say(
            stock_summary(plan.targets, contract, facts, ordering=CREATE_TOOL in offered)
        )

    def _cancel(self, contract: TaskContract, facts: Facts, offered: set[str]) -> ModelResponse:
        if CANCEL_TOOL not in offered:
            return self._say("I was not given a tool to cancel orders; nothing was cancelled.")
        single = contract.warehouses[0] if len(contract.warehouses) == 1 else None
        listings: list[tuple[str, JsonObject]] = []
        if LIST_ORDERS_TOOL in offered:
            if contract.order_ids and not facts.listed_orders(status="open"):
                listings.append((LIST_ORDERS_TOOL, {"status": "open", "limit": 500}))
            for sku in contract.skus:
                query: dict[str, str] = {"sku": sku, "status": "open"}
                if single is not None:
                    query["warehouse_id"] = single
                if not facts.listed_orders(**query):
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

    def _call(self, calls: list[tuple[str, JsonObject]]) -> ModelResponse:
        made = []
        for name, arguments in calls:
            self._counter += 1
            made.append(ToolCall(id=f"rules_{self._counter}", name=name, arguments=arguments))
        return ModelResponse(tool_calls=made, finish_reason="tool_calls", model=self.name)


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
            lines.append(f"{sku}: no open order{scope_words(contract)} to cancel")
    done = len([o for o in wanted if o in facts.cancelled])
    return "\n".join([f"Cancelled {done}.", *(f"- {line}" for line in lines)])
