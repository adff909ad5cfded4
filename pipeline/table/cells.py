"""Clean cell text: full-width forms, thousands separators, confusions a column type resolves."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["clean_text", "parse_quantity", "repair_id"]

_DASHES = str.maketrans({"—": "-", "–": "-", "‐": "-", "‑": "-", "−": "-", "一": "-"})
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
_ID = re.compile(r"^(?P<prefix>[A-Z]{1,5})\s*-\s*(?P<number>[0-9A-Za-z|]{1,8})$")


def clean_text(text: str) -> str:
    """NFKC (full-width letters, digits and punctuation to ASCII), dashes unified, spaces tidy."""
    normal = unicodedata.normalize("NFKC", text)
    return " ".join(normal.split())


def parse_quantity(text: str) -> int | None:
    """`1,204` -> 1204; `1O4` -> 104 (a quantity holds only digits); anything else -> None."""
    value = clean_text(text).replace(" ", "")
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


def repair_id(text: str) -> str:
    """`WH-O1` -> `WH-01`, `sku—10231` -> `SKU-10231`: the part after the dash is a number."""
    value = clean_text(text).translate(_DASHES)
    match = _ID.match(value.upper()) if "-" in value else None
    if not match:
        return value
    number = match["number"]
    fixed = number.upper().translate(_DIGIT_LOOKALIKES)
    if fixed.isdigit() and sum(ch.isdigit() for ch in number) >= len(number) - 2:
        return f"{match['prefix']}-{fixed}"
    return value
