"""Clean cell text: full-width forms, thousands separators, confusions a column type resolves."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache

__all__ = [
    "DASH_LOOKALIKES",
    "MIDDLE_DOTS",
    "clean_text",
    "column_decimals",
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
_FRACTION = re.compile(r"^(?P<whole>-?\d[\d,.\s']*?)(?P<sep>[,.])(?P<places>\d+)$")
"""A number's last separator and the digits after it (`1.234,00`: `,` and `00`)."""
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


def parse_quantity(text: str, *, decimals: str | None = None) -> int | None:
    """`1,204` -> 1204; `1O4` -> 104 (a quantity holds only digits); anything else -> None. A
    space inside a number is a thousands separator (`1 204`) or nothing: `96 6` is a number
    and a misread unit, not 966. A separator left hanging at the end (`1,450.`) is noise.

    A whole number written with decimals is that number: a separator followed by other than
    three digits can only be a decimal one (`8,00` -> 8, `100.0000` -> 100, `1.234,00` ->
    1234); three digits after it (`5.000`) are a thousands group unless the column's values
    say its decimal separator writes three places (`decimals`, see `column_decimals`). A
    fraction that is not zero (`12,50`) is no whole quantity: None."""
    value = _SPACED_SEPARATOR.sub(r"\1", clean_text(text)).rstrip(",.'")
    if not value:
        return None
    fraction = _FRACTION.match(value)
    if fraction and (len(fraction["places"]) != 3 or fraction["sep"] == decimals):
        whole = parse_quantity(fraction["whole"])
        return whole if whole is not None and not fraction["places"].strip("0") else None
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
    r"(?P<unit>[^\W\d_](?:[^\W\d_]|\.){0,9})$"
)
"""A number and the unit word after it, in any script (`8 pcs`, `12 Stück`, `1000箱`)."""
_STACKED = re.compile(r"^(?P<first>[^/|]+?)\s*[/|]\s*(?P<second>[^/|]+)$")
"""Two amounts in one cell (`453 g / 1 kg`: what is left over what there was)."""


def quantity_and_unit(text: str, *, decimals: str | None = None) -> tuple[int | None, str | None]:
    """A quantity and the unit written after it: `120 pcs` -> (120, "pcs"), `1,450 件` ->
    (1450, "件"), `1000箱` -> (1000, "箱"), `12 Stück` -> (12, "Stück"), `38` -> (38, None),
    two amounts stacked `453 g / 1 kg` -> (453, "g"), a number the words after it call the
    stock on hand `61 Available on hand 1 Reserved` -> (61, None); not a quantity -> (None,
    None). A unit
    is a word of letters after the number, in any script (a number that needs its letters
    read as digits, like `1O4`, has none). `decimals`: see `parse_quantity`."""
    value = clean_text(text)
    plain = parse_quantity(value, decimals=decimals)
    if plain is not None or not value:
        return plain, None
    match = _WITH_UNIT.match(value)
    if match is None:
        said = _said_in_stock(value, decimals)
        return (said, None) if said is not None else _stacked(value, decimals)
    number = parse_quantity(match["number"], decimals=decimals)
    return (number, match["unit"]) if number is not None else (None, None)


_LEADING_NUMBER = re.compile(r"^(?P<number>\d[\d,.']*)\s+(?P<words>[^\W\d_].*)$")


@cache
def _stock_words() -> tuple[str, ...]:
    """The names of the quantity on hand, longest first (`available on hand` before
    `available`), each ending a word."""
    from pipeline.fields import FIELD_SPECS

    names = (n.casefold() for n in FIELD_SPECS["on_hand"].synonyms)
    return tuple(sorted(names, key=len, reverse=True))


def _said_in_stock(value: str, decimals: str | None) -> int | None:
    """A number the words after it call the stock on hand (`61 Available on hand 1 Reserved`,
    `12 in stock`, `7 auf Lager`): that number, whatever else the cell holds after them."""
    match = _LEADING_NUMBER.match(value)
    if match is None:
        return None
    words = match["words"].casefold()
    for name in _stock_words():
        if words.startswith(name) and (len(words) == len(name) or not words[len(name)].isalnum()):
            return parse_quantity(match["number"], decimals=decimals)
    return None


def _stacked(value: str, decimals: str | None) -> tuple[int | None, str | None]:
    """Two amounts stacked in one cell, each with its unit (`453 g / 1 kg`, `61 pcs | 1 pcs`):
    the first, as the cell shows it first. Anything else (a date, `12/24`, a price per unit)
    is no quantity."""
    stacked = _STACKED.match(value)
    if stacked is None:
        return None, None
    first, second = (_WITH_UNIT.match(stacked[part].strip()) for part in ("first", "second"))
    if first is None or second is None:
        return None, None
    number = parse_quantity(first["number"], decimals=decimals)
    if number is None or parse_quantity(second["number"], decimals=decimals) is None:
        return None, None
    return number, first["unit"]


def column_decimals(values: Sequence[str]) -> str | None:
    """The decimal separator of a column whose numbers are written with three decimals
    (`5.000`, `0.000`, `1500.000`), decided from all its values: every number ends in the same
    separator and three digits, and one of them cannot be a thousands group (a whole part of
    `0`, or of four digits or more with no group separator). None: the column's three digits
    after a separator are thousands (`1,450`), or its numbers say nothing."""
    found: list[re.Match[str]] = []
    for text in values:
        value = clean_text(text)
        number = _WITH_UNIT.match(value)
        match = _FRACTION.match(number["number"].strip() if number else value)
        if value and value not in ("-", "—"):
            if match is None or len(match["places"]) != 3:
                return None
            found.append(match)
    if not found or len({m["sep"] for m in found}) != 1:
        return None
    sep = found[0]["sep"]
    plain = re.compile(r"^-?(?:0|\d{4,})$")
    return sep if any(plain.match(m["whole"]) for m in found) else None


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
