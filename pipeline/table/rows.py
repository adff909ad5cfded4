"""Turn a generic grid into inventory rows and into the compact text a model reads. A
column's codes are read together (`pipeline.table.codes`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field as dataclass_field, replace
from datetime import datetime

from pipeline.fields import KEY_KINDS, QUANTITY_FIELDS, KeyKind
from pipeline.models import NONE_MARKS, ColumnInfo, ColumnSource, Row, Table
from pipeline.screentext import ScreenRow, ScreenText, TextBox, render_screen
from pipeline.table.cells import (
    clean_text,
    column_decimals,
    lone_word,
    quantity_and_unit,
    repair_id,
)
from pipeline.table.codes import column_codes
from pipeline.table.grid import without_glyphs
from pipeline.table.headers import FIELDS, header_words
from pipeline.table.schema import ColumnRole, type_columns
from pipeline.table.values import is_code, is_warehouse_code
from pipeline.table.warehouses import warehouse_ids, warehouse_in_cell
from pipeline.table.words import column_words

__all__ = [
    "BRACKETED",
    "UNSURE",
    "MappedRows",
    "RowKey",
    "estimate_text_tokens",
    "fit_budget",
    "key_kind",
    "keyed_by_name",
    "mapping_doubts",
    "row_key",
    "screen_text",
    "to_rows",
]

_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@dataclass(frozen=True)
class MappedRows:
    """Schema rows, the field -> column mapping used, and the grid row behind each schema row;
    `roles` says what each column was taken to hold and why."""

    rows: list[Row] = dataclass_field(default_factory=list)
    mapping: dict[str, int] = dataclass_field(default_factory=dict)
    sources: list[int] = dataclass_field(default_factory=list)
    roles: list[ColumnRole] = dataclass_field(default_factory=list)

    def columns(self, source: ColumnSource = "typed") -> list[ColumnInfo]:
        """The roles as the result's `table.columns` carries them."""
        return [
            ColumnInfo.model_validate(r, from_attributes=True).model_copy(update={"source": source})
            for r in self.roles
        ]


UNSURE = "column mapping unsure"
STANDS = 0.5
"""The least confidence of a column's role that stands on its evidence (its header and its
values agree enough): below it the mapping is doubted."""


def keyed_by_name(mapped: MappedRows, table: Table | None) -> bool:
    """Whether the rows are keyed by their names from a column whose role stands on its
    evidence (a header that names names over a column of text), and the grid is whole: every
    line of it that counts something gave a row, and every row holds every field mapped. On
    a screen that shows no code such a name identifies the item as an SKU does on another; a
    name is a weaker key than a code, so a gap (a cell merged over several lines, read on the
    first only) leaves it unsure."""
    if table is None or not any(r.key == "name" and r.confidence >= STANDS for r in mapped.roles):
        return False
    counted = [mapped.mapping[f] for f in QUANTITY_FIELDS if f in mapped.mapping]
    kept = set(mapped.sources)
    if any(
        r not in kept and any(c < len(cells) and cells[c].strip() for c in counted)
        for r, cells in enumerate(table.cells)
    ):
        return False
    fields = [f for f in FIELDS if f in mapped.mapping and f != "sku"]
    return all(getattr(row, f) is not None for row in mapped.rows for f in fields)


def mapping_doubts(mapped: MappedRows) -> list[str]:
    """Why the typed mapping may be wrong (a weakly typed column, an inventory field no column
    holds), as one warning; empty when it stands on its evidence."""
    if not mapped.rows:
        return []
    doubts = [
        f"{r.maps_to} is {r.header!r} (confidence {r.confidence:.2f})"
        for r in mapped.roles
        if r.maps_to is not None and r.confidence < STANDS
    ]
    for field, words in (("on_hand", "on hand"), ("reorder_point", "the reorder point")):
        if field not in mapped.mapping:
            doubts.append(f"no column holds {words}")
    if not doubts:
        return []
    return [
        f"{UNSURE}: {'; '.join(doubts)}; confirm it with --columns or in the dashboard "
        "(a saved profile keeps it for this screen)"
    ]


