"""Scoring tables against ground truth, and the grid rebuilt from full-page OCR lines."""

from pipeline.bench.accuracy import cell_matches, grid_from_lines
from pipeline.models import Table, TextLine
from pipeline.truth import Truth


def _line(text: str, x: int, y: int) -> TextLine:
    return TextLine(text=text, box=(x, y, x + 60, y + 14), confidence=0.9)


def test_cells_are_scored_by_exact_match_header_included() -> None:
    truth: Truth = {"header": ["SKU", "Qty"], "cells": [["A-1", "5"], ["A-2", "7"]]}
    table = Table(header=["SKU", "Qty"], cells=[["A-1", "5"], ["A-2", "1"]])
    assert cell_matches(table, truth) == (5, 6)


def test_a_missing_row_counts_as_wrong_cells() -> None:
    truth: Truth = {"header": ["SKU"], "cells": [["A-1"], ["A-2"]]}
    assert cell_matches(Table(header=["SKU"], cells=[["A-1"]]), truth) == (2, 3)


def test_full_page_lines_are_rebuilt_into_the_table_grid() -> None:
    rows = [["SKU", "Name", "Qty"], ["A-1", "Bolt", "5"], ["A-2", "Nut", "7"], ["A-3", "Pin", "9"]]
    lines = [
        _line(text, 100 + 200 * c, 100 + 30 * r)
        for r, row in enumerate(rows)
        for c, text in enumerate(row)
    ]
    lines.append(_line("Inventory", 100, 20))
    table = grid_from_lines(lines)
    assert table.header == rows[0]
    assert table.cells == rows[1:]


def test_no_lines_make_an_empty_grid() -> None:
    assert grid_from_lines([]) == Table()
