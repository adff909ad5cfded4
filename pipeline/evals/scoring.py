"""Scoring, as pure functions: the ledger after a run, the write calls a dry run recorded, or
the first tool call of one model request. Each verdict says why it passed or failed."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import jsonschema
from pydantic import TypeAdapter, ValidationError

from pipeline.evals.cases import WRITE_TOOLS, Case, ExpectedOrder, FirstCall
from pipeline.evals.scratch import Ledger
from pipeline.host import RunRecord, asks_user
from pipeline.jsonread import items, object_or_none
from pipeline.models import JsonValue, ModelResponse, ToolSpec
from servers import domain
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY

__all__ = [
    "Verdict",
    "WrittenOrder",
    "score_dry_run",
    "score_first_call",
    "score_ledger",
]

_INT = TypeAdapter(int)


@dataclass(frozen=True)
class Verdict:
    passed: bool
    reason: str
    wrong_write: bool = False
    """The run wrote what the task did not ask (an order or a cancel not expected, another
    quantity, a second order): worse than a miss, which writes less."""


@dataclass(frozen=True)
class WrittenOrder:
    sku: str
    warehouse_id: str
    quantity: int


def score_ledger(
    case: Case,
    before: Ledger,
    after: Ledger,
    record: RunRecord,
    *,
    max_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
) -> Verdict:
    """The store after the run: exactly the expected new orders and cancels, nothing else;
    `max_quantity` is the servers' per-order limit (it caps the policy's quantity)."""
    new = [o for oid, o in after.orders.items() if oid not in before.orders]
    cancelled = [
        oid
        for oid, o in after.orders.items()
        if oid in before.orders and before.orders[oid].status == "open" and o.status != "open"
    ]
    written = [WrittenOrder(o.sku, o.warehouse_id, o.quantity) for o in new]
    problems = [
        f"order {o.id} was created and cancelled in the run" for o in new if o.status != "open"
    ]
    return _verdict(case, written, cancelled, problems, before, record, max_quantity)


def score_dry_run(
    case: Case,
    before: Ledger,
    record: RunRecord,
    *,
    max_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
) -> Verdict:
    """The write calls a dry run recorded, read as the server would have to accept them.

    Stricter than the ledger on purpose: no server re-check stands between an intended order
    for a SKU that is not low and the score, and a write with arguments the server would
    reject is no order at all.
    """
    written: list[WrittenOrder] = []
    cancelled: list[str] = []
    problems: list[str] = []
    for call in record.tool_calls:
        if call.name not in WRITE_TOOLS or not call.dry_run or call.is_error:
            continue
        if call.name == "orders_cancel":
            order_id = call.arguments.get("order_id")
            target = before.orders.get(order_id) if isinstance(order_id, str) else None
            if target is not None and target.status == "open":
                cancelled.append(target.id)
            else:
                problems.append(f"a cancel the server would reject: {_short(call.arguments)}")
            continue
        if call.name != "orders_create_replenishment":
            problems.append(f"{call.name} {_short(call.arguments)}")
            continue
        orders = _as_orders(call.arguments, before, max_quantity)
        if orders is None:
            problems.append(f"a write the server would reject: {_short(call.arguments)}")
        else:
            written += orders
    return _verdict(case, written, cancelled, problems, before, record, max_quantity)


def _as_orders(
    arguments: Mapping[str, JsonValue], before: Ledger, max_quantity: int
) -> list[WrittenOrder] | None:
    """The orders a create call asks for: one SKU or several (`skus`) of one warehouse, each
    with the quantity given or, without one, the server's policy over the live numbers the
    run started from. None when the server would reject the call outright."""
    warehouse = arguments.get("warehouse_id")
    sku, skus = arguments.get("sku"), arguments.get("skus")
    if not isinstance(warehouse, str) or (sku is None) == (skus is None):
        return None
    found = [sku] if sku is not None else skus
    if not isinstance(found, list) or not all(isinstance(s, str) for s in found):
        return None
    wanted = [str(s) for s in found]
    given = arguments.get("quantity")
    at_most = arguments.get("at_most")
    orders: list[WrittenOrder] = []
    for one in wanted:
        if given is not None:
            try:
                quantity = _INT.validate_python(given)
            except ValidationError:
                return None
        else:
            level = before.live.get((one, warehouse))
            if level is None:
                return None
            limit = at_most if isinstance(at_most, int) and not isinstance(at_most, bool) else None
            quantity = min(domain.policy_quantity(level), domain.policy_cap(max_quantity, limit))
        orders.append(WrittenOrder(one, warehouse, quantity))
    return orders


def _verdict(
    case: Case,
    written: Sequence[WrittenOrder],
    cancelled: Sequence[str],
    problems: list[str],
    before: Ledger,
    record: RunRecord,
    max_quantity: int,
) -> Verdict:
    expect = case.expect
    # The problems given in are writes: created and cancelled, or that a server would reject.
    wrong = bool(problems)
    # A pass is a run that ended with an answer (or a question about its reading of the
    # task): a stopped or failed run (a dead endpoint) passes nothing, whatever it left the
    # ledger like.
    if record.status not in ("done", "ask"):
        problems.append(f"the run ended {record.status}: {_clip(record.final)}")
    elif not record.final.strip():
        problems.append("the run ended without an answer")
    missing_mentions = [m for m in expect.mentions if m not in record.final]
    if missing_mentions:
        problems.append(f"the answer does not name {', '.join(missing_mentions)}")
    wanted_cancels = set(expect.cancelled)
    if set(cancelled) != wanted_cancels:
        unasked = sorted(set(cancelled) - wanted_cancels)
        absent = sorted(wanted_cancels - set(cancelled))
        if unasked:
            problems.append(f"cancelled {', '.join(unasked)}")
            wrong = True
        if absent:
            problems.append(f"did not cancel {', '.join(absent)}")
    if expect.outcome != "orders":
        if written:
            problems.append("wrote " + _listing(written))
            wrong = True
        if expect.outcome == "ask" and record.status == "done" and not asks_user(record.final):
            problems.append(f"did not end with a question ({_clip(record.final)})")
        if problems:
            return Verdict(False, "; ".join(problems), wrong_write=wrong)
        passed = {
            "ask": "asked, wrote nothing",
            "cancel": f"cancelled {', '.join(expect.cancelled)} as expected",
            "no_writes": "no writes",
        }
        return Verdict(True, passed[expect.outcome])
    by_key: dict[tuple[str, str], list[WrittenOrder]] = defaultdict(list)
    for order in written:
        by_key[(order.sku, order.warehouse_id)].append(order)
    for wanted in expect.orders:
        got = by_key.pop((wanted.sku, wanted.warehouse_id), [])
        if not got:
            problems.append(f"missing {wanted.sku}@{wanted.warehouse_id}")
        elif len(got) > 1:
            problems.append(f"{len(got)} orders for {wanted.sku}@{wanted.warehouse_id}")
            wrong = True
        else:
            problem = _quantity_problem(wanted, got[0].quantity, before, max_quantity)
            if problem:
                problems.append(problem)
                wrong = True
    extra = [o for orders in by_key.values() for o in orders]
    if extra:
        problems.append("extra " + _listing(extra))
        wrong = True
    if problems:
        return Verdict(False, "; ".join(problems), wrong_write=wrong)
    return Verdict(True, f"{len(expect.orders)} orders as expected")


def _quantity_problem(
    wanted: ExpectedOrder, quantity: int, before: Ledger, max_quantity: int
) -> str | None:
    """An order's quantity against the task's own number (or rule, written as the number it
    gives), or, where the task gave none, exactly the servers' documented policy over the live
    numbers the run started from (`servers.domain.policy_quantity`, within the per-order
    limit): any other quantity is a write the user did not ask for."""
    where = f"{wanted.sku}@{wanted.warehouse_id}"
    if isinstance(wanted.quantity, int):
        if quantity != wanted.quantity:
            return f"{where} quantity {quantity}, expected {wanted.quantity}"
        return None
    level = before.live.get((wanted.sku, wanted.warehouse_id))
    if level is None:
        return f"{where}: no live stock row to check the quantity against"
    policy = min(domain.policy_quantity(level), max_quantity)
    if quantity != policy:
        return (
            f"{where} quantity {quantity}, expected {policy} (the policy: up to twice the "
            f"reorder point {level.reorder_point} from on_hand {level.on_hand} + on_order "
            f"{level.on_order})"
        )
    return None


def score_first_call(
    accepted: Sequence[FirstCall], response: ModelResponse, tools: Iterable[ToolSpec]
) -> Verdict:
    """The first tool call of a model's reply against the accepted first steps; its arguments
    are checked against the tool's schema, types included."""
    specs = {t.name: t for t in tools}
    if not response.tool_calls:
        if response.truncated:
            return Verdict(False, f"cut at the token limit: {_clip(response.content)}")
        if any(a.ask for a in accepted) and asks_user(response.content):
            return Verdict(True, "asked the user")
        if any(a.answer for a in accepted) and response.content.strip():
            return Verdict(True, f"answered: {_clip(response.content)}")
        return Verdict(False, f"no tool call: {_clip(response.content)}")
    call = response.tool_calls[0]
    shown = f"{call.name} {_short(call.arguments)}"
    if call.raw_arguments is not None and not call.arguments:
        return Verdict(
            False, f"{call.name} with arguments that are not JSON: {call.raw_arguments!r}"
        )
    spec = specs.get(call.name)
    if spec is None:
        return Verdict(False, f"called a tool that was not offered: {shown}")
    problem = _schema_problem(call.arguments, spec.input_schema)
    if problem:
        return Verdict(False, f"{shown}: {problem}")
    options = [o for o in accepted if o.name == call.name]
    if call.name in WRITE_TOOLS and not options:
        return Verdict(False, f"wrote before reading live stock: {shown}")
    for option in options:
        if _ids_fit(call.arguments, option):
            return Verdict(True, shown)
    return Verdict(False, f"not an accepted first step: {shown}")


