"""Reading a task's words (English or simplified Chinese) into a `TaskContract`, every word
accounted for.

The reader is total: each clause is cut into tokens, and each token is an id, a quantity, a
date, or a word of the closed vocabulary (`pipeline.contract.lexicon`); anything else is not
understood. A clause is understood when every token is, and its ids have a role (the object
of an action, a scope, an exclusion). What is left over can only narrow:

- an id in a clause that was not understood is excluded ("left SKU-10232 out: I did not
  understand 'leave … alone'");
- a clause that defers, hands the action to the user or asks hypothetically ("later", "I will
  order", "what would you", "如果", "我自己", "下周再") makes the task a `report`, whatever else
  it says;
- any other leftover makes the reader's contract a `report` with no writes. The *fallback* (what
  the understood clauses allow, with the ids of the others excluded) is kept beside it: a
  model's reading of the same task may recover it, never widen it (`pipeline.contract.meet`).

Writes are allowed only by understood clauses, and a negation that names ids excludes them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pipeline.contract.lexicon import EN, ZH
from pipeline.contract.numerals import digits_for_words
from pipeline.contract.terms import Action, QuantityRule, TaskContract, TaskReading, unclear

__all__ = ["ids_in", "parse_task", "read_task"]

_EDGE_L = r"(?<![A-Za-z0-9])"
_EDGE_R = r"(?![A-Za-z0-9])"
_ORDER_ID = re.compile(_EDGE_L + r"PO[-_ ]?(\d{1,12})" + _EDGE_R, re.IGNORECASE)
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
    r"(?:\s*(?:(?:units?|pcs|pieces?|items?|boxes|box|cases?|packs?|ea)(?![a-z])"
    r"|件|个|箱|盒|包|台|只|套|份|条|瓶|卷|袋|双|把|米))"
)
_EACH_WORDS = r"(?:each|apiece|a piece|per (?:sku|item|product|line|row|one)|for each|of each)"
_VERBS_ZH = ("补货", "下单", "采购", "补", "订", "买")

_QTY_BEFORE = re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT + r"?\s*(?:of|for|x|×)?\s*<S(\d+)>")
_QTY_AFTER = re.compile(
    r"<S(\d+)>\s*(?:[x×*:=]\s*)?(?:qty|quantity|order|reorder|buy|数量|补|订|下单|要)?\s*"
    r"(\d{1,7})(?![\d>])" + _UNIT + "?"
)
_CAP = (
    re.compile(
        r"\b(?:at most|no more than|not more than|a maximum of|max(?:imum)?(?: of)?|"
        r"at the most|capped at|limit(?:ed)? to)\s*(\d{1,7})(?![\d.x])"
        + _UNIT
        + r"?(?:\s*"
        + _EACH_WORDS
        + r")?(?!\s*(?:x|times)\b)"
    ),
    re.compile(
        r"(?:最多不超过|最多|不超过|至多|顶多|上限)\s*(?:补|订|买)?\s*(\d{1,7})(?![\d>])"
        + _UNIT
        + "?"
    ),
)
_QTY_EACH = (
    re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT + r"?\s*" + _EACH_WORDS + r"(?![a-z])"),
    re.compile(
        r"\beach\s*(?:(?:low |short )?(?:sku|item|one|product|row|line)s?)?\s*"
        r"(?:gets?|to|with|:)?\s*(\d{1,7})(?![\d>])" + _UNIT + "?"
    ),
    re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT + r"?\s*(?:of|for) every\b(?:\s*(?:sku|item|one))?"),
    re.compile(
        r"(?:每个sku|每个|每样|每种|每项|各)[^\d，,。；;]{0,6}?(?:都)?\s*(?:补|订|下单|买|要)?\s*"
        r"(\d{1,7})(?![\d>])" + _UNIT + "?"
    ),
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
    r"(?:(?:up |back )?to|(?:bring|get) (?:them |it |those |these )?(?:up |back )?to)"
    r" (?:the |its |their )?(?:reorder point|reorder level|minimum|threshold)s?\b(?! ?x)"
    r"|(?:补到|补至|补足到)\s*" + _LEVEL_ZH + r"(?!\s*的?\s*[\d两二三]+\s*倍)"
)
_QTY_LOOSE = re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT)
_TARGET = re.compile(r"(?:\b(?:up )?to|\bup|到|至|补到|补至|达到)\s*$")
"""Before a quantity, a stock level to reach ("top up to 200 units", "补到 200 件"), which no
contract term says: such a quantity is not understood, never read as an order's size."""

