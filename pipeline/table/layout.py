"""Find the table among the text boxes of a page and cut it into rows and columns.

A table is a set of column stacks: boxes aligned on their left edge, right edge or centre from
one row to the next. Stacks that share their rows are one table; a sidebar or a footer is a stack
whose rows do not line up with the table's, and a navigation list beside it, whose own pitch
puts most of its lines between the table's rows. The header is the table's first row, or the
row just above it when that row's boxes stand over the columns (a filter bar straddles them). A
first row with a box reaching across columns is a toolbar unless its other boxes stand over
their own columns: a header whose two names touch (cut apart by `pipeline.table.column_gaps`). A
header name over a gap beside a column, while another name stands over the column's values,
heads an empty column of its own (values a photo lost, such as a status column's chips).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from statistics import median

import cv2
import numpy as np

from pipeline.models import Box, TextLine
from pipeline.pixels import Gray
from pipeline.table.column_gaps import columns_under
from pipeline.table.spans import Cell, assign, merge_overlapping, names_apart, spanning_boxes
from pipeline.table.textlines import box_lines, union_box

__all__ = [
    "TableLayout",
    "find_table",
    "structure_region",
    "surround_level",
    "table_of_lines",
]

_PANEL_DIFFERENCE = 48
"""Grey levels between two panels' backgrounds: a sidebar or a card beside the table."""

_MIN_STACK = 3


@dataclass(frozen=True)
class TableLayout:
    box: Box
    columns: list[tuple[int, int]]
    header: list[Cell]
    rows: list[list[Cell]]
    context: list[Cell]
    strays: list[int] = field(default_factory=list)
    """Boxes on the table's panel and beside its columns, within its rows, that no column
    took: a merged column's values (one per group of rows) or text the grid does not fit."""

    @property
    def grid(self) -> list[list[Cell]]:
        """The header and the rows, top to bottom."""
        return [self.header, *self.rows]


class _Union:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def _aligned(a: Box, b: Box, tolerance: float) -> bool:
    if min(a[2], b[2]) <= max(a[0], b[0]):
        return False
    return (
        abs(a[0] - b[0]) <= tolerance
        or abs(a[2] - b[2]) <= tolerance
        or abs((a[0] + a[2]) - (b[0] + b[2])) <= 2 * tolerance
    )


_REACH = 9
"""How far below a box, in text heights, the next box of its column stack may be."""
TALL_REACH = 24
"""The same for a table of tall rows (a thumbnail in each), read when none of usual rows
holds the page's items."""


def _stacks(
    boxes: Sequence[Box], lines: list[list[int]], text_height: float, reach_heights: float
) -> list[list[int]]:
    """Boxes linked to the nearest aligned box below them, grouped into column stacks."""
    line_of = {i: n for n, line in enumerate(lines) for i in line}
    centres = [sum((boxes[i][1] + boxes[i][3]) / 2 for i in line) / len(line) for line in lines]
    tolerance = max(3.0, text_height * 0.5)
    reach = text_height * reach_heights
    union = _Union(len(boxes))
    for i, box in enumerate(boxes):
        n = line_of[i]
        for m in range(n + 1, len(lines)):
            if centres[m] - centres[n] > reach:
                break
            match = next((j for j in lines[m] if _aligned(box, boxes[j], tolerance)), None)
            if match is not None:
                union.join(i, match)
                break
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(boxes)):
        groups[union.find(i)].append(i)
    return [g for g in groups.values() if len(g) >= _MIN_STACK]


_INTERLEAVED = 0.25
"""Share of a stack's lines that may fall between another stack's rows, within its extent,
for the two to be one table: a navigation list beside a table has its own pitch, so most of its
lines sit between the table's rows even where some coincide with them."""


def _share_rows(a: set[int], b: set[int]) -> bool:
    if len(a & b) < 0.6 * min(len(a), len(b)):
        return False
    fewer, more = (a, b) if len(a) <= len(b) else (b, a)
    within = [n for n in fewer if min(more) <= n <= max(more)]
    between = sum(n not in more for n in within)
    return between <= _INTERLEAVED * max(1, len(within))


