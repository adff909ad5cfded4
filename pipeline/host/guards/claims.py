"""What a final answer claims was done, action by action, and whether the ledger bears it out.

`parse_claims` reads an answer (English or simplified Chinese) into the actions it says were
taken: `ordered`, `cancelled`, `proposed` (queued for approval) and `skipped`, each with the
SKUs, warehouses, quantities and order ids its clause names. `unsupported` holds each claim to
the run's ledger summary: "I ordered 30 units of SKU-10232" needs an order of SKU-10232 for 30
units created in this run (in a dry run, recorded), "SKU-10318 waits for approval" a queued
write of SKU-10318. A claim that names an id the run only read, another quantity, another
warehouse, a write that was refused or only proposed is unsupported.

How a sentence is read:
- it is cut into clauses at punctuation and at conjunctions; a clause's action is the verb it
  states as done (a past participle, "已…下单", "取消了"); a clause with a negation, a modal or
  a condition before its verb ("did not order", "no order was placed", "I will order", "如果…下
  单") claims nothing, nor one answered with nothing ("Orders cancelled: none", "…：无") or left
  to a condition after it ("cancelled once you confirm", "确认后下单"), and neither does the
  answer's account of what it did not do;
- a clause with no verb of its own that only lists ids and quantities ("…, SKU-10233 and
  SKU-10240") continues the clause before it (or, before any verb, the one after it); one that
  says something of its own ("SKU-10402 is not low") does not;
- a quantity belongs to the SKU it stands with: as many quantities as SKUs pair in order, one
  quantity with "each" / "各" goes to every SKU; otherwise the quantities are not checked.
Only what the answer states as done is checked: nothing here asks an answer to name more. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pipeline.contract import ids_in
from pipeline.host.ledger import LedgerEntry, LedgerSummary
from pipeline.toolfacts import CANCEL_TOOL, CREATE_TOOL

__all__ = ["PROPOSAL_ID", "Claim", "ClaimKind", "parse_claims", "unsupported"]

PROPOSAL_ID = re.compile(r"\bAP-\d{1,12}\b", re.IGNORECASE)
"""A proposal's id, as the approvals queue gives it (never a SKU)."""

ClaimKind = Literal["ordered", "cancelled", "proposed", "skipped"]

