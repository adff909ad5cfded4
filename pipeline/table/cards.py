"""Records that are not table rows: cards, tiles and list items, read from a page's text lines.

A stock app on a phone, a tile view or a list shows each item as a block: its name, its code,
and labelled values (`On hand 12 pcs`, `Min 40`, `WH-02`, `库存 75 · 安全 120`). Such a page
has no columns to align, so the blocks are found by what each one holds:

- an **anchor** per record: a line (or a `·`-separated part of one) that is a code;
- **labelled values**: a label and a number (`Reorder at 40`, `安全 120`, `Qty: 12`, `12 on
  hand`), the label typed by the same header vocabulary a table's columns are typed with
  (`pipeline.table.schema`), the unit after the number kept apart;
- the other lines of the block: the name (text above the code), and status badges (a short
  text that several records repeat, read alike but for a letter, or a status word: left out).

Records are the anchors; each line goes to the record of its column of blocks whose stretch of
lines it falls in, records split where the gap between lines is widest. The layout is `cards`
when blocks sit side by side or on panels of their own, else `list`. Pure: lines and, for the
panels, the page's grey image in.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import Literal

import numpy as np

from pipeline.fields import FIELDS
from pipeline.models import Box, Table, TextLine
from pipeline.pixels import Gray
from pipeline.table.card_lines import (
    Part,
    key_code,
    labelled,
    line_parts,
    stacked,
    warehouse,
)
from pipeline.table.cells import most_common, quantity_and_unit
from pipeline.table.headers import likeness
from pipeline.table.schema import ColumnRole
from pipeline.table.values import is_code

__all__ = ["CardRecord", "Cards", "cards_table", "read_cards"]

Layout = Literal["cards", "list"]

_STATUS = {
    "low", "ok", "healthy", "reorder", "critical", "normal", "warning", "in stock",
    "out of stock", "below min", "正常", "预警", "库存不足", "缺货", "充足", "紧张", "告急",
}  # fmt: skip
"""Status words a badge says: stripped from the end of a name the badge was read into."""


@dataclass
class CardRecord:
    sku: str
    name: str = ""
    on_hand: str = ""
    reorder_point: str = ""
    warehouse_id: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    """The label each value came with (`On hand`, `安全`), by field."""
    box: Box = (0, 0, 0, 0)
    confidence: float = 1.0


@dataclass(frozen=True)
class Cards:
    layout: Layout
    records: list[CardRecord]
    context: list[str]
    """Texts of the page outside the records (titles, chips, tabs): where a warehouse the
    records do not name is looked for."""
    box: Box


def _columns(anchors: Sequence[Part], height: float) -> list[list[Part]]:
    """Anchors grouped into columns of blocks by their left edges."""
    columns: list[list[Part]] = []
    for anchor in sorted(anchors, key=lambda a: a.box[0]):
        if columns and anchor.box[0] - columns[-1][-1].box[0] <= 3 * height:
            columns[-1].append(anchor)
        else:
            columns.append([anchor])
    return [sorted(c, key=lambda a: a.box[1]) for c in columns]


def read_cards(
    lines: Sequence[TextLine], gray: Gray | None = None, *, min_records: int = 2
) -> Cards | None:
    """The page's records, or None when it does not show at least `min_records` blocks with a
    code and a labelled quantity on hand, for most of its codes."""
    # Other one-character texts are icons read as letters (`曰`, `θ`); a digit is a value
    # (`Minimum` over `6`).
    read = line_parts([ln for ln in lines if ln.text.strip()])
    parts = [p for p in read if len(p.text.strip()) > 1 or p.text.strip().isdigit()]
    if not parts:
        return None
    height = float(median(p.box[3] - p.box[1] for p in parts))
    anchors = [p for p in parts if is_code(p.text)]
    if len(anchors) < min_records:
        return None
    columns = _columns(anchors, height)
    members: dict[int, list[Part]] = {id(a): [] for a in anchors}
    for (lo, hi), column in zip(_column_bounds(columns, height), columns, strict=True):
        inside = [p for p in parts if lo <= (p.box[0] + p.box[2]) / 2 < hi]
        _assign(column, inside, members)
    badges = _badges(anchors, members)
    records = [_record(a, members[id(a)], badges) for column in columns for a in column]
    # A page of blocks: most codes head a block that says how many are on hand (a table's
    # codes with a summary line beside them are no such page).
    good = [r for r in records if r.on_hand]
    if len(good) < min_records or len(good) < 0.6 * len(anchors):
        return None
    kept = {id(a) for a in anchors}
    claimed = {id(p) for a in anchors if id(a) in kept for p in [a, *members[id(a)]]}
    context = [
        p.text for p in sorted(parts, key=lambda p: (p.box[1], p.box[0])) if id(p) not in claimed
    ]
    # On such a page a block whose on-hand could not be read is still a record (its other
    # values, and a row left empty rather than dropped); a lone code is not.
    shown = [r for r in records if r.on_hand or r.reorder_point]
    ordered = _reading_order(shown, height)
    box = (
        min(r.box[0] for r in ordered),
        min(r.box[1] for r in ordered),
        max(r.box[2] for r in ordered),
        max(r.box[3] for r in ordered),
    )
    layout: Layout = "cards" if len(columns) > 1 or _on_panels(ordered, gray, height) else "list"
    return Cards(layout=layout, records=ordered, context=context, box=box)


def _column_bounds(columns: Sequence[Sequence[Part]], height: float) -> list[tuple[float, float]]:
    """Each column of blocks reaches from a little left of its anchors (an icon, a value line
    that starts further left) to just short of the next column's."""
    lefts = [min(a.box[0] for a in c) for c in columns]
    margin = 4 * height
    return [
        (left - margin, lefts[k + 1] - margin if k + 1 < len(lefts) else float("inf"))
        for k, left in enumerate(lefts)
    ]


