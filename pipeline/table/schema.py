"""Map whatever a screen calls its columns onto the inventory schema, in English and Chinese.

A column's role comes from evidence of two kinds, combined (`type_columns`):

- **its values**: SKU-like codes (letters and digits with separators: `SKU-10231`,
  `BX-310-K`, `01.02.0035`), warehouse codes, quantities (with or without thousands separators
  and a unit: `1,450 件`, `120 pcs`), running indexes (`序号` 1…N), prices, dates, status words,
  free text;
- **its header**: the whole header against the synonyms below (exactly, or fuzzily for an OCR
  misread), and its words against an open vocabulary of what each field's headers are made of
  (`qty`, `avail`, `free`, `stock`, `balance`, `现存`, `结存` … for on hand; `min`, `safety`,
  `reorder`, `threshold`, `警戒`, `安全` … for the reorder point; `ref`, `code`, `part`, `#`,
  `编码` … for the SKU), with words that rule a field out (`on order`, `allocated`, `在途`,
  `price`, `unit`, `status`).

A field is given to the column with the best combined score, each column serving at most one
field; when two quantity columns compete the header decides (`on hand` over `available` over
a bare `qty`); an `On order` column is never on hand. Every mapping carries its evidence and a
confidence (`ColumnRole`).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from pipeline.models import Row
from pipeline.table.cells import most_common, quantity_and_unit

__all__ = [
    "FIELDS",
    "SYNONYMS",
    "ColumnRole",
    "header_evidence",
    "is_code",
    "map_columns",
    "normalise_header",
    "type_columns",
    "values_profile",
]

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
    if any(
        squashed == s.replace(" ", "")
        for other, names in SYNONYMS.items()
        if other != field
        for s in names
    ):
        return 0.0  # "In stock" is a name for on hand, not a misread "Min stock"
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


# ---- evidence from the values

_CODE = re.compile(r"^(?=.*\d)(?=.*[A-Z0-9][-./_][A-Z0-9]|[A-Z]+\d)[A-Z0-9]+(?:[-./_][A-Z0-9]+)*$")
"""A code: letters and digits, with separators (`SKU-10231`, `BX-310-K`, `01.02.0035`) or a
letter prefix (`A1003`); never a bare number."""
_WAREHOUSE_CODE = re.compile(r"^(WH|DC|W)-?\d{1,3}$")
_PRICE = re.compile(r"^(?:[$€£¥￥]\s?\d[\d,]*(?:\.\d{1,2})?|\d[\d,]*\.\d{2}\s?(?:[$€£¥￥]|元)?)$")
_YEAR = r"(?:19|20)\d{2}"
_DATE = re.compile(
    rf"^(?:{_YEAR}[-/.年](?:0?[1-9]|1[0-2])[-/.月](?:0?[1-9]|[12]\d|3[01])日?"
    rf"|(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:{_YEAR}|\d{{2}})"
    rf"|(?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])[-/.](?:{_YEAR}|\d{{2}})"
    r"|\d{1,2}\s+[A-Za-z]{3,9}\.?\s+\d{2,4}|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{2,4})"
    r"(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$"
)
"""A date: year-month-day, day-month-year or month-day-year with a plausible year (`01.02.0035`
is a code, not a date), or with a month's name."""
_LETTERS = re.compile(r"[A-Za-z\u4e00-\u9fff]")


@dataclass(frozen=True)
class ValuesProfile:
    """What a column's non-empty values look like, as shares of them."""

    filled: int
    codes: float
    warehouses: float
    quantities: float
    index: bool
    """The values are 1, 2, 3 … (or a page's run: 21, 22 …): a running row number."""
    prices: float
    dates: float
    text: float
    """Values with letters that are no code: names, words."""
    distinct: int
    unit: str | None
    """The unit the quantities carry, when one (or the most common one) does."""
    units: tuple[str | None, ...]


