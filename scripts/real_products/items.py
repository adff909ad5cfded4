"""The items every product is filled with, varied on purpose (stdlib only: each product's own Python
imports it).

Some items have only a name, some an EAN-13 barcode, some an internal code; names are English,
German and Chinese; units include kg, m and l with quantities that need decimals. Quantities and
thresholds come from a seeded random generator, so a rebuild fills the products with the same
values.
"""

from __future__ import annotations

import random
from typing import TypedDict

LOCATIONS = ("Lager Berlin", "上海仓", "Leeds Warehouse", "Dublin Shop")


def ean13(stem12: str) -> str:
    """An EAN-13 with its check digit."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(stem12))
    return stem12 + str((10 - total % 10) % 10)


# (name, code, barcode stem or None, unit)
_ITEMS: tuple[tuple[str, str | None, str | None, str], ...] = (
    ("Hex bolt M8 x 40", "AB-12", None, "pc"),
    ("Sechskantmutter M8", "SM-08", "400638133393", "pc"),
    ("Kabelbinder 200 mm", None, "401234500012", "pc"),
    ("Copper wire 2.5 mm²", "CW-25", None, "m"),
    ('Gartenschlauch 1/2"', None, None, "m"),
    ("不锈钢螺丝 M4", "LS-M4", "690123456781", "pc"),
    ("绝缘胶带 黑色", None, "692000011122", "pc"),
    ("Paint white matt", "PW-10L", None, "l"),
    ("Holzleim D3", "HL-750", "400765400750", "l"),
    ("Cable drum 50 m", None, None, "pc"),
    ("大米 5kg", "DM-05", "693100200305", "kg"),
    ("Cement 25 kg", "CE-25", None, "kg"),
    ("Schraubendreher-Set 6-tlg.", "SD-6", "401600000066", "pc"),
    ("LED bulb E27 9W", None, "871869600111", "pc"),
    ("工作手套 L", "GZ-L", None, "pc"),
    ("Dübel 8 mm", None, None, "pc"),
    ("Safety goggles", "SG-01", "501234567890", "pc"),
    ("Spanplatte 19 mm", "SP-19", None, "pc"),
    ("水管接头 20mm", None, "694455667788", "pc"),
    ("Sandpaper P120", "SP-120", None, "pc"),
    ("Rohrschelle 22 mm", "RS-22", "402200002201", "pc"),
    ("Silicone sealant clear", None, "500011122233", "pc"),
    ("电池 AA 4节", "BAT-AA4", "690000000443", "pc"),
    ("Winkel 90° verzinkt", None, None, "pc"),
    ("Masking tape 25 mm", "MT-25", None, "pc"),
    ("Quarzsand 0,1-0,5", "QS-05", None, "kg"),
    ("扳手 12号", "BS-12", None, "pc"),
    ("Extension cord 5 m", "EC-5", "506070809010", "pc"),
    ("Heizöl-Filter", None, None, "pc"),
    ("Teflon tape", None, "503000400050", "m"),
    ("胶水 50ml", "JS-50", None, "l"),
    ("Wood screw 4 x 30", "WS-430", "500100200300", "pc"),
    ("Fliesenkleber C1", "FK-C1", None, "kg"),
    ("Work light 20W", None, None, "pc"),
    ("塑料周转箱", "ZZX-01", "695566778899", "pc"),
    ("Steel rod 10 mm", "SR-10", None, "m"),
)


class Item(TypedDict):
    n: int
    name: str
    code: str | None
    barcode: str | None
    unit: str
    threshold: int
    stock: dict[str, float]


def items() -> list[Item]:
    """Each item with its code, barcode, unit, a low-stock threshold and a quantity per location
    (absent where it is not stocked there); decimals where the unit is measured."""
    rng = random.Random(2026)
    out: list[Item] = []
    for i, (name, code, stem, unit) in enumerate(_ITEMS):
        measured = unit in ("kg", "m", "l")
        stock: dict[str, float] = {}
        for loc in LOCATIONS:
            if rng.random() < 0.45 and stock:
                continue
            if measured:
                q: float | int = (
                    round(rng.choice([rng.uniform(0, 15), rng.uniform(10, 400)]) * 4) / 4
                )
            else:
                q = rng.choice([rng.randint(0, 12), rng.randint(10, 250), rng.randint(200, 3000)])
            stock[loc] = q
        out.append(
            {
                "n": i,
                "name": name,
                "code": code,
                "barcode": ean13(stem) if stem else None,
                "unit": unit,
                "threshold": rng.choice([5, 10, 20, 25, 50]),
                "stock": stock,
            }
        )
    return out