def _assign(column: Sequence[Part], inside: Sequence[Part], members: dict[int, list[Part]]) -> None:
    """The column's lines given to its anchors: between two anchors, the widest vertical gap
    between consecutive lines is where one block ends and the next begins; before the first
    and after the last, lines belong to a block while the gaps stay like the ones inside it."""
    anchor_ids = {id(a) for a in column}
    rows = _rows(sorted((p for p in inside if id(p) not in anchor_ids), key=lambda p: p.box[1]))
    sequence: list[tuple[int, int, Part | None, list[Part]]] = [
        (a.box[1], a.box[3], a, []) for a in column
    ]
    sequence += [(min(p.box[1] for p in r), max(p.box[3] for p in r), None, r) for r in rows]
    sequence.sort(key=lambda s: (s[0], s[2] is None))
    gaps = [b[0] - a[1] for a, b in itertools.pairwise(sequence)]
    if not gaps:
        return
    at = [k for k, s in enumerate(sequence) if s[2] is not None]
    spans: dict[int, tuple[int, int]] = {}
    for n, k in enumerate(at):
        start = _widest(gaps, at[n - 1], k) + 1 if n else None
        end = _widest(gaps, k, at[n + 1]) if n + 1 < len(at) else None
        spans[k] = (start if start is not None else k, end if end is not None else k)
    # The first and last blocks reach as far above and below their anchors as the blocks
    # between them do (or, with no block between, a few lines).
    height = float(median(s[1] - s[0] for s in sequence))
    inner = [
        (sequence[k][0] - sequence[spans[k][0]][0], sequence[spans[k][1]][1] - sequence[k][1])
        for n, k in enumerate(at)
        if 0 < n < len(at) - 1
    ]
    above = max((a for a, _ in inner), default=4 * height) + height
    below = max((b for _, b in inner), default=4 * height) + height
    first, last = at[0], at[-1]
    start = first
    while start > 0 and sequence[first][0] - sequence[start - 1][0] <= above:
        start -= 1
    spans[first] = (start, spans[first][1])
    end = last
    while end + 1 < len(sequence) and sequence[end + 1][1] - sequence[last][1] <= below:
        end += 1
    spans[last] = (spans[last][0], end)
    for k, (lo, hi) in spans.items():
        anchor = sequence[k][2]
        assert anchor is not None
        for j in range(lo, hi + 1):
            if sequence[j][2] is None:
                members[id(anchor)].extend(sequence[j][3])


def _widest(gaps: Sequence[float], a: int, b: int) -> int:
    """The gap between positions a and b (a < b) where one block ends: the widest."""
    return max(range(a, b), key=lambda g: (gaps[g], -g))


def _rows(parts: Sequence[Part]) -> list[list[Part]]:
    """Parts side by side on one visual line (a name and its badge) travel together."""
    rows: list[list[Part]] = []
    for part in parts:
        centre = (part.box[1] + part.box[3]) / 2
        height = part.box[3] - part.box[1]
        if rows:
            last = rows[-1]
            last_centre = median((p.box[1] + p.box[3]) / 2 for p in last)
            if abs(centre - last_centre) <= 0.5 * height:
                last.append(part)
                continue
        rows.append([part])
    return rows


def _record(anchor: Part, members: Sequence[Part], badges: set[str]) -> CardRecord:
    record = CardRecord(sku=re.sub(r"\s+", "", key_code(anchor.text)))
    names: list[Part] = []
    repeated: list[Part] = []
    confidences = [anchor.confidence]
    for part in stacked(anchor, members):
        value_of = labelled(part.text)
        code = warehouse(part.text)
        if value_of is not None:
            key, label, value = value_of
            if not getattr(record, key):
                setattr(record, key, value)
                record.labels[key] = label
                confidences.append(part.confidence)
        elif code is not None:
            record.warehouse_id = record.warehouse_id or code
        elif part.box[1] < anchor.box[1] and re.search(r"[A-Za-z\u4e00-\u9fff]", part.text):
            (repeated if part.text in badges else names).append(part)
    if not names:
        # Two variants of one product share its name (`Red Shirt` over two codes): a text
        # several blocks repeat is their name where it is all the block has above its code
        # and says no status.
        names = [p for p in repeated if p.text.lower() not in _STATUS]
    names.sort(key=lambda p: (p.box[1], p.box[0]))
    name = " ".join(p.text for p in names)
    for badge in sorted(badges | _STATUS, key=len, reverse=True):
        if name.lower().endswith(badge.lower()) and len(name) > len(badge) + 2:
            name = name[: -len(badge)].rstrip()  # a badge read into the name's line
            break
    record.name = name
    every = [anchor, *members]
    record.box = (
        min(p.box[0] for p in every),
        min(p.box[1] for p in every),
        max(p.box[2] for p in every),
        max(p.box[3] for p in every),
    )
    record.confidence = min(confidences)
    return record