def to_rows(
    table: Table,
    confidences: Sequence[Sequence[float]],
    *,
    default_warehouse: str | None = None,
    roles: Sequence[ColumnRole] | None = None,
) -> MappedRows:
    """Rows in the inventory schema; a field the screen lacks stays None. Each row is keyed by
    whatever identifies the item on the screen (`row_key`): the column of codes, barcodes or
    part numbers, the code in brackets before a name, or, where the screen shows none, the
    name itself (a name-keyed row has no SKU). A grid with no key, or with a code but neither
    a name nor a quantity, or with only names and no quantity, gives no rows (it stays a
    generic grid). Codes are kept as written. `roles` replaces the typing of the columns (a
    mapping a person gave or a saved profile); the key's column says so in its role."""
    width = len(table.header)
    columns = [[row[c] if c < len(row) else "" for row in table.cells] for c in range(width)]
    found = list(roles) if roles is not None else type_columns(table.header, columns)
    mapping = {r.maps_to: r.index for r in found if r.maps_to is not None}
    key = row_key(found, columns)
    if key is None:
        return MappedRows(mapping=mapping, roles=found)
    found = [
        replace(r, key=key.kind, key_part=key.part) if r.index == key.index else r for r in found
    ]
    unglued = _without_running_index(columns[mapping["sku"]]) if "sku" in mapping else []
    decimals = {f: column_decimals(columns[mapping[f]]) for f in QUANTITY_FIELDS if f in mapping}
    rows: list[Row] = []
    sources: list[int] = []
    for r, cells in enumerate(table.cells):
        values: dict[str, object] = {}
        used: list[float] = []
        for field in FIELDS:
            index = mapping.get(field)
            if index is None or index >= len(cells):
                continue
            text = cells[index]
            used.append(confidences[r][index] if index < len(confidences[r]) else 0.0)
            if field in QUANTITY_FIELDS:
                amount, unit = quantity_and_unit(text, decimals=decimals[field])
                values[field] = amount
                if field == "on_hand" and amount is not None:
                    values["unit"] = unit
            elif field == "sku":
                values[field] = repair_id(_lone_code(unglued[r])) or None
            elif field == "warehouse_id":
                text = without_glyphs(text)
                values[field] = warehouse_in_cell(text) or _location(text) or None
            elif field == "name" and key.part == BRACKETED:
                code, name = _bracketed(text)
                values["sku"], values["name"] = code, name
            else:
                values[field] = clean_text(without_glyphs(text)) or None
        if not any(values.get(f) for f in ("sku", "name")):
            continue
        if "warehouse_id" not in mapping and default_warehouse:
            values["warehouse_id"] = default_warehouse
        confidence = round(min(used), 4) if used else 0.0
        rows.append(Row.model_validate({**values, "confidence": confidence}))
        sources.append(r)
    rows, sources = _without_stray_edges(rows, sources, mapping)
    rows = column_words(column_codes(rows))
    return MappedRows(rows=rows, mapping=mapping, sources=sources, roles=found)


BRACKETED = "the code in brackets before the name"
_BRACKETS = re.compile(r"^\[\s*(?P<code>[^\]\s][^\]]*?)\s*\]\s*(?P<name>\S.*)$")
"""`[CODE] Name`: a code in square brackets before the item's name, in one cell."""


@dataclass(frozen=True)
class RowKey:
    """The column that keys the rows, what kind of identifier it holds, and the part of its
    cells that is the key (None: the whole cell)."""

    index: int
    kind: KeyKind
    part: str | None = None


