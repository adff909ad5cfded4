"""CSV in and out of the store: the stock catalogue, the warehouse list and the seed data.

Parsing is all-or-nothing: the first bad row raises `CsvRowError` with its line number,
before anything reaches the store.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TextIO

from servers.errors import CsvRowError, InputError
from store.models import CodeKind, ItemCode, StockRecord, Warehouse

__all__ = [
    "CODE_COLUMNS",
    "STOCK_COLUMNS",
    "WAREHOUSE_COLUMNS",
    "parse_stock_csv",
    "parse_warehouses_csv",
    "seed_data",
    "write_stock_csv",
]

STOCK_COLUMNS = ("sku", "name", "warehouse_id", "on_hand", "reorder_point", "on_order")
CODE_COLUMNS: dict[str, CodeKind] = {
    "barcode": "barcode",
    "part_number": "part_number",
    "aliases": "alias",
}
"""Optional stock columns: the item's other codes by kind, several separated by `|`
(`4006381333931|4006381333948`), each kept byte for byte."""
WAREHOUSE_COLUMNS = ("warehouse_id", "name", "city")
WAREHOUSE_OPTIONAL = ("aliases",)
"""`aliases`: other names of the warehouse, separated by `|` (北方仓|north warehouse)."""
_COUNT_COLUMNS = ("on_hand", "reorder_point", "on_order")
_WHOLE_NUMBER = re.compile(r"\d{1,12}")


def parse_stock_csv(lines: Iterable[str]) -> list[StockRecord]:
    """Rows of `sku,name,warehouse_id,on_hand,reorder_point,on_order` (columns in any order)."""
    records: list[StockRecord] = []
    seen: dict[tuple[str, str], int] = {}
    names: dict[str, tuple[str, int]] = {}
    for line, row in _rows(lines, STOCK_COLUMNS, tuple(CODE_COLUMNS)):
        for column in ("sku", "name", "warehouse_id"):
            if not row[column]:
                raise CsvRowError(line, f"{column} is empty")
        counts = {column: _count(line, column, row[column]) for column in _COUNT_COLUMNS}
        key = (row["sku"], row["warehouse_id"])
        if key in seen:
            raise CsvRowError(line, f"{key[0]} in {key[1]} already appears on line {seen[key]}")
        seen[key] = line
        earlier = names.setdefault(row["sku"], (row["name"], line))
        if earlier[0] != row["name"]:
            raise CsvRowError(
                line,
                f"{row['sku']} is named {row['name']!r} here "
                f"but {earlier[0]!r} on line {earlier[1]}",
            )
        records.append(
            StockRecord(
                sku=row["sku"],
                name=row["name"],
                warehouse_id=row["warehouse_id"],
                **counts,
                codes=_codes(row),
            )
        )
    return records


def _codes(row: dict[str, str]) -> tuple[ItemCode, ...]:
    """The codes a stock row's optional columns give, without repeats."""
    found = (
        ItemCode(kind=kind, code=code.strip())
        for column, kind in CODE_COLUMNS.items()
        for code in row.get(column, "").split("|")
        if code.strip()
    )
    return tuple(dict.fromkeys(found))


def parse_warehouses_csv(lines: Iterable[str]) -> list[Warehouse]:
    """Rows of `warehouse_id,name,city[,aliases]`."""
    warehouses: list[Warehouse] = []
    seen: dict[str, int] = {}
    for line, row in _rows(lines, WAREHOUSE_COLUMNS, WAREHOUSE_OPTIONAL):
        for column in ("warehouse_id", "name"):
            if not row[column]:
                raise CsvRowError(line, f"{column} is empty")
        if row["warehouse_id"] in seen:
            raise CsvRowError(
                line, f"{row['warehouse_id']} already appears on line {seen[row['warehouse_id']]}"
            )
        seen[row["warehouse_id"]] = line
        warehouses.append(
            Warehouse(
                warehouse_id=row["warehouse_id"],
                name=row["name"],
                city=row["city"],
                aliases=tuple(a.strip() for a in row.get("aliases", "").split("|") if a.strip()),
            )
        )
    return warehouses


def write_stock_csv(records: Sequence[StockRecord], out: TextIO) -> None:
    """The import columns, and the code columns when some item has codes."""
    writer = csv.writer(out, lineterminator="\n")
    with_codes = any(record.codes for record in records)
    writer.writerow([*STOCK_COLUMNS, *(CODE_COLUMNS if with_codes else ())])
    for record in records:
        codes = [
            "|".join(c.code for c in record.codes if c.kind == kind)
            for kind in CODE_COLUMNS.values()
        ]
        writer.writerow(
            [*(getattr(record, column) for column in STOCK_COLUMNS), *(codes if with_codes else ())]
        )


def seed_data() -> tuple[list[Warehouse], list[StockRecord]]:
    """The demo catalogue shipped in `servers/data` (the sample screenshots show it)."""
    data = Path(__file__).with_name("data")
    warehouses_text = (data / "warehouses.csv").read_text(encoding="utf-8")
    stock_text = (data / "seed.csv").read_text(encoding="utf-8")
    return (
        parse_warehouses_csv(warehouses_text.splitlines()),
        parse_stock_csv(stock_text.splitlines()),
    )


def _rows(
    lines: Iterable[str], columns: Sequence[str], optional: Sequence[str] = ()
) -> Iterable[tuple[int, dict[str, str]]]:
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is None:
            raise InputError(f"the file is empty; expected a header: {','.join(columns)}")
        names = [h.strip().lower() for h in header]
        missing = [c for c in columns if c not in names]
        unexpected = [n for n in names if n not in columns and n not in optional]
        if missing or unexpected or len(set(names)) != len(names):
            problems = []
            if missing:
                problems.append(f"missing column(s) {', '.join(missing)}")
            if unexpected:
                problems.append(f"unexpected column(s) {', '.join(unexpected)}")
            if not problems:
                problems.append("a column appears twice")
            raise CsvRowError(1, f"{'; '.join(problems)}; expected columns: {','.join(columns)}")
        for fields in reader:
            if not any(f.strip() for f in fields):
                continue
            if len(fields) != len(names):
                raise CsvRowError(
                    reader.line_num, f"expected {len(names)} fields, found {len(fields)}"
                )
            yield reader.line_num, {n: f.strip() for n, f in zip(names, fields, strict=True)}
    except csv.Error as exc:
        raise CsvRowError(reader.line_num, f"not valid CSV: {exc}") from None


def _count(line: int, column: str, text: str) -> int:
    if not _WHOLE_NUMBER.fullmatch(text):
        raise CsvRowError(line, f"{column} must be a whole number of 0 or more, got {text!r}")
    return int(text)
