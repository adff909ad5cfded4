"""An unsure column mapping asked of a model: one request under a JSON Schema with the table's
headers and three sample rows, its answer laid over the typed mapping as the model's.

A model is asked when the typing says it is unsure (`mapping_doubts`) or recognised no
inventory column at all (a grid), and only about what it is unsure of: the fields no column
is surely typed to. A column the typing is sure of keeps its role, whatever the model says,
and a column whose values are not of the field's kind is not given it (a warehouse onto
quantities, on hand onto names: `pipeline.table.schema.fits`). An answer outside the schema,
one that gives a column two fields, a model that does not answer in time or an endpoint that
fails leave the typed mapping in force, with a warning saying why. What the model decided is
recorded as such: the result's warnings name the model and its answer, and the columns it
mapped say `source: model`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pipeline.errors import VlmError
from pipeline.ingest.columns import apply_columns
from pipeline.models import (
    ColumnInfo,
    IngestResult,
    JsonObject,
    JsonValue,
    Message,
    ModelSettings,
    Table,
    Usage,
)
from pipeline.table import FIELDS, UNSURE, fits, normalise_header, values_profile
from pipeline.vlm.base import SchemaAnswerer

__all__ = [
    "ColumnsAsked",
    "ask_columns",
    "ask_each",
    "columns_prompt",
    "columns_schema",
    "unsure_fields",
]

NONE = "none"
"""The answer for a field no column holds."""
SAMPLE_ROWS = 3
SURE = 0.5
"""A typed column at this confidence or above keeps its role (`mapping_doubts` flags those
below)."""
_MAX_TOKENS = 160
_WHAT = {
    "sku": "the item's code (SKU, item #, part no., ref., 编码)",
    "name": "the item's name or description",
    "on_hand": "the stock there is now (on hand, in stock, balance, available, 现存, 结存)",
    "reorder_point": "the level to reorder at (reorder point, min, safety stock, 安全库存)",
    "warehouse_id": "the warehouse or site (WH-01, depot, 仓库)",
}
_INSTRUCTIONS = (
    "You map the columns of a table read from a screenshot of an inventory page onto "
    "inventory fields. For each field answer with the header of the column that holds it, or "
    f'"{NONE}" when no column does. One column holds at most one field. Quantities on order, '
    "in transit, allocated or reserved, prices, units and statuses are none of these fields.\n"
    "Fields:\n" + "\n".join(f"- {field}: {_WHAT[field]}" for field in FIELDS)
)


@dataclass(frozen=True)
class ColumnsAsked:
    """A result after the model was asked (or not), why, and what the request cost."""

    result: IngestResult
    asked: bool
    note: str
    usage: Usage


def unsure_fields(columns: Sequence[ColumnInfo]) -> list[str]:
    """The fields a typed mapping is unsure of: those no column is surely typed to (typed with
    low confidence, or held by no column)."""
    sure = {c.maps_to for c in columns if c.maps_to is not None and c.confidence >= SURE}
    return [f for f in FIELDS if f not in sure]


def _offered(columns: Sequence[ColumnInfo], fields: Sequence[str]) -> list[str]:
    """The headers a field may be given: named once in the table, and not typed surely to a
    field that is not asked."""
    counts: dict[str, int] = {}
    for column in columns:
        key = normalise_header(column.header)
        counts[key] = counts.get(key, 0) + 1
    return [
        c.header
        for c in columns
        if normalise_header(c.header)
        and counts[normalise_header(c.header)] == 1
        and not (c.maps_to is not None and c.maps_to not in fields and c.confidence >= SURE)
    ]


def columns_schema(fields: Sequence[str], headers: Sequence[str]) -> JsonObject:
    """An object with one property per asked field, each one of `headers` or `none`."""
    choices: list[JsonValue] = [*headers, NONE]
    return {
        "type": "object",
        "properties": {field: {"type": "string", "enum": choices} for field in fields},
        "required": [*fields],
        "additionalProperties": False,
    }


def columns_prompt(result: IngestResult, fields: Sequence[str]) -> list[Message]:
    """The one request: the headers, three sample rows and the fields asked."""
    table = result.table
    lines = [" | ".join(table.header)]
    lines += [" | ".join(row) for row in table.cells[:SAMPLE_ROWS]]
    asked = ", ".join(fields)
    user = (
        f"Table ({len(table.header)} columns, header first, then {len(lines) - 1} of its "
        f"{len(table.cells)} rows):\n" + "\n".join(lines) + f"\n\nWhich columns hold: {asked}?"
    )
    return [Message(role="system", content=_INSTRUCTIONS), Message(role="user", content=user)]


_MISFIT = 0.3
"""A column whose values fit a field less than this (`fits`) is not given it, whoever says so."""


def _misfits(table: Table, mapping: Mapping[str, str]) -> list[str]:
    """The fields of `mapping` whose column's values are not of their kind (a warehouse given
    a column of quantities, on hand a column of names), each with why."""
    misfits = []
    for field, header in mapping.items():
        column = table.header.index(header)
        values = [row[column] if column < len(row) else "" for row in table.cells]
        fit, why = fits(field, values_profile(values))
        if fit < _MISFIT:
            misfits.append(f"{field}={header} ({why})")
    return misfits


def _answer(content: str, fields: Sequence[str], headers: Sequence[str]) -> dict[str, str]:
    """field -> header from the model's JSON text; ValueError when it is outside the schema
    or gives one column two fields."""
    value = json.loads(content)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    allowed = {*headers, NONE}
    mapping: dict[str, str] = {}
    for field in fields:
        chosen = value.get(field)
        if not isinstance(chosen, str) or chosen not in allowed:
            raise ValueError(f"{field}: {chosen!r} is not a header of the table or {NONE!r}")
        if chosen != NONE:
            mapping[field] = chosen
    taken = [h for h in mapping.values() if list(mapping.values()).count(h) > 1]
    if taken:
        raise ValueError(f"the column {taken[0]!r} is given two fields")
    return mapping


def _kept(result: IngestResult, note: str, usage: Usage) -> ColumnsAsked:
    warned = result.model_copy(update={"warnings": [*result.warnings, note]})
    return ColumnsAsked(warned.with_source(result.source), True, note, usage)


async def ask_columns(
    model: SchemaAnswerer, result: IngestResult, *, model_name: str, budget_s: float
) -> ColumnsAsked:
    """`result` with the fields its typed mapping is unsure of mapped by `model`, when it is
    unsure; else unchanged (`asked` False)."""
    unsure_note = next((w for w in result.warnings if w.startswith(UNSURE)), None)
    if unsure_note is None and not result.rows and len(result.table.header) >= 2:
        # A grid in which the typing recognised no inventory columns is the least sure.
        unsure_note = f"{UNSURE}: no inventory columns recognised"
    fields = unsure_fields(result.table.columns)
    if unsure_note is None or not fields or not result.table.cells:
        return ColumnsAsked(result, False, "", Usage())
    headers = _offered(result.table.columns, fields)
    if not headers:
        return ColumnsAsked(result, False, "", Usage())
    try:
        response = await asyncio.wait_for(
            model.answer_schema(
                columns_prompt(result, fields),
                columns_schema(fields, headers),
                ModelSettings(max_tokens=_MAX_TOKENS),
                name="column_mapping",
            ),
            timeout=max(0.1, budget_s),
        )
    except TimeoutError:
        why = f"{model_name} did not answer within {budget_s:g} s"
        return _kept(result, f"{UNSURE}; asked {why}; the typed mapping stands", Usage())
    except VlmError as exc:
        why = f"{model_name} failed: {exc}"
        return _kept(result, f"{UNSURE}; asking {why}; the typed mapping stands", Usage())
    try:
        mapping = _answer(response.content, fields, headers)
    except ValueError as exc:
        why = str(exc).splitlines()[0][:200]
        note = (
            f"{UNSURE}; {model_name}'s answer is outside the schema ({why}); "
            "the typed mapping stands"
        )
        return _kept(result, note, response.usage)
    misfits = _misfits(result.table, mapping)
    answered = json.dumps(mapping, ensure_ascii=False)
    refused = f"; refused {', '.join(misfits)}" if misfits else ""
    mapping = {f: h for f, h in mapping.items() if not any(m.startswith(f"{f}=") for m in misfits)}
    if not mapping:
        note = f"{UNSURE}; {model_name} found no column for {', '.join(fields)}{refused}"
        return _kept(result, note, response.usage)
    mapped = apply_columns(result, mapping, "model")
    asked = f"asked {model_name} because {unsure_note.removeprefix(UNSURE + ': ').split(';')[0]}"
    note = f"{asked}; it answered {answered}{refused}"
    changed = mapped.model_copy(update={"warnings": [*mapped.warnings, note]})
    return ColumnsAsked(changed.with_source(result.source), True, note, response.usage)


async def ask_each(
    model: SchemaAnswerer, results: Sequence[IngestResult], *, model_name: str, budget_s: float
) -> tuple[list[IngestResult], list[str], Usage]:
    """`ask_columns` for each result in turn: the results, a note per request made and what
    the requests cost together."""
    out: list[IngestResult] = []
    notes: list[str] = []
    prompt = completion = cached = 0
    for result in results:
        done = await ask_columns(model, result, model_name=model_name, budget_s=budget_s)
        out.append(done.result)
        if done.asked:
            name = result.file.replace("\\", "/").rsplit("/", 1)[-1]
            notes.append(f"columns of {name}: {done.note}")
            prompt += done.usage.prompt_tokens
            completion += done.usage.completion_tokens
            cached += done.usage.cached_tokens
    return (
        out,
        notes,
        Usage(prompt_tokens=prompt, completion_tokens=completion, cached_tokens=cached),
    )