def surround_level(gray: Gray, box: Box, reach: float) -> float:
    """The grey level a text box sits on: the commonest level of the box grown by `reach`
    pixels (at least 2). Grown by a text height that is mostly panel, since a badge's or a
    button's padding is smaller than that."""
    grow = max(2, round(reach))
    x0, y0, x1, y1 = box
    region = gray[max(0, y0 - grow) : y1 + grow, max(0, x0 - grow) : x1 + grow]
    if region.size == 0:
        return 255.0
    # 32 levels of 8 greys each; OpenCV's histogram reads the slice where it lies (numpy's
    # bincount wants a copy of it first, at twice the cost per box).
    counts = cv2.calcHist([region], [0], None, [32], [0, 256])
    return float(int(np.argmax(counts)) * 8 + 4)


def _table_stacks(
    boxes: Sequence[Box],
    stacks: list[list[int]],
    line_of: dict[int, int],
    backgrounds: list[float] | None = None,
    rank: int = 0,
) -> list[list[int]]:
    """The largest group of side-by-side stacks whose rows coincide, on one panel: stacks on
    backgrounds far apart (a sidebar beside the table) are never one table. `rank` 1, 2 …:
    the next largest (another table on the page)."""
    rows = [{line_of[i] for i in s} for s in stacks]
    spans = [(min(boxes[i][0] for i in s), max(boxes[i][2] for i in s)) for s in stacks]
    panel = (
        [float(median(backgrounds[i] for i in s)) for s in stacks]
        if backgrounds is not None
        else [0.0 for _ in stacks]
    )
    union = _Union(len(stacks))
    for a in range(len(stacks)):
        for b in range(a + 1, len(stacks)):
            apart = spans[a][1] <= spans[b][0] or spans[b][1] <= spans[a][0]
            same_panel = abs(panel[a] - panel[b]) <= _PANEL_DIFFERENCE
            if apart and same_panel and _share_rows(rows[a], rows[b]):
                union.join(a, b)
    groups: dict[int, list[int]] = defaultdict(list)
    for a in range(len(stacks)):
        groups[union.find(a)].append(a)
    ranked = sorted(
        (g for g in groups.values() if len(g) >= 2),
        key=lambda g: sum(len(stacks[a]) for a in g),
        reverse=True,
    )
    return [stacks[a] for a in ranked[rank]] if rank < len(ranked) else []


_SAME_COLUMNS = 0.5
"""The least share of the fewer stacks of two neighbouring lines that the other line has too,
for the two to be rows of one table."""


def _runs(
    lines: list[int], centres: list[float], stacks_of: Mapping[int, set[int]] | None = None
) -> list[int]:
    """The longest run of table lines without a gap much wider than the usual row pitch, nor
    a change of columns: a line whose stacks (`stacks_of`) are mostly not the line above's
    starts another table (two tables one under the other, one column stack reaching into
    both)."""
    if len(lines) < 2:
        return lines
    gaps = [centres[b] - centres[a] for a, b in pairwise(lines)]
    pitch = median(gaps)
    runs: list[list[int]] = [[lines[0]]]
    for (a, b), gap in zip(pairwise(lines), gaps, strict=True):
        if gap > pitch * 1.9 or (stacks_of is not None and _other_columns(stacks_of, a, b)):
            runs.append([])
        runs[-1].append(b)
    return max(runs, key=len)


def _other_columns(stacks_of: Mapping[int, set[int]], a: int, b: int) -> bool:
    first, second = stacks_of.get(a, set()), stacks_of.get(b, set())
    fewer = min(len(first), len(second))
    return fewer > 0 and len(first & second) < _SAME_COLUMNS * fewer


def table_of_lines(
    lines: Sequence[TextLine], gray: Gray | None
) -> tuple[list[Box], float, TableLayout | None]:
    """The table among text lines an engine read: their boxes, the text height the layout
    works with (0.6 of the median line's), and the table, or None."""
    boxes = [line.box for line in lines]
    text_height = median(b[3] - b[1] for b in boxes) * 0.6
    return boxes, text_height, find_table(boxes, text_height, gray)


