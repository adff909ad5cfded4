"""The items a page shows and the texts it writes for them, with the truth behind each row.

Stock rows are mostly the store's own (`servers/data/seed.csv`, through `webcorpus.data`); some
pages show the shop's items under its other code schemes (`catalog`). Texts the seed lacks
(units, bins, allocations, count dates, prices) are made up from the item code or from a
generator seeded per page, so every run writes the same.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from screengen import seed as seed_data
from screengen.seed import SCHEMA_FIELD, Seed

from .catalog import BY_CODE
from .model import QUANTITY, Col, Field, Formats, Ref, UiSpec


@dataclass(frozen=True)
class Item:
    sku: str
    name: str
    warehouse: str
    on_hand: int
    reorder: int
    on_order: int
    unit: str
    price: float
    category: str
    supplier: str
    source: str
    """`seed` (the store's seed) or `catalog` (another code scheme of the shop's)."""

    @property
    def allocated(self) -> int:
        share = _hash(self.sku + self.warehouse) % 4
        return self.on_hand * share // 10

    @property
    def available(self) -> int:
        return self.on_hand - self.allocated

    @property
    def low(self) -> bool:
        return self.on_hand < self.reorder

    @property
    def bin(self) -> str:
        h = _hash(self.sku)
        return f"{'ABCDE'[h % 5]}-{h // 5 % 12 + 1:02d}-{h // 60 % 4 + 1:02d}"


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


_UNITS_EN = (
    (r"\(box of", "boxes"),
    (r"\(bag of", "bags"),
    (r"\(pack of", "packs"),
    (r"\(pair\)", "pairs"),
    (r"\(roll\)|roll |tape|film|ribbon", "rolls"),
)
_UNITS_ZH = (
    (r"螺丝|螺母|垫圈", "盒"),
    (r"扎带|标签", "包"),
    (r"胶带", "卷"),
    (r"手套", "双"),
    (r"电池", "盒"),
)


def _seed_unit(name: str, language: str) -> str:
    rules = _UNITS_ZH if language == "zh" else _UNITS_EN
    for pattern, unit in rules:
        if re.search(pattern, name, re.IGNORECASE):
            return unit
    return "件" if language == "zh" else "pcs"


def load_items(refs: tuple[Ref, ...], seed: Seed, language: str, file: str) -> tuple[Item, ...]:
    lang = "zh" if language == "zh" else "en"
    items = []
    for ref in refs:
        if ref.code.startswith("SKU-"):
            try:
                s = seed[(ref.code, ref.warehouse)]
            except KeyError:
                raise ValueError(
                    f"{file}: {ref.code} is not in the seed for {ref.warehouse}"
                ) from None
            items.append(
                Item(
                    sku=s.sku,
                    name=s.name,
                    warehouse=s.warehouse_id,
                    on_hand=s.on_hand,
                    reorder=s.reorder_point,
                    on_order=s.on_order,
                    unit=_seed_unit(s.name, language),
                    price=seed_data.unit_price(s.sku),
                    category=seed_data.category(s.sku, lang),
                    supplier=seed_data.supplier(s.sku, lang),
                    source="seed",
                )
            )
            continue
        c = BY_CODE.get((ref.code, ref.warehouse))
        if c is None:
            raise ValueError(f"{file}: {ref.code} is not in the catalog for {ref.warehouse}")
        zh = language == "zh"
        items.append(
            Item(
                sku=c.code,
                name=c.name_zh if zh else c.name,
                warehouse=c.warehouse,
                on_hand=c.on_hand,
                reorder=c.reorder,
                on_order=c.on_order,
                unit=c.unit_zh if zh else c.unit,
                price=c.price,
                category=("包装材料" if zh else "Packaging")
                if c.code[:2].isalpha()
                else ("原材料" if zh else "Materials"),
                supplier=seed_data.SUPPLIERS["zh" if zh else "en"][_hash(c.code) % 7],
                source="catalog",
            )
        )
    return tuple(items)


_FROM = datetime(2026, 11, 16)


ITEM_UNIT = "item"
"""A column `unit` meaning: each row writes its own item's unit."""


def unit_of(col: Col, item: Item) -> str | None:
    return item.unit if col.unit == ITEM_UNIT else col.unit


