"""Marking a task: ids (SKUs, warehouses, orders), warehouse names, quantities, their caps
and multiples, and dates become placeholders (`<S1>`, `<W1>`, `<Q1>` ...) that the tokens and
clauses of `pipeline.contract.reading` then read; what each stands for is kept in `Marks`."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pipeline.contract.items import UNIT_WORDS, mentions
from pipeline.contract.lexicon import EN, ZH
from pipeline.contract.numerals import digits_for_words
from pipeline.contract.terms import QuantityRule

__all__ = ["PLACEHOLDER", "Marks", "is_cjk", "mark"]

_EDGE_L = r"(?<![A-Za-z0-9])"
_EDGE_R = r"(?![A-Za-z0-9])"
_ORDER_ID = re.compile(
    _EDGE_L
    + r"(?:PO\s*#?|order\s*#|order\s+(?:no\.?|number)\s*|purchase\s+order\s+(?:#|no\.?|number)?\s*)"
    + r"[-_ ]?(\d{1,12})"
    + _EDGE_R
    + r"(?!\s*(?:units?|pcs|pieces|boxes|of|x|each)\b)",
    re.IGNORECASE,
)
"""An order's id: PO-000042, PO 42, PO#42, order #42, order no. 42, purchase order 42 (never
"order 42 units")."""
_WAREHOUSE_ID = re.compile(_EDGE_L + r"WH[-_ ]?(\d{1,3})" + _EDGE_R, re.IGNORECASE)
_SKU_ID = re.compile(_EDGE_L + r"([A-Za-z]{2,6})[-_](\d{2,12})" + _EDGE_R)
_SKU_BARE = re.compile(_EDGE_L + r"SKU ?(\d{3,12})" + _EDGE_R, re.IGNORECASE)
_DATES = re.compile(
    r"\d{4}[-/年.]\d{1,2}[-/月.]\d{1,2}日?(?:[ T]\d{1,2}[:：]\d{2}(?:[:：]\d{2})?)?"
    r"|\d{1,2}[:：]\d{2}(?:\s*(?:am|pm))?"
)
_GENERIC_PLACE = "warehouse|warehouses|hub|depot|dc|site|centre|center|location|store|distribution"
_GENERIC_PLACE_ZH = ("仓库", "仓", "库", "中心", "库房")

_UNIT = (
    r"(?:\s*(?:(?:" + "|".join(UNIT_WORDS) + r")(?![a-z])"
    r"|件|个|箱|盒|包|台|只|套|份|条|瓶|卷|袋|双|把|米))"
)
_EACH_WORDS = r"(?:each|apiece|a piece|per (?:sku|item|product|line|row|one)|for each|of each)"
_VERBS_ZH = ("补货", "下单", "采购", "补", "订", "买")

_MORE = r"(?:\s*(?:more|extra|additional))?"
_QTY_BEFORE = re.compile(
    r"(?<![\d<])(\d{1,7})" + _MORE + _UNIT + "?" + _MORE + r"\s*(?:of|for|x|×)?\s*<S(\d+)>"
)
_QTY_AFTER = re.compile(
    r"<S(\d+)>\s*(?:[x×*:=(]\s*)?(?:qty|quantity|order|reorder|buy|数量|补|订|下单|要)?\s*"
    r"(\d{1,7})(?![\d>])" + _UNIT + "?" + r"(?!\s*" + _EACH_WORDS + r")"
    r"(?!\s*(?:units?\s+)?(?:on[- ]hand|in stock|left|remaining|available)(?![a-z]))"
)
"""A quantity right after a SKU is that SKU's, unless it is for each ("SKU-1, SKU-2: 20 of
each") or a count held ("SKU-1: 30 on hand")."""
_DISTRIBUTED = re.compile(r"(?:各|每个|每样|每种|每项|\beach\b|\bapiece\b)[^\d，,。；;<>]{0,6}$")
"""Words just before a quantity that give it to each SKU listed ("各订 30 件 SKU-1、SKU-2"):
the quantity then belongs to none of them alone."""
_CAP = (
    re.compile(
        r"\b(?:at most|no more than|not more than|a maximum of|max(?:imum)?(?: of)?|"
        r"at the most|cap(?:ped)?(?: (?:it|them|each|orders|the orders|quantities))? at|"
        r"limit(?:ed)?(?: (?:it|them|each))?(?: to| of| at)?)\s*(\d{1,7})(?![\dx]|\.\d)"
        + _UNIT
        + r"?(?:\s*"
        + _EACH_WORDS
        + r")?(?!\s*(?:x|times)\b)"
    ),
    # "25 each, max", "25 per item tops"
    re.compile(
        r"(?<![\d<])(\d{1,7})"
        + _UNIT
        + r"?\s*"
        + _EACH_WORDS
        + r",?\s*(?:max|maximum|tops|at most)\b"
    ),
    re.compile(
        r"(?:最多不超过|最多|不超过|至多|顶多|上限)\s*(?:补|订|买)?\s*(\d{1,7})(?![\d>])"
        + _UNIT
        + "?"
    ),
)
_BELOW_EACH = re.compile(
    r"\b(?:under|below|less than|fewer than|lower than)\s*(\d{1,7})(?![\dx]|\.\d)"
    + _UNIT
    + r"?\s*"
    + _EACH_WORDS
    + r"(?![a-z])"
)
"""A cap below a number ("under 30 units each"): at most one less, never that number each."""
_ZH_ORDER_VERB = r"(?:补货|补|订货|订|买|采购|下单)"
_BELOW_CAPS = (
    (_BELOW_EACH, 1),
    # "补不到 30 个", "订少于 20 件": a write verb, then a count it stays below
    (
        re.compile(
            _ZH_ORDER_VERB + r"\s*(?:不到|少于|低于|小于)\s*(\d{1,7})(?![\d>])" + _UNIT + "?"
        ),
        1,
    ),
    # "补 30 个以下" (whether 以下 holds the number varies: below it, the safe side), "补 30 个以内"
    (
        re.compile(_ZH_ORDER_VERB + r"\s*(\d{1,7})(?![\d>])" + _UNIT + r"?\s*(?:以下|及以下)"),
        1,
    ),
    (re.compile(_ZH_ORDER_VERB + r"\s*(\d{1,7})(?![\d>])" + _UNIT + r"?\s*(?:以内|之内)"), 0),
)
"""Caps on what is ordered written as a bound, with how much less than the number they allow."""
_QTY_EACH = (
    re.compile(r"(?<![\d<])(?:[x×]\s*)?(\d{1,7})" + _UNIT + r"?\s*" + _EACH_WORDS + r"(?![a-z])"),
    re.compile(
        r"\beach\s*(?:(?:low |short )?(?:sku|item|one|product|row|line)s?)?\s*"
        r"(?:gets?|to|with|:)?\s*(\d{1,7})(?![\d>])" + _UNIT + "?"
    ),
    re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT + r"?\s*(?:of|for) every\b(?:\s*(?:sku|item|one))?"),
    re.compile(
        r"(?:每个sku|每个|每样|每种|每项|各)[^\d，,。；;]{0,6}?(?:都)?\s*(?:补|订|下单|买|要)?\s*"
        r"(\d{1,7})(?![\d>])" + _UNIT + "?"
    ),
    # "SKU-1 和 SKU-2 都补 20 件": 都 gives the number to each of them
    re.compile(r"(?<=>)\s*(?:都|全都)\s*(?:补|订|下单|买|要)\s*(\d{1,7})(?![\d>])" + _UNIT + "?"),
)
_MULTIPLES = {
    "twice": 2.0,
    "double": 2.0,
    "two times": 2.0,
    "triple": 3.0,
    "three times": 3.0,
    "两": 2.0,
    "二": 2.0,
    "三": 3.0,
}
_LEVEL_EN = r"(?:reorder point|reorder level|minimum|min|threshold|safety stock)s?"
_LEVEL_ZH = r"(?:警戒值|最低库存|安全库存|再订货点|补货点)"
_UP_TO = (
    re.compile(
        r"(?:up )?to (?P<m>twice|double|two times|triple|three times"
        r"|(?P<n>\d+(?:\.\d+)?) ?(?:x|times))"
        r" (?:the |its |their )?" + _LEVEL_EN
    ),
    re.compile(r"(?P<m>double|triple) (?:the |its |their )?" + _LEVEL_EN),
    re.compile(
        r"(?:补到|补至|补足到|到|至)\s*" + _LEVEL_ZH + r"\s*的?\s*"
        r"(?P<m>两|二|三|(?P<n>\d+(?:\.\d+)?))\s*倍"
    ),
    re.compile(r"(?P<m>两|二|三|(?P<n>\d+(?:\.\d+)?))\s*倍(?:的)?\s*" + _LEVEL_ZH),
)
_UP_TO_ONE = re.compile(
    r"(?:(?:back )?(?:up )?to|(?:bring|get) (?:them |it |those |these )?(?:back )?(?:up )?to)"
    r" (?:the |its |their )?(?:reorder point|reorder level|minimum|threshold)s?\b(?! ?x)"
    r"|(?:补到|补至|补足到)\s*" + _LEVEL_ZH + r"(?!\s*的?\s*[\d两二三]+\s*倍)"
)
_BELOW_EN = r"(?:under|below|less than|fewer than|lower than|beneath|<)"
_AT_MOST_EN = (
    r"(?:at or below|at or under|at most|no more than|not more than|maximum of|max(?:imum)?|"
    r"<=|≤)"
)
_AT_MOST_HAVING = r"(?:with|having|that have|that has|which have|which has|holding)\s+up to"
"""'with up to 20 on hand' is a count held; a bare 'up to 200 on hand' after a verb that
raises stock is a level to reach."""
_OR_LESS = r"or\s+(?:fewer|less|below|under|lower)(?:\s+units?)?"
_ON_HAND_EN = r"(?:on[- ]hand|in stock|left|remaining|available)"
_STOCK_ZH = r"(?:库存|在库|现货|现有库存|现存|剩余|还剩|剩)\s*(?:数量|量)?\s*(?:在|只有|为|是)?"
_BELOW_ZH = r"(?:少于|低于|小于|不足|不到|<)"
_AT_MOST_ZH = r"(?:不超过|不多于|不高于|最多|至多|<=|≤)"
_N = r"(\d{1,7})(?![\d>]|[.,]\d)"
_ON_HAND = (
    # "with at most 20 on hand", "with up to 20 left": below 21
    (
        re.compile(
            r"\b(?:(?:with\s+|having\s+)?"
            + _AT_MOST_EN
            + "|"
            + _AT_MOST_HAVING
            + r")\s*"
            + _N
            + _UNIT
            + r"?\s+(?:units?\s+)?"
            + _ON_HAND_EN
            + r"(?![a-z])"
        ),
        1,
    ),
    # "anything under 50 on hand", "with fewer than 20 units in stock"
    (
        re.compile(
            r"\b(?:with\s+|having\s+)?" + _BELOW_EN + r"\s*(\d{1,7})" + _UNIT + r"?\s+"
            r"(?:units?\s+)?" + _ON_HAND_EN + r"(?![a-z])"
        ),
        0,
    ),
    # "items with fewer than 30 units": a count of units the items hold, so the stock on hand
    (
        re.compile(
            r"\b(?:with|having|that have|that has|which have|which has)\s+"
            + _BELOW_EN
            + r"\s*"
            + _N
            + r"\s+units?\b(?!\s+(?:each|per|apiece|a piece))"
        ),
        0,
    ),
    # "anything below 20 units", "items under 30 units": the same, right after the items
    (
        re.compile(
            r"(?:"
            + "|".join(
                rf"(?<=\b{word} )"
                for word in ("anything", "everything", "items", "products", "skus", "ones")
            )
            + r")"
            + _BELOW_EN
            + r"\s*"
            + _N
            + r"\s+units?\b(?!\s+(?:each|per|apiece|a piece))"
        ),
        0,
    ),
    # "where on hand is below 50", "stock under 20"
    (
        re.compile(
            r"\b(?:where\s+|whose\s+|with\s+)?(?:the\s+)?(?:on[- ]hand|stock(?: level)?)"
            r"(?:\s+(?:is|are|of))?\s+" + _BELOW_EN + r"\s*" + _N + _UNIT + "?"
        ),
        0,
    ),
    # "whose on hand is at most 20": below 21
    (
        re.compile(
            r"\b(?:where\s+|whose\s+|with\s+)?(?:the\s+)?(?:on[- ]hand|stock(?: level)?)"
            r"(?:\s+(?:is|are|of))?\s+" + _AT_MOST_EN + r"\s*" + _N + _UNIT + "?"
        ),
        1,
    ),
    # "50 or fewer on hand", "20 units or under in stock", "20 in stock or less": below 21
    (
        re.compile(
            r"(?<![\d<])"
            + _N
            + _UNIT
            + r"?\s+(?:units?\s+)?"
            + _OR_LESS
            + r"\s+"
            + _ON_HAND_EN
            + r"(?![a-z])"
        ),
        1,
    ),
    (
        re.compile(
            r"(?<![\d<])"
            + _N
            + _UNIT
            + r"?\s+(?:units?\s+)?"
            + _ON_HAND_EN
            + r"\s+"
            + _OR_LESS
            + r"(?![a-z])"
        ),
        1,
    ),
    # "库存少于50", "现货不足 20 件"
    (re.compile(_STOCK_ZH + r"\s*" + _BELOW_ZH + r"\s*" + _N + _UNIT + "?"), 0),
    # "库存不超过20", "库存 20 件及以下": below 21
    (re.compile(_STOCK_ZH + r"\s*" + _AT_MOST_ZH + r"\s*" + _N + _UNIT + "?"), 1),
    (re.compile(_STOCK_ZH + r"\s*" + _N + _UNIT + r"?\s*(?:及以下|或以下|或更少)"), 1),
    # "库存50以下": whether 以下 holds the number itself varies; below it, the safe side
    (re.compile(_STOCK_ZH + r"\s*" + _N + _UNIT + r"?\s*(?:以下|以内)"), 0),
    # "少于 50 件的", "低于20个库存的": a count of units, so the stock on hand
    (
        re.compile(_BELOW_ZH + r"\s*" + _N + r"\s*(?:件|个|箱|盒|包|只|套|条|瓶|卷|袋)(?:库存)?"),
        0,
    ),
    # "低于 100 的都补": the items (的) below a bare number are those with so few on hand
    (re.compile(_BELOW_ZH + r"\s*" + _N + r"(?=\s*的)"), 0),
)
"""A condition on the live stock on hand ("anything under 50 on hand", "库存少于50"), read as
a `<C#>` placeholder: only SKUs whose on-hand is below the number (the second value: added
to it, "50 or fewer" is below 51)."""
_NONE_HELD = re.compile(
    r"\b(?:(?:with|having|at)\s+(?:zero|0|no)\s+(?:units?\s+)?(?:on[- ]hand|in stock|left|stock)"
    r"|at\s+zero|(?:with|having|has|have)\s+nothing\s+left)(?![a-z])"
    r"|(?:库存|在库|现货)\s*(?:为|是)?\s*(?:零|0)(?![\d.])|零库存"
)
"""None held ("anything at zero", "with nothing left", "库存为零"): on hand below 1."""
_STOCK_COUNT = (
    re.compile(
        r"(?<![\d<])(?<!to )(?<!to the )" + _N + _UNIT + r"?\s+(?:units?\s+)?"
        r"(?:on[- ]hand|in stock|left)(?![a-z])"
    ),
    re.compile(_STOCK_ZH + r"\s*(?:超过|高于|大于|多于|不少于|不低于|至少)?\s*" + _N + _UNIT + "?"),
)
"""A number of units held ("more than 50 on hand", "at least 20 in stock", "库存超过 50")
that no condition above reads: never an order's size, a cap or a level, only words not
understood."""
_RAISING = re.compile(
    r"\b(?:bring|take|top|fill|get|restock|replenish|refill|raise|stock)\b[^.;,!?。；，]*$"
)
_TO_LEVEL = re.compile(
    r"(?<!top )\b(?:back\s+)?(?:up\s+)?to\s+(?:a\s+(?:stock\s+)?level\s+of\s+|a\s+total\s+of\s+)?"
    r"(\d{1,7})(?![\d>]|\.\d)" + _UNIT + r"?(?!\s*(?:x|times)\b)"
    r"(?:\s+(?:units?\s+)?(?:on[- ]hand|in stock|each|apiece|per (?:sku|item)))?"
)
"""A stock level to reach in units, after a verb that raises stock ("bring them up to 200",
"restock to 150 each"); without such a verb ("order up to 20") it may be a cap, and stays a
target not understood."""
_TO_LEVEL_ZH = re.compile(
    r"(?:补到|补至|补足到|补齐到|补充到|补满到)\s*(\d{1,7})(?![\d>]|\.\d)"
    + _UNIT
    + r"?(?:\s*(?:库存))?"
)
_QTY_LOOSE = re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT)
_TARGET = re.compile(r"(?:\b(?:up )?to|\bup|到|至|补到|补至|达到)\s*$")
"""Before a quantity, a stock level to reach ("top up to 200 units", "补到 200 件"), which no
contract term says: such a quantity is not understood, never read as an order's size."""

