"""Tables on the command line, for both command sets (`stockshot` and the servers' own): one
header and rows of text, drawn by rich.

Columns are aligned by display width, so a Chinese item name takes the two cells a terminal
gives it. On a terminal the table fits its width (a long cell wraps) and the header is bold;
piped or written to a file, it is plain text: one line a row, nothing wrapped, no trailing
spaces, so `grep` and `awk` read it.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import TextIO

from rich.console import Console
from rich.padding import Padding
from rich.table import Column, Table
from rich.text import Text

__all__ = ["print_table"]

_UNWRAPPED = 100_000
"""The width a table is drawn at off a terminal: wider than any row, so no cell wraps."""


def print_table(
    header: Sequence[str], rows: Iterable[Sequence[str]], out: TextIO, *, indent: int = 0
) -> None:
    """`header` over `rows`, columns two spaces apart, each line indented by `indent` spaces."""
    # Text, not markup: an item named `Cable [red]` prints as it is named.
    columns = (Column(header=Text(name)) for name in header)
    table = Table(*columns, box=None, pad_edge=False, header_style="bold")
    for row in rows:
        table.add_row(*map(Text, row))
    if out.isatty():
        Console(file=out, highlight=False).print(Padding(table, (0, 0, 0, indent)))
        return
    drawn = io.StringIO()
    Console(file=drawn, width=_UNWRAPPED, color_system=None, highlight=False).print(table)
    for line in drawn.getvalue().splitlines():
        out.write(" " * indent + line.rstrip() + "\n")
