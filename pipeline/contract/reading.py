"""Reading a task's words (English or simplified Chinese) into a `TaskContract`.

See `pipeline.contract` for the rules; the safe side always wins: a negated write, anything not
understood or two actions at once are a report with no writes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.contract.numerals import digits_for_words
from pipeline.contract.terms import Action, QuantityRule, TaskContract

__all__ = ["parse_task"]

_EDGE_L = r"(?<![A-Za-z0-9])"
_EDGE_R = r"(?![A-Za-z0-9])"
_ORDER_ID = re.compile(_EDGE_L + r"PO[-_ ]?(\d{1,12})" + _EDGE_R, re.IGNORECASE)
_WAREHOUSE_ID = re.compile(_EDGE_L + r"WH[-_ ]?(\d{1,3})" + _EDGE_R, re.IGNORECASE)
_SKU_ID = re.compile(_EDGE_L + r"([A-Za-z]{2,6})[-_](\d{2,12})" + _EDGE_R)
_SKU_BARE = re.compile(_EDGE_L + r"SKU ?(\d{3,12})" + _EDGE_R, re.IGNORECASE)
_DATES = re.compile(
    r"\d{4}[-/年.]\d{1,2}[-/月.]\d{1,2}日?(?:[ T]\d{1,2}[:：]\d{2}(?:[:：]\d{2})?)?"
    r"|\d{1,2}[:：]\d{2}"
)

_PLACEHOLDER = re.compile(r"<([SWO])(\d+)>")
_GROUP = re.compile(r"<([SWO])\d+>(?:\s*(?:,|、|/|&|\band\b|\bor\b|和|及|与|以及|或)\s*<\1\d+>)*")
_CLAUSE = re.compile(r"[.;!?。！？；,，\n]+")

_UNIT = r"(?:\s*(?:units?|pcs|pieces?|items?|boxes|box|cases?|ea|件|个|箱|盒|包|台|只|套|份|条))"
_QTY_BEFORE = re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT + r"?\s*(?:of|for|x|×)?\s*<S(\d+)>")
_QTY_AFTER = re.compile(
    r"<S(\d+)>\s*(?:[x×*:=]|qty|quantity|数量|补|订|下单|要)?\s*(\d{1,7})(?![\d>])"
)
_QTY_EACH = (
    re.compile(
        r"(?<![\d<])(\d{1,7})"
        + _UNIT
        + r"?\s*(?:each|apiece|a piece|per (?:sku|item|product|line|row))\b"
    ),
    re.compile(r"\beach\s*(?:sku|item|one|product)?\s*(?:gets?|to|:)?\s*(\d{1,7})(?![\d>])"),
    re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT + r"?\s*(?:of|for) (?:each|every)\b"),
    re.compile(
        r"(?:每个|每样|每种|每项|每个sku|各)\s*(?:都)?\s*(?:补|订|下单|买|要)?\s*(\d{1,7})(?![\d>])"
    ),
)
_QTY_LOOSE = re.compile(r"(?<![\d<])(\d{1,7})" + _UNIT)
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
_UP_TO = (
    re.compile(
        r"(?:up )?to (?P<m>twice|double|two times|triple|three times"
        r"|(?P<n>\d+(?:\.\d+)?) ?(?:x|times))"
        r" (?:the |its |their )?(?:reorder point|minimum|min|threshold|safety stock)"
    ),
    re.compile(
        r"(?:补到|补至|补足到|到|至)\s*(?:警戒值|最低库存|安全库存|再订货点|补货点)\s*的?\s*"
        r"(?P<m>两|二|三|(?P<n>\d+(?:\.\d+)?))\s*倍"
    ),
    re.compile(
        r"(?P<m>两|二|三|(?P<n>\d+(?:\.\d+)?))\s*倍(?:的)?\s*(?:警戒值|最低库存|安全库存|再订货点)"
    ),
)
_UP_TO_ONE = re.compile(
    r"(?:up )?to (?:the |its |their )?(?:reorder point|minimum|threshold)\b(?! ?x)"
    r"|(?:补到|补至|补足到)\s*(?:警戒值|最低库存|安全库存|再订货点|补货点)(?!\s*的?\s*[\d两二三]+\s*倍)"
)

_WRITE_VERBS_EN = (
    r"replenish\w*|re-?order(?:s|ing)?|restock\w*|top(?:ping)?[- ]?up|purchase|buy|order(?:ing)?"
    r"|raise|place|create|make|submit|issue|write|change|modify|touch|do anything|act|cancel\w*"
    r"|proceed|execute"
)
_NEG_EN = re.compile(
    r"\b(?:don'?t|do not|does not|never|no need to|not|without|must not|mustn'?t|shouldn'?t|"
    r"should not|won'?t|cannot|can'?t|avoid|hold off(?: on)?|refrain from|stop)\b"
    r"(?:\s+\w+){0,3}?\s+(?:" + _WRITE_VERBS_EN + r")\b"
    r"|\bwithout (?:" + _WRITE_VERBS_EN + r")\b"
)
_NEG_ZH = re.compile(
    r"(?:先别|先不要|先不|不要|不用|无需|不需要|暂不|暂时不|暂时别|不必|勿|禁止|不能|"
    r"(?<![分区类特个级识告派差])别(?![的人处]))"
    r"\s*(?:急着|着急|马上|立即|去|帮我|给我|再)?\s*"
    r"(?:下单|订货|补货|补|采购|买|订|动|改|操作|执行|提交|创建|建|取消|写)"
)
_REPORT_ONLY = re.compile(
    r"\b(?:just|only|simply) (?:tell|show|list|report|check|look|see|give)\b"
    r"|\b(?:report|look|tell me|list|check) only\b|\bread[- ]only\b|\bno (?:new )?orders?\b"
    r"|\bnothing (?:should|must|may) be (?:ordered|written|changed)\b"
    r"|只看|只是看看|看看就行|看看就好|只查|只需查|仅查看|仅查询|只要告诉|只需告诉|告诉我就行|"
    r"只报告|只列出|只汇报|不下单|别下单"
)
_ELSE = re.compile(
    r"\b(?:anything|nothing|everything) else\b|\bother(?:s| items| skus)?\b|其他|别的|其余"
)

_CANCEL = re.compile(r"\b(?:cancel\w*|void|revoke|withdraw|call off)\b|取消|撤销|作废|撤回")
_WRITE_EN = re.compile(
    r"\b(?:replenish\w*|re-?order(?:s|ing)?|restock\w*|top(?:ping)?[- ]?up|purchase|buy)\b"
    r"|\b(?:raise|place|create|make|submit|issue|put in|send)\s+(?:\w+\s+){0,3}?"
    r"(?:orders?|pos?|purchase orders?|replenishments?)\b"
    r"|(?:^|\b(?:please|pls|kindly|and|then|also|now|go ahead and)\s+)order\b"
    r"|\border\s+(?=\d|<S|more|some|them|it\b|these|those|what|whatever|everything|all\b|any\b|"
    r"enough|new\b|up\b|replacements?)"
)
_WRITE_ZH = re.compile(
    r"补货|补充|下单|订货|采购|购买|进货|补单|"
    r"补(?=\s*\d|\s*<S|到|至|足|上|一下|齐|满|了)|(?:都|全|全部|统一|也)补|"
    r"订(?=\s*\d|\s*<S)|买(?=\s*\d|\s*<S)"
)
_REPORT = re.compile(
    r"\b(?:which|what|list|show|tell|report|check|look|see|find|how many|how much|is|are|any|"
    r"summari[sz]e|summary|view|status)\b"
    r"|哪些|哪个|看看|看一下|查看|查一下|查询|列出|告诉|报告|多少|是否|有没有|吗|什么|显示|检查|汇总"
)
_ALL_ORDERS = re.compile(r"\ball (?:the |open |of the )*orders\b|全部订单|所有订单|全部取消|都取消")
_BEYOND_SCREEN = re.compile(
    r"\b(?:whole|entire|all of the|everything in the) warehouse\b"
    r"|\bnot (?:just|only) (?:the|this) (?:screen|screenshot|page)\b"
    r"|\bbeyond the (?:screen|screenshot)\b|整个仓库|全仓|不只是截图|不仅是截图"
)
_ORDER_NOUNS = re.compile(
    r"\b(?:replenishment|purchase|restock|reorder)s? orders?\b|(?:补货|采购|订货)(?:申请)?(?:订)?单"
)


@dataclass
class _Ids:
    skus: list[str] = field(default_factory=list)
    warehouses: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)

    def of(self, kind: str) -> list[str]:
        return {"S": self.skus, "W": self.warehouses, "O": self.orders}[kind]


def _normalise(task: str) -> str:
    text = unicodedata.normalize("NFKC", task)
    return digits_for_words(text.replace("\u2019", "'").replace("\u2018", "'"))


def _mark_ids(text: str) -> tuple[str, _Ids]:
    """The text with every id replaced by a placeholder (`<S0>`, `<W0>`, `<O0>`), and the ids."""
    ids = _Ids()

    def placeholder(kind: str, value: str) -> str:
        known = ids.of(kind)
        if value not in known:
            known.append(value)
        return f" <{kind}{known.index(value)}> "

    text = _ORDER_ID.sub(lambda m: placeholder("O", f"PO-{int(m[1]):06d}"), text)
    text = _WAREHOUSE_ID.sub(lambda m: placeholder("W", f"WH-{int(m[1]):02d}"), text)
    text = _SKU_BARE.sub(lambda m: placeholder("S", f"SKU-{m[1]}"), text)

    def sku(match: re.Match[str]) -> str:
        prefix = match[1].upper()
        if prefix in ("WH", "PO"):
            return match[0]
        return placeholder("S", f"{prefix}-{match[2]}")

    text = _SKU_ID.sub(sku, text)
    return text, ids


def _ids_in(text: str, ids: _Ids, kind: str) -> list[str]:
    return [ids.of(k)[int(n)] for k, n in _PLACEHOLDER.findall(text) if k == kind]


@dataclass
class _Reading:
    negated: list[str] = field(default_factory=list)
    exclude_skus: list[str] = field(default_factory=list)
    exclude_warehouses: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


_EXCLUDE_BEFORE = re.compile(
    r"\b(?:except(?: for)?|excluding|exclude|other than|apart from|but not|not including|besides|"
    r"skip(?:ping)?|leave out|leaving out|ignore|ignoring|without|not|no)\s+(?:\w+\s+){0,2}?$"
    r"|(?:除了|除|不包括|不含|排除|跳过|去掉|不算|不要|别|不用)\s*$"
)
_EXCLUDE_AFTER = re.compile(r"^\s*(?:除外|以外不|之外不|不要|不用|先别|别|不补|不订|暂不)")


def _read_negations(clauses: Sequence[str], ids: _Ids) -> _Reading:
    """Negations and exclusions, clause by clause: a negation that names ids excludes them;
    one that names none forbids writes."""
    reading = _Reading()

    def exclude(group: re.Match[str]) -> list[str]:
        found = _ids_in(group[0], ids, group[1])
        if group[1] == "S":
            reading.exclude_skus += found
        elif group[1] == "W":
            reading.exclude_warehouses += found
        return found

    for clause in clauses:
        groups = list(_GROUP.finditer(clause))
        excluded_here = [
            found
            for group in groups
            if _EXCLUDE_BEFORE.search(clause[: group.start()])
            or _EXCLUDE_AFTER.match(clause[group.end() :])
            for found in exclude(group)
        ]
        negation = _NEG_EN.search(clause) or _NEG_ZH.search(clause)
        if negation and not excluded_here and not groups and not _ELSE.search(clause):
            reading.negated.append(negation[0].strip())
        elif negation and groups and not excluded_here:
            # "don't order SKU-10402 yet": a negation that names ids excludes those ids.
            for group in groups:
                exclude(group)
        if match := _REPORT_ONLY.search(clause):
            reading.negated.append(match[0].strip())
    return reading


def _quantities(text: str, ids: _Ids) -> tuple[dict[str, int], QuantityRule | None, list[str]]:
    """Per-SKU quantities, a rule for all, and quantities that belong to nothing."""
    per_sku: dict[str, int] = {}
    used: list[tuple[int, int]] = []
    for match in _QTY_BEFORE.finditer(text):
        per_sku.setdefault(ids.skus[int(match[2])], int(match[1]))
        used.append(match.span(1))
    for match in _QTY_AFTER.finditer(text):
        sku = ids.skus[int(match[1])]
        if sku not in per_sku:
            per_sku[sku] = int(match[2])
        used.append(match.span(2))
    rule: QuantityRule | None = None
    for pattern in _QTY_EACH:
        if each := pattern.search(text):
            rule = QuantityRule(kind="each", value=float(each[1]))
            used.append(each.span(1))
            break
    if rule is None:
        for pattern in _UP_TO:
            if up := pattern.search(text):
                factor = float(up["n"]) if up["n"] else _MULTIPLES.get(up["m"], 0.0)
                if factor > 0:
                    rule = QuantityRule(kind="up_to", value=factor)
                    if up["n"]:
                        used.append(up.span("n"))
                    break
    if rule is None and _UP_TO_ONE.search(text):
        rule = QuantityRule(kind="up_to", value=1.0)
    loose = [
        match[0].strip()
        for match in _QTY_LOOSE.finditer(text)
        if not any(a <= match.start(1) < b for a, b in used)
    ]
    return per_sku, rule, loose


def parse_task(task: str) -> TaskContract:
    """The contract of `task` (see the module docstring for how it reads)."""
    marked, ids = _mark_ids(_normalise(task))
    work = _DATES.sub(" ", marked.lower())
    work = re.sub(r"<([swo])(\d+)>", lambda m: f"<{m[1].upper()}{m[2]}>", work)
    clauses = [c.strip() for c in _CLAUSE.split(work) if c.strip()]
    reading = _read_negations(clauses, ids)
    per_sku, rule, loose = _quantities(work, ids)
    missing: list[str] = []
    notes = list(reading.notes)

    wants_cancel = any(_CANCEL.search(c) for c in clauses)
    # Next to a cancel, "the replenishment order" and "补货单" name what goes, not a new order.
    verbs = [_ORDER_NOUNS.sub(" ", c) for c in clauses] if wants_cancel else clauses
    wants_write = any(_WRITE_EN.search(c) or _WRITE_ZH.search(c) for c in verbs)
    asks = any(_REPORT.search(c) for c in clauses)

    exclude_skus = tuple(dict.fromkeys(reading.exclude_skus))
    exclude_warehouses = tuple(dict.fromkeys(reading.exclude_warehouses))
    skus = tuple(s for s in ids.skus if s not in exclude_skus)
    warehouses = tuple(w for w in ids.warehouses if w not in exclude_warehouses)
    per_sku = {s: q for s, q in per_sku.items() if s in skus}
    screen_only = not _BEYOND_SCREEN.search(work)

    action: Action
    if reading.negated:
        action = "report"
        notes.append(f"read as a report: the task says {reading.negated[0]!r}")
    elif wants_cancel and wants_write:
        action = "report"
        missing.append("the task asks to cancel and to order at once; ask for one at a time")
    elif wants_cancel:
        action = "cancel"
        if not ids.orders and not skus:
            what = "all orders" if _ALL_ORDERS.search(work) else "no order"
            missing.append(
                f"the task names {what} to cancel; name the orders (like PO-000042) or the "
                "SKUs whose open orders should go"
            )
    elif wants_write:
        action = "order" if per_sku else "replenish"
    elif asks:
        action = "report"
    else:
        action = "report"
        missing.append(
            "the task asks for nothing stockshot does (report, replenish, order, cancel)"
        )

    if action in ("replenish", "order"):
        zero = [s for s, q in per_sku.items() if q < 1]
        if zero or (rule is not None and rule.kind == "each" and rule.value < 1):
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
    if action == "cancel" and (per_sku or rule is not None):
        missing.append("a cancel takes no quantity")
    if exclude_skus:
        notes.append("excluded " + ", ".join(exclude_skus))
    if exclude_warehouses:
        notes.append("excluded " + ", ".join(exclude_warehouses))

    if missing:
        return TaskContract(
            action="report",
            writes_allowed=False,
            warehouses=warehouses,
            exclude_warehouses=exclude_warehouses,
            skus=skus,
            exclude_skus=exclude_skus,
            screen_only=screen_only,
            notes=tuple(notes),
            not_understood=tuple(missing),
        )
    return TaskContract(
        action=action,
        writes_allowed=action != "report",
        warehouses=warehouses,
        exclude_warehouses=exclude_warehouses,
        skus=skus,
        exclude_skus=exclude_skus,
        screen_only=screen_only,
        quantities=per_sku if action in ("order", "replenish") else {},
        quantity_rule=rule if action in ("order", "replenish") else None,
        order_ids=tuple(ids.orders) if action == "cancel" else (),
        notes=tuple(notes),
    )
