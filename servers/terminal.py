"""Tables on the command line, for both command sets (`stockshot` and the servers' own): one
header and rows of text, drawn by rich.

Columns are aligned by display width, so a Chinese item name takes the two cells a terminal
gives it. On a terminal the table fits its width (a long cell wraps) and the header is bold;
piped or written to a file, it is plain text: one line a row, nothing wrapped, no trailing
spaces, so `grep` and `awk` read it. `table_lines` gives those plain lines for a text that
holds a table (the evaluation's summary).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import TextIO

from rich.console import Console
from rich.padding import Padding
from rich.table import Column, Table
from rich.text import Text

__all__ = ["print_table", "table_lines"]

_UNWRAPPED = 100_000
"""The width a table is drawn at off a terminal: wider than any row, so no cell wraps."""


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> Table:
    # Text, not markup: an item named `Cable [red]` prints as it is named.
    columns = (Column(header=Text(name)) for name in header)
    table = Table(*columns, box=None, pad_edge=False, header_style="bold")
    for row in rows:
        table.add_row(*map(Text, row))
    return table


def table_lines(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """`header` over `rows` as plain lines, columns two spaces apart: nothing wrapped, no
    trailing spaces."""
    drawn = io.StringIO()
    console = Console(file=drawn, width=_UNWRAPPED, color_system=None, highlight=False)
    console.print(_table(header, rows))
    return [line.rstrip() for line in drawn.getvalue().splitlines()]


def print_table(
    header: Sequence[str], rows: Iterable[Sequence[str]], out: TextIO, *, indent: int = 0
) -> None:
    """`header` over `rows`, columns two spaces apart, each line indented by `indent` spaces."""
    if out.isatty():
        Console(file=out, highlight=False).print(Padding(_table(header, rows), (0, 0, 0, indent)))
        return
    for line in table_lines(header, rows):
        out.write(" " * indent + line + "\n")
