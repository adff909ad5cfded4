"""Rows on screen, built from the store's seed: displayed cell texts plus schema-mapped truth."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from screengen.seed import (
    SCHEMA_FIELD,
    Seed,
    SeedItem,
    cell_values,
    differs as screen_differs,
    lookup,
    truth_row,
    updated,
)

from .model import Column, Field, Spec


@dataclass(frozen=True)
class TableData:
    header: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    fields: tuple[str | None, ...]
    right: frozenset[int]
    badge: int | None
    low: frozenset[tuple[int, int]]
    rows: tuple[dict[str, Any], ...]
    differs: tuple[dict[str, Any], ...]


NUMERIC: frozenset[Field] = frozenset({"on_hand", "reorder", "incoming", "price"})

_UPDATED_FROM = datetime(2026, 11, 18)


def _cell(field: Field, item: SeedItem, on_hand: int, spec: Spec, rng: random.Random) -> str:
    formats = spec.formats
    if field == "updated":
        return updated(rng, _UPDATED_FROM, formats.date)
    values = cell_values(item, on_hand, formats)
    return values["on_order" if field == "incoming" else field]


def _header(columns: tuple[Column, ...], spec: Spec) -> tuple[str, ...]:
    return tuple(c.header.upper() if spec.table.header_upper else c.header for c in columns)


def stock_table(spec: Spec, seed: Seed) -> TableData:
    """The stock table a spec shows: its cell texts and the truth rows behind them."""
    rng = random.Random(spec.seed)
    fields = [c.field for c in spec.columns]
    present = {SCHEMA_FIELD[f] for f in fields if f in SCHEMA_FIELD}
    cells, rows, differs, low = [], [], [], set()
    for r, shown in enumerate(spec.rows):
        item = lookup(seed, shown, spec.file)
        on_hand = item.on_hand if shown.on_hand is None else shown.on_hand
        cells.append(tuple(_cell(f, item, on_hand, spec, rng) for f in fields))
        rows.append(truth_row(present, item, on_hand))
        change = screen_differs(spec.file, shown, item)
        if change:
            differs.append(change)
        if on_hand < item.reorder_point and "on_hand" in fields:
            low.add((r, fields.index("on_hand")))
    return TableData(
        header=_header(spec.columns, spec),
        cells=tuple(cells),
        fields=tuple(SCHEMA_FIELD.get(f) for f in fields),
        right=frozenset(i for i, f in enumerate(fields) if f in NUMERIC),
        badge=fields.index("status") if "status" in fields else None,
        low=frozenset(low),
        rows=tuple(rows),
        differs=tuple(differs),
    )


def table_for(spec: Spec, seed: Seed) -> TableData:
    if spec.generic is None:
        return stock_table(spec, seed)
    g = spec.generic
    return TableData(
        header=tuple(h.upper() if spec.table.header_upper else h for h in g.header),
        cells=g.cells,
        fields=tuple(None for _ in g.header),
        right=frozenset(g.right),
        badge=g.badge,
        low=frozenset(),
        rows=(),
        differs=(),
    )