def row_key(roles: Sequence[ColumnRole], columns: Sequence[Sequence[str]]) -> RowKey | None:
    """What identifies a row's item: the SKU column (its kind told by its values, then its
    header: a barcode, a part number, a code, an SKU) beside a name or a quantity; else, in
    a table that counts stock (a quantity column mapped), the name column, or the code in
    brackets that most of its names begin with (`[CODE] Name`). None: nothing identifies the
    items, or nothing about them is counted or named."""
    mapping = {r.maps_to: r for r in roles if r.maps_to is not None}
    counted = bool(set(QUANTITY_FIELDS) & mapping.keys())
    if "sku" in mapping:
        column = mapping["sku"]
        if not (counted or "name" in mapping):
            return None
        values = columns[column.index] if column.index < len(columns) else []
        return RowKey(column.index, key_kind(column.header, values))
    if "name" not in mapping or not counted:
        return None
    index = mapping["name"].index
    names = [clean_text(v) for v in (columns[index] if index < len(columns) else [])]
    names = [n for n in names if n]
    if names and sum(bool(_BRACKETS.match(n)) for n in names) >= 0.8 * len(names):
        return RowKey(index, "code", BRACKETED)
    return RowKey(index, "name")


def key_kind(header: str, values: Sequence[str]) -> KeyKind:
    """The kind of identifier a key column holds (`pipeline.fields.KEY_KINDS`): told by its
    values where a kind's values have a shape of their own (8 to 14 digits: a barcode), else
    by its header's words (`Part No.`, `Artikelnummer`, `条码`, `Code`); an SKU otherwise."""
    filled = [clean_text(v) for v in values]
    filled = [v for v in filled if v and v not in NONE_MARKS]
    for spec in KEY_KINDS.values():
        shape = spec.values
        if shape and filled and sum(bool(shape.match(v)) for v in filled) >= 0.8 * len(filled):
            return spec.kind
    words = set(header_words(header))
    return next((spec.kind for spec in KEY_KINDS.values() if spec.words & words), "sku")


def _bracketed(text: str) -> tuple[str | None, str | None]:
    """`[CODE] Name` -> (`CODE`, `Name`); a cell without the brackets is the name alone."""
    value = clean_text(text)
    match = _BRACKETS.match(value)
    if match is None:
        return None, value or None
    return match["code"], match["name"]


def _location(text: str) -> str:
    """A location as printed (`Tennis shop Paris`, `一货架二层一行`); a warehouse code's
    letter-for-digit misreads repaired and its letters upper-cased (`wh-O1` -> `WH-01`)."""
    value = repair_id(text)
    return value.upper() if is_warehouse_code(value) else value


_CODED = 0.8
"""The share of a table's SKUs that are codes for a row without one to stand out."""


def _without_stray_edges(
    rows: list[Row], sources: list[int], mapping: Mapping[str, int]
) -> tuple[list[Row], list[int]]:
    """The rows without a first or last line that lines up with the table but is not one of
    its rows (a pager's `Showing 1-13 of 30 … Previous`, a caption): where the SKUs are codes,
    one without a code whose quantities are no numbers either."""
    counted = [f for f in ("on_hand", "reorder_point") if f in mapping]
    if len(rows) < 3 or not counted:
        return rows, sources

    def stray(row: Row) -> bool:
        return not (row.sku and is_code(row.sku)) and all(getattr(row, f) is None for f in counted)

    first, last = 0, len(rows)
    while first < last and stray(rows[first]):
        first += 1
    while last > first and stray(rows[last - 1]):
        last -= 1
    kept = rows[first:last]
    coded = sum(r.sku is not None and is_code(r.sku) for r in kept)
    if len(kept) < 2 or coded < _CODED * len(kept):
        return rows, sources
    return rows[first:last], sources[first:last]


def _without_running_index(values: Sequence[str]) -> list[str]:
    """The codes of a column that the row number beside it was read into (`101.02.0035`,
    `201.02.0036`, … under `序号物料编码`; a page may start at row 21): where most values
    start with the rows' running number and go on with a code, the number is dropped."""
    texts = [clean_text(v) for v in values]
    if len(texts) < 3:
        return list(values)
    lead = re.match(r"\d{1,3}", texts[0])
    for size in range(1, len(lead[0]) + 1 if lead else 1):
        first = int(texts[0][:size])
        rest = [
            t[len(str(first + k)) :].strip(" .") if t.startswith(str(first + k)) else None
            for k, t in enumerate(texts)
        ]
        if sum(r is not None and is_code(r) for r in rest) >= 0.8 * len(texts):
            return [r if r else v for r, v in zip(rest, values, strict=True)]
    return list(values)


