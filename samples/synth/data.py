"""Rows on screen, built from the store's seed: displayed cell texts plus schema-mapped truth."""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from .model import Column, Field, Formats, Shown, Spec


@dataclass(frozen=True)
class SeedItem:
    sku: str
    name: str
    warehouse_id: str
    on_hand: int
    reorder_point: int
    on_order: int


Seed = dict[tuple[str, str], SeedItem]


def load_seed(path: Path) -> Seed:
    with path.open(encoding="utf-8", newline="") as handle:
        items = [
            SeedItem(
                sku=row["sku"],
                name=row["name"],
                warehouse_id=row["warehouse_id"],
                on_hand=int(row["on_hand"]),
                reorder_point=int(row["reorder_point"]),
                on_order=int(row["on_order"]),
            )
            for row in csv.DictReader(handle)
        ]
    return {(item.sku, item.warehouse_id): item for item in items}


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


SCHEMA_FIELD: dict[Field, str] = {
    "sku": "sku",
    "name": "name",
    "on_hand": "on_hand",
    "reorder": "reorder_point",
    "warehouse": "warehouse_id",
}
NUMERIC: frozenset[Field] = frozenset({"on_hand", "reorder", "incoming", "price"})

CATEGORY_EN = {
    "102": "Fasteners",
    "103": "Cable management",
    "104": "Safety",
    "105": "Packaging",
    "106": "Electrical",
    "107": "Handling",
}
CATEGORY_ZH = {
    "2010": "紧固件",
    "2011": "电工辅料",
    "2012": "劳保用品",
    "2013": "包装材料",
    "2014": "标签耗材",
    "2015": "电池",
}
_UPDATED_FROM = datetime(2026, 11, 18)
_UPDATED_DAYS = 8
_WORKDAY_MIN = (7 * 60, 20 * 60)


def format_int(value: int, formats: Formats) -> str:
    return f"{value:,}" if formats.thousands else str(value)


def unit_price(sku: str) -> float:
    """A stable made-up price per SKU, so that a SKU costs the same on every screen."""
    number = int(sku.split("-")[1])
    return ((number * 7919) % 4800 + 120) / 100


def category(sku: str, formats: Formats) -> str:
    digits = sku.split("-")[1]
    if formats.language == "zh":
        return CATEGORY_ZH[digits[:4]]
    return CATEGORY_EN[digits[:3]]


def _cell(field: Field, item: SeedItem, on_hand: int, spec: Spec, rng: random.Random) -> str:
    formats = spec.formats
    if field == "updated":
        day = rng.randrange(_UPDATED_DAYS)
        minute = rng.randrange(*_WORKDAY_MIN)
        return (_UPDATED_FROM + timedelta(days=day, minutes=minute)).strftime(formats.date)
    values: dict[Field, str] = {
        "sku": item.sku,
        "name": item.name,
        "warehouse": item.warehouse_id,
        "on_hand": format_int(on_hand, formats),
        "reorder": format_int(item.reorder_point, formats),
        "incoming": format_int(item.on_order, formats),
        "status": formats.low if on_hand < item.reorder_point else formats.ok,
        "price": formats.price.format(unit_price(item.sku)),
        "category": category(item.sku, formats),
    }
    return values[field]


def _lookup(seed: Seed, shown: Shown, file: str) -> SeedItem:
    try:
        return seed[(shown.sku, shown.warehouse)]
    except KeyError:
        raise ValueError(f"{file}: {shown.sku} is not in the seed for {shown.warehouse}") from None


def _truth_row(spec: Spec, item: SeedItem, on_hand: int) -> dict[str, Any]:
    present = {SCHEMA_FIELD[c.field] for c in spec.columns if c.field in SCHEMA_FIELD}
    full: dict[str, Any] = {
        "sku": item.sku,
        "name": item.name,
        "on_hand": on_hand,
        "reorder_point": item.reorder_point,
        "warehouse_id": item.warehouse_id,
    }
    return {key: (value if key in present else None) for key, value in full.items()}


def _differs(spec: Spec, shown: Shown, item: SeedItem) -> dict[str, Any] | None:
    if shown.on_hand is None:
        return None
    if shown.on_hand == item.on_hand:
        raise ValueError(f"{spec.file}: {shown.sku} override equals the live value")
    return {
        "sku": item.sku,
        "warehouse_id": item.warehouse_id,
        "shown_on_hand": shown.on_hand,
        "live_on_hand": item.on_hand,
    }


def _header(columns: tuple[Column, ...], spec: Spec) -> tuple[str, ...]:
    return tuple(c.header.upper() if spec.table.header_upper else c.header for c in columns)


def stock_table(spec: Spec, seed: Seed) -> TableData:
    """The stock table a spec shows: its cell texts and the truth rows behind them."""
    rng = random.Random(spec.seed)
    fields = [c.field for c in spec.columns]
    cells, rows, differs, low = [], [], [], set()
    for r, shown in enumerate(spec.rows):
        item = _lookup(seed, shown, spec.file)
        on_hand = item.on_hand if shown.on_hand is None else shown.on_hand
        cells.append(tuple(_cell(f, item, on_hand, spec, rng) for f in fields))
        rows.append(_truth_row(spec, item, on_hand))
        change = _differs(spec, shown, item)
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