_CITING = tuple(w for table in (EN, ZH) for w, tag in table.items() if tag in ("cite", "source"))
"""Words that say where quoted words come from (`cite`, `source` in the vocabulary)."""
PLACEHOLDER = re.compile(r"<([SWOQRLDTCX])(\d*)>")
_QUOTED = re.compile(r'"[^"]{1,400}"|“[^”]{1,400}”|「[^」]{1,400}」|『[^』]{1,400}』')
"""Words in double quotes: text the task cites (a note on the screen, a message), which it
does not ask for."""
_ID_LIST = re.compile(r"(<([SWO])\d+>)\s*[、/&]\s*(?=<\2\d+>)")


def is_cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


@dataclass
class Marks:
    skus: list[str] = field(default_factory=list)
    warehouses: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)
    quantities: list[tuple[str, int]] = field(default_factory=list)
    """(sku, units) of each `<Q#>`."""
    rules: list[QuantityRule] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    """Stock levels to reach (`<T#>`) after no verb that raises stock, and counts held that no
    condition reads: not understood."""
    conditions: list[int] = field(default_factory=list)
    """Conditions on the live on-hand (`<C#>`): below this many units."""
    named: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    """Items named by what they are: (the words, the SKUs whose names hold them)."""
    quotes: list[str] = field(default_factory=list)
    """Words the task quotes (`<X#>`): cited, never asked for."""
    cited: list[tuple[str, str]] = field(default_factory=list)
    """(kind, id) of every id in quoted words: never written to."""

    def of(self, kind: str) -> list[str]:
        return {"S": self.skus, "W": self.warehouses, "O": self.orders}[kind]

    def add(self, kind: str, value: str) -> str:
        known = self.of(kind)
        if value not in known:
            known.append(value)
        return f" <{kind}{known.index(value)}> "