def find_table(
    boxes: Sequence[Box],
    text_height: float,
    gray: Gray | None = None,
    rank: int = 0,
    *,
    reach: float = _REACH,
) -> TableLayout | None:
    """The page's main table as cell boxes per row and column, or None when there is none.
    With the page's grey image, column stacks on different panels are kept apart. `rank` 1,
    2 …: the page's next largest table (a page with a search form or a plan beside its list)."""
    if len(boxes) < 4:
        return None
    lines = box_lines(boxes, max(2.0, text_height * 0.45))
    line_of = {i: n for n, line in enumerate(lines) for i in line}
    centres = [sum((boxes[i][1] + boxes[i][3]) / 2 for i in line) / len(line) for line in lines]
    backgrounds = (
        [surround_level(gray, b, text_height) for b in boxes] if gray is not None else None
    )
    stacks = _stacks(boxes, lines, text_height, reach)
    chosen = _table_stacks(boxes, stacks, line_of, backgrounds, rank)
    if not chosen:
        return None
    need = max(2, (len(chosen) + 1) // 2)
    stacks_of: dict[int, set[int]] = defaultdict(set)
    for k, stack in enumerate(chosen):
        for n in {line_of[i] for i in stack}:
            stacks_of[n].add(k)
    body = _runs(sorted(n for n, ks in stacks_of.items() if len(ks) >= need), centres, stacks_of)
    if len(body) < 2:
        return None
    in_body = set(body)
    kept = [k for k in ([i for i in stack if line_of[i] in in_body] for stack in chosen) if k]
    spanning = spanning_boxes(boxes, kept)

    def columns_of(rows: set[int]) -> list[tuple[int, int]]:
        spans = [
            (min(boxes[i][0] for i in inner), max(boxes[i][2] for i in inner))
            for inner in (
                [i for i in stack if line_of[i] in rows and i not in spanning] for stack in kept
            )
            if inner
        ]
        return merge_overlapping(spans)

    # A toolbar or caption line on top of the table reaches across columns: not a table row.
    # A header whose neighbouring names touch (`On order Status` read as one box) reaches
    # across too, but its other names stand over their own columns.
    found = columns_of(in_body)
    while len(body) > 2 and any(line_of[i] == body[0] for i in spanning):
        over = {
            c for i in lines[body[0]] if i not in spanning for c in columns_under(boxes[i], found)
        }
        if len(over) >= need:
            break
        body.pop(0)
    in_body = set(body)
    columns = columns_of(in_body)
    left, right = columns[0][0], columns[-1][1]
    slack = text_height * 2

    def inside(i: int) -> bool:
        return boxes[i][0] >= left - slack and boxes[i][2] <= right + slack

    first = body[0]
    above = first - 1
    # Specks between the header and the body (a border's remnants) are not a line of text.
    while above > 0 and all(boxes[i][3] - boxes[i][1] < 0.6 * text_height for i in lines[above]):
        above -= 1

    body.pop(0)
    pitch = (centres[body[-1]] - centres[first]) / len(body) if body else float("inf")
    head = _header_block(boxes, lines, centres, first, text_height, inside, pitch)
    if first > 0 and above >= 0:
        block = _header_block(boxes, lines, centres, above, text_height, inside, pitch)
        aligned = {
            c
            for n in block
            for i in lines[n]
            if inside(i)
            for c in columns_under(boxes[i], columns)
        }
        if len(aligned) >= need and centres[first] - centres[above] <= pitch * 1.9:
            head = block
            body.insert(0, first)
    wrapped = _wrapped_lines(boxes, lines, centres, body, inside, columns)
    grid = [
        assign(boxes, [i for n in head for i in lines[n] if inside(i)], columns),
        *(
            assign(
                boxes, [i for m in (n, *wrapped.get(n, ())) for i in lines[m] if inside(i)], columns
            )
            for n in body
        ),
    ]
    grid, columns = names_apart(boxes, grid, columns, text_height)
    table_box = union_box([boxes[i] for row in grid for cell in row for i in cell])
    context = _context(boxes, _core_box(boxes, grid) or table_box, text_height)
    assigned = {i for row in grid for cell in row for i in cell}
    panel = float(median(backgrounds[i] for i in assigned)) if backgrounds is not None else None
    reach = text_height * 8
    rows_of_table = {line_of[i] for i in assigned}
    # A box of a stack that mostly lies outside the table's rows is a menu item or a sidebar
    # line (a navigation list beside the table), not a value the grid left out.
    elsewhere = {
        i
        for stack in stacks
        if sum(line_of[j] in rows_of_table for j in stack) < 0.6 * len(stack)
        for i in stack
    }
    strays = [
        i
        for i, b in enumerate(boxes)
        if i not in assigned
        and i not in elsewhere
        and table_box[1] < (b[1] + b[3]) / 2 < table_box[3]
        and table_box[0] - reach <= b[2]
        and b[0] <= table_box[2] + reach
        and not (b[0] >= table_box[0] and b[2] <= table_box[2])
        and b[2] - b[0] >= max(1.5 * text_height, 1.8 * (b[3] - b[1]))
        and (panel is None or backgrounds is None or abs(backgrounds[i] - panel) <= 24)
        and any(b[3] > boxes[j][1] and b[1] < boxes[j][3] for j in assigned)
    ]
    return TableLayout(
        box=table_box,
        columns=columns,
        header=grid[0],
        rows=grid[1:],
        context=context,
        strays=strays,
    )


def _wrapped_lines(
    boxes: Sequence[Box],
    lines: list[list[int]],
    centres: Sequence[float],
    body: Sequence[int],
    inside: Callable[[int], bool],
    columns: list[tuple[int, int]],
) -> dict[int, list[int]]:
    """Lines between two rows that go on a cell of the row above (`Fahrgestell für` over
    `HS1200`): all their text under one column, closer to that row than to the next one and
    nearer than the rows' pitch. By the row line they go on."""
    if len(body) < 2:
        return {}
    pitch = median(centres[b] - centres[a] for a, b in pairwise(body))
    found: dict[int, list[int]] = {}
    for a, b in pairwise(body):
        for m in range(a + 1, b):
            members = [i for i in lines[m] if inside(i)]
            if not members or len(members) < len(lines[m]):
                continue
            under = {c for i in members for c in columns_under(boxes[i], columns)}
            gap = centres[m] - centres[a]
            if len(under) == 1 and gap < 0.75 * pitch and gap < centres[b] - centres[m]:
                found.setdefault(a, []).append(m)
    return found


_HEADER_LINES = 3
"""The most lines one header's names are written on (`Von` / `Kunden` / `bestellt`)."""
_WRAPPED = 0.75
"""The most a wrapped name's lines are apart, in the table's row pitch: closer than its rows."""
_LEADING = 2.4
"""Text heights (0.6 of a line's) between the centres of two lines of one wrapped name: set
as one paragraph is, closer than a table's rows or a caption over its header."""


def _header_block(
    boxes: Sequence[Box],
    lines: list[list[int]],
    centres: list[float],
    last: int,
    text_height: float,
    inside: Callable[[int], bool],
    pitch: float,
) -> list[int]:
    """The lines of the header whose last line is `last`: with the lines just above it that
    are set as closely as the lines of one wrapped name (a header on two lines, `Auf` over
    `Lager`), closer than the table's rows (`pitch`: a spreadsheet's row of column letters
    is a row, not a line of a header), whose boxes lie within the table's width (`inside`),
    and whose top line stands over a name below it (a wrapped name goes on under its first
    line; a sidebar's entry or a caption over columns whose names are not wrapped is no part
    of the header), top to bottom."""
    block = [last]
    while (
        len(block) < _HEADER_LINES
        and block[0] > 0
        and centres[block[0]] - centres[block[0] - 1]
        <= min(_LEADING * text_height, _WRAPPED * pitch)
        and all(inside(i) for i in lines[block[0] - 1])
    ):
        block.insert(0, block[0] - 1)
    while len(block) > 1 and not any(
        boxes[i][0] < boxes[j][2] and boxes[j][0] < boxes[i][2]
        for i in lines[block[0]]
        for n in block[1:]
        for j in lines[n]
    ):
        block.pop(0)
    return block


def structure_region(layout: TableLayout, boxes: Sequence[Box], text_height: float) -> Box:
    """The table's box grown to what a structure model must see: the stray boxes beside its
    columns and the header lines just above it (a group header over the column names)."""
    x0, y0, x1, y1 = union_box([layout.box, *(boxes[i] for i in layout.strays)])
    rows = layout.grid
    tops = [min(boxes[i][1] for i in cell) for row in rows for cell in row if cell]
    pitch = (y1 - y0) / max(1, len(rows))
    above = [
        b
        for b in boxes
        if b[3] <= y0
        and y0 - b[3] <= max(pitch * 1.6, text_height * 3)
        and b[0] >= x0
        and b[2] <= x1
    ]
    if above and tops:
        y0 = min(y0, *(b[1] for b in above))
    # Text that starts inside and reaches out (a header wider than its column's values).
    over = [b for b in boxes if b[1] >= y0 and b[3] <= y1 and b[0] < x1 and b[2] > x0]
    return union_box([(x0, y0, x1, y1), *over])


def _core_box(boxes: Sequence[Box], grid: list[list[Cell]]) -> Box | None:
    """The table's box without an edge column that has no header and fills at most three rows
    in four: a sidebar's menu the grid took in as a column (dropped once read, see
    `pipeline.ingest.assembly`), whose items above the table are no context of it."""
    width = len(grid[0])
    edges = {
        c
        for c in {0, width - 1}
        if width > 2
        and not grid[0][c]
        and sum(bool(row[c]) for row in grid[1:]) <= 0.75 * (len(grid) - 1)
    }
    core = [boxes[i] for row in grid for c, cell in enumerate(row) if c not in edges for i in cell]
    return union_box(core) if edges and core else None


_NEAREST = 12
"""Phrases above a table kept as its context at the least: a toolbar, a filter bar, a card's
title, the page's heading and the breadcrumb over it."""
_NEAREST_LINES = 4
"""Lines above a table kept whole as its context at the least, however many phrases they hold:
a wide filter bar of labels, fields and buttons does not push out the breadcrumb above it."""
_MOST = 24
"""Phrases above a table kept at the most (each is recognised)."""


def _context(boxes: Sequence[Box], table: Box, text_height: float) -> list[Cell]:
    """Phrases just above the table (breadcrumb, filters, caption) and the page's headings
    above it (text much taller than the table's, e.g. a title naming the warehouse), top to
    bottom. Above it means over the table's columns or a little beside them: the table's first
    column may be numbers set to the right, under a breadcrumb or a title set to the left. A
    phrase further left counts when it stands alone there (a card's title at the card's edge,
    a filter's label at most above it), not when it is one of a column of items (a sidebar's,
    even one that ends above the table)."""
    reach = text_height * 30
    beside = text_height * 6
    # A rule or a border read as a box is no line of text: it would push a breadcrumb out.
    texts = [
        (i, b) for i, b in enumerate(boxes) if b[3] - b[1] >= 0.5 * text_height and b[3] <= table[1]
    ]
    left_of = [i for i, b in enumerate(boxes) if b[2] <= table[0] and b[1] < table[3]]

    def alone(i: int) -> bool:
        """Not one of a column of items left of the table: at most one other phrase there
        starts where it starts, and none stands under it."""
        b = boxes[i]
        others = [boxes[j] for j in left_of if j != i and abs(boxes[j][0] - b[0]) <= text_height]
        return len(others) <= 1 and not any(r[1] >= b[3] for r in others)

    above = [
        i
        for i, b in texts
        if b[0] < table[2] + beside
        and (
            b[2] > table[0] - beside
            # Further left, a card's title set at its edge (left of a first column of
            # right-aligned numbers) stands alone; a sidebar's items stand in a column.
            or (b[2] > table[0] - (table[2] - table[0]) / 2 and alone(i))
        )
    ]
    headings = {
        i
        for i in above
        if (tall := boxes[i][3] - boxes[i][1]) >= 1.6 * text_height
        and boxes[i][2] - boxes[i][0] >= 3 * tall
    }
    near = [i for i in above if table[1] - boxes[i][3] <= reach or i in headings]
    lines: list[list[Cell]] = []
    for line in box_lines([boxes[i] for i in near], max(2.0, text_height * 0.45)):
        members = [near[k] for k in line]
        phrase = [members[0]]
        lines.append([])
        for prev, i in pairwise(members):
            gap = boxes[i][0] - boxes[prev][2]
            if gap <= 1.5 * max(boxes[i][3] - boxes[i][1], boxes[prev][3] - boxes[prev][1]):
                phrase.append(i)
            else:
                lines[-1].append(phrase)
                phrase = [i]
        lines[-1].append(phrase)
    lines.sort(key=lambda band: min(boxes[i][1] for p in band for i in p))
    # Whole lines from the table upwards: at least the nearest phrases and lines, at most _MOST.
    kept = count = 0
    for band in reversed(lines):
        if count >= _NEAREST and kept >= _NEAREST_LINES:
            break
        kept += 1
        count += len(band)
    split = len(lines) - kept

    def reading_order(found: list[Cell]) -> list[Cell]:
        return sorted(
            found, key=lambda p: (min(boxes[i][1] for i in p), min(boxes[i][0] for i in p))
        )

    nearest = reading_order([p for line in lines[split:] for p in line])[-_MOST:]
    titles = reading_order(
        [p for line in lines[:split] for p in line if any(i in headings for i in p)]
    )
    return titles[-2:] + nearest
