"""Map whatever a screen calls its columns onto the inventory schema, in English and Chinese."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher

__all__ = ["FIELDS", "SYNONYMS", "map_columns", "normalise_header"]

FIELDS = ("sku", "name", "on_hand", "reorder_point", "warehouse_id")

SYNONYMS: dict[str, tuple[str, ...]] = {
    "sku": (
        "sku",
        "sku code",
        "sku id",
        "item code",
        "item no",
        "item number",
        "item id",
        "part number",
        "part no",
        "part",
        "pn",
        "p n",
        "product code",
        "product id",
        "article",
        "article no",
        "code",
        "material",
        "material no",
        "商品编码",
        "商品编号",
        "物料编码",
        "物料号",
        "货号",
        "编码",
        "料号",
        "sku编码",
        "商品代码",
    ),
    "name": (
        "name",
        "product",
        "product name",
        "description",
        "item name",
        "item",
        "item description",
        "title",
        "product description",
        "article name",
        "material description",
        "商品名称",
        "名称",
        "品名",
        "物料名称",
        "商品",
        "产品名称",
        "描述",
    ),
    "on_hand": (
        "on hand",
        "qty on hand",
        "quantity on hand",
        "qty",
        "quantity",
        "stock",
        "in stock",
        "available",
        "avail",
        "current stock",
        "stock level",
        "inventory",
        "onhand",
        "units",
        "当前库存",
        "库存",
        "现有库存",
        "可用库存",
        "库存数量",
        "在库数量",
        "数量",
        "现存量",
    ),
    "reorder_point": (
        "reorder point",
        "reorder pt",
        "reorder level",
        "reorder",
        "rop",
        "min",
        "min stock",
        "min qty",
        "minimum",
        "minimum stock",
        "threshold",
        "safety stock",
        "alert level",
        "警戒值",
        "安全库存",
        "最低库存",
        "补货点",
        "再订货点",
        "预警值",
        "最小库存",
        "警戒库存",
    ),
    "warehouse_id": (
        "warehouse",
        "warehouse id",
        "wh",
        "wh id",
        "location",
        "site",
        "depot",
        "store",
        "warehouse code",
        "仓库",
        "仓库编码",
        "仓库编号",
        "仓库代码",
        "库房",
    ),
}

_PATTERNS: dict[str, re.Pattern[str]] = {
    "sku": re.compile(r"^[A-Z]{2,5}-?\d{3,8}[A-Z]?$"),
    "warehouse_id": re.compile(r"^(WH|DC|W)-?\d{1,3}$"),
}
_FUZZY_MIN = 0.8
_CJK = re.compile(r"[\u4e00-\u9fff]")


def normalise_header(text: str) -> str:
    value = unicodedata.normalize("NFKC", text).lower()
    value = re.sub(r"[^\w一-鿿]+", " ", value)
    return " ".join(value.split())


def _header_score(header: str, field: str) -> float:
    value = normalise_header(header)
    if not value:
        return 0.0
    synonyms = SYNONYMS[field]
    if value in synonyms:
        return 1.0
    squashed = value.replace(" ", "")
    if any(squashed == s.replace(" ", "") for s in synonyms):
        return 0.98
    best = max(SequenceMatcher(None, value, s).ratio() for s in synonyms)
    if best < _FUZZY_MIN and _CJK.search(value):
        best = max(best, _cjk_score(value, synonyms))
    return best if best >= _FUZZY_MIN else 0.0


def _cjk_score(value: str, synonyms: Sequence[str]) -> float:
    """Chinese headers misread by a character (`当航库存`, `赞戒值`, `商品編码`): a synonym of
    two or more characters, at least two thirds of which the header holds in order, with no
    more than one character more, scores 0.85."""
    for synonym in synonyms:
        if len(synonym) < 2 or not _CJK.search(synonym) or len(value) > len(synonym) + 1:
            continue
        blocks = SequenceMatcher(None, value, synonym).get_matching_blocks()
        matched = sum(b.size for b in blocks)
        if matched >= 2 and matched >= 2 / 3 * len(synonym):
            return 0.85
    return 0.0


def _content_score(values: Sequence[str], field: str) -> float:
    pattern = _PATTERNS.get(field)
    filled = [v.strip().upper() for v in values if v.strip()]
    if pattern is None or not filled:
        return 0.0
    share = sum(bool(pattern.match(v)) for v in filled) / len(filled)
    return 0.9 * share if share >= 0.8 else 0.0


def map_columns(
    header: Sequence[str], columns: Sequence[Sequence[str]], *, headers_only: bool = False
) -> dict[str, int]:
    """Schema field -> column index; each column serves at most one field, best match first.

    Headers decide; a column whose values all look like SKUs or warehouse ids is used when no
    header claimed that field (not with `headers_only`, which asks what the header names).
    """
    scored: list[tuple[float, str, int]] = []
    for index, text in enumerate(header):
        values = columns[index] if index < len(columns) else []
        content = (
            {field: _content_score(values, field) for field in _PATTERNS}
            if not headers_only
            else {}
        )
        # Values that are all ids of one kind decide between a header's readings ("Item" over
        # a column of SKUs is the SKU, not the product name).
        shaped = next((f for f, c in content.items() if c >= 0.85), None)
        for field in FIELDS:
            score = _header_score(text, field)
            if shaped is not None and field != shaped and field not in _PATTERNS:
                score *= 0.5
            if (score == 0.0 or field == shaped) and not headers_only:
                score = max(score, content.get(field, 0.0) * 0.95)
            if score > 0.0:
                scored.append((score, field, index))
    mapping: dict[str, int] = {}
    used: set[int] = set()
    for _, field, index in sorted(scored, key=lambda s: -s[0]):
        if field not in mapping and index not in used:
            mapping[field] = index
            used.add(index)
    return mapping
