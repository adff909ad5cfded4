"""Rows on screen, built from the store's seed: displayed cell texts plus schema-mapped truth.

Columns the seed lacks (status, supplier, price, category, last update) are made up from the SKU
or from a random generator seeded per screen, so they are the same on every run.
"""

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
    differs,
    lookup,
    truth_row,
    updated,
)

from .model import Field, Formats, Spec


@dataclass(frozen=True)
class TableData:
    """The stock table a screen shows: texts as displayed and the truth behind them."""

    header: tuple[str, ...]
    fields: tuple[Field, ...]
    cells: tuple[tuple[str, ...], ...]
    items: tuple[SeedItem, ...]
    shown_on_hand: tuple[int, ...]
    rows: tuple[dict[str, Any], ...]
    differs: tuple[dict[str, Any], ...]

    @property
    def schema_fields(self) -> tuple[str | None, ...]:
        return tuple(SCHEMA_FIELD.get(f) for f in self.fields)

    def is_low(self, row: int) -> bool:
        return self.shown_on_hand[row] < self.items[row].reorder_point

    def numeric(self, col: int) -> bool:
        return self.fields[col] in NUMERIC


NUMERIC: frozenset[Field] = frozenset({"on_hand", "reorder", "on_order", "price"})

_UPDATED_FROM = datetime(2026, 11, 23)


def cell_text(
    field: Field, item: SeedItem, on_hand: int, formats: Formats, rng: random.Random
) -> str:
    if field == "updated":
        return updated(rng, _UPDATED_FROM, formats.date)
    return cell_values(item, on_hand, formats)[field]


def stock_table(spec: Spec, seed: Seed, rng: random.Random) -> TableData:
    """The table `spec` shows, its cell texts and the truth rows behind them."""
    fields = tuple(c.field for c in spec.columns)
    present = {SCHEMA_FIELD[f] for f in fields if f in SCHEMA_FIELD}
    items = tuple(lookup(seed, shown, spec.file) for shown in spec.rows)
    on_hand = tuple(
        item.on_hand if shown.on_hand is None else shown.on_hand
        for shown, item in zip(spec.rows, items, strict=True)
    )
    cells = tuple(
        tuple(cell_text(f, item, shown, spec.formats, rng) for f in fields)
        for item, shown in zip(items, on_hand, strict=True)
    )
    changes = (differs(spec.file, s, i) for s, i in zip(spec.rows, items, strict=True))
    return TableData(
        header=tuple(c.header for c in spec.columns),
        fields=fields,
        cells=cells,
        items=items,
        shown_on_hand=on_hand,
        rows=tuple(truth_row(present, i, n) for i, n in zip(items, on_hand, strict=True)),
        differs=tuple(c for c in changes if c is not None),
    )
