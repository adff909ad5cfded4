"""The task, read before a run starts: by the reader with the store's warehouse names, and by
the model too when it can answer under a JSON Schema (an `openai` endpoint). The final
contract follows `pipeline.contract.settle`: when the reader accounted for every word, its
reading is the one the run acts on, and a model's reading that differs is recorded and said
in the answer ("the model read this as …; the run followed the request as written"), never
intersected into it. Where the reader did not account for every word, the final contract is
the meet of its fallback and the model's reading (a model can narrow, never widen), and the
model's reading is kept as the `suggested` contract: what a person may confirm. A model that
does not answer, or answers outside the schema, leaves the reader's reading in force, with a
note saying why.

Every reading goes into the run record (`contract_readings`): the reader's contract, its
fallback (what its understood clauses allow), the model's, the suggestion, and the final one
with a note of what of the model's reading it did not take.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from pipeline.contract import (
    ContractAnswer,
    ContractReading,
    Question,
    TaskContract,
    TaskReading,
    ids_in,
    offer,
    read_task,
    settle,
    widenings,
)
from pipeline.errors import ToolServerError
from pipeline.host.toolbox import Toolbox
from pipeline.jsonread import items
from pipeline.models import JsonObject, JsonValue, Message, ModelSettings, Usage
from pipeline.screentext import parse_screens
from pipeline.toolfacts import LIST_WAREHOUSES_TOOL
from pipeline.vlm.base import Model, SchemaAnswerer

__all__ = [
    "CONTRACT_SCHEMA",
    "READING_TOKENS",
    "Settled",
    "contract_prompt",
    "contract_schema",
    "model_reading",
    "screen_items",
    "settle_task",
    "warehouse_names",
]

log = logging.getLogger(__name__)

READING_TOKENS = 384
"""The room a model is given to read a task."""


def _inline(schema: JsonObject) -> JsonObject:
    """The schema with its `$defs` written in place and every property required, without
    titles and descriptions: what a server turns into a grammar."""
    defs = _object(schema.get("$defs", {}))

    def walk(node: JsonValue) -> JsonValue:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return walk(defs[ref.rsplit("/", 1)[-1]])
            out = {
                k: walk(v) for k, v in node.items() if k not in ("$defs", "title", "description")
            }
            properties = out.get("properties")
            if out.get("type") == "object" and isinstance(properties, dict):
                out["required"] = list(properties)
            return out
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    return _object(walk(schema))


def _object(value: JsonValue, *path: str) -> JsonObject:
    """The object at `path` inside `value`, a schema of our own (any other shape is a bug)."""
    for key in path:
        value = _object(value)[key]
    if not isinstance(value, dict):
        raise TypeError(f"not an object at {'/'.join(path) or 'the top'}: {value!r}")
    return value


CONTRACT_SCHEMA: JsonObject = _inline(ContractAnswer.model_json_schema())
"""The JSON Schema of a model's reading, from `ContractAnswer`."""

_ID_LISTS = {
    "skus": "S",
    "exclude_skus": "S",
    "warehouses": "W",
    "exclude_warehouses": "W",
    "order_ids": "O",
}


def contract_schema(task: str, names: Mapping[str, str]) -> JsonObject:
    """`CONTRACT_SCHEMA` with every id field an enum of the ids the task can mean: the SKUs
    and orders it names, and the warehouses it names or the store knows. A reading can then
    only name what the task says, and a grammar-constrained server decodes it quickly."""
    found = ids_in(task)
    known: dict[str, list[JsonValue]] = {
        "S": [*found["S"]],
        "W": [*sorted({*found["W"], *names.values()})],
        "O": [*found["O"]],
    }
    schema = _object(json.loads(json.dumps(CONTRACT_SCHEMA)))
    properties = _object(schema, "properties")
    for name, kind in _ID_LISTS.items():
        values = known[kind]
        properties[name] = (
            {"type": "array", "items": {"type": "string", "enum": values}}
            if values
            else {"type": "array", "maxItems": 0, "items": {"type": "string"}}
        )
    quantity = _object(properties, "quantities", "items", "properties")
    if known["S"]:
        quantity["sku"] = {"type": "string", "enum": known["S"]}
    else:
        properties["quantities"] = {"type": "array", "maxItems": 0, "items": {"type": "object"}}
    return schema