_PLACEHOLDER = re.compile(r"<([SWOQRLDT])(\d*)>")
_ID_LIST = re.compile(r"(<([SWO])\d+>)\s*[、/&]\s*(?=<\2\d+>)")
_LIST_ONLY = re.compile(r"^(?:\s*<[SWO]\d+>\s*(?:and|or|和|及|与|以及|或|、|/|&)?)+\s*$")
"""A clause of ids alone continues the list of the clause before it ("SKU-1, SKU-2 and
SKU-3"): a comma there is no clause boundary."""
_CLAUSE = re.compile(r"([.;!?。！？；\n]+|[,，]+)")
_EN_WORD = re.compile(r"[a-z]+(?:[-'][a-z]+)*'?")
_MAX_PHRASE_WORDS = 8
_MAX_PHRASE_CHARS = max(len(k) for k in ZH)
_ALL_ORDERS = re.compile(r"\ball (?:the |open |of the )*orders\b|全部订单|所有订单|全部取消|都取消")
_NOTHING = "the task asks for nothing stockshot does (report, replenish, order, cancel)"


def _is_cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


# ---- marking: ids, names, quantities and dates become placeholders


@dataclass
class _Marks:
    skus: list[str] = field(default_factory=list)
    warehouses: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)
    quantities: list[tuple[str, int]] = field(default_factory=list)
    """(sku, units) of each `<Q#>`."""
    rules: list[QuantityRule] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    """Stock levels to reach (`<T#>`), which are not understood."""

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
            if stem.endswith(suffix) and len(stem) > len(suffix) and _is_cjk(stem[0]):
                base = re.escape(stem[: -len(suffix)])
                found.append((base + "(?:仓库|仓|库)", warehouse))
                break
    for word, warehouses in owners.items():
        if len(warehouses) == 1:
            found.append((rf"(?:the )?{word} (?:{_GENERIC_PLACE})", next(iter(warehouses))))
    found.sort(key=lambda item: len(item[0]), reverse=True)
    patterns = []
    for text, warehouse in found:
        edge_l = r"(?<![a-z0-9])" if text[:1].isascii() else ""
        edge_r = r"(?![a-z0-9])" if text[-1:].isascii() else ""
        patterns.append((re.compile(edge_l + text + edge_r), warehouse))
    return patterns


def _mark(task: str, names: Mapping[str, str]) -> tuple[str, _Marks]:
    """The task lower-cased with every id, name, quantity and date as a placeholder."""
    marks = _Marks()
    text = _normalise(task)
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
    text = re.sub(r"<([swo])(\d+)>", lambda m: f"<{m[1].upper()}{m[2]}>", text)
    for pattern, warehouse in _name_patterns(names):
        text = pattern.sub(_adder(marks, warehouse), text)
    text = _DATES.sub(" <D> ", text)
    text = _ID_LIST.sub(lambda m: f"{m[1]} and ", text)
    text = _mark_quantities(text, marks)
    return text, marks


