"""Two columns read as one, told apart by what they hold: a right-aligned quantity or price
set one space from a left-aligned code or name (`1,204 boxes  Flat washer M8`, `300
SKU-10233`, `500  01.02.0035`, `$18.10  Cable tie`) comes out of the reader as one column
under both headers (`On hand Part no.`, `在途 物料编码`, `Price Name`). Such a column is cut
in two where its header splits into two names the header vocabulary knows and most of its
cells into a quantity (with its unit, or a dash for none) or a price, and something that is
neither. An on-order column is mostly empty, its dashes often lost on a photo: under a header
whose quantity is no stock (`在途`), fewer of its cells need to split. Under a header lost
altogether, the values alone cut a column where each number is followed by a code
(`310 WH-01`), never by a name's words. A date is the other column's too (`412 21/11/2026`
under `Qty avail. Last count`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from pipeline.table.cells import clean_text, quantity_and_unit
from pipeline.table.headers import header_evidence, header_words, names_something, ruled_out
from pipeline.table.values import (
    NONE_MARKS,
    has_letters,
    is_code,
    is_date,
    is_price,
    is_warehouse_code,
)

__all__ = ["split_fused"]

_LEADING_QUANTITY = re.compile(
    r"^(?P<quantity>(?P<number>\d{1,3}(?:[,.']\d{3})+|\d+)"
    r"(?:\s?(?P<unit>[A-Za-z]{1,8}|[\u4e00-\u9fff]{1,2})(?=\s))?|[-—–])\s+(?P<rest>\S.*)$"
)
"""A cell that opens with a quantity (and its unit, a word after it: a Chinese unit is one or
two characters, `件`, `千克`, not a name's first word, `六角螺栓`) or a dash, then more."""
_FEW_UNITS = 0.5
"""A column's words after its numbers are units when they are this few for the cells that
have one (at most one distinct word in two): `pcs`, `boxes`, `pcs` … and not a name's first
word (`Safety`, `Dust`, `Packing` …)."""
_EMPTY = ("", *NONE_MARKS)
_QUANTITIES = ("on_hand", "reorder_point")
_OTHERS = ("sku", "name", "warehouse_id")
_LEAST_ROWS = 4
_LEAST_SHARE = 0.7
"""The share of a column's filled cells that must split for the column to be cut."""
_LEAST_CUTS = 3
_SPARSE_SHARE = 0.3
"""The share for a column whose header's quantity is no stock (`On order`, `在途`): few items
are on order, and a photo loses the dash the others show, so most cells are the other
column's alone."""


def _header_cut(header: str) -> tuple[str, str] | None:
    """The header's two names: a quantity's first (`On hand`, `Reorder point`, `在途`), then
    a column that holds no quantity (`Part no.`, `Product code`, `物料编码`, `Status`); the
    cut at a space that both sides name best, else None."""
    tokens = unicodedata.normalize("NFKC", header).split()
    best: tuple[float, str, str] | None = None
    for cut in range(1, len(tokens)):
        left, right = " ".join(tokens[:cut]), " ".join(tokens[cut:])
        quantity = max(header_evidence(left, f)[0] for f in _QUANTITIES)
        if quantity == 0 and ruled_out(left):
            quantity = 0.5  # a quantity that is no stock field: `On order`, `在途`
        if quantity == 0 or any(
            header_evidence(text, f)[0] > 0 for text in (right, tokens[cut]) for f in _QUANTITIES
        ):
            continue  # the quantity's name goes on (`Qty | avail. Last count`)
        other = max(header_evidence(right, f)[0] for f in _OTHERS)
        if other == 0 and names_something(header_words(right)):
            other = 0.5  # `Status`, `Unit price`
        if other > 0 and (best is None or quantity + other > best[0]):
            best = (quantity + other, left, right)
    return None if best is None else (best[1], best[2])


def _not_quantity(text: str) -> bool:
    """Text that is no quantity: words, a code (`01.02.0035`) or a date (`21/11/2026`)."""
    if quantity_and_unit(text)[0] is not None:
        return False
    return has_letters(text) or is_code(text) or is_date(text)


_GLUED_PRICE = re.compile(r"^(?P<price>[$€£¥￥]\s?\d[\d,]*\.\d{2})(?P<rest>[^\d\s.,].*)$")
"""A price whose cents run into the name after it (`$7.58Safety gloves`): its two decimals
end it."""
_PRICE_LOOKALIKES = str.maketrans({"O": "0", "o": "0", "S": "5", "l": "1", "I": "1"})


def _price_cut(value: str) -> tuple[str, str] | None:
    """A cell's leading price and what follows it: one word away, or run into it at its
    cents. The price may be misread as a reader misreads one (`S27.62` for `$27.62`, `$S.58`
    for `$5.58`); the column the cut is for decides whether that reading stands."""
    head, _, rest = value.partition(" ")
    if rest:
        currency, number = (head[0], head[1:]) if head[:1] in "$Ss" else ("", head)
        read = ("$" if currency else "") + number.translate(_PRICE_LOOKALIKES)
        # An `S` for a `$` only before a number with cents (`S12 bolts` is no price).
        misread = currency in ("S", "s")
        if is_price(read) and (not misread or ("." in number and number[:1].isdigit())):
            return head, rest.strip()
    glued = _GLUED_PRICE.match(value)
    return (glued["price"], glued["rest"]) if glued else None


def _cell_cut(value: str) -> tuple[str, str, str] | None:
    """A cleaned cell's quantity or price, the word after its number that may be its unit
    (else ""), and what follows, else None (a cell that is neither followed by more)."""
    price = _price_cut(value)
    if price is not None and _not_quantity(price[1]):
        return price[0], "", price[1]
    match = _LEADING_QUANTITY.match(value)
    if match is None or not _not_quantity(match["rest"]):
        return None
    quantity = match["quantity"]
    if quantity not in _EMPTY and quantity_and_unit(quantity)[0] is None:
        return None
    return quantity, match["unit"] or "", match["rest"]


def _units(cuts: Sequence[tuple[str, str, str]]) -> bool:
    """Whether the words after the numbers are units: always before a code (`1,204 boxes
    SKU-10233`), before words only when the column has few of them, as units repeat down a
    column and names' first words vary (`200 Safety gloves`, `40 Dust mask`)."""
    words = [unit.casefold() for _, unit, rest in cuts if unit and _words(rest)]
    return len(set(words)) <= _FEW_UNITS * len(words)


def _words(text: str) -> bool:
    """Text that opens with a word, not a code: a name."""
    first = text.split()[0]
    return has_letters(first) and not is_code(first)


def _cut_cells(cells: Sequence[str]) -> tuple[list[tuple[str, str]], float] | None:
    """Each cell's two parts (the rest are one side's) and the share of the filled cells that
    split, when three at least do."""
    values = [clean_text(c) for c in cells]
    filled = sum(v not in _EMPTY for v in values)
    if filled < _LEAST_ROWS:
        return None
    found = [
        None
        if value in _EMPTY or quantity_and_unit(value)[0] is not None or is_price(value)
        else _cell_cut(value)
        for value in values
    ]
    cuts = [cut for cut in found if cut is not None]
    units = _units(cuts)
    parts: list[tuple[str, str]] = []
    for value, cut in zip(values, found, strict=True):
        if cut is None:
            whole = value in _EMPTY or quantity_and_unit(value)[0] is not None or is_price(value)
            parts.append((value, "") if whole else ("", value))
        elif not cut[1] or units or not _words(cut[2]):
            parts.append((cut[0], cut[2]))
        else:
            number = cut[0][: -len(cut[1])].rstrip()
            parts.append((number, f"{cut[1]} {cut[2]}"))
    return (parts, len(cuts) / filled) if len(cuts) >= _LEAST_CUTS else None


def _codes_after(body: Sequence[tuple[str, str]]) -> bool:
    """Whether every cell's second part is a code or a warehouse's, none of them words."""
    rests = [rest for _, rest in body if rest]
    return bool(rests) and all(is_code(r) or is_warehouse_code(r) for r in rests)


def split_fused(
    texts: list[list[str]], confs: list[list[float]]
) -> tuple[list[list[str]], list[list[float]]]:
    """The grid (header row first) with each fused column cut in two, and its confidences
    likewise."""
    if len(texts) < _LEAST_ROWS + 1:
        return texts, confs
    width = len(texts[0])
    cuts: dict[int, tuple[tuple[str, str], list[tuple[str, str]]]] = {}
    for c in range(width):
        # The cells first: they rarely split, and a header's names take fuzzy matching.
        found = _cut_cells([row[c] if c < len(row) else "" for row in texts[1:]])
        if found is None or found[1] < _SPARSE_SHARE:
            continue
        body, share = found
        header = _header_cut(texts[0][c])
        if header is not None and (share >= _LEAST_SHARE or ruled_out(header[0])):
            cuts[c] = (header, body)
        elif not texts[0][c].strip() and share >= _LEAST_SHARE and _codes_after(body):
            # Its header lost (faint on a photo): the values alone tell the two columns
            # apart where each number is followed by a code (`310 WH-01`), no name's words.
            cuts[c] = (("", ""), body)
    if not cuts:
        return texts, confs
    out_texts: list[list[str]] = []
    out_confs: list[list[float]] = []
    for r, (row, row_confs) in enumerate(zip(texts, confs, strict=True)):
        cells: list[str] = []
        scores: list[float] = []
        for c in range(width):
            text = row[c] if c < len(row) else ""
            score = row_confs[c] if c < len(row_confs) else 0.0
            if c in cuts:
                header, body = cuts[c]
                cells += header if r == 0 else body[r - 1]
                scores += [score, score]
            else:
                cells.append(text)
                scores.append(score)
        out_texts.append(cells)
        out_confs.append(scores)
    return out_texts, out_confs
