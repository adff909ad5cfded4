"""Clean cell text: full-width forms, thousands separators, confusions a column type resolves."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence

__all__ = [
    "DASH_LOOKALIKES",
    "MIDDLE_DOTS",
    "clean_text",
    "lone_word",
    "parse_quantity",
    "quantity_and_unit",
    "repair_id",
]

DASH_LOOKALIKES = "—–‐‑−"
"""Dashes small text reads a hyphen as."""
MIDDLE_DOTS = "·•・‧"
"""Middle dots small text reads a code's separator as (a hyphen read short, or a dot)."""
_DASHES = str.maketrans(dict.fromkeys(DASH_LOOKALIKES + "一", "-"))
_DIGIT_LOOKALIKES = str.maketrans(
    {
        "O": "0",
        "o": "0",
        "D": "0",
        "Q": "0",
        "l": "1",
        "I": "1",
        "|": "1",
        "i": "1",
        "S": "5",
        "s": "5",
        "B": "8",
        "Z": "2",
        "z": "2",
    }
)
_QUANTITY = re.compile(r"^-?\d{1,3}(?:[,.\s']\d{3})+$|^-?\d+$")
_SPACED_SEPARATOR = re.compile(r"(?<=\d)\s*([,.'])\s*(?=\d)")
"""A thousands separator read with a space beside it (`1, 204`)."""
_ID = re.compile(r"^(?P<prefix>[A-Za-z]{1,5})\s*-\s*(?P<number>[0-9A-Za-z|]{1,8})$")


_TIMES = re.compile(r"(?<=\d)\s?×\s?(?=\d)")
"""`4×35`: a font's typographic form of `4x35` (Inter and others draw x between digits as ×)."""
_UNIT_TIMES = re.compile(r"(?<=\d)(mm|cm|m|in|ft)(\s?)×(\s?)(?=\d)")
"""`110mm × 300m`: a dimension's × after a unit, read for an x; its spaces are kept."""


def most_common(values: Sequence[str]) -> str | None:
    """The value seen most often; on a tie the one seen first, so the same screen always
    gives the same answer."""
    return Counter(values).most_common(1)[0][0] if values else None


def clean_text(text: str) -> str:
    """NFKC (full-width letters, digits and punctuation to ASCII), dashes unified, spaces tidy,
    a dimension's × written x (between digits, or after a unit before digits)."""
    normal = " ".join(unicodedata.normalize("NFKC", text).split())
    if "×" not in normal:
        return normal  # most cells: no dimension to rewrite, two searches saved
    return _TIMES.sub("x", _UNIT_TIMES.sub(r"\1\2x\3", normal))


def parse_quantity(text: str) -> int | None:
    """`1,204` -> 1204; `1O4` -> 104 (a quantity holds only digits); anything else -> None. A
    space inside a number is a thousands separator (`1 204`) or nothing: `96 6` is a number
    and a misread unit, not 966. A separator left hanging at the end (`1,450.`) is noise."""
    value = _SPACED_SEPARATOR.sub(r"\1", clean_text(text)).rstrip(",.'")
    if not value:
        return None
    if not _QUANTITY.match(value):
        candidate = value.translate(_DIGIT_LOOKALIKES)
        if not _QUANTITY.match(candidate):
            return None
        value = candidate
    digits = re.sub(r"[,.\s']", "", value)
    try:
        return int(digits)
    except ValueError:
        return None


_WITH_UNIT = re.compile(
    r"^(?P<number>[\d,.\s'OoDQlI|SsBZz]*\d[\d,.\s'OoDQlI|SsBZz]*?)\s*"
    r"(?P<unit>[A-Za-z\u4e00-\u9fff][A-Za-z.\u4e00-\u9fff]{0,9})$"
)


def quantity_and_unit(text: str) -> tuple[int | None, str | None]:
    """A quantity and the unit written after it: `120 pcs` -> (120, "pcs"), `1,450 件` ->
    (1450, "件"), `38` -> (38, None); not a quantity -> (None, None). A unit is a word of
    letters or Chinese after the number (a number that needs its letters read as digits,
    like `1O4`, has none)."""
    value = clean_text(text)
    plain = parse_quantity(value)
    if plain is not None or not value:
        return plain, None
    match = _WITH_UNIT.match(value)
    if match is None:
        return None, None
    number = parse_quantity(match["number"])
    return (number, match["unit"]) if number is not None else (None, None)


def repair_id(text: str) -> str:
    """`WH-O1` -> `WH-01`, `sku—10231` -> `sku-10231`: the part after the dash is a number.
    The letters are kept as written (a code is data: `shirt-variant-1-7` stays lower case)."""
    value = clean_text(text).translate(_DASHES)
    match = _ID.match(value) if "-" in value else None
    if not match:
        return value
    number = match["number"]
    fixed = number.upper().translate(_DIGIT_LOOKALIKES)
    if fixed.isdigit() and sum(ch.isdigit() for ch in number) >= len(number) - 2:
        return f"{match['prefix']}-{fixed}"
    return value


_NEIGHBOURS_MARK = re.compile(rf"^[\d,.'\-{DASH_LOOKALIKES}]+$")
"""A number or a dash (an empty cell's mark): what a neighbouring column leaves in a cell."""


def lone_word(text: str, is_value: Callable[[str], object]) -> str | None:
    """The one word of a cell that `is_value` accepts, when a neighbouring column's number or
    dash was read into the cell beside it (`120 SKU-10403`, `- SKU-10231`, `200 WH-03`): one
    such word and every other word a number or a dash; else None."""
    words = clean_text(text).split()
    found = [w for w in words if is_value(w)]
    if len(words) < 2 or len(found) != 1:
        return None
    rest = [w for w in words if w != found[0]]
    return found[0] if all(_NEIGHBOURS_MARK.match(w) for w in rest) else None