def _adder(marks: _Marks, warehouse: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: marks.add("W", warehouse)


def _verbs_in(text: str) -> str:
    """The Chinese write verbs a quantity phrase carried, put back beside its placeholder."""
    for verb in _VERBS_ZH:
        if verb in text:
            return f" {verb} "
    return " "


def _mark_quantities(text: str, marks: _Marks) -> str:
    def per_sku(match: re.Match[str], sku_group: int, qty_group: int) -> str:
        marks.quantities.append((marks.skus[int(match[sku_group])], int(match[qty_group])))
        return f" <Q{len(marks.quantities) - 1}> " + _verbs_in(match[0])

    text = _QTY_BEFORE.sub(lambda m: per_sku(m, 2, 1), text)
    text = _QTY_AFTER.sub(lambda m: per_sku(m, 1, 2), text)

    def rule(match: re.Match[str], kind: str, value: float) -> str:
        marks.rules.append(QuantityRule(kind=kind, value=value) if value > 0 else _ZERO)
        return f" <R{len(marks.rules) - 1}> " + _verbs_in(match[0])

    for pattern in _CAP:
        text = pattern.sub(lambda m: rule(m, "at_most", float(m[1])), text)
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


# ---- tokens


@dataclass
class _Token:
    text: str
    tag: str
    start: int
    end: int
    kind: str = ""
    """For a placeholder: S, W, O, Q, R, L, D or N."""
    index: int = -1


def _tokens(clause: str) -> list[_Token]:
    """The clause cut into placeholders, numbers, English phrases and Chinese words; a word
    outside the vocabulary is a token tagged `unknown`."""
    found: list[_Token] = []
    pos = 0
    while pos < len(clause):
        char = clause[pos]
        match = _PLACEHOLDER.match(clause, pos)
        if char.isspace() or not (char.isalnum() or match):
            pos += 1
            continue
        if match:
            tag = "unknown" if match[1] == "T" else "placeholder"
            index = int(match[2]) if match[2] else -1
            found.append(_Token(match[0], tag, pos, match.end(), match[1], index))
            pos = match.end()
        elif char.isdigit():
            end = pos
            while end < len(clause) and (clause[end].isdigit() or clause[end] == "."):
                end += 1
            found.append(_Token(clause[pos:end], "number", pos, end))
            pos = end
        elif char.isascii():
            end = pos
            while end < len(clause) and (
                clause[end].isascii() and (clause[end].isalpha() or clause[end] in " '-")
            ):
                end += 1
            found += _english(clause, pos, end)
            pos = end
        elif _is_cjk(char):
            end = pos
            while end < len(clause) and _is_cjk(clause[end]):
                end += 1
            found += _chinese(clause, pos, end)
            pos = end
        else:
            found.append(_Token(char, "unknown", pos, pos + 1))
            pos += 1
    return found


def _english(clause: str, start: int, end: int) -> list[_Token]:
    words = [
        (m[0], start + m.start(), start + m.end()) for m in _EN_WORD.finditer(clause[start:end])
    ]
    bases = [_base(w) for w, _, _ in words]
    tokens: list[_Token] = []
    i = 0
    while i < len(words):
        for n in range(min(_MAX_PHRASE_WORDS, len(words) - i), 0, -1):
            for phrase in {" ".join(w for w, _, _ in words[i : i + n]), " ".join(bases[i : i + n])}:
                if phrase in EN:
                    tokens.append(_Token(phrase, EN[phrase], words[i][1], words[i + n - 1][2]))
                    break
            else:
                continue
            i += n
            break
        else:
            tokens.append(_Token(words[i][0], "unknown", words[i][1], words[i][2]))
            i += 1
    return tokens


def _base(word: str) -> str:
    """A word without its possessive: morning's -> morning, warehouses' -> warehouses."""
    if word.endswith("'s") and word not in EN:
        return word[:-2]
    return word.rstrip("'")


def _chinese(clause: str, start: int, end: int) -> list[_Token]:
    """A run of Chinese cut into the vocabulary's words, leaving as few characters outside it
    as there can be (then as few words): "库存低于安全库存" is 库存 低于 安全库存, not
    库存低 于 …"""
    size = end - start
    best: list[tuple[int, int] | None] = [None] * (size + 1)
    back: list[int] = [0] * (size + 1)
    best[0] = (0, 0)
    for i in range(1, size + 1):
        for n in range(1, min(_MAX_PHRASE_CHARS, i) + 1):
            before = best[i - n]
            if before is None:
                continue
            piece = clause[start + i - n : start + i]
            if piece not in ZH and n > 1:
                continue
            cost = (before[0] + (piece not in ZH), before[1] + 1)
            current = best[i]
            if current is None or cost < current:
                best[i], back[i] = cost, n
    tokens: list[_Token] = []
    i = size
    while i > 0:
        n = back[i]
        piece = clause[start + i - n : start + i]
        tag = ZH.get(piece, "unknown")
        tokens.append(_Token(piece, tag, start + i - n, start + i))
        i -= n
    return tokens[::-1]


# ---- one clause


_DETERMINERS = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "open",
        "any",
        "all",
        "new",
        "my",
        "your",
        "its",
        "their",
        "our",
        "each",
        "every",
        "no",
    ]
)
_VERB_OBJECTS = frozenset(
    [
        "them",
        "it",
        "what",
        "whatever",
        "everything",
        "all",
        "any",
        "some",
        "more",
        "enough",
        "new",
        "the",
        "those",
        "these",
        "this",
        "that",
        "up",
        "replacements",
    ]
)
_WRITE_LIKE = frozenset({"write", "make", "order_noun", "modify", "cancel", "write_past"})


