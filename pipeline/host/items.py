"""Screen rows resolved against the store before the model's first turn, and the item
arguments of every call held to what resolved.

A row is known by whatever the screen shows for it (its key, `ScreenRow.key`: a SKU, and where
there is none, its name). Before anything runs, the host asks the inventory server what each
key names (`inventory_find_items`): one item, several, only a near one, or none. Only a row
resolved to one item gives a SKU the run may act on; the others are told to the model, reported
beside its answer, and never written. Then every call is held to the resolutions, whatever the model
sends (no switch: this is what makes a barcode in a SKU or warehouse slot impossible, not
unlikely):
- a row's key in a `warehouse_id` is refused: it names an item, not a warehouse (a SKU there
  is the server's to refuse, as it does any SKU);
- a row's key in a `sku` or `skus` that resolved to another SKU (a barcode, a name) is
  refused with the SKU to use;
- a write naming a row that is not one item (several, near, none) by its key is refused (a
  read may still name it: the server says what it finds);
- a write naming a SKU that is only a candidate of an unresolved row (several, near) and that
  no row resolved to, nor the task named, is refused: the row is the user's to settle.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.errors import ToolServerError
from pipeline.host.context import Attachment
from pipeline.host.record import ItemResolution
from pipeline.host.toolbox import Toolbox, ToolOutcome
from pipeline.jsonread import items
from pipeline.models import JsonObject
from pipeline.screentext import parse_screens
from pipeline.toolfacts import FIND_ITEMS_TOOL

__all__ = [
    "ITEM_ARGUMENTS",
    "PLACE_ARGUMENTS",
    "ArgumentProblem",
    "RowKey",
    "argument_problem",
    "resolution_of",
    "resolve_rows",
    "resolved_skus",
    "row_keys",
    "shown_as",
    "told_to_model",
    "unresolved_report",
]

log = logging.getLogger(__name__)

_AT_ONCE = 8
"""Lookups in flight at once."""

ITEM_ARGUMENTS = ("sku", "skus")
"""Tool arguments that name items: each must be a SKU a row resolved to (or none of a row's
keys)."""
PLACE_ARGUMENTS = ("warehouse_id",)
"""Tool arguments that name a warehouse: never a row's key."""


@dataclass(frozen=True)
class RowKey:
    """A row's identifier on one screen, and what the screen showed it as."""

    screen: str
    key: str
    kind: str


def row_keys(attachments: Sequence[Attachment]) -> list[RowKey]:
    """Each screen's row keys, once per screen, in the order the rows are shown."""
    found: dict[tuple[str, str], RowKey] = {}
    for attachment in attachments:
        for screen in parse_screens(attachment.content):
            for row in screen.rows:
                if row.key:
                    found.setdefault(
                        (attachment.name, row.key), RowKey(attachment.name, row.key, row.key_kind)
                    )
    return list(found.values())


def resolution_of(row: RowKey, outcome: ToolOutcome) -> ItemResolution:
    """What the lookup's answer makes of a row: a SKU only for one item matched for sure."""
    base = {"screen": row.screen, "key": row.key, "key_kind": row.kind}
    found = outcome.structured if not outcome.is_error else None
    answer = found.get("answer") if found is not None else None
    if found is None or answer not in ("one", "several", "none"):
        return ItemResolution(**base, answer="unresolved", message=outcome.text[:300])
    listed = [i for i in items(found.get("items")) if isinstance(i, dict)]
    skus = [str(i["sku"]) for i in listed if isinstance(i.get("sku"), str)]
    message = str(found.get("message", ""))
    if answer == "one" and skus and listed[0].get("closeness") != "near":
        matched_by = listed[0].get("matched_by")
        return ItemResolution(
            **base,
            answer="one",
            sku=skus[0],
            matched_by=matched_by if isinstance(matched_by, str) else None,
            message=message,
        )
    if answer == "one" and skus:
        return ItemResolution(**base, answer="near", candidates=skus, message=message)
    if answer == "several":
        return ItemResolution(**base, answer="several", candidates=skus, message=message)
    return ItemResolution(**base, answer="none", message=message)


async def resolve_rows(
    toolbox: Toolbox, attachments: Sequence[Attachment], *, run_id: str
) -> list[ItemResolution] | None:
    """Every screen row's key looked up once (the lookups sent together); None when the
    servers offer no lookup (then rows are taken as the SKUs they show)."""
    if toolbox.spec(FIND_ITEMS_TOOL) is None:
        return None
    rows = row_keys(attachments)
    keys = list(dict.fromkeys(row.key for row in rows))
    limit = asyncio.Semaphore(_AT_ONCE)
    found = await asyncio.gather(*(_look_up(toolbox, key, run_id, limit) for key in keys))
    answers = dict(zip(keys, found, strict=True))
    return [resolution_of(row, answers[row.key]) for row in rows]


async def _look_up(
    toolbox: Toolbox, key: str, run_id: str, limit: asyncio.Semaphore
) -> ToolOutcome:
    try:
        async with limit:
            return await toolbox.call(FIND_ITEMS_TOOL, {"query": key}, run_id=run_id)
    except ToolServerError as exc:
        log.warning("run %s: %r not looked up: %s", run_id, key, exc)
        return ToolOutcome(True, str(exc))


