"""`scope`: a write the task contract does not allow. The contract is the user's words read by
the host; this guard holds every write call to it, whatever the model was told or decided.

Blocked, with what the task allows: any write when the task only asks to report; an order
under a cancel or a cancel under an order; an order for an excluded SKU, a SKU the task does
not name (when it names some), a SKU no screenshot shows (when the task is about the screen),
another warehouse (than the task's, or, when the task names none, than the one the screenshot
shows the SKU in: a row without a warehouse is a question for the user, not a guess), or a
quantity other than the one asked (or above the task's rule, given the live numbers this run
read); an order for a SKU outside the task's on-hand condition ("anything under 50 on hand"),
or, under that condition or a stock level to reach, before this run read the SKU's live
numbers; a cancel of an order the task does not name, or (for a cancel by SKU) of an order
this run has not seen listed for that SKU.
"""

from __future__ import annotations

from pipeline.contract import QuantityRule, TaskContract
from pipeline.host.guards.base import CallDecision, GuardState
from pipeline.host.record import executed_facts
from pipeline.models import JsonObject, ToolCall
from pipeline.screentext import placement_problem, screens_in
from pipeline.toolfacts import CANCEL_TOOL, CREATE_TOOL, Live

__all__ = ["scope"]


def _block(message: str) -> CallDecision:
    return CallDecision("block", message=f"Blocked by the task contract: {message}")


def scope(call: ToolCall, state: GuardState) -> CallDecision:
    contract = state.contract
    spec = state.tools.get(call.name)
    # A write tool the run does not offer is still a write: held here as well as refused as
    # an unknown tool.
    write = not spec.read_only if spec is not None else call.name in (CREATE_TOOL, CANCEL_TOOL)
    if contract is None or not write:
        return CallDecision()
    if not contract.writes_allowed:
        why = (
            "; ".join(contract.not_understood)
            if contract.not_understood
            else "the task asks only for a report"
        )
        return _block(
            f"no write may run in this task ({why}). Read what you need and answer; do not "
            f"call {call.name}."
        )
    if call.name == CREATE_TOOL:
        return _create(call, contract, state)
    if call.name == CANCEL_TOOL:
        return _cancel(call, contract, state)
    return _block(f"{call.name} is not an action this task asks for ({contract.action}).")


def _wanted(arguments: JsonObject) -> list[str]:
    """The SKUs a create names (`sku`, or a list of strings `skus`); none when malformed."""
    sku, skus = arguments.get("sku"), arguments.get("skus")
    if isinstance(sku, str):
        return [sku]
    if isinstance(skus, list) and all(isinstance(s, str) for s in skus):
        return [str(s) for s in skus]
    return []


def _create(call: ToolCall, contract: TaskContract, state: GuardState) -> CallDecision:
    if contract.action not in ("replenish", "order"):
        return _block(f"the task asks to {contract.action}, not to create orders.")
    warehouse = call.arguments.get("warehouse_id")
    wanted = _wanted(call.arguments)
    if not isinstance(warehouse, str) or not wanted:
        return CallDecision()  # malformed arguments are the schema's and the server's to refuse
    if not contract.allows_warehouse(warehouse):
        allowed = (
            f"only {', '.join(contract.warehouses)}"
            if contract.warehouses
            else f"not {', '.join(contract.exclude_warehouses)}"
        )
        return _block(f"{warehouse} is outside the task's warehouses ({allowed}).")
    facts = executed_facts(state.calls)
    shown = {s for screen in state.screens for s in screen.skus}
    quantity = call.arguments.get("quantity")
    at_most = call.arguments.get("at_most")
    screens = screens_in(state.messages)
    for one in wanted:
        keys = {k for screen in state.screens for k in screen.shown_as.get(one, ())}
        problem = _sku_problem(
            one, warehouse, (quantity, at_most), contract, shown, state, facts.live
        ) or placement_problem(
            one, warehouse, screens, contract.warehouses, contract.screen_only, keys
        )
        if problem:
            return _block(problem)
    return CallDecision()