@dataclass
class _Clause:
    text: str
    tokens: list[_Token]
    question: bool
    leftover: list[tuple[int, int]] = field(default_factory=list)
    """Spans of the words not understood."""
    acts: set[str] = field(default_factory=set)
    negated: str | None = None
    """The words that forbid writes ("do not place", "just tell")."""
    stop: str | None = None
    """The words that defer, hand over or ask hypothetically ("later", "I will", "if")."""
    positive: list[_Token] = field(default_factory=list)
    excluded: list[_Token] = field(default_factory=list)
    rules: list[int] = field(default_factory=list)
    loose: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    """Warehouse names no warehouse of the store answers to."""
    beyond: bool = False

    @property
    def understood(self) -> bool:
        return not self.leftover

    def quote(self, spans: Iterable[tuple[int, int]]) -> str:
        return " … ".join(_join_spans(self.text, spans))

    def span(self, first: _Token, last: _Token) -> str:
        return self.text[first.start : last.end].strip()


def _join_spans(text: str, spans: Iterable[tuple[int, int]]) -> list[str]:
    """Adjacent spans (only spaces between them) joined into one piece of text."""
    pieces: list[list[int]] = []
    for start, end in sorted(spans):
        if pieces and not text[pieces[-1][1] : start].strip():
            pieces[-1][1] = end
        else:
            pieces.append([start, end])
    return [text[a:b].strip() for a, b in pieces]


def _names(tokens: list[_Token], clause: str) -> list[_Token]:
    """A run of words outside the vocabulary right before a warehouse noun ("north
    warehouse", "东区仓") is a warehouse's name the store did not answer to: one token."""
    out: list[_Token] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j].tag == "unknown":
            j += 1
        if j > i and j - i <= 4 and j < len(tokens) and tokens[j].tag == "warehouse_noun":
            start, end = tokens[i].start, tokens[j].end
            out.append(_Token(clause[start:end], "placeholder", start, end, "N"))
            i = j + 1
            continue
        out.append(tokens[i])
        i += 1
    return out


def _resolve(tokens: list[_Token]) -> None:
    """Tags that depend on their place: `order` (verb or noun), `req_modal`, `but`, number
    words, and words understood only beside a negation or an order noun."""
    for i, token in enumerate(tokens):
        before = [t for t in tokens[:i] if t.tag != "polite"]
        after = tokens[i + 1 :]
        nxt = next((t for t in after if t.tag != "filler" or t.text in _VERB_OBJECTS), None)
        if token.tag == "req_modal":
            token.tag = "polite" if all(t.tag == "filler" for t in before) else "hypo"
        elif token.tag == "order":
            token.tag = "write" if _order_is_verb(token, tokens[:i], nxt) else "order_noun"
        elif token.tag == "but":
            token.tag = "excl" if nxt is not None and nxt.kind in ("S", "W", "Q") else "filler"
        elif token.tag in ("number_word", "number"):
            target = next((t for t in after if t.tag != "filler" and t.kind != "D"), None)
            fine = target is not None and (
                target.tag in ("context", "warehouse_noun") or target.kind in ("S", "W", "Q", "N")
            )
            token.tag = "filler" if fine else "unknown"
        elif token.tag == "context_adj":
            target = next((t for t in after if t.tag not in ("filler", "context_adj")), None)
            follows = after[0] if after else None
            fine = (target is not None and target.tag == "context") or (
                follows is not None and follows.text in ("one", "ones")
            )
            token.tag = "context" if fine else "unknown"
    has = {t.tag for t in tokens}
    for token in tokens:
        unsupported = (token.tag == "modify" and "neg" not in has) or (
            token.tag == "neg_companion" and not {"neg", "excl", "excl_post"} & has
        )
        if unsupported:
            token.tag = "unknown"
        elif token.tag == "neg_companion":
            token.tag = "filler"
        elif token.tag == "make" and not ({"order_noun", "write"} & has):
            token.tag = "report" if "report" in has else "unknown"
        elif token.kind == "D":
            writes = "write" in has and "context" not in has
            token.tag = "defer" if writes else "context"


def _order_is_verb(token: _Token, before: Sequence[_Token], nxt: _Token | None) -> bool:
    if token.text == "ordering":
        return True
    prev = next((t for t in reversed(before) if t.tag != "polite"), None)
    if (
        prev is None
        or prev.tag in ("only", "neg", "advice", "self", "hypo")
        or prev.text
        in (
            "and",
            "then",
            "also",
            "now",
            "to",
            "so",
            "first",
            "just",
        )
    ):
        return True
    if prev.tag in ("make", "cancel", "status", "write") or prev.text in _DETERMINERS:
        return False
    if nxt is None:
        return False
    return nxt.kind in ("S", "Q", "L", "R") or nxt.tag == "object" or nxt.text in _VERB_OBJECTS


