"""Clean a grid read off a screen: what a spreadsheet draws around its cells is not data."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

__all__ = ["sheet_chrome", "strip_icons", "without_glyphs"]

_MIN_RUN = 3


def _letters_row(row: Sequence[str]) -> bool:
    """`A B C D ...`: a spreadsheet's column letters."""
    filled = [t.strip() for t in row if t.strip()]
    if len(filled) < _MIN_RUN or not all(len(t) == 1 and "A" <= t <= "Z" for t in filled):
        return False
    return all(ord(b) - ord(a) == 1 for a, b in pairwise(filled))


def _numbers_column(column: Sequence[str]) -> bool:
    """`1 2 3 ...` (or `7 8 9 ...` scrolled) under a blank or numbered header cell: a
    spreadsheet's row numbers. A column headed `#` or `No.` is the table's own."""
    head, *body = (t.strip() for t in column)
    if head and not head.isdigit():
        return False
    digits = [int(t) for t in body if t.isdigit()]
    if len(body) < _MIN_RUN or len(digits) < 0.8 * len(body):
        return False
    # A misread number or two (a photo) still leaves the run of consecutive numbers.
    steps = [b - a == 1 for a, b in pairwise(digits)]
    return sum(steps) >= 0.7 * len(steps)


def sheet_chrome(texts: Sequence[Sequence[str]]) -> tuple[bool, list[int]]:
    """(whether the first row is column letters, the columns that are row numbers)."""
    if not texts:
        return False, []
    letters = _letters_row(texts[0])
    rows = texts[1:] if letters else texts
    width = max((len(r) for r in rows), default=0)
    numbers = []
    for c in range(min(width, 1)):
        column = [r[c] if c < len(r) else "" for r in rows]
        if _numbers_column(column):
            numbers.append(c)
    return letters, numbers


_ICON_READINGS = frozenset("oOvVxX^+*")


_GLYPHS = re.compile(r"[\u2190-\u21ff\u2303\u2304\u25a0-\u25ff\u2b00-\u2bff]+")
"""Arrows and geometric shapes (`▲`, `▼`, `↑`, `⇅`, `◆`): a sort mark or an icon read as
the glyph it is, never a letter of a header."""


def strip_icons(header: str) -> str:
    """A header without the sort arrow, filter funnel or info mark drawn beside its name
    (read as a lone `o`, `v`, `^` or symbol, or as the arrow it is, even glued to the name):
    `Qty o` -> `Qty`, `Artikelnummer▲` -> `Artikelnummer`."""
    words = _GLYPHS.sub(" ", header).split()
    while len(words) > 1 and _icon(words[-1]):
        words.pop()
    while len(words) > 1 and _icon(words[0]) and not words[0].isalnum():
        words.pop(0)
    return " ".join(words)


def without_glyphs(text: str) -> str:
    """A cell without the arrows and shapes drawn beside its text (a link's `▸`, a tree's
    `▼`): an icon is no character of a name or a place."""
    return " ".join(_GLYPHS.sub(" ", text).split())


def _icon(word: str) -> bool:
    return len(word) == 1 and (word in _ICON_READINGS or not word.isalnum())