def _schema_problem(
    arguments: Mapping[str, JsonValue], schema: Mapping[str, JsonValue]
) -> str | None:
    """The first way `arguments` break the tool's JSON Schema (missing or unknown fields,
    wrong types, out-of-range values), or None."""
    properties = object_or_none(schema.get("properties")) or {}
    missing = [str(k) for k in items(schema.get("required")) if k not in arguments]
    if missing:
        return f"missing {', '.join(missing)}"
    unknown = [k for k in arguments if properties and k not in properties]
    if unknown:
        return f"unknown field(s) {', '.join(unknown)}"
    validator = jsonschema.Draft202012Validator(dict(schema))
    errors = sorted(validator.iter_errors(dict(arguments)), key=lambda e: list(e.path))
    if not errors:
        return None
    error = errors[0]
    where = ".".join(str(p) for p in error.path)
    return f"{where or 'arguments'}: {error.message}"


def _ids_fit(arguments: Mapping[str, JsonValue], option: FirstCall) -> bool:
    warehouse, sku, skus, order_id = (
        arguments.get(k) for k in ("warehouse_id", "sku", "skus", "order_id")
    )
    if warehouse is not None and warehouse not in (option.warehouse_ids or ()):
        return False
    if sku is not None and sku not in (option.skus or ()):
        return False
    if order_id is not None and order_id not in (option.order_ids or ()):
        return False
    if skus is not None:
        if not isinstance(skus, list):
            return False
        return all(isinstance(s, str) and s in (option.skus or ()) for s in skus)
    return True


def _listing(orders: Sequence[WrittenOrder]) -> str:
    return ", ".join(f"{o.sku}@{o.warehouse_id} x{o.quantity}" for o in orders)


def _short(arguments: Mapping[str, JsonValue]) -> str:
    return _clip(json.dumps(arguments, ensure_ascii=False, sort_keys=True), 160)


def _clip(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