def _read_clause(text: str, question: bool) -> _Clause:
    tokens = _names(_tokens(text), text)
    _resolve(tokens)
    clause = _Clause(text, tokens, question)
    has = {t.tag for t in tokens}
    clause.leftover = [(t.start, t.end) for t in tokens if t.tag == "unknown"]
    ids = [t for t in tokens if t.kind in ("S", "W", "O", "Q")]
    clause.names = [t.text for t in tokens if t.kind == "N"]

    # What the clause does, and whether it stops the task from writing at all. A verb under
    # a negation is not asked for ("SKU-20111 先别补"), unless "other" / "but" comes between
    # ("不要补 SKU-1，其他都补").
    free = _free_of_negation(tokens)
    writes = any(t.tag == "write" and ok for t, ok in zip(tokens, free, strict=True)) or (
        any(t.tag == "make" and ok for t, ok in zip(tokens, free, strict=True))
        and "order_noun" in has
    )
    cancels = any(t.tag == "cancel" and ok for t, ok in zip(tokens, free, strict=True))
    past = "write_past" in has and not writes
    stop = next((t for t in tokens if t.tag in ("defer", "self", "hypo", "advice")), None)
    agent = next((t for t in tokens if t.tag == "agent"), None)
    modal = next((t for t in tokens if t.tag == "modal"), None)
    if stop is not None:
        clause.stop = stop.text
    elif question and "polite" not in has and (writes or cancels):
        clause.stop = text.strip() + "?"
    elif agent is not None and writes:
        clause.stop = agent.text
    elif modal is not None and writes and agent is None:
        clause.stop = modal.text

    negation = next((t for t in tokens if t.tag == "neg"), None)
    if negation is not None and ids and not _negation_attached(tokens):
        # "Don't these rows are from WH-01": a negation of nothing it can name; its ids are
        # not read as excluded, the clause is not understood.
        clause.leftover += [(t.start, t.end) for t in tokens if t.tag == "neg"]
    if negation is not None and not ids and not any(t.tag == "else" for t in tokens):
        clause.negated = _negated_write(clause, tokens, negation)
        if clause.negated is None:
            # A negation of nothing the reader knows ("the items that are not low").
            clause.leftover.append((negation.start, negation.end))
    if "only" in has and "report" in has and not writes and not cancels:
        first = next(t for t in tokens if t.tag == "only")
        last = next(t for t in tokens if t.tag == "report")
        clause.negated = clause.negated or clause.span(*sorted((first, last), key=_at))

    if writes:
        clause.acts.add("write")
    if cancels:
        clause.acts.add("cancel")
    if "report" in has or question:
        clause.acts.add("report")
    clause.beyond = "beyond" in has

    # The roles of its ids.
    _assign_roles(clause, tokens, all_excluded=past or agent is not None)
    clause.rules = [t.index for t in tokens if t.kind == "R"]
    clause.loose = [t.index for t in tokens if t.kind == "L"]

    # Structure: an exclusion needs ids, and a SKU or an order needs something that gives it
    # a role; otherwise the clause is not understood.
    for token in tokens:
        if token.tag == "excl" and not _ids_after(tokens, token):
            clause.leftover.append((token.start, token.end))
        if token.tag == "excl_post" and not _ids_before(tokens, token):
            clause.leftover.append((token.start, token.end))
    anchors = {"write", "make", "cancel", "report", "only", "excl", "excl_post", "neg"}
    anchors |= {"write_past", "agent"}
    anchored = bool(anchors & has) or question
    if any(t.kind in ("S", "O") for t in ids) and not anchored and not clause.leftover:
        clause.leftover += [(t.start, t.end) for t in ids if t.kind in ("S", "O")]
    return clause


_NEGATED = frozenset({"write", "make", "order_noun", "modify", "cancel", "write_past"})
_PASS_OVER = frozenset({"filler", "neg_companion", "polite", "neg"})


