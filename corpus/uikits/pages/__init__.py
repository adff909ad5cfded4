"""Page designs in each kit's own markup, by (kit, design)."""

from __future__ import annotations

from collections.abc import Callable

from . import (
    antd,
    bootstrap,
    bulma,
    carbon,
    element,
    fomantic,
    materialize,
    pico,
    primer,
    tabler,
    uikit,
)
from .base import Body, Ctx

Design = Callable[[Ctx], Body]

DESIGNS: dict[tuple[str, str], Design] = {
    ("bootstrap", "admin"): bootstrap.admin,
    ("bootstrap", "phone"): bootstrap.phone,
    ("bootswatch", "admin"): bootstrap.admin,
    ("bootswatch", "phone"): bootstrap.phone,
    ("tabler", "admin"): tabler.admin,
    ("tabler", "tiles"): tabler.tiles,
    ("bulma", "admin"): bulma.admin,
    ("pico", "admin"): pico.admin,
    ("element-plus", "erp"): element.erp,
    ("element-plus", "phone"): element.phone,
    ("antd", "erp"): antd.erp,
    ("antd", "phone"): antd.phone,
    ("carbon", "data-table"): carbon.data_table,
    ("carbon", "structured-list"): carbon.structured,
    ("primer", "list"): primer.item_list,
    ("fomantic", "admin"): fomantic.admin,
    ("fomantic", "tiles"): fomantic.tiles,
    ("uikit", "admin"): uikit.admin,
    ("materialize", "admin"): materialize.admin,
    ("materialize", "phone"): materialize.phone,
}

__all__ = ["DESIGNS", "Body", "Ctx", "Design"]