_VERBS: tuple[tuple[ClaimKind, re.Pattern[str]], ...] = (
    (
        "proposed",
        re.compile(
            r"\b(?:queued|proposed|awaits?\s+(?:your\s+)?approval|waits?\s+for\s+(?:your\s+)?"
            r"approval|(?:submitted|sent|put|held)\s+(?:up\s+)?for\s+(?:your\s+)?approval|"
            r"(?:pending|awaiting|waiting\s+for)\s+(?:your\s+)?approval)\b"
            r"|待审批|等待审批|待批准|等待批准|提交审批|已(?:经)?提交[^。！？，,；;]{0,12}审批",
            re.IGNORECASE,
        ),
    ),
    (
        "cancelled",
        re.compile(r"\bcancel+ed\b|已(?:经)?[^。！？，,；;]{0,40}?取消|取消(?:了|成功|完成)", re.I),
    ),
    (
        "skipped",
        re.compile(
            r"\b(?:skipped|refused|rejected|declined|left\s+out)\b|跳过|被拒绝|拒绝了", re.I
        ),
    ),
    (
        "ordered",
        re.compile(
            r"\b(?:placed|created|raised|submitted|ordered|reordered|replenished|restocked|"
            r"issued)\b"
            r"|已(?:经)?[^。！？，,；;]{0,40}?(?:下单|补货|订购|创建|提交)"
            r"|(?:下单|补货|订购)(?:了|成功|完成)|下了单|创建了",
            re.IGNORECASE,
        ),
    ),
)
_ORDER_WORD = re.compile(
    r"\b(?:orders?|replenishments?|purchase\s+orders?|reorders?|restock)\b"
    r"|订单|补货单|下单|补货|订购",
    re.IGNORECASE,
)
"""A clause whose verb is not itself "ordered" claims an order only with a noun saying so
("I created a report" is no claim)."""
_SELF_ORDERING = re.compile(r"ordered|reordered|replenished|restocked|下单|补货|订购", re.I)
_NOT_DONE = re.compile(
    r"\b(?:no|not|never|none|nothing|neither|nor|without|unable|failed|cannot|would|will|"
    r"shall|can|could|should|might|may|must|need|needs|going|if|once|whether|ready|"
    r"let)\b|n't|'ll|没|未|不|无|别|将|会|要|需|如果|若|可以|建议|待",
    re.IGNORECASE,
)
"""Words before a verb that make it something not done: a negation, a modal, a condition."""
_NOTHING_AFTER = re.compile(r"^\s*(?:(?:no|nothing|none|any|0)\b|零)", re.IGNORECASE)
"""Words right after a verb that make it nothing done ("ordered nothing", "Cancelled 0")."""
_NOTHING_CLAUSE = re.compile(
    r"^\s*(?:(?:none|nothing|no|zero|0|n/?a|not done|not performed|not made|not carried out|"
    r"not yet)\b|[-–—]|无|没有|零|未执行|未完成|没有执行)\s*(?:[(（][^)）]*[)）])?\s*[.!。！]?\s*$",
    re.IGNORECASE,
)
"""A clause that answers a heading with nothing ("Orders cancelled: none", "已取消的订单：无"):
the heading's verb is then nothing done."""
_CONDITION_AFTER = re.compile(
    r"\b(?:if|once|when|as soon as|after|upon|provided|unless|pending)\s+(?:you|your|the user|"
    r"approval|approved|confirmation|confirmed|it is approved|someone)\b"
    r"|(?:确认|批准|审批|同意)(?:之?后|以后)|一旦|待[^。！？，,；;]{0,8}(?:确认|批准|审批)",
    re.IGNORECASE,
)
"""A condition after a verb that leaves it to the user ("cancelled once you confirm",
"确认后下单"): nothing done yet."""
_LISTING = re.compile(
    r"[A-Za-z]{1,8}-\d[\w-]*|\d[\d,.]*|[^\w]+|\b(?:and|or|in|at|of|for|to|from|with|plus|"
    r"x|each|the|a|an|units?|pcs|pieces|ea|warehouse|orders?)\b|[和及与在仓件个各共以、]",
    re.IGNORECASE,
)
"""What a clause that only lists holds: ids, numbers, punctuation and the words that join them."""
_EARLIER = re.compile(r"\b(?:already|previously|earlier|before)\b|之前|此前|早已", re.I)
"""A clause about an order made before this run ("SKU-10403 was already ordered (PO-000001)")
is held to the orders the run's results named, not only to the ones it created."""
_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]|$)", re.MULTILINE)
_EXAMPLE = re.compile(
    r"\b(?:you can|you could|for example|e\.g\.|like|such as|ids look like)\b|例如|比如",
    re.IGNORECASE,
)
"""A sentence that shows what to ask or what an id looks like claims nothing."""
_CLAUSE = re.compile(
    r"[,;:，；：]|\s[-–—]\s|\b(?:and|but|while|whereas|because|since|so|although|though|then|"
    r"also|however|as well as)\b|但是?|而且|并且|因为|所以|同时|另外",
    re.IGNORECASE,
)
_QUANTITY = re.compile(
    r"(?<![\w-])(\d{1,3}(?:,\d{3})+|\d{1,7})\s*(?:units?|pcs|pieces|ea|件|个|只|台|箱|盒|套|瓶|包)"
    r"|(?:(?<=\s)|^|(?<=\d))[x×*]\s*(\d{1,7})\b"
    r"|(?<![\w-])(\d{1,7})\s+of\s+(?=[A-Za-z]{2,6}-\d)",
    re.IGNORECASE,
)
_EACH = re.compile(r"\beach\b|\bapiece\b|各|每个|每样", re.IGNORECASE)


@dataclass(frozen=True)
class Claim:
    """One action an answer states as done, and what its clause names."""

    kind: ClaimKind
    text: str
    skus: tuple[str, ...] = ()
    warehouses: tuple[str, ...] = ()
    order_ids: tuple[str, ...] = ()
    quantities: tuple[tuple[str, int], ...] = ()
    """Units paired with a SKU."""
    loose_quantities: tuple[int, ...] = ()
    """Units the clause states without a SKU to pair them with."""
    earlier: bool = False
    """The clause speaks of something done before this run ("already ordered")."""


@dataclass(frozen=True)
class _Clause:
    text: str
    kind: ClaimKind | None
    done: bool
    """The clause states its verb as done (no negation, modal or condition before it)."""
    lists_only: bool
    """A verbless clause that only lists ids and quantities (`_LISTING`)."""


def _verb(text: str) -> tuple[ClaimKind, re.Match[str]] | None:
    for kind, pattern in _VERBS:
        if match := pattern.search(text):
            return kind, match
    return None