def _normalise(task: str) -> str:
    text = unicodedata.normalize("NFKC", task)
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2026", "...")
    return digits_for_words(text)


def _distinctive(name: str) -> list[str]:
    words = re.findall(r"[a-z]+", name.lower())
    return [w for w in words if not re.fullmatch(_GENERIC_PLACE, w) and len(w) > 2]


def _name_patterns(names: Mapping[str, str]) -> list[tuple[re.Pattern[str], str]]:
    """Patterns for the warehouses' names and aliases, longest first: the name itself, and for
    English a distinctive word of it before a generic place noun ("the north warehouse" for
    "North hub"), when that word belongs to one warehouse only; for Chinese the name's stem
    before 仓 / 仓库 ("北方仓库" for "北方仓")."""
    found: list[tuple[str, str]] = []
    owners: dict[str, set[str]] = {}
    for name, warehouse in names.items():
        if not name.strip():
            continue
        found.append((re.escape(name.strip().lower()), warehouse))
        for word in _distinctive(name):
            owners.setdefault(word, set()).add(warehouse)
        stem = name.strip()
        for suffix in _GENERIC_PLACE_ZH:
            if stem.endswith(suffix) and len(stem) > len(suffix) and is_cjk(stem[0]):
                base = re.escape(stem[: -len(suffix)])
                found.append((base + "(?:仓库|仓|库)", warehouse))
                break
    for word, warehouses in owners.items():
        if len(warehouses) == 1:
            found.append((rf"(?:the )?{word} (?:{_GENERIC_PLACE})", next(iter(warehouses))))
    # A name as the store spells it before any pattern made from a word of it ("main
    # distribution centre" before "main distribution"), each longest first.
    exact = {re.escape(name.strip().lower()) for name in names}
    found.sort(key=lambda item: (item[0] in exact, len(item[0])), reverse=True)
    patterns = []
    for text, warehouse in found:
        edge_l = r"(?<![a-z0-9])" if text[:1].isascii() else ""
        edge_r = r"(?![a-z0-9])" if text[-1:].isascii() else ""
        patterns.append((re.compile(edge_l + text + edge_r), warehouse))
    return patterns