_INSTRUCTIONS = """You read one request a user sent to stockshot, an inventory assistant that \
can report stock, raise replenishment orders and cancel orders. Answer with the JSON object \
the schema asks for: what the request allows stockshot to do now.
- action: report (look and answer only), replenish (order what is low), order (order named \
SKUs, usually with quantities) or cancel (cancel orders).
- writes_allowed: true only if the user asks stockshot to order or cancel now. A request to \
look, list or report, a request that says not to order, one that puts the action off \
(later, next week, tomorrow), one where the user will order themselves, and one that asks \
what would happen allow no writes.
- deferred: true when the request puts the action off, leaves it to the user, or asks \
hypothetically.
- warehouses, skus: only those the request limits the action to; empty means any.
- exclude_warehouses, exclude_skus: those the request leaves out, in any words.
- quantities: units the request gives for a SKU. quantity_rule: the same units for every SKU \
(each), up to a multiple of the reorder point (up_to), at most so many units each \
(at_most), or up to a stock level in units (level: "bring them up to 200"); null when the \
request gives none.
- order_ids: the orders to cancel.
Use ids as written in the request (SKU-10232, WH-01, PO-000042). Reply with one JSON object on \
one line, these keys in this order:
{"action": "replenish", "writes_allowed": true, "deferred": false, "warehouses": [], \
"exclude_warehouses": [], "skus": [], "exclude_skus": [], "quantities": [], \
"quantity_rule": null, "order_ids": []}
Examples: "reorder the low items except SKU-10001" -> "exclude_skus": ["SKU-10001"]; "order 5 \
units of SKU-10002" -> "action": "order", "skus": ["SKU-10002"], "quantities": [{"sku": \
"SKU-10002", "quantity": 5}]; "which items are low? I will order them later" -> "action": \
"report", "writes_allowed": false, "deferred": true."""


def contract_prompt(task: str, names: Mapping[str, str]) -> list[Message]:
    """The one request a model is asked to read a task with."""
    by_id: dict[str, list[str]] = {}
    for name, warehouse in names.items():
        by_id.setdefault(warehouse, []).append(name)
    system = _INSTRUCTIONS
    if by_id:
        listed = "; ".join(f"{w}: {', '.join(n)}" for w, n in sorted(by_id.items()))
        system += f"\nWarehouses (id: names): {listed}."
    return [Message(role="system", content=system), Message(role="user", content=task.strip())]


@dataclass(frozen=True)
class ModelReading:
    contract: TaskContract | None
    note: str
    usage: Usage


async def model_reading(
    model: SchemaAnswerer, task: str, names: Mapping[str, str], *, budget_s: float
) -> ModelReading:
    """The model's reading of `task` under `CONTRACT_SCHEMA`, or None with the reason (too
    late, outside the schema). The endpoint's own failure is `VlmError`."""
    settings = ModelSettings(max_tokens=READING_TOKENS)
    try:
        response = await asyncio.wait_for(
            model.answer_schema(
                contract_prompt(task, names),
                contract_schema(task, names),
                settings,
                name="task_contract",
            ),
            timeout=max(0.1, budget_s),
        )
    except TimeoutError:
        return ModelReading(None, f"the model did not read the task within {budget_s:g} s", Usage())
    try:
        answer = ContractAnswer.model_validate(json.loads(response.content))
    except (ValueError, ValidationError) as exc:
        why = str(exc).splitlines()[0][:200]
        return ModelReading(
            None, f"the model's reading is outside the schema ({why})", response.usage
        )
    return ModelReading(answer.to_contract(), "", response.usage)


async def warehouse_names(toolbox: Toolbox, *, run_id: str) -> dict[str, str]:
    """Every warehouse's name and aliases, by `warehouses_list`, mapped to its id (empty when
    the run has no warehouse tools or the call fails)."""
    if toolbox.spec(LIST_WAREHOUSES_TOOL) is None:
        return {}
    try:
        outcome = await toolbox.call(LIST_WAREHOUSES_TOOL, {}, run_id=run_id)
    except ToolServerError as exc:
        # The run itself meets the same failure on its first call and ends with it.
        log.warning("run %s: no warehouse names: %s", run_id, exc)
        return {}
    if outcome.is_error or not outcome.structured:
        return {}
    names: dict[str, str] = {}
    for item in items(outcome.structured.get("warehouses")):
        warehouse = item.get("warehouse_id") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(warehouse, str):
            continue
        for name in (item.get("name"), *items(item.get("aliases"))):
            if isinstance(name, str) and name.strip():
                names[name.strip()] = warehouse
    return names


