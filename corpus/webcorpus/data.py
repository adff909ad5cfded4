"""Rows on screen, built from the store's seed: displayed cell texts plus schema-mapped truth.

Columns the seed lacks (status, supplier, price, category, last update) are made up from the SKU
or from a random generator seeded per screen, so they are the same on every run.
"""

from __future__ import annotations

import csv
import hashlib
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from .model import Field, Formats, Shown, Spec


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


def entry_seed(seed: int, name: str) -> int:
    """A per-entry seed from the corpus seed and the entry's file name (stable across runs)."""
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


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


SCHEMA_FIELD: dict[Field, str] = {
    "sku": "sku",
    "name": "name",
    "on_hand": "on_hand",
    "reorder": "reorder_point",
    "warehouse": "warehouse_id",
}
NUMERIC: frozenset[Field] = frozenset({"on_hand", "reorder", "on_order", "price"})

CATEGORY = {
    "en": {
        "102": "Fasteners",
        "103": "Cable management",
        "104": "Safety",
        "105": "Packaging",
        "106": "Electrical",
        "107": "Handling",
        "2010": "Fasteners",
        "2011": "Cable management",
        "2012": "Safety",
        "2013": "Packaging",
        "2014": "Labels",
        "2015": "Batteries",
    },
    "zh": {
        "102": "紧固件",
        "103": "线缆管理",
        "104": "劳保用品",
        "105": "包装材料",
        "106": "电工电料",
        "107": "搬运设备",
        "2010": "紧固件",
        "2011": "电工辅料",
        "2012": "劳保用品",
        "2013": "包装材料",
        "2014": "标签耗材",
        "2015": "电池",
    },
}
"""By the SKU number's first three digits (1xxxx) or four (2xxxx)."""
SUPPLIERS = {
    "en": (
        "Northwind Supply",
        "Brightline Parts",
        "Harbor Packaging",
        "Keystone Safety Co.",
        "Voltix Electric",
        "Meridian Tools",
        "Pioneer Fasteners",
    ),
    "zh": (
        "华东五金",
        "恒通包装",
        "安达劳保",
        "联创电器",
        "金盛紧固件",
        "顺达耗材",
        "宏远工具",
    ),
}
_UPDATED_FROM = datetime(2026, 11, 23)
_UPDATED_DAYS = 8
_WORKDAY_MIN = (7 * 60, 20 * 60)


def format_int(value: int, formats: Formats) -> str:
    return f"{value:,}" if formats.thousands else str(value)


def sku_number(sku: str) -> int:
    return int(sku.split("-")[1])


def unit_price(sku: str) -> float:
    """A stable made-up price per SKU (the formula the Pillow samples use)."""
    return ((sku_number(sku) * 7919) % 4800 + 120) / 100


def category(sku: str, formats: Formats) -> str:
    digits = str(sku_number(sku))
    return CATEGORY[formats.language][digits[:3] if digits[0] == "1" else digits[:4]]


def supplier(sku: str, formats: Formats) -> str:
    names = SUPPLIERS[formats.language]
    return names[(sku_number(sku) * 31) % len(names)]


def _updated(rng: random.Random, formats: Formats) -> str:
    day = rng.randrange(_UPDATED_DAYS)
    minute = rng.randrange(*_WORKDAY_MIN)
    return (_UPDATED_FROM + timedelta(days=day, minutes=minute)).strftime(formats.date)


def cell_text(
    field: Field, item: SeedItem, on_hand: int, formats: Formats, rng: random.Random
) -> str:
    if field == "updated":
        return _updated(rng, formats)
    values: dict[Field, str] = {
        "sku": item.sku,
        "name": item.name,
        "warehouse": item.warehouse_id,
        "on_hand": format_int(on_hand, formats),
        "reorder": format_int(item.reorder_point, formats),
        "on_order": format_int(item.on_order, formats),
        "status": formats.low if on_hand < item.reorder_point else formats.ok,
        "price": formats.price.format(unit_price(item.sku)),
        "category": category(item.sku, formats),
        "supplier": supplier(item.sku, formats),
        "action": formats.action,
    }
    return values[field]


def _lookup(seed: Seed, shown: Shown, file: str) -> SeedItem:
    try:
        return seed[(shown.sku, shown.warehouse)]
    except KeyError:
        raise ValueError(f"{file}: {shown.sku} is not in the seed for {shown.warehouse}") from None


def _truth_row(fields: tuple[Field, ...], item: SeedItem, on_hand: int) -> dict[str, Any]:
    present = {SCHEMA_FIELD[f] for f in fields if f in SCHEMA_FIELD}
    full: dict[str, Any] = {
        "sku": item.sku,
        "name": item.name,
        "on_hand": on_hand,
        "reorder_point": item.reorder_point,
        "warehouse_id": item.warehouse_id,
    }
    return {key: (value if key in present else None) for key, value in full.items()}


def _differs(file: str, shown: Shown, item: SeedItem) -> dict[str, Any] | None:
    if shown.on_hand is None:
        return None
    if shown.on_hand == item.on_hand:
        raise ValueError(f"{file}: {shown.sku} override equals the live value")
    return {
        "sku": item.sku,
        "warehouse_id": item.warehouse_id,
        "shown_on_hand": shown.on_hand,
        "live_on_hand": item.on_hand,
    }


def stock_table(spec: Spec, seed: Seed, rng: random.Random) -> TableData:
    """The table `spec` shows, its cell texts and the truth rows behind them."""
    fields = tuple(c.field for c in spec.columns)
    items = tuple(_lookup(seed, shown, spec.file) for shown in spec.rows)
    on_hand = tuple(
        item.on_hand if shown.on_hand is None else shown.on_hand
        for shown, item in zip(spec.rows, items, strict=True)
    )
    cells = tuple(
        tuple(cell_text(f, item, shown, spec.formats, rng) for f in fields)
        for item, shown in zip(items, on_hand, strict=True)
    )
    changes = (_differs(spec.file, s, i) for s, i in zip(spec.rows, items, strict=True))
    return TableData(
        header=tuple(c.header for c in spec.columns),
        fields=fields,
        cells=cells,
        items=items,
        shown_on_hand=on_hand,
        rows=tuple(_truth_row(fields, i, n) for i, n in zip(items, on_hand, strict=True)),
        differs=tuple(c for c in changes if c is not None),
    )