_DETERMINER = re.compile(r"(?:\b(?:the|those|these|that|this|our|my|your)\s+)$")


def _mark_items(text: str, catalogue: Mapping[str, str], marks: Marks) -> str:
    """Items named by what they are become their SKUs' placeholders (several joined by
    "and"), each recorded in `marks.named`; a determiner before a name goes with it."""
    out, pos = [], 0
    for mention in mentions(text, catalogue):
        words = text[mention.start : mention.end]
        start = mention.start
        if det := _DETERMINER.search(text, pos, start):
            start = det.start()
        out.append(text[pos:start])
        marks.named.append((words, mention.skus))
        out.append(" and ".join(marks.add("S", sku) for sku in mention.skus))
        pos = mention.end
    return "".join(out) + text[pos:]


def mark(
    task: str, names: Mapping[str, str], catalogue: Mapping[str, str] | None = None
) -> tuple[str, Marks]:
    """The task lower-cased with every id, name, quantity and date as a placeholder; items
    named by what they are (`catalogue`: the screen's items, `{sku: name}`) as their SKUs."""
    marks = Marks()
    text = _normalise(task)
    text = _QUOTED.sub(lambda m: _quote(m[0], marks) if _framed(m) else m[0], text)
    text = _THEN.sub(r"\1然后", text)
    text = _ORDER_ID.sub(lambda m: marks.add("O", f"PO-{int(m[1]):06d}"), text)
    text = _WAREHOUSE_ID.sub(lambda m: marks.add("W", f"WH-{int(m[1]):02d}"), text)
    text = _SKU_BARE.sub(lambda m: marks.add("S", f"SKU-{m[1]}"), text)

    def sku(match: re.Match[str]) -> str:
        prefix = match[1].upper()
        if prefix in ("WH", "PO"):
            return match[0]
        return marks.add("S", f"{prefix}-{match[2]}")

    text = _SKU_ID.sub(sku, text)
    text = text.lower()
    text = re.sub(r"<([swox])(\d+)>", lambda m: f"<{m[1].upper()}{m[2]}>", text)
    text = re.sub(r"(<[SWO]\d+>)\s*'s\b", r"\1", text)  # "SKU-10232's open order"
    for pattern, warehouse in _name_patterns(names):
        text = pattern.sub(_adder(marks, warehouse), text)
    text = _mark_items(text, catalogue or {}, marks)
    text = _DATES.sub(" <D> ", text)
    text = _ID_LIST.sub(lambda m: f"{m[1]} and ", text)
    text = _mark_quantities(text, marks)
    return text, marks


