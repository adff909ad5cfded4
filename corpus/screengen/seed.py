"""The rows a screen shows, from the store's seed (`servers/data/seed.csv`: the live stock the
screenshots are past views of), and the values made up from a SKU alone (a price, a category, a
supplier), so that a SKU looks the same on every screen of every corpus."""

from __future__ import annotations

import csv
import hashlib
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal


@dataclass(frozen=True)
class SeedItem:
    sku: str
    name: str
    warehouse_id: str
    on_hand: int
    reorder_point: int
    on_order: int


Seed = dict[tuple[str, str], SeedItem]

SEED_CSV = Path(__file__).resolve().parents[2] / "servers" / "data" / "seed.csv"


def load_seed(path: Path = SEED_CSV) -> Seed:
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


StockField = Literal["sku", "name", "warehouse", "on_hand", "reorder"]
"""The screen fields every corpus shows the stock-schema fields as: the keys of `SCHEMA_FIELD`,
each corpus's `Field` adding its own."""

SCHEMA_FIELD: dict[str, str] = {
    "sku": "sku",
    "name": "name",
    "on_hand": "on_hand",
    "reorder": "reorder_point",
    "warehouse": "warehouse_id",
}
"""A screen's field (each corpus names its own) → the stock-schema field it is the truth of."""


@dataclass(frozen=True)
class Shown:
    """One stock row on screen: a seed item, with the past on-hand value the screen showed when
    it differs from the live one."""

    sku: str
    warehouse: str
    on_hand: int | None = None


def lookup(seed: Seed, shown: Shown, file: str) -> SeedItem:
    try:
        return seed[(shown.sku, shown.warehouse)]
    except KeyError:
        raise ValueError(f"{file}: {shown.sku} is not in the seed for {shown.warehouse}") from None


def truth_row(present: set[str], item: SeedItem, on_hand: int) -> dict[str, Any]:
    """The row in the stock schema, with None for each field the screen does not show."""
    full: dict[str, Any] = {
        "sku": item.sku,
        "name": item.name,
        "on_hand": on_hand,
        "reorder_point": item.reorder_point,
        "warehouse_id": item.warehouse_id,
    }
    return {key: (value if key in present else None) for key, value in full.items()}


def differs(file: str, shown: Shown, item: SeedItem) -> dict[str, Any] | None:
    """How the screen differs from the live store, where it shows a past on-hand."""
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

_UPDATED_DAYS = 8
_WORKDAY_MIN = (7 * 60, 20 * 60)


def format_int(value: int, thousands: bool) -> str:
    return f"{value:,}" if thousands else str(value)


def sku_number(sku: str) -> int:
    return int(sku.split("-")[1])


def unit_price(sku: str) -> float:
    """A stable made-up price per SKU."""
    return ((sku_number(sku) * 7919) % 4800 + 120) / 100


def category(sku: str, language: str) -> str:
    digits = str(sku_number(sku))
    return CATEGORY[language][digits[:3] if digits[0] == "1" else digits[:4]]


def supplier(sku: str, language: str) -> str:
    names = SUPPLIERS[language]
    return names[(sku_number(sku) * 31) % len(names)]


def updated(rng: random.Random, since: datetime, date_format: str) -> str:
    """A last-update time within the `_UPDATED_DAYS` working days from `since`."""
    day = rng.randrange(_UPDATED_DAYS)
    minute = rng.randrange(*_WORKDAY_MIN)
    return (since + timedelta(days=day, minutes=minute)).strftime(date_format)


Language = Literal["en", "zh"]


@dataclass(frozen=True)
class Formats:
    """How a screen writes its values: thousands separators, the date, the price, the status
    words, the action link's text and the language of the made-up values."""

    thousands: bool = True
    date: str = "%Y-%m-%d %H:%M"
    price: str = "${:.2f}"
    low: str = "Low"
    ok: str = "OK"
    action: str = "Adjust"
    language: Language = "en"


def cell_values(item: SeedItem, on_hand: int, formats: Formats) -> dict[str, str]:
    """The text of each value a stock screen may show for `item` (the update time aside: it
    is drawn, see `updated`), keyed by what it is."""
    return {
        "sku": item.sku,
        "name": item.name,
        "warehouse": item.warehouse_id,
        "on_hand": format_int(on_hand, formats.thousands),
        "reorder": format_int(item.reorder_point, formats.thousands),
        "on_order": format_int(item.on_order, formats.thousands),
        "status": formats.low if on_hand < item.reorder_point else formats.ok,
        "price": formats.price.format(unit_price(item.sku)),
        "category": category(item.sku, formats.language),
        "supplier": supplier(item.sku, formats.language),
        "action": formats.action,
    }
