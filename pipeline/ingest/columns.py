"""A column mapping a person gives or a saved profile holds, laid over the typed one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from pipeline.ingest.cache import Entry
from pipeline.models import (
    ColumnSource,
    IngestResult,
    Table,
)
from pipeline.screentext import render_screen
from pipeline.table import (
    UNSURE,
    MappedRows,
    format_columns,
    page_warehouse,
    roles_from_mapping,
    screen_text,
    to_rows,
    type_columns,
)


class ProfileLookup(Protocol):
    """Saved column mappings by header signature (the store's `column_profiles`)."""

    def mapping(self, signature: str) -> Mapping[str, str] | None: ...


def remap(
    entry: Entry, table: Table, mapping: Mapping[str, str], source: ColumnSource
) -> tuple[Table, MappedRows, list[str]]:
    """The entry's rows again with `mapping` (field -> header) laid over the typed roles."""
    confidences = entry.get("confidences") or [[1.0] * len(r) for r in table.cells]
    warehouse = page_warehouse(entry.get("context", []))
    return remap_table(table, confidences, warehouse, mapping, source)


def remap_table(
    table: Table,
    confidences: Sequence[Sequence[float]],
    warehouse: str | None,
    mapping: Mapping[str, str],
    source: ColumnSource,
) -> tuple[Table, MappedRows, list[str]]:
    """`table`'s rows with `mapping` (field -> header) laid over its typed roles."""
    width = len(table.header)
    columns = [[row[c] if c < len(row) else "" for row in table.cells] for c in range(width)]
    typed = type_columns(table.header, columns)
    roles, missing = roles_from_mapping(table.header, mapping, typed, source=source)
    mapped = to_rows(table, confidences, default_warehouse=warehouse, roles=roles)
    notes = [f"columns mapped by {_SOURCES[source]}: {format_columns(mapping)}"]
    if missing:
        notes.append(
            f"no column with the header given for {', '.join(missing)} "
            f"(headers: {', '.join(h for h in table.header if h)})"
        )
    return table.model_copy(update={"columns": mapped.columns(source)}), mapped, notes


def apply_columns(
    result: IngestResult, mapping: Mapping[str, str], source: ColumnSource
) -> IngestResult:
    """A result read again with a column mapping a person (or a model) gave: rows, columns,
    the text a model reads, and a warning saying where the mapping came from."""
    table = result.table
    if len(result.rows) == len(table.cells):
        confidences = [[row.confidence for _ in table.header] for row in result.rows]
    else:
        confidences = [[1.0 for _ in table.header] for _ in table.cells]
    table, mapped, notes = remap_table(table, confidences, result.page_warehouse, mapping, source)
    screen = screen_text(
        table,
        mapped,
        captured_at=result.captured_at,
        context=[f"Warehouse {result.page_warehouse}"] if result.page_warehouse else [],
    )
    changed = result.model_copy(
        update={
            "table": table,
            "rows": mapped.rows,
            "text": render_screen(screen),
            "warnings": [*(w for w in result.warnings if not w.startswith(UNSURE)), *notes],
        }
    )
    return changed.with_source(result.source)


_SOURCES = {"given": "the caller", "profile": "a saved profile", "model": "the model"}