_CLAUSE_START = re.compile(r"[.;!?。！？；\n][^.;!?。！？；\n]*$")


_THEN = re.compile(r"(先[^。！？；\n我]{1,30}?[，,]\s*)再(?!说)")
"""先…，再…: "first …, then …", a sequence (然后), not a deferral; unless the first step is
the user's ("先给我看看，再下单": the user looks before anything is ordered)."""


def _framed(match: re.Match[str]) -> bool:
    """Quoted words are cited when their clause names where they come from before them ("the
    note says", "screen text:", "截图上写着"); other quoted words ("restock everything in
    "North hub"") are the user's own, read as the rest."""
    before = match.string[: match.start()]
    if start := _CLAUSE_START.search(before):
        before = before[start.start() + 1 :]
    before = before.lower()
    return any(
        re.search(r"(?<![a-z])" + re.escape(word) + r"(?![a-z])", before)
        if word.isascii()
        else word in before
        for word in _CITING
    )


def _quote(words: str, marks: Marks) -> str:
    """Quoted words as one `<X#>` placeholder; the ids in them are kept as cited."""
    for pattern, kind, fmt in (
        (_ORDER_ID, "O", "PO-{:06d}"),
        (_WAREHOUSE_ID, "W", "WH-{:02d}"),
        (_SKU_BARE, "S", "SKU-{}"),
    ):
        for match in pattern.finditer(words):
            value = int(match[1]) if kind != "S" else match[1]
            marks.cited.append((kind, fmt.format(value)))
    for match in _SKU_ID.finditer(words):
        if match[1].upper() not in ("WH", "PO"):
            marks.cited.append(("S", f"{match[1].upper()}-{match[2]}"))
    marks.quotes.append(words.strip('"“”「」『』'))
    return f" <X{len(marks.quotes) - 1}> "


