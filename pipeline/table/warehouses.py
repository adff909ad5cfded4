"""Warehouse ids as small text reads them: in a page's title, breadcrumb, filter chip or tab
(`page_warehouse`), and in a warehouse column's cells (`warehouse_in_cell`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.table.cells import clean_text, lone_word

__all__ = [
    "page_warehouse",
    "selected_line",
    "warehouse_ids",
    "warehouse_in_cell",
    "warehouse_label",
]

_WAREHOUSE_IN_TEXT = re.compile(
    r"(?<![A-Za-z0-9])(?:WH4?[-\u2010-\u2015]|WH[-\u2010-\u2015+·.:\s]{0,2}|W\+)(\d{1,3})"
    r"(?:[x×](?-i:[1lI|])?)?(?![A-Za-z0-9]|[-.·]\d)",
    re.IGNORECASE,
)
"""A warehouse id in running text; beside Chinese text too (`现存量查询一WH-03`), which `\\b`
would not split from it; its hyphen lost (`WH01`), or misread in small text: as a space (`WH 01`,
a thin hyphen), a dash, dot or colon (`WH—01`, `WH·01`, `WH:01`), a plus (`WH+01`), as two of
these (`WH+-01`), merged with the H into one (`W+01`), or read with the H's stem as a `4`
before it (`WH4-01`). A filter chip's close mark read into the id, as an `x` with the chip's
edge after it (`WH-02x1` for `WH-02 ×|`), is the chip's, not the id's. Digits followed by a
separator and more digits are part of a longer code, not an id (`WH4-02` is no `WH-4`)."""


_SELECTED = "selected: "
"""How a context line says which of a row of tabs the page shows as chosen."""


def selected_line(warehouse: str) -> str:
    """The context line that records `warehouse` as the tab the page shows selected."""
    return f"{_SELECTED}{warehouse}"


def warehouse_ids(context: Sequence[str]) -> set[str]:
    """Every warehouse id the page's text above its table names."""
    return {f"WH-{digits}" for text in context for digits in _WAREHOUSE_IN_TEXT.findall(text)}


def page_warehouse(context: Sequence[str]) -> str | None:
    """The one warehouse id a page's title or filters name, if exactly one; among several, the
    one a tab bar shows selected (`selected_line`)."""
    chosen = warehouse_ids([t for t in context if t.startswith(_SELECTED)])
    found = chosen or warehouse_ids(context)
    return found.pop() if len(found) == 1 else None


def warehouse_label(text: str) -> str | None:
    """The warehouse id `text` is and nothing more (a tab's label), else None."""
    match = _WAREHOUSE_IN_TEXT.fullmatch(clean_text(text).strip(" |·•"))
    return f"WH-{match[1]}" if match else None


def warehouse_in_cell(text: str) -> str | None:
    """The warehouse id a warehouse column's cell holds: the cell is one (`WH 03`), or a
    neighbouring column's number was read into it (`200 WH-03`); else None."""
    return warehouse_label(text) or (
        (word := lone_word(text, warehouse_label)) and warehouse_label(word)
    )
