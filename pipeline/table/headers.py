"""What a column's header (or a card's label) names, in English and Chinese.

Two kinds of evidence: the whole header against each field's synonyms (exactly, or fuzzily
for an OCR misread, `_cjk_score` for a Chinese header with one character wrong), and its words
against an open vocabulary of what each field's headers are made of (`qty`, `avail`, `free`,
`stock`, `balance`, `现存` … for on hand; `min`, `safety`, `reorder`, `警戒` … for the reorder
point; `ref`, `code`, `part`, `#`, `编码` … for the SKU), with words that rule a field out
(`on order`, `allocated`, `在途`, `price`, `unit`, `status`). `pipeline.table.schema` combines
this with what the column's values look like.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher

from pipeline.fields import FIELD_SPECS, FIELDS
from pipeline.table.cells import quantity_and_unit
from pipeline.table.values import is_code, is_price

__all__ = [
    "COMMITTED",
    "FIELDS",
    "SYNONYMS",
    "header_evidence",
    "header_words",
    "is_data_row",
    "leading_phrase",
    "likeness",
    "names_something",
    "normalise_header",
    "on_hand_rank",
    "ruled_out",
]

SYNONYMS: dict[str, tuple[str, ...]] = {f: spec.synonyms for f, spec in FIELD_SPECS.items()}
"""Each field's whole names (`pipeline.fields`)."""

_FUZZY_MIN = 0.8
_CJK = re.compile(r"[\u4e00-\u9fff]")


def normalise_header(text: str) -> str:
    value = unicodedata.normalize("NFKC", text).lower()
    value = re.sub(r"[^\w一-鿿]+", " ", value)
    return " ".join(value.split())


_SQUASHED = {f: frozenset(s.replace(" ", "") for s in names) for f, names in SYNONYMS.items()}
"""Each field's names written without their spaces (`on hand` as `onhand`)."""


def likeness(a: str, b: str, least: float) -> float:
    """How alike two strings are (difflib's ratio, 0-1) where that can reach `least`; 0 where
    it cannot, and for an empty string. Most pairs are ruled out by their lengths or their
    letters alone, before the matching that costs."""
    if not a or not b or 2.0 * min(len(a), len(b)) / (len(a) + len(b)) < least:
        return 0.0
    if 2.0 * _shared_letters(a, b) / (len(a) + len(b)) < least:
        return 0.0  # difflib's quick_ratio, without the index its matcher builds first
    ratio = SequenceMatcher(None, a, b).ratio()
    return ratio if ratio >= least else 0.0


def _shared_letters(a: str, b: str) -> int:
    """How many letters of `a` are in `b`, each of `b`'s counted once (a bound on the
    matching: no ratio exceeds twice this over both lengths)."""
    left: dict[str, int] = {}
    for ch in b:
        left[ch] = left.get(ch, 0) + 1
    shared = 0
    for ch in a:
        n = left.get(ch, 0)
        if n > 0:
            left[ch] = n - 1
            shared += 1
    return shared


def _header_score(header: str, field: str) -> float:
    value = normalise_header(header)
    if not value:
        return 0.0
    synonyms = SYNONYMS[field]
    if value in synonyms:
        return 1.0
    squashed = value.replace(" ", "")
    if squashed in _SQUASHED[field]:
        return 0.98
    if any(squashed in names for other, names in _SQUASHED.items() if other != field):
        return 0.0  # "In stock" is a name for on hand, not a misread "Min stock"
    best = max(likeness(value, s, _FUZZY_MIN) for s in synonyms)
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


_HEADER_WORDS: dict[str, Mapping[str, float]] = {f: spec.words for f, spec in FIELD_SPECS.items()}
COMMITTED = frozenset(("allocated", "alloc", "reserved", "committed", "分配", "预留", "占用"))
"""Header words of stock held for orders: on hand is what is free of it plus it."""
_RULES_OUT_QUANTITY = (
    *COMMITTED,
    "order", "ordered", "transit", "incoming",
    "inbound", "outbound", "backorder", "backordered", "sold", "demand", "forecast", "price",
    "cost", "value", "total", "uom", "unit", "status", "date", "updated", "last",
    "count", "index", "supplier", "vendor", "category", "lead", "days",
    "在途", "已订", "订单", "单价", "价格", "金额", "单位", "状态",
    "日期", "库位", "序号", "供应商", "类别", "在单",
)  # fmt: skip
"""Words in a header that rule out on hand and the reorder point (`On order`, `Allocated`,
`Unit price`, `Last count`, `在途`, `单位`)."""
_RULES_OUT_NAME = ("code", "no", "number", "#", "id", "sku", "编码", "编号", "代码", "序号")
_RULES_OUT_WAREHOUSE = ("bin", "shelf", "aisle", "slot", "库位", "货位", "货架")
_RULES_OUT_SKU = (
    "supplier",
    "vendor",
    "customer",
    "phone",
    "tel",
    "供应商",
    "供货商",
    "客户",
    "电话",
)
"""Words of a header that numbers another party (`Supplier no.`, `供货商编号`, `Phone`): its
numbers are not the item's."""
_THERE = frozenset(
    ("hand", "onhand", "physical", "balance", "current", "actual",
     "现存", "结存", "在库", "当前", "现有", "实际")
)  # fmt: skip
_FREE = frozenset(("avail", "available", "free", "可用"))


