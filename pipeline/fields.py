"""The inventory fields and the kinds of identifier a screen keys its items by, declared once.

What a field is — its kind, the headers that name it whole, the words its headers are made of
(each with how strongly it names the field), and what a model is told it holds — lives in
`FIELD_SPECS`; the header reader (`pipeline.table.headers`), the column typing, the rows and
the screen text read it from here. An identifier kind (`KEY_KINDS`: an SKU, a barcode, a part
number, a code, or the name where a screen shows nothing else) says which header words name it
and what its values look like; a row's key is the identifier the screen shows, whatever kind it
is, and the result says which column gave it and what kind it was (`RowKey`).

Adding a field or an identifier kind is an entry here and the code that is new.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "FIELDS",
    "FIELD_SPECS",
    "KEY_KINDS",
    "QUANTITY_FIELDS",
    "FieldKind",
    "FieldSpec",
    "KeyKind",
    "KeyKindSpec",
]

FieldKind = Literal["identifier", "text", "quantity", "location"]


@dataclass(frozen=True)
class FieldSpec:
    """One inventory field: what kind of value it holds, the headers that name it whole
    (`synonyms`), the words its headers are made of with how strongly each names it
    (`words`, 0-1), and what a model is told it holds (`prompt`)."""

    name: str
    kind: FieldKind
    synonyms: tuple[str, ...]
    words: Mapping[str, float]
    prompt: str


FIELD_SPECS: dict[str, FieldSpec] = {
    "sku": FieldSpec(
        "sku",
        "identifier",
        (
            "sku", "sku code", "sku id", "item code", "item no", "item number", "item id",
            "part number", "part no", "part", "pn", "p n", "product code", "product id",
            "article", "article no", "code", "material", "material no", "barcode", "ean",
            "artikelnummer", "artikel nr", "art nr",
            "商品编码", "商品编号", "物料编码", "物料号", "货号", "编码", "料号", "sku编码",
            "商品代码", "条码", "条形码",
        ),
        {
            "sku": 1.0, "code": 0.9, "ref": 0.9, "reference": 0.9, "part": 0.8, "pn": 0.9,
            "no": 0.5, "number": 0.5, "nr": 0.5, "num": 0.5, "#": 0.6, "id": 0.6,
            "item": 0.45, "article": 0.45, "material": 0.45, "model": 0.5, "catalog": 0.6,
            "catalogue": 0.6, "barcode": 0.95, "ean": 0.9, "upc": 0.9, "gtin": 0.9,
            "artikelnummer": 0.95, "nummer": 0.6,
            "编码": 0.95, "编号": 0.85, "代码": 0.85, "货号": 0.95, "料号": 0.95, "型号": 0.6,
            "条码": 0.95, "条形码": 0.95,
        },
        "what identifies the item on the screen: an SKU, code, barcode or part number",
    ),
    "name": FieldSpec(
        "name",
        "text",
        (
            "name", "product", "product name", "description", "item name", "item",
            "item description", "title", "product description", "article name",
            "material description", "bezeichnung", "artikel",
            "商品名称", "名称", "品名", "物料名称", "商品", "产品名称", "描述", "药品名称",
        ),
        {
            "name": 1.0, "description": 1.0, "desc": 0.9, "product": 0.7, "title": 0.8,
            "designation": 0.8, "label": 0.6, "item": 0.45, "article": 0.45, "material": 0.45,
            "bezeichnung": 1.0, "beschreibung": 0.9,
            "名称": 1.0, "品名": 1.0, "描述": 0.9, "商品": 0.6, "产品": 0.6, "物料": 0.4,
        },
        "the item's name as the screen shows it",
    ),
    "on_hand": FieldSpec(
        "on_hand",
        "quantity",
        (
            "on hand", "qty on hand", "quantity on hand", "qty", "quantity", "stock",
            "in stock", "available", "avail", "current stock", "stock level", "inventory",
            "onhand", "units", "amount", "menge", "bestand", "lagerbestand", "auf lager",
            "当前库存", "库存", "现有库存", "可用库存", "库存数量", "在库数量", "数量", "现存量",
        ),
        {
            "hand": 1.0, "onhand": 1.0, "balance": 0.95, "physical": 0.9, "actual": 0.8,
            "stock": 0.75, "inventory": 0.75, "avail": 0.7, "available": 0.7, "free": 0.7,
            "qty": 0.6, "quantity": 0.6, "amount": 0.55, "units": 0.5, "current": 0.5,
            "level": 0.3, "menge": 0.6, "bestand": 0.75, "lagerbestand": 0.8,
            "lagermenge": 0.8,
            "现存": 1.0, "结存": 1.0, "在库": 0.95, "现有": 0.9, "实际": 0.8, "当前": 0.7,
            "库存": 0.75, "可用": 0.7, "余量": 0.8, "存量": 0.8, "数量": 0.6,
        },
        "the quantity on hand, as a number",
    ),
    "reorder_point": FieldSpec(
        "reorder_point",
        "quantity",
        (
            "reorder point", "reorder pt", "reorder level", "reorder", "rop", "min",
            "min stock", "min qty", "minimum", "minimum stock", "threshold", "safety stock",
            "alert level", "mindestbestand", "mindestlagerbestand", "meldebestand",
            "警戒值", "安全库存", "最低库存", "补货点", "再订货点", "预警值", "最小库存",
            "警戒库存",
        ),
        {
            "reorder": 1.0, "rop": 1.0, "min": 0.9, "minimum": 0.9, "safety": 0.9,
            "threshold": 0.9, "trigger": 0.8, "par": 0.7, "alert": 0.8,
            "mindestbestand": 1.0, "mindestlagerbestand": 1.0, "meldebestand": 0.9,
            "安全": 0.95, "警戒": 1.0, "最低": 0.9, "最小": 0.85, "预警": 0.9, "补货点": 1.0,
            "再订货": 1.0, "下限": 0.9, "阈值": 0.9,
        },
        "the level below which the item is low (a minimum or safety stock), as a number",
    ),
    "warehouse_id": FieldSpec(
        "warehouse_id",
        "location",
        (
            "warehouse", "warehouse id", "wh", "wh id", "location", "site", "depot", "store",
            "warehouse code", "source", "lager", "lagerort",
            "仓库", "仓库编码", "仓库编号", "仓库代码", "库房", "库区", "存放地点",
        ),
        {
            "warehouse": 1.0, "wh": 1.0, "depot": 0.95, "site": 0.85, "location": 0.8,
            "store": 0.7, "dc": 0.8, "plant": 0.8, "branch": 0.7, "facility": 0.8, "hub": 0.7,
            "lager": 0.9, "lagerort": 1.0,
            "仓库": 1.0, "库房": 0.95, "仓": 0.8, "库区": 0.9, "地点": 0.8, "区": 0.5,
        },
        "where the stock is: the row's warehouse or location as printed",
    ),
}  # fmt: skip
FIELDS: tuple[str, ...] = tuple(FIELD_SPECS)
"""The inventory fields in the order they are written."""
QUANTITY_FIELDS: tuple[str, ...] = tuple(
    f for f, spec in FIELD_SPECS.items() if spec.kind == "quantity"
)

KeyKind = Literal["sku", "barcode", "part_number", "code", "name"]


@dataclass(frozen=True)
class KeyKindSpec:
    """One kind of identifier: the header words that name it, and what its values look like
    (`values`, matched against each cell; None where any text may be one)."""

    kind: KeyKind
    words: frozenset[str]
    values: re.Pattern[str] | None


KEY_KINDS: dict[KeyKind, KeyKindSpec] = {
    # A barcode is told by its values first: EAN-8 to GTIN-14, digits only.
    "barcode": KeyKindSpec(
        "barcode",
        frozenset(("barcode", "ean", "upc", "gtin", "条码", "条形码")),
        re.compile(r"^\d{8,14}$"),
    ),
    "part_number": KeyKindSpec(
        "part_number",
        frozenset(("part", "pn", "artikelnummer", "material", "料号")),
        None,
    ),
    "sku": KeyKindSpec("sku", frozenset(("sku",)), None),
    "code": KeyKindSpec(
        "code",
        frozenset(("code", "id", "no", "nr", "number", "#", "ref", "编码", "编号", "代码")),
        None,
    ),
    "name": KeyKindSpec("name", frozenset(), None),
}
"""The kinds of identifier, in the order a key column's kind is decided: its values (a
barcode), then its header's words; a coded column no word names is an SKU."""
