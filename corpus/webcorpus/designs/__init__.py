"""Page designs as HTML/CSS templates, by name: each turns a spec and its table into a page."""

from __future__ import annotations

from ..model import Design as DesignName
from . import adminlte, antd, dark, grid, report, sheet
from .common import Design, Page

DESIGNS: dict[DesignName, Design] = {
    "adminlte": adminlte.page,
    "antd": antd.page,
    "sheet": sheet.page,
    "dark": dark.page,
    "grid": grid.page,
    "report": report.page,
}
KINDS: dict[DesignName, str] = {
    "adminlte": "adminlte-table",
    "antd": "antd-chinese",
    "sheet": "spreadsheet",
    "dark": "dark-theme",
    "grid": "dense-grid",
    "report": "merged-header",
}
"""The truth `kind` of a render of each design."""

__all__ = ["DESIGNS", "KINDS", "Page"]