def _sku_problem(
    sku: str,
    warehouse: str,
    sizes: tuple[object, object],
    contract: TaskContract,
    shown: set[str],
    state: GuardState,
    live: dict[tuple[str, str], Live],
) -> str | None:
    """What is wrong with ordering `sku`; `sizes` are the call's `quantity` and `at_most`."""
    quantity, at_most = sizes
    if sku in contract.exclude_skus:
        return f"the task excludes {sku}; do not order it."
    if contract.skus and sku not in contract.skus:
        return f"the task names only {', '.join(contract.skus)}; {sku} is not one of them."
    if contract.screen_only and not contract.skus and sku not in shown:
        where = "on the screenshot" if state.screens else "named: no screenshot came with the task"
        return f"{sku} is not {where}; the task is about the SKUs the screen shows."
    asked = contract.quantity_for(sku)
    if asked is not None and quantity != asked:
        return f"the task asks for exactly {asked} units of {sku}; send quantity {asked}."
    rule = contract.quantity_rule
    if rule is not None and rule.kind == "at_most":
        cap = int(rule.value)
        if isinstance(quantity, int):
            if quantity > cap:
                return f"the task allows at most {cap} units of {sku}; send at most {cap}."
        elif not isinstance(at_most, int) or at_most > cap:
            return (
                f"the task allows at most {cap} units each; without a quantity the server's "
                f"policy may order more: send at_most {cap} for {sku}."
            )
    stock = live.get((sku, warehouse))
    below = contract.on_hand_below
    if below is not None:
        if stock is None:
            return (
                f"the task orders only SKUs with fewer than {below} on hand; read the live "
                f"stock of {sku} in {warehouse} (inventory_query_stock) first."
            )
        if not contract.allows_on_hand(stock.on_hand):
            return (
                f"the task orders only SKUs with fewer than {below} on hand; {sku} has "
                f"{stock.on_hand} in {warehouse}."
            )
    if rule is not None and rule.kind in ("up_to", "level"):
        return _level_problem(sku, warehouse, quantity, rule, stock)
    return None


def _level_problem(
    sku: str, warehouse: str, quantity: object, rule: QuantityRule, stock: Live | None
) -> str | None:
    """What is wrong with an order under a rule that fills stock up to a level (a multiple of
    the reorder point, or a number of units), given the live numbers this run read."""
    said = (
        f"a stock level of {rule.value:g} units"
        if rule.kind == "level"
        else f"{rule.value:g} x the reorder point"
    )
    if stock is None:
        if rule.kind == "up_to":
            return None  # a multiple of the reorder point is held once the stock is read
        return (
            f"the task brings stock up to {rule.value:g} units; read the live stock of "
            f"{sku} in {warehouse} (inventory_query_stock) first."
        )
    target = rule.target(stock.reorder_point)
    if target is None:
        return None
    most = target - stock.projected
    if most < 1:
        return f"the task's rule leaves nothing to order for {sku} ({stock.numbers()})."
    if not isinstance(quantity, int):
        # Without a quantity the server's policy orders up to twice the reorder point.
        if rule.kind == "up_to" and rule.value >= 2:
            return None
        return (
            f"the task orders only up to {said}; without a quantity the server would order "
            f"another amount; send quantity {most} for {sku}."
        )
    if quantity > most:
        return (
            f"the task allows up to {said}: at most {most} units of {sku} in {warehouse} "
            f"({stock.numbers()})."
        )
    return None


def _cancel(call: ToolCall, contract: TaskContract, state: GuardState) -> CallDecision:
    if contract.action != "cancel":
        return _block("the task does not ask to cancel anything.")
    order_id = call.arguments.get("order_id")
    if not isinstance(order_id, str):
        return CallDecision()
    if order_id in contract.order_ids:
        return CallDecision()
    if not contract.skus:
        return _block(f"the task names only {', '.join(contract.order_ids)} to cancel.")
    order = executed_facts(state.calls).orders.get(order_id)
    if order is None:
        return _block(
            f"the task cancels the orders of {', '.join(contract.skus)}; list them with "
            f"orders_list first so the host can check that {order_id} is one of them."
        )
    if order.sku not in contract.skus or not contract.allows_warehouse(order.warehouse_id):
        return _block(
            f"{order_id} is for {order.sku} in {order.warehouse_id}; the task cancels only the "
            f"orders of {', '.join(contract.skus)}"
            + (f" in {', '.join(contract.warehouses)}" if contract.warehouses else "")
            + "."
        )
    return CallDecision()