def shown_as(resolutions: Iterable[ItemResolution], screen: str) -> dict[str, frozenset[str]]:
    """The keys of `screen`'s rows by the SKU each resolved to."""
    keys: dict[str, set[str]] = {}
    for r in resolutions:
        if r.sku is not None and r.screen == screen:
            keys.setdefault(r.sku, set()).add(r.key)
    return {sku: frozenset(found) for sku, found in keys.items()}


def resolved_skus(
    resolutions: Iterable[ItemResolution], screen: str | None = None
) -> frozenset[str]:
    """The SKUs rows resolved to (on `screen`, or on any)."""
    return frozenset(r.sku for r in resolutions if r.sku is not None and screen in (None, r.screen))


def _as(resolution: ItemResolution) -> str:
    """What a resolved key is of its item: `barcode`, `name`… (`SKU` written differently)."""
    kind = resolution.matched_by or resolution.key_kind
    return (kind if kind != "sku" else "SKU").replace("_", " ")


def _unique(resolutions: Iterable[ItemResolution]) -> list[ItemResolution]:
    return list({r.key: r for r in resolutions}.values())


def _not_one(resolution: ItemResolution) -> str:
    """Why a row is not one item, in a few words."""
    listed = ", ".join(resolution.candidates)
    return {
        "several": f"matches several items: {listed}",
        "near": f"only nearly matches {listed}",
        "none": "matches no item in the store",
    }.get(resolution.answer, f"could not be looked up ({resolution.message})")


def told_to_model(resolutions: Sequence[ItemResolution]) -> str:
    """What the opening message says of the rows: every row whose key is not its own SKU;
    empty when every row showed its SKU."""
    lines = []
    for r in _unique(resolutions):
        if r.sku is not None and r.key == r.sku:
            continue
        if r.sku is not None:
            lines.append(f"- {r.key!r} ({_as(r)}) is {r.sku}: pass {r.sku} as the sku")
        else:
            lines.append(f"- {r.key!r} ({r.key_kind}) {_not_one(r)}: report it; do not write it")
    if not lines:
        return ""
    return "Items on the screens, looked up in the store:\n" + "\n".join(lines)


def unresolved_report(resolutions: Sequence[ItemResolution]) -> str:
    """The rows left unwritten because they resolve to no one item, for the run's summary."""
    left = [r for r in _unique(resolutions) if r.sku is None]
    if not left:
        return ""
    return "Not written (not one item in the store): " + "; ".join(
        f"{r.key!r} {_not_one(r)}" for r in left
    )


@dataclass(frozen=True)
class ArgumentProblem:
    """A call's argument the resolutions refuse: which one, what kind of fault, and why."""

    field: str
    error: str
    """`wrong_kind` (a row's key where it does not belong) or `not_resolved` (a row that is
    not one item)."""
    message: str

    def as_dict(self) -> JsonObject:
        """As a server's structured error: `error`, `field`, `message`."""
        return {"error": self.error, "field": self.field, "message": self.message}


def _named(arguments: JsonObject, names: Sequence[str]) -> list[tuple[str, str]]:
    """Each string value of the arguments `names`, with the argument it is in."""
    found: list[tuple[str, str]] = []
    for name in names:
        value = arguments.get(name)
        values = value if isinstance(value, list) else [value]
        found += [(name, v) for v in values if isinstance(v, str)]
    return found


def argument_problem(
    arguments: JsonObject,
    resolutions: Sequence[ItemResolution],
    *,
    write: bool,
    named: Sequence[str] = (),
) -> ArgumentProblem | None:
    """What is wrong with a call's item or warehouse arguments, given the rows' resolutions
    and the SKUs the task names (`named`); None when nothing is."""
    by_key = {r.key: r for r in resolutions}
    resolved = resolved_skus(resolutions)
    for field, value in _named(arguments, PLACE_ARGUMENTS):
        row = by_key.get(value)
        if row is not None and row.sku != value:
            return ArgumentProblem(
                field,
                "wrong_kind",
                f"{value!r} is an item on the screen ({row.key_kind}), not a warehouse id; "
                "pass the warehouse id (warehouses_list gives them)",
            )
    for field, value in _named(arguments, ITEM_ARGUMENTS):
        if value in resolved:
            continue
        row = by_key.get(value)
        if row is not None and row.sku is not None:
            return ArgumentProblem(
                field,
                "wrong_kind",
                f"{value!r} on the screen is the {_as(row)} of {row.sku}; "
                f"pass the SKU {row.sku} instead",
            )
        if row is not None and write:
            return ArgumentProblem(
                field,
                "not_resolved",
                f"{value!r} on the screen {_not_one(row)}; the row is reported, never written: "
                "ask the user which item is meant",
            )
        unsure = [r for r in _unique(resolutions) if r.sku is None and value in r.candidates]
        if write and value not in named and unsure:
            return ArgumentProblem(
                field,
                "not_resolved",
                f"{value} is only a candidate for the screen's row {unsure[0].key!r}, which "
                f"{_not_one(unsure[0])}; that row is reported, never written: ask the user "
                "which item is meant",
            )
    return None