def quantity(value: int, col: Col, item: Item, formats: Formats) -> str:
    if value == 0 and col.field in ("on_order", "allocated"):
        return formats.zero
    text = f"{value:,}" if formats.thousands else str(value)
    unit = unit_of(col, item)
    if unit:
        text += (" " if formats.unit_space else "") + unit
    return text


def _value(item: Item, f: Field) -> int:
    values = {
        "on_hand": item.on_hand,
        "available": item.available,
        "reorder": item.reorder,
        "on_order": item.on_order,
        "allocated": item.allocated,
    }
    return values[f]


def cell_text(col: Col, item: Item, index: int, formats: Formats, rng: random.Random) -> str:
    f = col.field
    if f in QUANTITY:
        return quantity(_value(item, f), col, item, formats)
    if f in ("updated", "last_count"):
        stamp = _FROM + timedelta(days=rng.randrange(14), minutes=rng.randrange(420, 1200))
        return stamp.strftime(formats.date)
    texts: dict[Field, str] = {
        "index": str(index),
        "sku": item.sku,
        "name": item.name,
        "warehouse": item.warehouse,
        "unit": item.unit,
        "price": formats.price.format(item.price),
        "status": formats.low if item.low else formats.ok,
        "category": item.category,
        "supplier": item.supplier,
        "bin": item.bin,
        "action": formats.action,
    }
    return texts[f]


@dataclass(frozen=True)
class Grid:
    """A page's items with every column's text per item, and the truth row of each item."""

    columns: tuple[Col, ...]
    items: tuple[Item, ...]
    texts: tuple[tuple[str, ...], ...]
    rows: tuple[dict[str, Any], ...]

    @property
    def header(self) -> tuple[str, ...]:
        return tuple(c.header for c in self.columns)

    @property
    def header_fields(self) -> tuple[str | None, ...]:
        return tuple(SCHEMA_FIELD.get(c.field) for c in self.columns)

    def find(self, f: Field) -> int | None:
        for i, col in enumerate(self.columns):
            if col.field == f:
                return i
        return None

    def text(self, r: int, f: Field) -> str:
        c = self.find(f)
        if c is None:
            raise KeyError(f)
        return self.texts[r][c]


def _truth_row(spec: UiSpec, item: Item) -> dict[str, Any]:
    shown = {c.field for c in spec.columns}
    if "warehouse" in shown or spec.cue == "card":
        warehouse: str | None = item.warehouse
    elif spec.cue in ("heading", "chip", "breadcrumb", "tab"):
        warehouse = spec.page_warehouse
    else:
        warehouse = None
    return {
        "sku": item.sku if "sku" in shown else None,
        "name": item.name if "name" in shown else None,
        "on_hand": item.on_hand if "on_hand" in shown else None,
        "reorder_point": item.reorder if "reorder" in shown else None,
        "warehouse_id": warehouse,
    }


def build_grid(spec: UiSpec, seed: Seed, rng: random.Random) -> Grid:
    items = load_items(spec.rows, seed, spec.formats.language, spec.file)
    if spec.cue in ("heading", "chip", "breadcrumb", "tab"):
        wrong = [i.sku for i in items if i.warehouse != spec.page_warehouse]
        if wrong or spec.page_warehouse is None:
            raise ValueError(f"{spec.file}: rows {wrong} are not in {spec.page_warehouse}")
    if not 8 <= len(items) <= 24:
        raise ValueError(f"{spec.file}: {len(items)} items")
    texts = tuple(
        tuple(cell_text(col, item, spec.first_index + r, spec.formats, rng) for col in spec.columns)
        for r, item in enumerate(items)
    )
    rows = tuple(_truth_row(spec, item) for item in items)
    return Grid(spec.columns, items, texts, rows)


def units(grid: Grid, visible: list[int]) -> dict[str, Any]:
    """The unit written after each quantity the page shows, by field (schema names where the
    field is one): one unit, None for bare numbers, or a list of the visible rows' own units."""
    out: dict[str, Any] = {}
    for col in grid.columns:
        if col.field in QUANTITY:
            key = SCHEMA_FIELD.get(col.field, col.field)
            if col.unit == ITEM_UNIT:
                out[key] = [grid.items[r].unit for r in visible]
            else:
                out[key] = col.unit
    return out