def values_profile(values: Sequence[str]) -> ValuesProfile:
    filled = [v.strip() for v in values if v.strip() and v.strip() not in ("-", "—", "–", "一")]
    if not filled:
        return ValuesProfile(0, 0, 0, 0, False, 0, 0, 0, 0, None, ())
    n = len(filled)
    upper = [
        re.sub(r"\s*([-./_])\s*", r"\1", unicodedata.normalize("NFKC", v).upper().strip())
        for v in filled
    ]
    parsed = [quantity_and_unit(v) for v in filled]
    numbers = [q for q, _ in parsed if q is not None]
    units = tuple(u for q, u in parsed if q is not None)
    named = [u for u in units if u]
    plain = [v.replace(" ", "") for v in upper if v.replace(" ", "").isdigit()]
    index = (
        len(plain) == n
        and n >= 3
        and all(int(b) - int(a) == 1 for a, b in itertools.pairwise(plain))
    )
    codes = sum(
        bool(_CODE.match(v)) and not _WAREHOUSE_CODE.match(v) and not _DATE.match(v) for v in upper
    )
    text = sum(
        bool(_LETTERS.search(v)) and not _CODE.match(u) for v, u in zip(filled, upper, strict=True)
    )
    return ValuesProfile(
        filled=n,
        codes=codes / n,
        warehouses=sum(bool(_WAREHOUSE_CODE.match(v)) for v in upper) / n,
        quantities=len(numbers) / n,
        index=index,
        prices=sum(bool(_PRICE.match(v)) for v in filled) / n,
        dates=sum(bool(_DATE.match(v)) for v in filled) / n,
        text=text / n,
        distinct=len(set(upper)),
        unit=most_common(named),
        units=units,
    )


# ---- evidence from the header's words

_HEADER_WORDS: dict[str, dict[str, float]] = {
    "sku": {
        "sku": 1.0, "code": 0.9, "ref": 0.9, "reference": 0.9, "part": 0.8, "pn": 0.9,
        "no": 0.5, "number": 0.5, "nr": 0.5, "num": 0.5, "#": 0.6, "id": 0.6, "item": 0.45,
        "article": 0.45, "material": 0.45, "model": 0.5, "catalog": 0.6, "catalogue": 0.6,
        "编码": 0.95, "编号": 0.85, "代码": 0.85, "货号": 0.95, "料号": 0.95, "型号": 0.6,
    },
    "name": {
        "name": 1.0, "description": 1.0, "desc": 0.9, "product": 0.7, "title": 0.8,
        "designation": 0.8, "label": 0.6, "item": 0.45, "article": 0.45, "material": 0.45,
        "名称": 1.0, "品名": 1.0, "描述": 0.9, "商品": 0.6, "产品": 0.6, "物料": 0.4,
    },
    "on_hand": {
        "hand": 1.0, "onhand": 1.0, "balance": 0.95, "physical": 0.9, "actual": 0.8,
        "stock": 0.75, "inventory": 0.75, "avail": 0.7, "available": 0.7, "free": 0.7,
        "qty": 0.6, "quantity": 0.6, "units": 0.5, "current": 0.5, "level": 0.3,
        "现存": 1.0, "结存": 1.0, "在库": 0.95, "现有": 0.9, "当前": 0.7, "库存": 0.75,
        "可用": 0.7, "余量": 0.8, "存量": 0.8, "数量": 0.6,
    },
    "reorder_point": {
        "reorder": 1.0, "rop": 1.0, "min": 0.9, "minimum": 0.9, "safety": 0.9,
        "threshold": 0.9, "trigger": 0.8, "par": 0.7, "alert": 0.8,
        "安全": 0.95, "警戒": 1.0, "最低": 0.9, "最小": 0.85, "预警": 0.9, "补货点": 1.0,
        "再订货": 1.0, "下限": 0.9, "阈值": 0.9,
    },
    "warehouse_id": {
        "warehouse": 1.0, "wh": 1.0, "depot": 0.95, "site": 0.85, "location": 0.8,
        "store": 0.7, "dc": 0.8, "plant": 0.8, "branch": 0.7, "facility": 0.8, "hub": 0.7,
        "仓库": 1.0, "库房": 0.95, "仓": 0.8,
    },
}  # fmt: skip
_RULES_OUT_QUANTITY = (
    "order", "ordered", "allocated", "alloc", "reserved", "committed", "transit", "incoming",
    "inbound", "outbound", "backorder", "backordered", "sold", "demand", "forecast", "price",
    "cost", "value", "amount", "total", "uom", "unit", "status", "date", "updated", "last",
    "count", "index", "supplier", "vendor", "category", "lead", "days",
    "在途", "已订", "订单", "分配", "预留", "占用", "单价", "价格", "金额", "单位", "状态",
    "日期", "库位", "序号", "供应商", "类别", "在单",
)  # fmt: skip
"""Words in a header that rule out on hand and the reorder point (`On order`, `Allocated`,
`Unit price`, `Last count`, `在途`, `单位`)."""
_RULES_OUT_NAME = ("code", "no", "number", "#", "id", "sku", "编码", "编号", "代码", "序号")
_RULES_OUT_WAREHOUSE = ("bin", "shelf", "aisle", "slot", "库位", "货位", "货架")
_THERE = frozenset(
    ("hand", "onhand", "physical", "balance", "current", "actual",
     "现存", "结存", "在库", "当前", "现有")
)  # fmt: skip
_FREE = frozenset(("avail", "available", "free", "可用"))


