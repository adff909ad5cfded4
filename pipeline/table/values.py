"""What a column's values look like: codes (`SKU-10231`, `BX-310-K`, `01.02.0035`), warehouse
codes, quantities with or without separators and a unit (`1,450 件`, `120 pcs`), running
indexes (`序号` 1…N), prices, dates and free text, as shares of the column (`values_profile`);
and how many fields of mapped rows hold a value of their kind (`well_formed`)."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.models import NONE_MARKS, Row
from pipeline.table.cells import (
    DASH_LOOKALIKES,
    MIDDLE_DOTS,
    column_decimals,
    most_common,
    quantity_and_unit,
)
from pipeline.table.warehouses import warehouse_in_cell

__all__ = [
    "NONE_MARKS",
    "ValuesProfile",
    "has_letters",
    "is_code",
    "is_date",
    "is_price",
    "values_profile",
    "well_formed",
]

_CODE = re.compile(r"^(?=.*\d)(?=.*[A-Z0-9][-./_][A-Z0-9]|[A-Z]+\d)[A-Z0-9]+(?:[-./_][A-Z0-9]+)*$")
"""A code: letters and digits, with separators (`SKU-10231`, `BX-310-K`, `01.02.0035`) or a
letter prefix (`A1003`); never a bare number."""
_JOINED = re.compile(r"^[A-Z0-9]+(?:_[A-Z0-9]+)+$")
"""Words joined by underscores (`COMP_CUST`): an identifier, digits or not (no text writes
words that way)."""
_WAREHOUSE_CODE = re.compile(r"^(WH|DC|W)-?\d{1,3}$")
_PRICE = re.compile(r"^(?:[$€£¥￥]\s?\d[\d,]*(?:\.\d{1,2})?|\d[\d,]*\.\d{2}\s?(?:[$€£¥￥]|元)?)$")
_YEAR = r"(?:19|20)\d{2}"
_DATE = re.compile(
    rf"^(?:{_YEAR}[-/.年](?:0?[1-9]|1[0-2])[-/.月](?:0?[1-9]|[12]\d|3[01])日?"
    rf"|(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:{_YEAR}|\d{{2}})"
    rf"|(?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])[-/.](?:{_YEAR}|\d{{2}})"
    r"|\d{1,2}\s+[A-Za-z]{3,9}\.?\s+\d{2,4}|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{2,4})"
    r"(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$"
)
"""A date: year-month-day, day-month-year or month-day-year with a plausible year (`01.02.0035`
is a code, not a date), or with a month's name."""
_LETTERS = re.compile(r"[A-Za-z\u4e00-\u9fff]")


def has_letters(text: str) -> bool:
    """Whether `text` has letters or Chinese: words, a name, a code's prefix."""
    return bool(_LETTERS.search(text))


@dataclass(frozen=True)
class ValuesProfile:
    """What a column's non-empty values look like, as shares of them."""

    filled: int
    codes: float
    warehouses: float
    quantities: float
    index: bool
    """The values are 1, 2, 3 … (or a page's run: 21, 22 …): a running row number."""
    prices: float
    dates: float
    text: float
    """Values with letters that are no code: names, words."""
    distinct: int
    unit: str | None
    """The unit the quantities carry, when one (or the most common one) does."""
    units: tuple[str | None, ...]


def values_profile(values: Sequence[str]) -> ValuesProfile:
    filled = [v.strip() for v in values if v.strip() and v.strip() not in NONE_MARKS]
    if not filled:
        return ValuesProfile(0, 0, 0, 0, False, 0, 0, 0, 0, None, ())
    n = len(filled)
    upper = [_as_code(v) for v in filled]
    decimals = column_decimals(filled)
    parsed = [quantity_and_unit(v, decimals=decimals) for v in filled]
    numbers = [q for q, _ in parsed if q is not None]
    units = tuple(u for q, u in parsed if q is not None)
    named = [u for u in units if u]
    plain = [v.replace(" ", "") for v in upper if v.replace(" ", "").isdigit()]
    index = (
        len(plain) == n
        and n >= 3
        and all(int(b) - int(a) == 1 for a, b in itertools.pairwise(plain))
    )
    codes = sum(_is_code(v) for v in upper)
    text = sum(
        bool(_LETTERS.search(v)) and not _CODE.match(u) for v, u in zip(filled, upper, strict=True)
    )
    return ValuesProfile(
        filled=n,
        codes=codes / n,
        warehouses=sum(
            bool(_WAREHOUSE_CODE.match(u) or warehouse_in_cell(v))
            for v, u in zip(filled, upper, strict=True)
        )
        / n,
        quantities=len(numbers) / n,
        index=index,
        prices=sum(is_price(v) for v in filled) / n,
        dates=sum(bool(_DATE.match(v)) for v in filled) / n,
        text=text / n,
        distinct=len(set(upper)),
        unit=most_common(named),
        units=units,
    )


_SEPARATORS = str.maketrans(
    {**dict.fromkeys(DASH_LOOKALIKES, "-"), **dict.fromkeys(MIDDLE_DOTS, ".")}
)
"""A code's separators as small text reads them: a hyphen as a dash, a dot as a middle dot."""


def _as_code(text: str) -> str:
    """A cell as a code is matched: upper case, separators as typed, no space around them."""
    value = unicodedata.normalize("NFKC", text).translate(_SEPARATORS).upper().strip()
    return re.sub(r"\s*([-./_])\s*", r"\1", value)


def _is_code(value: str) -> bool:
    shaped = bool(_CODE.match(value) or _JOINED.match(value))
    return shaped and not _WAREHOUSE_CODE.match(value) and not _DATE.match(value)


def is_code(text: str) -> bool:
    """A code (`SKU-10231`, `BX-310-K`, `01.02.0035`), not a warehouse code or a date; its
    hyphen read as a dash or a middle dot (`SKU·10610`) too."""
    return _is_code(_as_code(text))


def is_warehouse_code(text: str) -> bool:
    """A warehouse's code (`WH-02`, `DC1`)."""
    return bool(_WAREHOUSE_CODE.match(_as_code(text)))


def is_date(text: str) -> bool:
    """A date (`21/11/2026`, `2026-11-21`, `21 Nov 2026`), with or without a time."""
    return bool(_DATE.match(unicodedata.normalize("NFKC", text).strip()))


def is_price(text: str) -> bool:
    """An amount of money (`$18.10`, `¥ 1,200`, `23.39`, `18.50元`)."""
    return bool(_PRICE.match(unicodedata.normalize("NFKC", text).strip()))


def well_formed(rows: Sequence[Row]) -> int:
    """How many fields of `rows` hold a value of their kind (a code for the SKU, a number for
    a quantity, words for the name, a warehouse code): two readings of one table compare by
    it. A SKU names its row: one that an earlier row has, in the same warehouse, is no code
    read (`SKU-10` on every row, the codes cut by a column edge)."""
    count = 0
    seen: set[tuple[str, str | None]] = set()
    for row in rows:
        key = (row.sku or "", row.warehouse_id)
        count += row.sku is not None and is_code(row.sku) and key not in seen
        seen.add(key)
        count += row.name is not None and bool(_LETTERS.search(row.name)) and not is_code(row.name)
        count += row.on_hand is not None
        count += row.reorder_point is not None
        count += row.warehouse_id is not None and bool(_WAREHOUSE_CODE.match(row.warehouse_id))
    return count