def _negation_attached(tokens: Sequence[_Token]) -> bool:
    """Every negation in a clause that names ids negates a write ("don't order SKU-1",
    "SKU-1 先别补"), or stands right before the ids ("not SKU-1") or right after them at the end
    ("SKU-1 不要"); otherwise the clause does not say what it negates."""
    for i, token in enumerate(tokens):
        if token.tag != "neg":
            continue
        after = next((t for t in tokens[i + 1 :] if t.tag not in _PASS_OVER), None)
        before = next((t for t in reversed(tokens[:i]) if t.tag not in _PASS_OVER), None)
        if after is None:
            if before is None or before.kind not in ("S", "W", "O", "Q"):
                return False
        elif after.tag not in _NEGATED and after.kind not in ("S", "W", "O", "Q"):
            return False
    return True


def _free_of_negation(tokens: Sequence[_Token]) -> list[bool]:
    """For each token: no negation before it in the clause, or "other" / "but" since."""
    free = []
    negated = False
    for token in tokens:
        if token.tag == "neg":
            negated = True
        elif token.tag == "else" or token.text == "but":
            negated = False
        free.append(not negated)
    return free


def _at(token: _Token) -> int:
    return token.start


def _negated_write(clause: _Clause, tokens: Sequence[_Token], negation: _Token) -> str | None:
    """The words that forbid writes: the negation up to the write it negates (after it, or
    before it: "replenish nothing")."""
    start = tokens.index(negation)
    for token in tokens[start:]:
        if token.tag in _WRITE_LIKE:
            return clause.span(negation, token)
    for token in reversed(tokens[:start]):
        if token.tag in _WRITE_LIKE:
            return clause.span(token, negation)
    for token in tokens[start:]:
        if token.tag == "object" and token.text in ("anything", "everything"):
            return clause.span(negation, token)
    return None


def _ids_after(tokens: Sequence[_Token], marker: _Token) -> bool:
    start = tokens.index(marker)
    return any(t.kind in ("S", "W", "Q", "O") for t in tokens[start + 1 :])


def _ids_before(tokens: Sequence[_Token], marker: _Token) -> bool:
    start = tokens.index(marker)
    return any(t.kind in ("S", "W", "Q", "O") for t in tokens[:start])


_IDS = ("S", "W", "O", "Q")


def _assign_roles(clause: _Clause, tokens: Sequence[_Token], *, all_excluded: bool) -> None:
    """Each id is positive (the object of the action, a scope) or excluded: after an exclusion
    marker (until the next verb) or a negation (until "but" or "other"), before a postposed
    exclusion (除外, 以外, excepted) or a negation with no id after it ("SKU-1 先别补"), or
    anywhere in a clause that tells of a write already made or of someone else's action."""
    if all_excluded:
        clause.excluded += [t for t in tokens if t.kind in _IDS]
        return
    excluded: set[int] = set()
    mode: str | None = None
    for i, token in enumerate(tokens):
        if token.tag == "excl":
            mode = "excl"
        elif token.tag == "neg":
            ahead = tokens[i + 1 :]
            stop = next(
                (k for k, t in enumerate(ahead) if t.tag == "else" or t.text == "but"), len(ahead)
            )
            if any(t.kind in _IDS for t in ahead[:stop]):
                mode = "neg"
            else:
                excluded |= _before(tokens, i, stop_at_quantity=False)
        elif (token.tag == "else" or token.text == "but") or (
            token.tag in ("write", "make", "cancel", "report") and mode == "excl"
        ):
            mode = None
        elif token.kind in _IDS and mode is not None:
            excluded.add(i)
        elif token.tag == "excl_post":
            excluded |= _before(tokens, i, stop_at_quantity=True)
    for i, token in enumerate(tokens):
        if token.kind in _IDS:
            (clause.excluded if i in excluded else clause.positive).append(token)


def _before(tokens: Sequence[_Token], end: int, *, stop_at_quantity: bool) -> set[int]:
    """The ids a postposed marker at `end` governs: the group right before it (ids joined by
    filler words; a quantity-bearing id ends it for an exclusion), or for a negation every id
    back to "but" / "other" or the clause's start."""
    found: set[int] = set()
    kind = ""
    j = end - 1
    while j >= 0:
        token = tokens[j]
        if token.tag == "else" or token.text == "but":
            break
        if token.kind in _IDS:
            if stop_at_quantity and (token.kind == "Q" or kind not in ("", token.kind)):
                break
            kind = token.kind
            found.add(j)
        elif stop_at_quantity and token.tag not in ("filler", "neg_companion"):
            break
        j -= 1
    return found