def _adder(marks: Marks, warehouse: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: marks.add("W", warehouse)


_EN_VERB = re.compile(r"\b(reorder|order|buy)\b")


def _english_verb_in(text: str) -> str:
    """The English write verb a quantity phrase carried ("SKU-10232: order 80"), put back
    before its placeholder, where it reads as the verb it was."""
    verb = _EN_VERB.search(text)
    return f" {verb[1]} " if verb else " "


def _verbs_in(text: str) -> str:
    """The Chinese write verbs a quantity phrase carried, put back beside its placeholder."""
    for verb in _VERBS_ZH:
        if verb in text:
            return f" {verb} "
    return " "


_PERCENT = re.compile(
    r"(?<![\d<])\d{1,7}(?:\.\d+)?\s*(?:%|percent\b|per cent\b|pct\b)|百分之\s*\d{1,7}(?:\.\d+)?"
)
"""A share ("20%", "20 percent", "百分之20") is no count of units: never a condition, a size, a
cap or a level, only words not understood."""


def _mark_quantities(text: str, marks: Marks) -> str:
    def share(match: re.Match[str]) -> str:
        marks.targets.append(match[0].strip())
        return f" <T{len(marks.targets) - 1}> "

    text = _PERCENT.sub(share, text)

    def per_sku(match: re.Match[str], sku_group: int, qty_group: int) -> str:
        marks.quantities.append((marks.skus[int(match[sku_group])], int(match[qty_group])))
        return (
            _english_verb_in(match[0]) + f" <Q{len(marks.quantities) - 1}> " + _verbs_in(match[0])
        )

    def before_sku(match: re.Match[str]) -> str:
        if _DISTRIBUTED.search(match.string[: match.start()]):
            return match[0]
        return per_sku(match, 2, 1)

    text = _QTY_BEFORE.sub(before_sku, text)
    text = _QTY_AFTER.sub(lambda m: per_sku(m, 1, 2), text)

    def condition(add: int) -> Callable[[re.Match[str]], str]:
        def placeholder(match: re.Match[str]) -> str:
            marks.conditions.append(int(match[1]) + add)
            return f" <C{len(marks.conditions) - 1}> "

        return placeholder

    def rule(match: re.Match[str], kind: str, value: float) -> str:
        marks.rules.append(QuantityRule(kind=kind, value=value) if value > 0 else _ZERO)
        return f" <R{len(marks.rules) - 1}> " + _verbs_in(match[0])

    # Caps below a number, before the conditions: after a write verb a count is how much to
    # order ("每样补不到 30 个", "under 30 units each"), not how much is on hand.
    def cap_below(less: int) -> Callable[[re.Match[str]], str]:
        return lambda m: rule(m, "at_most", float(m[1]) - less)

    for pattern, less in _BELOW_CAPS:
        text = pattern.sub(cap_below(less), text)
    for on_hand, add in _ON_HAND:
        text = on_hand.sub(condition(add), text)

    def none_held(_match: re.Match[str]) -> str:
        marks.conditions.append(1)
        return f" <C{len(marks.conditions) - 1}> "

    text = _NONE_HELD.sub(none_held, text)

    def held(match: re.Match[str]) -> str:
        marks.targets.append(match[0].strip())
        return f" <T{len(marks.targets) - 1}> "

    for count in _STOCK_COUNT:
        text = count.sub(held, text)

    for pattern in _CAP:
        text = pattern.sub(lambda m: rule(m, "at_most", float(m[1])), text)

    def level(match: re.Match[str]) -> str:
        if not _RAISING.search(match.string[: match.start()]):
            return match[0]
        return rule(match, "level", float(match[1]))

    text = _TO_LEVEL.sub(level, text)
    text = _TO_LEVEL_ZH.sub(lambda m: rule(m, "level", float(m[1])), text)
    for pattern in _QTY_EACH:
        text = pattern.sub(lambda m: rule(m, "each", float(m[1])), text)
    for pattern in _UP_TO:

        def up_to(match: re.Match[str]) -> str:
            factor = float(match["n"]) if match["n"] else _MULTIPLES.get(match["m"], 0.0)
            return rule(match, "up_to", factor)

        text = pattern.sub(up_to, text)
    text = _UP_TO_ONE.sub(lambda m: rule(m, "up_to", 1.0), text)

    def loose(match: re.Match[str]) -> str:
        if _TARGET.search(match.string[: match.start()]):
            marks.targets.append(match[0].strip())
            return f" <T{len(marks.targets) - 1}> "
        marks.loose.append(match[0].strip())
        return f" <L{len(marks.loose) - 1}> "

    return _QTY_LOOSE.sub(loose, text)


_ZERO = QuantityRule(kind="each", value=1e-9)
"""Stands for a rule of 0 units (which orders nothing): read, then refused as such."""