def _on_hand_rank(words: Sequence[str]) -> int:
    """Between two on-hand candidates: what is there (`on hand`, `balance`, `current stock`,
    `现存量`) over a bare quantity (`Qty`, `Stock level`, `库存数量`) over what is free of
    commitments (`Available`, `Qty avail.`, `可用库存`: on hand less what is allocated)."""
    if any(w in _THERE for w in words):
        return 3
    return 1 if any(w in _FREE for w in words) else 2


def _words(header: str) -> list[str]:
    """A header's words: English words and `#`, and the Chinese words of the vocabulary."""
    value = unicodedata.normalize("NFKC", header).lower()
    words = re.findall(r"[a-z]+|#", value)
    cjk = "".join(_CJK.findall(value))
    if cjk:
        known = {w for field in _HEADER_WORDS.values() for w in field if _CJK.search(w)}
        known |= {w for w in (*_RULES_OUT_QUANTITY, *_RULES_OUT_WAREHOUSE) if _CJK.search(w)}
        words += [w for w in known if w in cjk]
    return words


def _word_score(words: Sequence[str], field: str) -> tuple[float, list[str]]:
    table = _HEADER_WORDS[field]
    hits = [w for w in words if w in table]
    if not hits:
        return 0.0, []
    best = max(table[w] for w in hits)
    if field in ("on_hand", "reorder_point") and any(w in _RULES_OUT_QUANTITY for w in words):
        return 0.0, []
    if field == "on_hand" and any(w in _HEADER_WORDS["reorder_point"] for w in words):
        return 0.0, []  # "safety stock", "min qty", "最低库存" are reorder points
    if field == "name" and any(w in _RULES_OUT_NAME for w in words):
        best *= 0.4
    if field == "warehouse_id" and any(w in _RULES_OUT_WAREHOUSE for w in words):
        return 0.0, []
    return best, hits


# ---- the two kinds combined


@dataclass(frozen=True)
class ColumnRole:
    """What one column of a table is taken to hold: `maps_to` (a schema field, or None), how
    sure (`confidence`, 0-1), and why (the evidence, in words)."""

    index: int
    header: str
    maps_to: str | None
    confidence: float
    why: str
    unit: str | None = None