def _clause(text: str) -> _Clause:
    found = _verb(text)
    if found is None:
        return _Clause(text, None, False, not _LISTING.sub("", text).strip())
    kind, match = found
    before, after = text[: match.start()], text[match.end() :]
    done = not (
        _NOT_DONE.search(before) or _NOTHING_AFTER.search(after) or _CONDITION_AFTER.search(after)
    )
    if kind != "ordered" and kind != "proposed":
        return _Clause(text, kind, done, False)
    if kind == "ordered" and not _SELF_ORDERING.search(match[0]) and not _ORDER_WORD.search(text):
        ids = ids_in(text)
        if not (ids["S"] or ids["O"]):
            return _Clause(text, None, False, False)
    return _Clause(text, kind, done, False)


def _quantities(text: str) -> list[tuple[int, int]]:
    out = []
    for match in _QUANTITY.finditer(text):
        number = next(g for g in match.groups() if g is not None)
        out.append((match.start(), int(number.replace(",", ""))))
    return out


def _claim(kind: ClaimKind, parts: Sequence[str]) -> Claim:
    text = " ".join(p.strip() for p in parts)
    ids = ids_in(text)
    skus = tuple(dict.fromkeys(s for s in ids["S"] if not PROPOSAL_ID.fullmatch(s)))
    numbers = [n for _, n in _quantities(text)]
    paired: tuple[tuple[str, int], ...] = ()
    loose: tuple[int, ...] = ()
    if skus and len(numbers) == len(skus):
        paired = tuple(zip(skus, numbers, strict=True))
    elif skus and len(set(numbers)) == 1 and (_EACH.search(text) or len(skus) == 1):
        paired = tuple((s, numbers[0]) for s in skus)
    elif not skus:
        loose = tuple(numbers)
    return Claim(
        kind=kind,
        text=text,
        skus=skus,
        warehouses=tuple(dict.fromkeys(ids["W"])),
        order_ids=tuple(dict.fromkeys(ids["O"])),
        quantities=paired,
        loose_quantities=loose,
        earlier=bool(_EARLIER.search(text)),
    )


def _sentence_claims(sentence: str) -> list[Claim]:
    parts = [c for c in _CLAUSE.split(sentence) if c and c.strip()]
    clauses = [
        replace(clause, done=False) if nothing else clause
        for clause, nothing in zip(
            map(_clause, parts),
            [bool(_NOTHING_CLAUSE.match(p)) for p in parts[1:]] + [False],
            strict=True,
        )
    ]
    groups: list[tuple[ClaimKind, list[str]]] = []
    waiting: list[str] = []
    current: tuple[ClaimKind, list[str]] | None = None
    for clause in clauses:
        if clause.kind is not None:
            current = (clause.kind, [*waiting, clause.text]) if clause.done else None
            waiting = []
            if current is not None:
                groups.append(current)
            continue
        if not clause.lists_only:
            current, waiting = None, []
            continue
        if current is not None:
            current[1].append(clause.text)
        elif not groups:
            waiting.append(clause.text)
    return [_claim(kind, parts) for kind, parts in groups]


def parse_claims(text: str) -> list[Claim]:
    """The actions `text` states as done, in order (see the module docstring)."""
    claims: list[Claim] = []
    for sentence in _SENTENCE.findall(text):
        if _EXAMPLE.search(sentence):
            continue
        claims += _sentence_claims(sentence)
    return claims


# ---- held to the ledger


def _same(a: str | None, b: str) -> bool:
    return a is not None and a.upper() == b.upper()


def _units(entries: Sequence[LedgerEntry]) -> str:
    return ", ".join(
        f"{e.quantity} units in {e.warehouse_id}" if e.quantity is not None else f"{e.warehouse_id}"
        for e in entries
    )


def _why_not_ordered(sku: str, ledger: LedgerSummary) -> str:
    if any(_same(e.sku, sku) for e in ledger.proposed):
        return f"{sku} was not ordered: the write waits for approval"
    refused = [e for e in ledger.refused if _same(e.sku, sku)]
    if refused:
        return f"{sku} was not ordered: the server refused it ({refused[0].reason or 'refused'})"
    return f"no order of {sku} was created in this run"


def _known_units(entries: Sequence[LedgerEntry]) -> bool:
    """Every entry says its units (a quantity is only checked against known ones)."""
    return bool(entries) and all(e.quantity is not None for e in entries)