# ---- the whole task


def _clauses(text: str) -> list[_Clause]:
    parts = _CLAUSE.split(text)
    pieces: list[tuple[str, str]] = []
    for i in range(0, len(parts), 2):
        body = parts[i].strip()
        if not body:
            continue
        end = parts[i + 1] if i + 1 < len(parts) else ""
        if pieces and _LIST_ONLY.match(body) and not re.search(r"[.;!?。！？；]", pieces[-1][1]):
            pieces[-1] = (f"{pieces[-1][0]} and {body}", end)
        else:
            pieces.append((body, end))
    return [_read_clause(body, question="?" in end or "？" in end) for body, end in pieces]


def _shown(text: str, marks: _Marks) -> str:
    """Text with its placeholders written back as the ids and quantities they stand for."""

    def value(match: re.Match[str]) -> str:
        kind, index = match[1], int(match[2]) if match[2] else -1
        if kind in ("S", "W", "O"):
            return marks.of(kind)[index]
        if kind == "Q":
            sku, units = marks.quantities[index]
            return f"{units} x {sku}"
        if kind == "R":
            return marks.rules[index].describe()
        if kind == "L":
            return marks.loose[index]
        if kind == "T":
            return marks.targets[index]
        return "(a date)"

    return " ".join(_PLACEHOLDER.sub(value, text).split())


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


@dataclass
class _Ids:
    skus: list[str] = field(default_factory=list)
    warehouses: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)
    quantities: dict[str, int] = field(default_factory=dict)

    def take(self, token: _Token, marks: _Marks) -> None:
        if token.kind == "Q":
            sku, units = marks.quantities[token.index]
            self.skus.append(sku)
            self.quantities.setdefault(sku, units)
        elif token.kind == "S":
            self.skus.append(marks.skus[token.index])
        elif token.kind == "W":
            self.warehouses.append(marks.warehouses[token.index])
        elif token.kind == "O":
            self.orders.append(marks.orders[token.index])