def _fits(field: str, profile: ValuesProfile) -> tuple[float, str]:
    """How well a column's values fit `field` (1: fully, 0: not at all), and in words."""
    if profile.filled == 0:
        return 0.6, "no values to check"
    n = profile.filled
    if field in ("on_hand", "reorder_point"):
        if profile.index:
            return 0.0, f"values run 1…{n} (a row number)"
        if profile.prices >= 0.5 or profile.dates >= 0.5:
            return 0.0, "values are prices or dates"
        fit = profile.quantities if profile.quantities >= 0.7 else 0.0
        unit = f" with unit {profile.unit}" if profile.unit else ""
        return fit, f"{round(profile.quantities * n)}/{n} quantities{unit}"
    if field == "sku":
        if profile.index or (profile.quantities >= 0.9 and profile.codes < 0.5):
            return 0.15, "values are plain numbers"
        if profile.codes >= 0.6:
            return 1.0, f"{round(profile.codes * n)}/{n} codes"
        return (0.3 if profile.text < 0.8 else 0.1), f"{round(profile.codes * n)}/{n} codes"
    if field == "warehouse_id":
        if profile.warehouses >= 0.6:
            return 1.0, f"{round(profile.warehouses * n)}/{n} warehouse codes"
        if profile.codes >= 0.6 or profile.quantities >= 0.6:
            return 0.1, "values are codes or numbers, not warehouses"
        return 0.5, "no warehouse codes (names?)"
    # name
    if profile.codes >= 0.6 or profile.quantities >= 0.6:
        return 0.1, "values are codes or numbers, not names"
    return (1.0 if profile.text >= 0.6 else 0.4), f"{round(profile.text * n)}/{n} text values"


def is_code(text: str) -> bool:
    """A code (`SKU-10231`, `BX-310-K`, `01.02.0035`), not a warehouse code or a date."""
    value = re.sub(r"\s*([-./_])\s*", r"\1", unicodedata.normalize("NFKC", text).upper().strip())
    return bool(_CODE.match(value)) and not _WAREHOUSE_CODE.match(value) and not _DATE.match(value)


def header_evidence(header: str, field: str) -> tuple[float, str]:
    """How strongly a header (or a card's label) names `field` (0-1), and why."""
    whole = _header_score(header, field)
    words = _words(header)
    by_words, hits = _word_score(words, field)
    if whole >= by_words and whole > 0:
        return whole, f"header {header!r} is a name for {field}"
    if by_words > 0:
        return by_words, f"header {header!r} has {', '.join(hits)}"
    return 0.0, ""


def type_columns(
    header: Sequence[str], columns: Sequence[Sequence[str]], *, headers_only: bool = False
) -> list[ColumnRole]:
    """Each column's role, from its header and its values together (see the module
    docstring). `headers_only` asks what the header alone names."""
    profiles = [
        values_profile([] if headers_only else (columns[i] if i < len(columns) else []))
        for i in range(len(header))
    ]
    scored: list[tuple[float, int, str, int, str]] = []
    # Only where a header names a stock quantity is a silent column of words taken for the
    # name: a grid of other text is no table of stock.
    counted = any(
        header_evidence(text, field)[0] >= 0.5
        for text in header
        for field in ("on_hand", "reorder_point")
    )
    for index, text in enumerate(header):
        profile = profiles[index]
        words = _words(text)
        rank = _on_hand_rank(words)
        lead = None if headers_only or not profile.unit else leading_phrase(text)
        silent = not _names_something(words)
        for field in FIELDS:
            said, said_why = header_evidence(text, field)
            fit, fit_why = _fits(field, profile)
            if said == 0 and lead is not None:
                # `Min qty Unit` over `150 boxes`: two columns read as one; the number is
                # the first one's.
                said, said_why = header_evidence(lead[0], field)
                if said > 0:
                    said_why += f" (and {lead[1]!r} beside it, read as one column)"
            if said > 0:
                score = said * (0.35 + 0.65 * fit) if profile.filled else said
            elif headers_only or not silent:
                continue  # values alone decide only under a header that names nothing
            elif field == "sku" and profile.codes >= 0.85:
                score, said_why = 0.85 * profile.codes, "no header names it"
            elif field == "warehouse_id" and profile.warehouses >= 0.6:
                score, said_why = 0.85 * profile.warehouses, "no header names it"
            elif field == "name" and fit == 1.0 and counted:
                # Under a misread header (`Description` read as `B`), words are the name
                # unless a column whose header says so holds them.
                score, said_why = 0.6 * profile.text, "no header names it"
            else:
                continue
            if score < 0.3:
                continue
            why = "; ".join(
                w for w in (said_why, None if headers_only else f"values: {fit_why}") if w
            )
            scored.append((score, rank if field == "on_hand" else 1, field, index, why))
    roles: dict[int, ColumnRole] = {}
    taken: set[str] = set()
    for score, _rank, field, index, why in sorted(scored, key=lambda s: (-s[0], -s[1])):
        if field in taken or index in roles:
            continue
        competing = [s for s in scored if s[2] == field and s[3] != index and s[3] not in roles]
        if field == "on_hand" and any(s[1] > _rank and s[0] >= 0.5 * score for s in competing):
            continue  # a better-named on-hand column ("On hand" beside "Available") wins
        runner_up = max((s[0] for s in scored if s[3] == index and s[2] != field), default=0.0)
        confidence = round(max(0.0, min(1.0, score - 0.5 * runner_up)), 2)
        roles[index] = ColumnRole(
            index, header[index], field, confidence, why, profiles[index].unit
        )
        taken.add(field)
    return [
        roles.get(i)
        or ColumnRole(
            i, header[i], None, 0.0, _unmapped_why(header[i], profiles[i]), profiles[i].unit
        )
        for i in range(len(header))
    ]