def _lone_code(text: str) -> str:
    """The code of a code cell that a neighbouring column's number or dash was read into
    (`120 SKU-10403`, `- SKU-10231`); any other cell as it is."""
    return lone_word(text, is_code) or text


def screen_text(
    table: Table,
    mapped: MappedRows,
    *,
    captured_at: datetime,
    context: Sequence[str],
    image_attached: bool = False,
    unsure: bool = False,
    boxes: Sequence[TextBox] = (),
    lines: Sequence[str] = (),
) -> ScreenText:
    """What a model reads of this table: the schema columns and whether each row is low on the
    screen; other columns are named but left out (they stay in `table`). A table without
    inventory columns goes as its generic grid."""
    common = {
        "captured_at": captured_at,
        "context": tuple(context),
        "image_attached": image_attached,
        "unsure": unsure,
        "boxes": tuple(boxes),
        "lines": tuple(lines),
    }
    if not mapped.rows:
        return ScreenText.model_validate(
            {
                **common,
                "columns": tuple(clean_text(h) for h in table.header),
                "grid": tuple(tuple(clean_text(c) for c in row) for row in table.cells),
            }
        )
    fields = [f for f in FIELDS if f in mapped.mapping or f == "warehouse_id"]
    omitted = [
        clean_text(h) for i, h in enumerate(table.header) if i not in mapped.mapping.values() and h
    ]
    rows = [ScreenRow.of(row) for row in mapped.rows]
    return ScreenText.model_validate(
        {**common, "omitted": tuple(omitted), "columns": tuple(fields), "rows": tuple(rows)}
    )


def estimate_text_tokens(text: str) -> int:
    """Tokens of text for Qwen-class tokenizers: one per digit and CJK character, ~4 chars each
    for the rest."""
    digits = sum(ch.isdigit() for ch in text)
    cjk = len(_CJK.findall(text))
    rest = len(text) - digits - cjk
    return digits + cjk + (rest + 3) // 4


def fit_budget(screen: ScreenText, budget: int) -> tuple[ScreenText, list[str]]:
    """The screen's rows in at most `budget` tokens where leaving things out gets there, in
    this order: the page context and the list of left-out columns (a warehouse the page names
    is kept), the warehouse column when every row has the same one (said once instead), the
    product names. Rows and quantities are never dropped. Returns what was left out."""
    if not screen.rows or estimate_text_tokens(render_screen(screen)) <= budget:
        return screen, []
    left_out: list[str] = []
    warehouses = [t for t in screen.context if warehouse_ids([t])]
    current = screen.model_copy(update={"context": tuple(warehouses[:1]), "omitted": ()})
    left_out.append("the page context")
    steps: list[tuple[str, ScreenText]] = []
    shared = {r.warehouse_id for r in current.rows}
    if "warehouse_id" in current.columns and len(shared) == 1 and None not in shared:
        (warehouse,) = shared
        steps.append(
            (
                f"the warehouse column ({warehouse} on every row)",
                current.model_copy(
                    update={
                        "columns": tuple(c for c in current.columns if c != "warehouse_id"),
                        "context": (f"Warehouse {warehouse}",),
                        "rows": tuple(
                            r.model_copy(update={"warehouse_id": None}) for r in current.rows
                        ),
                    }
                ),
            )
        )
    for label, step in steps:
        if estimate_text_tokens(render_screen(current)) <= budget:
            break
        current = step
        left_out.append(label)
    if "name" in current.columns and estimate_text_tokens(render_screen(current)) > budget:
        current = current.model_copy(
            update={
                "columns": tuple(c for c in current.columns if c != "name"),
                "rows": tuple(r.model_copy(update={"name": None}) for r in current.rows),
            }
        )
        left_out.append("the product names")
    return current, left_out