def on_hand_rank(words: Sequence[str]) -> int:
    """Between two on-hand candidates: what is there (`on hand`, `balance`, `current stock`,
    `现存量`) over a bare quantity (`Qty`, `Stock level`, `库存数量`) over what is free of
    commitments (`Available`, `Qty avail.`, `可用库存`: on hand less what is allocated)."""
    if any(w in _THERE for w in words):
        return 3
    return 1 if any(w in _FREE for w in words) else 2


_CLIPPED = re.compile(r"(?:…|\.{2,}|⋯)\s*$")
"""A header cut short by its column's width ends in an ellipsis (`Reorder le…`, `实际...`)."""


def header_words(header: str) -> list[str]:
    """A header's words: English words and `#`, and the Chinese words of the vocabulary. The
    last word of a header clipped with an ellipsis (`Qty avail…` → `avail`, `Avail…` →
    `available`) is every vocabulary word it begins, three letters or more of it."""
    value = unicodedata.normalize("NFKC", header).lower()
    words = re.findall(r"[a-z]+|#", value)
    if words and _CLIPPED.search(value) and len(words[-1]) >= 3:
        last = words[-1]
        known = {w for table in _HEADER_WORDS.values() for w in table}
        known |= {*_RULES_OUT_QUANTITY, *_RULES_OUT_NAME, *_RULES_OUT_WAREHOUSE, *_RULES_OUT_SKU}
        if last not in known:
            words[-1:] = sorted(w for w in known if w.startswith(last)) or [last]
    cjk = "".join(_CJK.findall(value))
    if cjk:
        known = {w for field in _HEADER_WORDS.values() for w in field if _CJK.search(w)}
        ruled = (*_RULES_OUT_QUANTITY, *_RULES_OUT_WAREHOUSE, *_RULES_OUT_SKU)
        known |= {w for w in ruled if _CJK.search(w)}
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


_AMOUNT = frozenset(("qty", "quantity", "amount", "menge", "size", "lot"))
_ORDER_AMOUNT_CJK = re.compile(r"(?:补货|订货|订购|采购|再订)数?量")


def _names_order_amount(header: str, words: Sequence[str]) -> bool:
    """Whether a header names how much to order (`Reorder qty`, `Reorder quantity`,
    `补货数量`, `订货量`): an amount to buy, neither the stock level that triggers it nor what
    is on hand."""
    reorders = any(w in ("reorder", "order") for w in words)
    return (
        (reorders and any(w in _AMOUNT for w in words))
        or "bestellmenge" in words
        or bool(_ORDER_AMOUNT_CJK.search(unicodedata.normalize("NFKC", header)))
    )


def header_evidence(header: str, field: str) -> tuple[float, str]:
    """How strongly a header (or a card's label) names `field` (0-1), and why."""
    words = header_words(header)
    if field == "sku" and any(w in _RULES_OUT_SKU for w in words):
        return 0.0, ""  # another party's number (`供货商编号`), however close to a code's name
    if field in ("on_hand", "reorder_point") and _names_order_amount(header, words):
        return 0.0, ""  # how much to order, however close to `reorder pt`
    whole = _header_score(header, field)
    by_words, hits = _word_score(words, field)
    if whole >= 1.0:
        return whole, f"header {header!r} is a name for {field}"
    cut = _CUT_SHORT if _cut_short(header) else 1.0
    said = " (its last word cut short)" if cut < 1.0 else ""
    if whole >= by_words and whole > 0:
        return whole * cut, f"header {header!r} is a name for {field}{said}"
    if by_words > 0:
        return by_words * cut, f"header {header!r} has {', '.join(hits)}{said}"
    return 0.0, ""