def _names_something(words: Sequence[str]) -> bool:
    """Whether a header's words name anything the vocabulary knows: a field, or a column that
    is none (`Bin`, `库位`, `Unit`, `Status`): such a header is not silent, and values alone
    do not overrule it (bin codes under `库位` are not SKUs)."""
    ruled = (*_RULES_OUT_QUANTITY, *_RULES_OUT_NAME, *_RULES_OUT_WAREHOUSE)
    return any(w in ruled or any(w in table for table in _HEADER_WORDS.values()) for w in words)


_COLUMN_NAMES = frozenset(
    ("unit", "uom", "status", "price", "category", "supplier", "vendor",
     "date", "updated", "单位", "状态", "单价", "价格", "金额", "类别", "供应商", "日期")
)  # fmt: skip
"""Words that make a column's whole header on their own (`Unit`, `Status`, `单位`)."""


def leading_phrase(header: str) -> tuple[str, str] | None:
    """A header read from two neighbouring column headers, the first naming a field and the
    second a column that is none (`Min qty Unit`, `Threshold Status`, `On hand  UoM`): the
    two parts, else None. Words that rule a field out and come first (`On order qty`,
    `Allocated stock`) still rule it out."""
    tokens = unicodedata.normalize("NFKC", header).split()
    ruled = set(_RULES_OUT_QUANTITY)
    for cut in range(len(tokens) - 1, 0, -1):
        head, tail = tokens[:cut], tokens[cut:]
        tail_words = _words(" ".join(tail))
        head_words = _words(" ".join(head))
        if not tail_words or not all(w in _COLUMN_NAMES for w in tail_words):
            break
        if head_words and not any(w in ruled for w in head_words):
            return " ".join(head), " ".join(tail)
    return None


def _unmapped_why(header: str, profile: ValuesProfile) -> str:
    if profile.index:
        return f"header {header!r}: a running row number"
    words = _words(header)
    ruled = [w for w in words if w in _RULES_OUT_QUANTITY]
    if ruled:
        return f"header {header!r}: {', '.join(ruled)} is not a stock field"
    return f"header {header!r} names no inventory field"


def map_columns(
    header: Sequence[str], columns: Sequence[Sequence[str]], *, headers_only: bool = False
) -> dict[str, int]:
    """Schema field -> column index (see `type_columns`); each column serves at most one
    field."""
    return {
        role.maps_to: role.index
        for role in type_columns(header, columns, headers_only=headers_only)
        if role.maps_to is not None
    }


def well_formed(rows: Sequence[Row]) -> int:
    """How many fields of `rows` hold a value of their kind (a code for the SKU, a number for
    a quantity, words for the name, a warehouse code): two readings of one table compare by
    it."""
    count = 0
    for row in rows:
        count += row.sku is not None and is_code(row.sku)
        count += row.name is not None and bool(_LETTERS.search(row.name)) and not is_code(row.name)
        count += row.on_hand is not None
        count += row.reorder_point is not None
        count += row.warehouse_id is not None and bool(_WAREHOUSE_CODE.match(row.warehouse_id))
    return count