@dataclass(frozen=True)
class Settled:
    contract: TaskContract
    readings: list[ContractReading]
    usage: Usage
    said: str = ""
    """What the answer says about the readings (a model that read the task otherwise)."""
    question: Question | None = None
    """What to ask a person instead of guessing (`pipeline.contract.offer`): the run then
    ends with it, and a yes runs exactly its reading."""


def _blocked_note(blocked: Sequence[str]) -> str:
    return "the meet blocked what the model's reading allowed beyond the reader's: " + (
        "; ".join(blocked)
    )


def _differs(model: TaskContract, reader: TaskContract) -> bool:
    """The model's reading allows something the reader's does not, or the other way round."""
    return bool(widenings(model, reader) or widenings(reader, model))


def _stands(reading: TaskReading, model: TaskContract) -> Settled | None:
    """The reader's full reading, standing beside a model's that differs (None when the reader
    did not account for every word, or the model read it the same)."""
    if not reading.contract.understood or reading.stop is not None:
        return None
    if not _differs(model, reading.contract):
        return None
    own = reading.contract
    said = (
        f"[Host: the model read this request as {model.summary()}; the run followed the "
        f"request as written: {own.summary()}.]"
    )
    note = f"the reader's full reading stands; the model read it as {model.summary()}"
    readings = [
        ContractReading(source="model", contract=model),
        ContractReading(source="final", contract=own, note=note),
    ]
    return Settled(own, readings, Usage(), said)


def screen_items(screens: Sequence[str]) -> dict[str, str]:
    """The items the attached screens show (`{sku: name}`), which a task may name by what
    they are; the first name a SKU shows with."""
    items: dict[str, str] = {}
    for text in screens:
        for screen in parse_screens(text):
            for row in screen.rows:
                if row.sku and row.name:
                    items.setdefault(row.sku, row.name)
    return items


async def settle_task(
    task: str,
    model: Model | None,
    toolbox: Toolbox,
    *,
    run_id: str,
    budget_s: float,
    catalogue: Mapping[str, str] | None = None,
) -> Settled:
    """The run's contract: the reader's, met with `model`'s reading when it can give one;
    every reading recorded. `catalogue`: the screen's items, which the task may name (see
    `screen_items`). An endpoint that fails (HTTP or transport) raises `VlmError`: the run
    could not go on; one that answers too late or outside the schema leaves the reader's
    reading in force."""
    names = await warehouse_names(toolbox, run_id=run_id)
    reading: TaskReading = read_task(task, names, catalogue)
    readings = [
        ContractReading(source="reader", contract=reading.contract),
        ContractReading(source="fallback", contract=reading.fallback),
    ]
    if not isinstance(model, SchemaAnswerer):
        readings.append(ContractReading(source="final", contract=reading.contract))
        asked = offer(reading, reading.contract, items=catalogue)
        return Settled(reading.contract, readings, Usage(), question=asked)
    found = await model_reading(model, task, names, budget_s=budget_s)
    if found.contract is None:
        log.warning("run %s: %s; the reader's reading stands", run_id, found.note)
        readings += [
            ContractReading(source="model", note=found.note),
            ContractReading(
                source="final", contract=reading.contract, note="the reader's reading stands"
            ),
        ]
        asked = offer(reading, reading.contract, items=catalogue)
        return Settled(reading.contract, readings, found.usage, question=asked)
    stands = _stands(reading, found.contract)
    if stands is not None:
        return Settled(stands.contract, readings + stands.readings, found.usage, stands.said)
    final, blocked = settle(reading, found.contract)
    note = _blocked_note(blocked) if blocked else ""
    if reading.stop is not None:
        note = f"a report whatever the model says: the task says {reading.stop!r}" + (
            f"; {note}" if note else ""
        )
    readings.append(ContractReading(source="model", contract=found.contract))
    if not reading.contract.understood and reading.stop is None:
        readings.append(
            ContractReading(
                source="suggested",
                contract=found.contract,
                note="the model's reading, for a person to confirm; not acted on by itself",
            )
        )
    readings.append(ContractReading(source="final", contract=final, note=note))
    asked = offer(reading, final, found.contract, catalogue)
    return Settled(final, readings, found.usage, question=asked)