_CUT_SHORT = 0.8
"""How much a header cut short by its column says of what it names: the cut word may change
it (`Reorder Q…` is how much to order), so an uncut header naming the field wins."""


def _cut_short(header: str) -> bool:
    """A header cut at its column's edge with no ellipsis (`Reorder C`, `Safety Sto` reads
    whole enough): its last English word one or two letters that are no word of the
    vocabulary, after a word that is."""
    words = re.findall(r"[a-z]+", unicodedata.normalize("NFKC", header).lower())
    if len(words) < 2 or len(words[-1]) > 2:
        return False
    known = {w for table in _HEADER_WORDS.values() for w in table}
    known |= {*_RULES_OUT_QUANTITY, *_RULES_OUT_NAME, *_RULES_OUT_WAREHOUSE, *_RULES_OUT_SKU}
    return words[-1] not in known and words[-2] in known


def names_something(words: Sequence[str]) -> bool:
    """Whether a header's words name anything the vocabulary knows: a field, or a column that
    is none (`Bin`, `库位`, `Unit`, `Status`): such a header is not silent, and values alone
    do not overrule it (bin codes under `库位` are not SKUs)."""
    ruled = (*_RULES_OUT_QUANTITY, *_RULES_OUT_NAME, *_RULES_OUT_WAREHOUSE, *_RULES_OUT_SKU)
    return any(w in ruled or any(w in table for table in _HEADER_WORDS.values()) for w in words)


_COLUMN_NAMES = frozenset(
    ("unit", "uom", "status", "price", "category", "supplier", "vendor",
     "date", "updated", "单位", "状态", "单价", "价格", "金额", "类别", "供应商", "日期")
)  # fmt: skip
"""Words that make a column's whole header on their own (`Unit`, `Status`, `单位`)."""


def leading_phrase(header: str) -> tuple[str, str] | None:
    """A header read from two neighbouring column headers, the first naming a field and the
    second a column that is none (`Min qty Unit`, `Threshold Status`, `On hand  UoM`,
    `实际库存单位`): the two parts, else None. Words that rule a field out and come first
    (`On order qty`, `Allocated stock`) still rule it out."""
    text = unicodedata.normalize("NFKC", header).strip()
    tokens = text.split()
    ruled = set(_RULES_OUT_QUANTITY)
    for cut in range(len(tokens) - 1, 0, -1):
        head, tail = tokens[:cut], tokens[cut:]
        tail_words = header_words(" ".join(tail))
        head_words = header_words(" ".join(head))
        if not tail_words or not all(w in _COLUMN_NAMES for w in tail_words):
            break
        if head_words and not any(w in ruled for w in head_words):
            return " ".join(head), " ".join(tail)
    # Chinese headers join without a space (`实际库存单位`): the tail is a column name's word.
    for name in (w for w in _COLUMN_NAMES if _CJK.search(w)):
        first = text.removesuffix(name).strip()
        if first != text and _CJK.search(first):
            first_words = header_words(first)
            if first_words and not any(w in ruled for w in first_words):
                return first, name
    return None


def ruled_out(header: str) -> list[str]:
    """The words of `header` that rule out a stock quantity (`On order`, `单位`)."""
    return [w for w in header_words(header) if w in _RULES_OUT_QUANTITY]


def _value_kind(text: str) -> str | None:
    """What a cell holds where that is a value's shape: a quantity, a price, a code; None for
    words and blanks (which a header's names are made of)."""
    value = text.strip()
    if not value:
        return None
    if quantity_and_unit(value)[0] is not None:
        return "quantity"
    if is_price(value):
        return "price"
    return "code" if is_code(value) else None


def is_data_row(first: Sequence[str], below: Sequence[Sequence[str]]) -> bool:
    """Whether a table's first line is a row of values, no header: none of its cells names a
    column the vocabulary knows, and most of its filled cells are values of the shape their
    column's cells below have (a number over numbers, a code over codes), two at least. A
    header lost or absent (a phone list), its columns are typed by their values alone."""
    if len(below) < 2 or any(names_something(header_words(t)) for t in first):
        return False
    filled = [c for c, t in enumerate(first) if t.strip()]
    shaped = 0
    for c in filled:
        kind = _value_kind(first[c])
        if kind is None:
            continue
        kinds = [_value_kind(row[c]) for row in below if c < len(row) and row[c].strip()]
        shaped += bool(kinds) and kinds.count(kind) >= 0.5 * len(kinds)
    return shaped >= 2 and shaped >= 0.5 * len(filled)