def _badges(anchors: Sequence[Part], members: dict[int, list[Part]]) -> set[str]:
    """A short text that several blocks repeat (`Low`, `Healthy`, `库存不足`), or that says a
    status word: a status badge, not part of a name. Small text on a photo loses a letter here
    and there (`Heathy`, `Heaithy`), so a text repeats another when it is one of its near
    spellings."""
    seen: Counter[str] = Counter()
    for anchor in anchors:
        seen.update({p.text for p in members[id(anchor)]})
    short = {
        text
        for text in seen
        if len(text) <= 12
        and len(text.split()) <= 2
        and not labelled(text)
        and not warehouse(text)
        and not any(ch.isdigit() for ch in text)
    }
    return {
        text
        for text in short
        if sum(n for other, n in seen.items() if other in short and _near(text, other)) >= 2
        or any(_near(text, word) for word in _STATUS)
    }


def _near(a: str, b: str) -> bool:
    """The same word read with a letter lost, added or changed (`Healthy`, `Heaithy`)."""
    a, b = a.lower(), b.lower()
    return a == b or (min(len(a), len(b)) >= 4 and likeness(a, b, 0.8) > 0)


def _reading_order(records: Sequence[CardRecord], height: float) -> list[CardRecord]:
    """Row by row (blocks whose tops are within two text heights), left to right."""
    ordered = sorted(records, key=lambda r: r.box[1])
    bands: list[list[CardRecord]] = []
    for record in ordered:
        if bands and record.box[1] - bands[-1][0].box[1] <= 2 * height:
            bands[-1].append(record)
        else:
            bands.append([record])
    return [r for band in bands for r in sorted(band, key=lambda r: r.box[0])]


def _on_panels(records: Sequence[CardRecord], gray: Gray | None, height: float) -> bool:
    """Blocks of one column sit on panels of their own when the background right around a
    block differs from the background between blocks."""
    if gray is None or len(records) < 2:
        return False
    inside, between = [], []
    pad = max(2, round(height))
    for a, b in itertools.pairwise(records):
        x0, x1 = a.box[0], a.box[2]
        gap_top, gap_bottom = a.box[3], b.box[1]
        if gap_bottom - gap_top < 2:
            continue
        mid = (gap_top + gap_bottom) // 2
        between.append(float(np.median(gray[mid : mid + 1, max(0, x0) : x1])))
        inside.append(
            float(np.median(gray[max(0, a.box[3] + 1) : a.box[3] + pad, max(0, x0) : x1]))
        )
    if not between:
        return False
    return abs(median(inside) - median(between)) >= 6


_HEADERS = {
    "sku": "SKU",
    "name": "Name",
    "on_hand": "On hand",
    "reorder_point": "Reorder point",
    "warehouse_id": "Warehouse",
}


def cards_table(cards: Cards) -> tuple[Table, list[list[float]], list[ColumnRole]]:
    """The records as a grid (one column per field any record has, headed by the label the
    records used: `On hand`, `Min`, `库存`), its confidences, and each column's role."""
    present = [f for f in FIELDS if any(getattr(r, f) for r in cards.records)]
    header = []
    for f in present:
        labels = Counter(r.labels[f] for r in cards.records if f in r.labels)
        header.append(labels.most_common(1)[0][0] if labels else _HEADERS[f])
    cells = [[getattr(r, f) for f in present] for r in cards.records]
    confidences = [[r.confidence for _ in present] for r in cards.records]
    roles = [
        ColumnRole(
            index=k,
            header=header[k],
            maps_to=f,
            confidence=1.0 if f in ("sku", "name") else 0.9,
            why=_WHY[f] if f not in ("on_hand", "reorder_point") else f"labelled {header[k]!r}",
            unit=_unit([r for r in cards.records], f),
        )
        for k, f in enumerate(present)
    ]
    return Table(header=header, cells=cells), confidences, roles


_WHY = {
    "sku": "each block's code",
    "name": "the text above each block's code",
    "warehouse_id": "each block's warehouse code",
}


def _unit(records: Sequence[CardRecord], field: str) -> str | None:
    units = [quantity_and_unit(getattr(r, field))[1] for r in records if getattr(r, field)]
    named = [u for u in units if u]
    return most_common(named)