def read_task(task: str, names: Mapping[str, str] | None = None) -> TaskReading:
    """How `task` reads: the contract the reader alone allows, the fallback a model's reading
    may recover, and the words it did not understand (see the module docstring). `names` maps
    the store's warehouse names and aliases to their ids (`warehouses_list`)."""
    text, marks = _mark(task, names or {})
    clauses = _clauses(text)
    understood = [c for c in clauses if c.understood]
    missed = [c for c in clauses if not c.understood]

    positive, excluded = _Ids(), _Ids()
    for clause in understood:
        for token in clause.positive:
            positive.take(token, marks)
    for clause in clauses:
        for token in clause.excluded:
            excluded.take(token, marks)
    for clause in missed:
        for token in clause.positive:
            excluded.take(token, marks)

    notes: list[str] = []
    missing: list[str] = []
    leftovers: list[str] = []
    for clause in missed:
        quote = _shown(clause.quote(clause.leftover), marks)
        leftovers.append(quote)
        dropped = _Ids()
        for token in [*clause.positive, *clause.excluded]:
            dropped.take(token, marks)
        left = [*dropped.skus, *dropped.warehouses, *dropped.orders]
        if left:
            notes.append(f"left {', '.join(_unique(left))} out: {unclear(quote)}")

    stops = [_shown(c.stop, marks) for c in clauses if c.stop is not None]
    negated = [_shown(c.negated, marks) for c in clauses if c.negated is not None]
    acts = set().union(*(c.acts for c in understood)) if understood else set()
    asked = any(c.acts for c in clauses)
    wants_cancel, wants_write = "cancel" in acts, "write" in acts
    rules = [marks.rules[i] for c in understood for i in c.rules]
    loose = [marks.loose[i] for c in understood for i in c.loose]
    unresolved = [name for c in clauses for name in c.names]

    exclude_skus = _unique(excluded.skus)
    exclude_warehouses = _unique(excluded.warehouses)
    skus = tuple(s for s in _unique(positive.skus) if s not in exclude_skus)
    warehouses = tuple(w for w in _unique(positive.warehouses) if w not in exclude_warehouses)
    per_sku = {s: q for s, q in positive.quantities.items() if s in skus}
    orders = tuple(o for o in _unique(positive.orders) if o not in excluded.orders)
    rule = rules[0] if rules else None
    screen_only = not any(c.beyond for c in understood)

    action: Action
    if stops:
        action = "report"
        notes.append(f"read as a report: the task says {stops[0]!r}")
    elif negated:
        action = "report"
        notes.append(f"read as a report: the task says {negated[0]!r}")
    elif wants_cancel and wants_write:
        action = "report"
        missing.append("the task asks to cancel and to order at once; ask for one at a time")
    elif wants_cancel:
        action = "cancel"
        if excluded.orders and not orders:
            missing.append(
                f"the task leaves {', '.join(_unique(excluded.orders))} out of a cancel it does "
                "not name by order; name the orders to cancel (like PO-000042)"
            )
        elif not orders and not skus:
            what = "all orders" if any(_ALL_ORDERS.search(c.text) for c in clauses) else "no order"
            missing.append(
                f"the task names {what} to cancel; name the orders (like PO-000042) or the "
                "SKUs whose open orders should go"
            )
    elif wants_write:
        action = "order" if per_sku else "replenish"
    else:
        action = "report"
        if not asked:
            missing.append(_NOTHING)

    if action != "report":
        for kind, named, kept in (
            ("SKU", positive.skus, skus),
            ("warehouse", positive.warehouses, warehouses),
            ("order", positive.orders, orders),
        ):
            if named and not kept:
                missing.append(f"every {kind} the task names is also left out; nothing is left")
    if action in ("replenish", "order"):
        zero = [s for s, q in per_sku.items() if q < 1]
        if zero or (rule is not None and rule.value < 1):
            missing.append("a quantity of 0 orders nothing; give at least 1 unit")
        if loose and not per_sku and rule is None:
            if len(skus) == 1:
                per_sku = {skus[0]: int(re.sub(r"\D", "", loose[0]) or 0)}
                action = "order"
            else:
                missing.append(
                    f"{loose[0]!r} does not say which SKU it is for; write '{loose[0]} each' "
                    "or name the SKU (10 units of SKU-10232)"
                )
        if unresolved:
            missing.append(
                f"{unresolved[0]!r} names no warehouse I know; name it by its id (like WH-02)"
            )
    if action == "cancel" and (per_sku or rule is not None):
        missing.append("a cancel takes no quantity")
    if exclude_skus:
        notes.append("excluded " + ", ".join(exclude_skus))
    if exclude_warehouses:
        notes.append("excluded " + ", ".join(exclude_warehouses))

    scope = {
        "warehouses": warehouses,
        "exclude_warehouses": exclude_warehouses,
        "skus": skus,
        "exclude_skus": exclude_skus,
        "screen_only": screen_only,
    }
    if missing:
        fallback = TaskContract(
            action="report",
            writes_allowed=False,
            notes=tuple(notes),
            not_understood=tuple(missing),
            **scope,
        )
    else:
        fallback = TaskContract(
            action=action,
            writes_allowed=action != "report",
            quantities=per_sku if action in ("order", "replenish") else {},
            quantity_rule=rule if action in ("order", "replenish") else None,
            order_ids=orders if action == "cancel" else (),
            notes=tuple(notes),
            **scope,
        )
    contract = fallback
    if leftovers:
        unclear_words = [unclear(quote) for quote in leftovers]
        contract = fallback.model_copy(
            update={
                "action": "report",
                "writes_allowed": False,
                "quantities": {},
                "quantity_rule": None,
                "order_ids": (),
                "not_understood": (*fallback.not_understood, *unclear_words),
            }
        )
        # Words not understood that name no id may limit anything ("only the urgent ones",
        # "stick to the north site"): nothing is left for a model's reading to recover. Words
        # beside ids are taken to be about those ids, which are left out either way.
        if any(not any(t.kind in _IDS for t in c.tokens) for c in missed):
            fallback = contract.model_copy(
                update={"notes": (*contract.notes, "words not understood name no id")}
            )
    return TaskReading(
        task=task,
        contract=contract,
        fallback=fallback,
        not_understood=tuple(leftovers),
        stop=stops[0] if stops else None,
    )


def ids_in(task: str) -> dict[str, list[str]]:
    """The SKUs (`S`), warehouses (`W`) and orders (`O`) a task names, as the reader reads
    them."""
    _, marks = _mark(task, {})
    return {"S": list(marks.skus), "W": list(marks.warehouses), "O": list(marks.orders)}


def parse_task(task: str, names: Mapping[str, str] | None = None) -> TaskContract:
    """The contract of `task` as the reader alone reads it (see the module docstring)."""
    return read_task(task, names).contract