def _entries_problems(
    claim: Claim, entries: Sequence[LedgerEntry], verb: str
) -> tuple[list[str], list[str]]:
    """What `claim` names that `entries` lack: (problems, SKUs with no entry at all)."""
    problems: list[str] = []
    absent: list[str] = []
    paired = dict(claim.quantities)
    for sku in claim.skus:
        mine = [e for e in entries if _same(e.sku, sku)]
        if not mine:
            absent.append(sku)
            continue
        if claim.warehouses:
            placed = [e for e in mine if any(_same(e.warehouse_id, w) for w in claim.warehouses)]
            if not placed:
                where = ", ".join(claim.warehouses)
                problems.append(f"{sku} was {verb} in {_units(mine)}, not in {where}")
                continue
            mine = placed
        units = paired.get(sku)
        if units is not None and _known_units(mine) and not any(e.quantity == units for e in mine):
            problems.append(f"{sku} was {verb} for {_units(mine)}, not {units} units")
    for units in claim.loose_quantities:
        if _known_units(entries) and not any(e.quantity == units for e in entries):
            problems.append(f"no order in this run is for {units} units")
    return problems, absent


def _recorded(ledger: LedgerSummary, tool: str) -> list[LedgerEntry]:
    """The writes of `tool` a dry run recorded: in a dry run, what "ordered" can mean."""
    return [e for e in ledger.dry_run if e.reason == tool]


def _ordered(claim: Claim, ledger: LedgerSummary, before: Sequence[LedgerEntry]) -> list[str]:
    entries = [*ledger.ordered, *ledger.returned, *_recorded(ledger, CREATE_TOOL)]
    if claim.earlier:
        entries += before
    known = {e.order_id for e in entries if e.order_id}
    problems = [
        f"{o} is no order this run created" for o in claim.order_ids if o.upper() not in known
    ]
    if not claim.skus and not claim.order_ids and not entries:
        waits = " (the writes wait for approval)" if ledger.proposed else ""
        return [f"no order was created or cancelled in this run{waits}"]
    found, absent = _entries_problems(claim, entries, "ordered")
    return problems + found + [_why_not_ordered(sku, ledger) for sku in absent]


def _cancelled(claim: Claim, ledger: LedgerSummary, before: Sequence[LedgerEntry]) -> list[str]:
    entries = [*ledger.cancelled, *_recorded(ledger, CANCEL_TOOL)]
    known = {e.order_id for e in entries if e.order_id}
    problems = [f"{o} was not cancelled in this run" for o in claim.order_ids if o not in known]
    if not claim.skus and not claim.order_ids and not entries:
        waits = " (the cancel waits for approval)" if ledger.proposed else ""
        return [f"no order was cancelled in this run{waits}"]
    found, absent = _entries_problems(replace(claim, quantities=()), entries, "cancelled")
    return problems + found + [f"no order of {s} was cancelled in this run" for s in absent]


def _proposed(claim: Claim, ledger: LedgerSummary, before: Sequence[LedgerEntry]) -> list[str]:
    entries = ledger.proposed
    if not claim.skus and not claim.order_ids and not entries:
        return ["no write was queued for approval in this run"]
    known = {e.order_id for e in entries if e.order_id}
    created = {e.order_id for e in ledger.ordered}
    problems = [
        f"no cancel of {o} was queued for approval"
        for o in claim.order_ids
        if o not in known and o not in created
    ]
    found, absent = _entries_problems(claim, entries, "queued")
    return problems + found + [f"no write of {s} was queued for approval" for s in absent]


def _skipped(claim: Claim, ledger: LedgerSummary, before: Sequence[LedgerEntry]) -> list[str]:
    """A skip contradicts the ledger only where the SKU was ordered in the warehouse the claim
    names (a SKU is often stocked, and skipped, in another warehouse than the one ordered)."""
    return [
        f"{sku} was ordered in {w} in this run, not skipped"
        for sku in claim.skus
        for w in claim.warehouses
        if any(_same(e.sku, sku) and _same(e.warehouse_id, w) for e in ledger.ordered)
    ]


_CHECKS: dict[ClaimKind, Callable[[Claim, LedgerSummary, Sequence[LedgerEntry]], list[str]]] = {
    "ordered": _ordered,
    "cancelled": _cancelled,
    "proposed": _proposed,
    "skipped": _skipped,
}


def unsupported(text: str, ledger: LedgerSummary, before: Sequence[LedgerEntry] = ()) -> list[str]:
    """Each action `text` states as done that `ledger` does not bear out, said as a fact to
    correct (empty: every claim holds). `before`: the orders the run's results named, which a
    claim of an order made before the run ("already ordered") may name."""
    problems: list[str] = []
    for claim in parse_claims(text):
        problems += _CHECKS[claim.kind](claim, ledger, before)
    return list(dict.fromkeys(problems))
