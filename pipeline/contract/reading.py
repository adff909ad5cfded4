"""Reading a task's words (English or simplified Chinese) into a `TaskContract`, every word
accounted for.

The reader is total: each clause is cut into tokens, and each token is an id, a quantity, a
date, or a word of the closed vocabulary (`pipeline.contract.lexicon`); anything else is not
understood. A clause is understood when every token is, and its ids have a role (the object
of an action, a scope, an exclusion). What is left over can only narrow:

- an id in a clause that was not understood is excluded ("left SKU-10232 out: I did not
  understand 'quarantined'");
- a clause that defers, hands the action to the user or asks hypothetically ("later", "I will
  order", "what would you", "如果", "我自己", "下周再") makes the task a `report`, whatever else
  it says;
- any other leftover makes the reader's contract a `report` with no writes. The *fallback* (what
  the understood clauses allow, with the ids of the others excluded) is kept beside it: a
  model's reading of the same task may recover it, never widen it (`pipeline.contract.meet`).

A reading left short is offered to a person as a question, never acted on alone: the task
without the words not understood, or, where those words stand in for the act ("grab 20 of
SKU-1", "sort out the low ones in WH-01"), the task with the act taken as replenishing.

Writes are allowed only by understood clauses, and a negation that names ids excludes them.

The steps: `pipeline.contract.marking` (ids, names, quantities and dates to placeholders),
`pipeline.contract.tokens` (a clause to tokens), `pipeline.contract.clauses` (one clause read);
here the clauses are cut, read and met into the task's contract.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from pipeline.contract.terms import (
    NO_ACT as _NOTHING,
    Action,
    QuantityRule,
    TaskContract,
    TaskReading,
    unclear,
)

__all__ = ["ids_in", "parse_task", "read_task"]

from pipeline.contract.clauses import EVERY, IDS, Clause, read_clause
from pipeline.contract.lexicon import SIZE_NOUNS
from pipeline.contract.marking import PLACEHOLDER, Marks, is_cjk, mark
from pipeline.contract.tokens import Token, known_word, vocabulary_tag

_LIST_ONLY = re.compile(
    r"^(?:\s*<[SWO]\d+>\s*(?:and|or|和|及|与|以及|或|、|/|&)?)+\s*(?:[:：]?\s*<R\d+>\s*)?$"
)
"""A clause of ids alone (or closed by a quantity for each: "SKU-2: 20 of each") continues
the list of the clause before it ("SKU-1, SKU-2 and SKU-3"): a comma there is no clause
boundary."""
_CLAUSE = re.compile(r"([.;!?。！？；\n]+|[,，]+)")

_ALL_ORDERS = re.compile(r"\ball (?:the |open |of the )*orders\b|全部订单|所有订单|全部取消|都取消")
_LEFT_OUT = "left "
"""How the note on ids left out of what may be written begins."""
_EXCLUDED = "excluded "


def _clauses(text: str) -> list[Clause]:
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
    return [read_clause(body, question="?" in end or "？" in end) for body, end in pieces]


def _shown(text: str, marks: Marks) -> str:
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
        if kind == "C":
            return f"on hand below {marks.conditions[index]}"
        if kind == "X":
            return f'"{marks.quotes[index]}"'
        return "(a date)"

    return " ".join(PLACEHOLDER.sub(value, text).split())


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


@dataclass
class _Ids:
    skus: list[str] = field(default_factory=list)
    warehouses: list[str] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)
    quantities: dict[str, int] = field(default_factory=dict)

    def take(self, token: Token, marks: Marks) -> None:
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


def _named(
    marks: Marks, catalogue: Mapping[str, str], positive: _Ids
) -> tuple[list[str], list[str]]:
    """Notes on the items the task named by what they are, and what was not understood: a
    name that fits several items is never a scope to write to (they are left out), only an
    exclusion of them all."""
    notes: list[str] = []
    missing: list[str] = []
    for words, skus in marks.named:
        if len(skus) == 1:
            notes.append(f"read {words!r} as {skus[0]} ({catalogue[skus[0]]})")
            continue
        listed = ", ".join(f"{s} ({catalogue[s]})" for s in skus)
        if any(s in positive.skus for s in skus):
            missing.append(
                f"{words!r} fits several items: {listed}; name the one you mean (like its SKU)"
            )
        else:
            notes.append(f"{words!r} fits several items, all left out: {listed}")
    return notes, missing


def read_task(
    task: str,
    names: Mapping[str, str] | None = None,
    catalogue: Mapping[str, str] | None = None,
    *,
    _retry: bool = True,
) -> TaskReading:
    """How `task` reads: the contract the reader alone allows, the fallback a model's reading
    may recover, and the words it did not understand (see the module docstring). `names` maps
    the store's warehouse names and aliases to their ids (`warehouses_list`); `catalogue` the
    screen's items (`{sku: name}`), which the task may name by what they are."""
    catalogue = catalogue or {}
    text, marks = mark(task, names or {}, catalogue)
    clauses = _clauses(text)
    _low_then_act(clauses)
    understood = [c for c in clauses if c.understood]
    missed = [c for c in clauses if not c.understood]

    roles = _roles(clauses, marks)
    notes, missing = _notes(clauses, marks, catalogue, roles)
    leftovers = _leftovers(missed, marks, notes)
    verbs = _verbs(clauses, marks)

    exclude_skus = _unique(roles.excluded.skus)
    exclude_warehouses = _unique(roles.excluded.warehouses)
    positive = roles.positive
    skus = tuple(s for s in _unique(positive.skus) if s not in exclude_skus)
    warehouses = tuple(w for w in _unique(positive.warehouses) if w not in exclude_warehouses)
    orders = tuple(o for o in _unique(positive.orders) if o not in roles.excluded.orders)
    rules = [marks.rules[i] for c in understood for i in c.rules]
    rule = rules[0] if rules else None
    below = [marks.conditions[i] for c in understood for i in c.conditions]

    per_sku = {s: q for s, q in positive.quantities.items() if s in skus}
    action = _action(verbs, clauses, roles, orders, skus, bool(per_sku), notes, missing)
    if action != "report":
        for kind, named, kept in (
            ("SKU", positive.skus, skus),
            ("warehouse", positive.warehouses, warehouses),
            ("order", positive.orders, orders),
        ):
            if named and not kept:
                missing.append(f"every {kind} the task names is also left out; nothing is left")
    if action in ("replenish", "order"):
        loose = [marks.loose[i] for c in understood for i in c.loose]
        unresolved = [name for c in clauses for name in c.names]
        action, per_sku = _sized(action, per_sku, rule, loose, unresolved, skus, missing)
    has_object = bool(skus or warehouses or orders)
    missing += _unclear_asks(action, clauses, marks, has_object, per_sku, rule, below)
    if exclude_skus:
        notes.append(_EXCLUDED + ", ".join(exclude_skus))
    if exclude_warehouses:
        notes.append(_EXCLUDED + ", ".join(exclude_warehouses))

    scope = {
        "warehouses": warehouses,
        "exclude_warehouses": exclude_warehouses,
        "skus": skus,
        "exclude_skus": exclude_skus,
        "screen_only": not any(c.beyond for c in understood),
        "on_hand_below": min(below) if below and min(below) > 0 else None,
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
    # A condition in a clause not understood cannot be left out of a write as an id can, and
    # a request that corrects itself says what it means only in words not understood: no
    # reading is offered for either, nor for words not understood that limit the task in a way
    # no reading shows: what is left out, what is low, which items, how much (`_scoping_words`),
    # a part of a set or a condition ("unless").
    held = _scoping_words(missed) or any(
        t.kind == "C" or t.tag in ("retract", "unless", "part") for c in missed for t in c.tokens
    )
    offer = fallback if leftovers and fallback.writes_allowed and not verbs.stops else None
    if offer is not None and _inverts(clauses):
        offer = None
    if held:
        offer = None
    elif leftovers and offer is None and not verbs.stops and _retry:
        offer = _without(task, missed, names, catalogue, _guarded(missed, marks))
    implied = _implied_act(verbs, clauses, marks) if offer is None and not held else None
    if implied is not None and _retry:
        offer = _implied(task, missed, names, catalogue, implied)
    if leftovers:
        unclear_words = [unclear(quote) for quote in leftovers]
        contract = fallback.as_report(not_understood=(*fallback.not_understood, *unclear_words))
        # Words not understood that name no id may limit anything ("only the urgent ones",
        # "stick to the north site"): nothing is left for a model's reading to recover. Words
        # beside ids are taken to be about those ids, which are left out either way.
        if any(not any(t.kind in IDS for t in c.tokens) for c in missed):
            fallback = contract.model_copy(
                update={"notes": (*contract.notes, "words not understood name no id")}
            )
    if not contract.writes_allowed:
        contract = _report_of(contract, roles.mentioned, roles.said_excluded)
    if not fallback.writes_allowed:
        fallback = _report_of(fallback, roles.mentioned, roles.said_excluded)
    return TaskReading(
        task=task,
        contract=contract,
        fallback=fallback,
        not_understood=tuple(leftovers),
        stop=verbs.stops[0] if verbs.stops else None,
        offer=offer,
        held=held,
    )


@dataclass
class _Roles:
    """The ids a task names, by the part they play in it."""

    positive: _Ids = field(default_factory=_Ids)
    """What the understood clauses ask to act on."""
    excluded: _Ids = field(default_factory=_Ids)
    """What may not be written: said to be left out, named in words not understood, cited."""
    mentioned: _Ids = field(default_factory=_Ids)
    """What a report covers: the ids the understood clauses name (or, when none is
    understood, those the task names)."""
    said_excluded: _Ids = field(default_factory=_Ids)
    """What a report leaves out: only the ids the task says to leave out."""


def _roles(clauses: Sequence[Clause], marks: Marks) -> _Roles:
    roles = _Roles()
    understood = [c for c in clauses if c.understood]
    for clause in understood:
        for token in clause.positive:
            roles.positive.take(token, marks)
    # Ids said aside (ordered already, put off, taken on by the user or someone else) are left
    # out of a write beside them; beside a report they change nothing it covers; alone, they
    # are what a report covers ("I'll order SKU-1 myself", "what if we restocked WH-01?").
    writes = any("write" in c.acts for c in understood)
    acting = any(c.acts for c in understood if not c.aside)
    for clause in clauses:
        for token in clause.excluded:
            roles.excluded.take(token, marks)
            if not clause.understood:
                # A negation of words not understood ("don't let WH-01 run out") says nothing
                # a report may leave out: its ids are what the report covers, like the ids
                # of any clause not understood.
                if not understood:
                    roles.mentioned.take(token, marks)
            elif not clause.aside or writes:
                roles.said_excluded.take(token, marks)
            elif not acting:
                roles.mentioned.take(token, marks)
        for token in clause.positive if clause.understood or not understood else ():
            roles.mentioned.take(token, marks)
    for clause in clauses:
        if not clause.understood:
            for token in clause.positive:
                roles.excluded.take(token, marks)
    # Ids in words the task cites (quoted, or after "the note says") are never written to.
    for clause in clauses:
        for token in clause.cited:
            roles.excluded.take(token, marks)
    for kind, value in marks.cited:
        marks.add(kind, value)
        roles.excluded.take(Token(value, "cited", 0, 0, kind, marks.of(kind).index(value)), marks)
    return roles


def _notes(
    clauses: Sequence[Clause], marks: Marks, catalogue: Mapping[str, str], roles: _Roles
) -> tuple[list[str], list[str]]:
    """What the reading says of the words it read (names, corrected words, quotes, sets), and
    what it could not settle; a name that fits several items moves them all out of what is
    written to."""
    notes, missing = _named(marks, catalogue, roles.positive)
    notes += [f"read {t.read_as}" for c in clauses for t in c.tokens if t.read_as]
    notes += [f"did not act on the words the task quotes: {q!r}" for q in marks.quotes]
    if any(c.quoting for c in clauses):
        notes.append("did not act on the words the task cites")
    notes += [
        f"{marks.skus[t.index]} is written to when it is one of the set the task names"
        for c in clauses
        if c.understood
        for t in c.joined
    ]
    for _, skus in marks.named:
        if len(skus) > 1 and any(s in roles.positive.skus for s in skus):
            roles.positive.skus = [s for s in roles.positive.skus if s not in skus]
            roles.excluded.skus += skus
    return notes, missing


def _leftovers(missed: Sequence[Clause], marks: Marks, notes: list[str]) -> list[str]:
    """The words of each clause not understood, as the task wrote them; the ids beside them
    are noted as left out."""
    leftovers: list[str] = []
    for clause in missed:
        quote = _shown(clause.quote(clause.leftover), marks)
        leftovers.append(quote)
        dropped = _Ids()
        for token in [*clause.positive, *clause.excluded]:
            dropped.take(token, marks)
        left = [*dropped.skus, *dropped.warehouses, *dropped.orders]
        if left:
            notes.append(f"{_LEFT_OUT}{', '.join(_unique(left))} out: {unclear(quote)}")
    return leftovers


@dataclass
class _Verbs:
    """What the task asks to be done, and what it says not to do."""

    acts: set[str]
    """The actions the understood clauses ask for."""
    asked: bool
    """Whether any clause, understood or not, asks for an action."""
    stops: list[str]
    """Words that defer, hand the action to the user or ask hypothetically."""
    negated: list[str]
    """Negations that forbid writing ("don't order")."""
    forbidden: list[str]
    """Negations of the one action the task does not ask for ("and don't reorder it")."""


def _verbs(clauses: Sequence[Clause], marks: Marks) -> _Verbs:
    understood = [c for c in clauses if c.understood]
    acts: set[str] = set().union(*(c.acts for c in understood)) if understood else set()
    # A negation of one action forbids that action only: "cancel PO-1 and don't reorder it"
    # is a cancel, and no order is written (a cancel writes none).
    negated, forbidden = [], []
    for clause in clauses:
        if clause.negated is None:
            continue
        other = {"write": "cancel", "cancel": "write"}.get(clause.negates or "")
        if other is not None and other in acts and clause.negates not in acts:
            forbidden.append(_shown(clause.negated, marks))
        else:
            negated.append(_shown(clause.negated, marks))
    return _Verbs(
        acts=acts,
        asked=any(c.acts for c in clauses),
        stops=[
            _shown(c.stop, marks)
            for i, c in enumerate(clauses)
            if c.stop is not None and not ("write" in acts and _stops_nothing(c, clauses, i))
        ],
        negated=negated,
        forbidden=forbidden,
    )


def _stops_nothing(clause: Clause, clauses: Sequence[Clause], at: int) -> bool:
    """Whether the clause's stop, beside a write, stops nothing: the user sees to items the
    task leaves out ("…; I'll handle SKU-1 myself", "…except SKU-1, which I will order
    myself"; one that points back needs the id right before it to be left out), it puts
    off the rest of a write that names what it writes ("reorder SKU-1 now; the rest can
    wait"), or it only says the items written are low ("if anything is low, reorder it")."""
    if clause.low_condition:
        # Beside a plain replenishment of what it names ("reorder it", "就补上": no ids of its
        # own, no sizes, not asked as a question or a hypothetical), which only ever orders
        # what is low: all the condition asks.
        others = [c for c in clauses if c is not clause]
        return bool(others) and all(
            c.understood
            and c.stop is None
            and "write" in c.acts
            and not any(t.kind in IDS or t.kind in ("R", "L", "T", "C") for t in c.tokens)
            for c in others
        )
    if clause.rest_deferred:
        return any(
            t.kind in ("S", "W")
            for c in clauses
            if c.understood and "write" in c.acts
            for t in c.positive
        )
    if not clause.own:
        return False
    if any(t.kind in IDS for t in clause.tokens):
        return True
    last = clauses[at - 1] if at else None
    ids = [t for t in last.tokens if t.kind in IDS] if last else []
    return bool(ids) and last is not None and ids[-1] in last.excluded


def _action(
    verbs: _Verbs,
    clauses: Sequence[Clause],
    roles: _Roles,
    orders: Sequence[str],
    skus: Sequence[str],
    sized: bool,
    notes: list[str],
    missing: list[str],
) -> Action:
    """The one action the task asks for, safe side first: anything that stops or forbids
    writing is a report, and so is a request for two actions at once."""
    wants_cancel, wants_write = "cancel" in verbs.acts, "write" in verbs.acts
    if verbs.stops:
        notes.append(f"read as a report: the task says {verbs.stops[0]!r}")
        return "report"
    if verbs.negated:
        notes.append(f"read as a report: the task says {verbs.negated[0]!r}")
        return "report"
    if wants_cancel and wants_write:
        missing.append("the task asks to cancel and to order at once; ask for one at a time")
        return "report"
    if wants_cancel:
        notes += [f"no order is written: the task says {words!r}" for words in verbs.forbidden]
        if roles.excluded.orders and not orders:
            missing.append(
                f"the task leaves {', '.join(_unique(roles.excluded.orders))} out of a cancel "
                "it does not name by order; name the orders to cancel (like PO-000042)"
            )
        elif not orders and not skus:
            what = "all orders" if any(_ALL_ORDERS.search(c.text) for c in clauses) else "no order"
            missing.append(
                f"the task names {what} to cancel; name the orders (like PO-000042) or the "
                "SKUs whose open orders should go"
            )
        return "cancel"
    if wants_write:
        notes += [f"no order is cancelled: the task says {words!r}" for words in verbs.forbidden]
        return "order" if sized else "replenish"
    if not verbs.asked:
        missing.append(_NOTHING)
    return "report"


def _sized(
    action: Action,
    per_sku: dict[str, int],
    rule: QuantityRule | None,
    loose: Sequence[str],
    unresolved: Sequence[str],
    skus: Sequence[str],
    missing: list[str],
) -> tuple[Action, dict[str, int]]:
    """A write's quantities checked: none of 0, a bare number only for the one SKU named, and
    every warehouse named by a name the store knows."""
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
    return action, per_sku


def _unclear_asks(
    action: Action,
    clauses: Sequence[Clause],
    marks: Marks,
    has_object: bool,
    per_sku: Mapping[str, int],
    rule: QuantityRule | None,
    below: Sequence[int],
) -> list[str]:
    """Understood clauses that still leave the request unclear as a whole."""
    understood = [c for c in clauses if c.understood]
    missing: list[str] = []
    cites = bool(marks.quotes) or any(c.quoting for c in clauses)
    turned = [c.disregard for c in understood if c.disregard is not None]
    # Beside cited words, a request that names no object of its own may mean the cited items
    # ("the screen says SKU-1 is low, restock it", "截图显示着 SKU-1 缺货，补一下"): not
    # understood.
    pointing = [c for c in understood if cites and (c.acts - {"report"}) and _points_back(c)]
    if pointing:
        missing.append(unclear(pointing[0].text.strip()))
    if turned and not cites:
        missing.append(unclear(turned[0]))
    limits = [c.only_these for c in understood if c.only_these is not None]
    if limits and action != "report" and not has_object:
        missing.append(unclear(limits[0]))
    reasons = [c.reason for c in understood if c.reason is not None]
    if reasons and action != "cancel":
        missing.append(unclear(reasons[0]))
    # Orders a reason names ("PO-1 was a duplicate") are the cancel's only when no other
    # clause names other orders ("cancel PO-1, PO-2 was a mistake" may correct PO-1).
    explained = {o for c in understood if c.reason for o in _orders_of(c, marks)}
    asked_for = {o for c in understood if not c.reason for o in _orders_of(c, marks)}
    if explained and asked_for and not explained <= asked_for:
        missing.append(unclear(next(c.reason for c in understood if c.reason) or ""))
    if below and min(below) < 1:
        missing.append("no item has less than 0 on hand; give a number of at least 1")
    if action == "cancel" and (per_sku or rule is not None or below):
        missing.append("a cancel takes no quantity")
    return missing


def _orders_of(clause: Clause, marks: Marks) -> list[str]:
    return [marks.orders[t.index] for t in clause.positive if t.kind == "O"]


_SETS = frozenset({"low", "object", "else", "each_warehouse", "beyond", "status"})


def _points_back(clause: Clause) -> bool:
    """The clause names no object of its own ("restock it", "补一下"): no id, no set; beside
    cited words it may mean them."""
    tags = {t.tag for t in clause.tokens}
    return not any(t.kind in IDS for t in clause.tokens) and not tags & _SETS


def _low_statement(clause: Clause) -> bool:
    """A statement that SKUs (and warehouses) are low and nothing else ("SKU-1 is low",
    "we're almost out of SKU-1", "SKU-1 快没了"): no act, no question, no negation."""
    tokens = clause.tokens
    return (
        not clause.acts
        and not clause.question
        and any(t.kind == "S" for t in tokens)
        and any(t.tag == "low" for t in tokens)
        and all(t.kind in ("S", "W") or t.tag in ("low", "filler", "polite") for t in tokens)
    )


_DONE_OR_PUT_OFF = frozenset({"write", "write_past", "defer", "self", "cancel", "settled"})


def _low_then_act(clauses: Sequence[Clause]) -> None:
    """A statement that items are low beside one write with no object of its own ("SKU-1 is
    low, reorder it", "we're out of SKU-1 - order some", "SKU-1 快没了，补一点"): the items
    are what the write is for, so the statement is understood (its ids are the write's
    scope). Anything else in the task leaves both as they are."""
    stated = [c for c in clauses if _low_statement(c)]
    rest = [c for c in clauses if c not in stated]
    if len(stated) == 1 and len(rest) == 1:
        act = rest[0]
        if act.understood and act.acts == {"write"} and _points_back(act) and act.stop is None:
            stated[0].leftover = []
            return
    # Items someone is said to have, with no act of theirs ("the team has SKU-1 on the
    # list"), beside writes that name nothing of their own: the writes may as well be for them
    # as for the rest. An aside that says what was done or put off ("we already ordered
    # SKU-1", "SKU-1 先放一放") leaves its items out as ever.
    writes = [c for c in clauses if c.understood and "write" in c.acts]
    if writes and all(_points_back(c) for c in writes):
        for clause in clauses:
            tags = {t.tag for t in clause.tokens}
            if clause.aside and clause.understood and not tags & _DONE_OR_PUT_OFF:
                clause.leftover += [(t.start, t.end) for t in clause.excluded if t.kind == "S"]


def _inverts(clauses: Sequence[Clause]) -> bool:
    """Ids in words not understood beside writes that name nothing of their own ("SKU-1 is on
    back order, reorder it"): the writes may well be for those ids, so a reading that leaves
    them out and writes the rest would turn the request around."""
    named = any(t.kind in IDS for c in clauses if not c.understood for t in c.tokens)
    writes = [c for c in clauses if c.understood and "write" in c.acts]
    return named and bool(writes) and all(_points_back(c) for c in writes)


_LEAVING_OUT = frozenset({"excl", "excl_post", "neg"})


def _scoping_words(missed: Sequence[Clause]) -> bool:
    """Words not understood that say what is left out ("no packaging", "胶带除外", "除了胶
    带"), what is low ("手套快用完了"), which of a set ("the cheap items") or how much ("half
    quantity"): a reading without them, or with only their ids left out, writes more than the
    task asked, so no reading is offered."""
    for clause in missed:
        tokens = clause.tokens
        if any(t.kind in IDS for t in tokens):
            continue
        if any(t.tag in _LEAVING_OUT for t in tokens):
            # "except what we ordered yesterday": what it leaves out is not understood.
            return True
        if not any(t.tag == "unknown" and not t.kind for t in tokens):
            continue
        # The subject of "is low": words right before it, where no set ("the low items")
        # is what it describes.
        words = [t for t in tokens if t.tag != "filler"]
        said_low = any(
            before.tag == "unknown" and after.tag == "low" for before, after in pairwise(words)
        )
        if not clause.acts and said_low and not any(t.tag == "object" for t in tokens):
            return True
        # "the cheap items", "the blue low ones": a word right before the set qualifies it.
        if any(
            before.tag == "unknown" and not before.kind and after.tag in ("object", "low")
            for before, after in pairwise(tokens)
        ):
            return True
        # "half quantity", "at double the usual amounts": a reading without them sizes
        # every order another way.
        if any(
            before.tag == "unknown" and after.text in SIZE_NOUNS
            for before, after in pairwise(words)
        ):
            return True
    return False


def _unknown_words(missed: Sequence[Clause]) -> list[str]:
    """The words outside the vocabulary (a number, or a word of it that its place left not
    understood, like the `up` of "bump them up to 150", stays)."""
    return list(
        dict.fromkeys(
            t.text
            for c in missed
            for t in c.tokens
            if t.tag == "unknown" and not t.kind and not known_word(t.text)
        )
    )


def _qualifies_the_object(clause: Clause) -> bool:
    """A word not understood after the clause's write or cancel verb, with no word for a whole
    set after it: it may say which items or orders ("the low items from supplier Acme", "the
    orders for SKU-1 from Acme"), so a reading without it may write to more ("fill up the
    shelves for anything under its minimum" names the whole set after it)."""
    tokens = clause.tokens
    verb = next((k for k, t in enumerate(tokens) if t.tag in ("write", "make", "cancel")), None)
    if verb is None:
        return False
    if any(is_cjk(char) for char in clause.text):
        # "把选中的补货", "红色的补一下": in Chinese the object as often stands before the verb.
        verb = -1
    for k, token in enumerate(tokens[verb + 1 :], start=verb + 1):
        if token.tag != "unknown" or token.kind:
            continue
        after = [t for t in tokens[k + 1 :] if t.tag != "filler"]
        if after and after[0].kind in IDS:
            continue  # "sans SKU-1": the ids after it are left out of the reading (`_guarded`)
        return not any(t.text in EVERY for t in after)
    return False


def _stripped(task: str, words: Sequence[str]) -> str:
    for word in words:
        edge = r"\b" if word[:1].isascii() else ""
        task = re.sub(edge + re.escape(word) + edge, " ", task, count=1, flags=re.I)
    return task


def _guarded(missed: Sequence[Clause], marks: Marks) -> _Ids:
    """Ids right after a word not understood (the list of them) in a clause that names its
    act ("restock the low items sans SKU-1", "…bar SKU-1 and SKU-2"): the word may leave
    them out, so a reading without it never writes to them."""
    guarded = _Ids()
    for clause in missed:
        if not clause.acts & {"write", "cancel"}:
            continue
        tokens = [t for t in clause.tokens if t.tag != "filler"]
        after_word = False
        for before, token in pairwise(tokens):
            if before.tag == "unknown" and not before.kind:
                after_word = True
            elif before.kind not in IDS:
                after_word = False
            if after_word and token.kind in IDS:
                guarded.take(token, marks)
    return guarded


def _without(
    task: str,
    missed: Sequence[Clause],
    names: Mapping[str, str] | None,
    catalogue: Mapping[str, str],
    guarded: _Ids,
) -> TaskContract | None:
    """The task read without the words it did not understand, when that reading writes and
    accounts for every word left, and the ids in `guarded` stay left out: a reading to ask a
    person about, never to act on alone."""
    if any(_qualifies_the_object(c) for c in missed):
        return None
    words = _unknown_words(missed)
    stripped = _stripped(task, words)
    if stripped == task:
        return None
    contract = read_task(stripped, names, catalogue, _retry=False).contract
    skus, warehouses = set(guarded.skus), set(guarded.warehouses)
    if skus or warehouses or guarded.orders:
        if set(guarded.orders) & set(contract.order_ids):
            return None
        kept_skus = tuple(s for s in contract.skus if s not in skus)
        kept_warehouses = tuple(w for w in contract.warehouses if w not in warehouses)
        # Nothing left of a scope of ids: the set the task names ("all low items sans SKU-1")
        # without them, or no reading.
        named_set = any(t.tag in ("low", "object") for c in missed for t in c.tokens)
        emptied = (contract.skus and not kept_skus) or (contract.warehouses and not kept_warehouses)
        if emptied and (not named_set or contract.quantities):
            return None
        contract = contract.model_copy(
            update={
                "skus": kept_skus,
                "warehouses": kept_warehouses,
                "exclude_skus": _unique([*contract.exclude_skus, *sorted(skus)]),
                "exclude_warehouses": _unique([*contract.exclude_warehouses, *sorted(warehouses)]),
                "quantities": {s: q for s, q in contract.quantities.items() if s not in skus},
            }
        )
    if not contract.writes_allowed:
        return None
    left = ", ".join(repr(w) for w in words)
    return contract.model_copy(update={"notes": (*contract.notes, f"read without {left}")})


_IMPLIED_VERBS = {
    ("write", "en"): ("replenish", "bring"),
    ("write", "zh"): ("补货",),
    ("cancel", "en"): ("cancel",),
    ("cancel", "zh"): ("取消",),
}
"""The act a question offers for a task that names none the reader knows: the first verb
that reads the task in full (`bring` for a level: "bump SKU-1 to 300")."""
_SIZES = frozenset({"Q", "R", "L", "T"})
"""Placeholders of quantities: per SKU, each, a bare number, a level to reach."""
_VERB_TAGS = frozenset({"write", "make", "order", "raise", "split"})
"""Verbs a question's act stands in for where their place left them not understood."""
_NO_OFFER = frozenset({"neg", "hypo", "self", "defer", "advice", "agent"})
"""Words after which no act is offered: a negation, a hypothetical, the user's own act."""


def _implied_act(verbs: _Verbs, clauses: Sequence[Clause], marks: Marks) -> str | None:
    """The act to ask about for a task that names no write or cancel the reader knows, or
    None: a cancel where it names orders and nothing else ("drop PO-1", "I don't want PO-1
    anymore"); a write where it sizes an order ("grab 20 of SKU-1", "SKU-1 来 50 个") or,
    asking for no act at all, names the low items ("sort out the low ones in WH-01"). A
    task that defers, forbids, cites or asks hypothetically offers nothing."""
    if verbs.stops or verbs.negated or any(c.acts & {"write", "cancel"} for c in clauses):
        return None
    if marks.quotes or marks.cited or marks.conditions:
        return None
    tokens = [t for c in clauses for t in c.tokens]
    if any(t.tag in _NO_OFFER for t in tokens):
        return None
    sized = any(t.kind in _SIZES for t in tokens) or bool(marks.quantities or marks.rules)
    if marks.orders and not (marks.skus or marks.warehouses or sized):
        return "cancel"
    if marks.orders:
        return None
    # A task that opens with a report in words the reader knows ("统计一下缺货数量") is no
    # write ("action the low-stock list" names a list, it does not ask for one).
    asks_a_report = bool(verbs.acts) or any(_opens_with_report(c) for c in clauses)
    if sized or (not asks_a_report and any(t.tag == "low" for t in tokens)):
        return "write"
    return None


def _opens_with_report(clause: Clause) -> bool:
    first = next((t for t in clause.tokens if t.tag not in ("filler", "polite")), None)
    return first is not None and first.tag == "report"


def _implied(
    task: str,
    missed: Sequence[Clause],
    names: Mapping[str, str] | None,
    catalogue: Mapping[str, str],
    act: str,
) -> TaskContract | None:
    """The task read with the act it names in words the reader does not know taken as `act`
    (replenishing, an order where it names sizes, or a cancel), when that reading acts and
    accounts for every word: a reading to ask a person about ("grab 20 of SKU-1": order 20
    of SKU-1?), never to act on alone."""
    # The words not understood, and verbs of the vocabulary their place left not understood
    # ("fill SKU-1 up to 300"): the act offered stands in for them.
    verbs = [
        t.text
        for c in missed
        for t in c.tokens
        if t.tag == "unknown" and vocabulary_tag(t.text) in _VERB_TAGS
    ]
    words = list(dict.fromkeys([*_unknown_words(missed), *verbs]))
    lang = "zh" if any(is_cjk(char) for char in task) else "en"
    left = _stripped(task, words)
    # The act before the words ("cancel PO-1"), or a clause of its own before them, where
    # they explain it ("cancel. I don't want PO-1 anymore").
    readings = (
        (verb, read_task(f"{verb}{sep}{left}", names, catalogue, _retry=False))
        for verb in _IMPLIED_VERBS[act, lang]
        for sep in " 。"
    )
    verb, again = next(
        (
            (v, r)
            for v, r in readings
            if r.contract.writes_allowed and not r.contract.not_understood
        ),
        ("", None),
    )
    if again is None:
        return None
    said = (
        f"took {', '.join(repr(w) for w in words)} as {verb!r}"
        if words
        else f"read as {verb!r}: the task names no act"
    )
    return again.contract.model_copy(update={"notes": (*again.contract.notes, said)})


def _report_of(contract: TaskContract, named: _Ids, excluded: _Ids) -> TaskContract:
    """A report covers what the task names, less what it says to leave out: words not
    understood narrow what may be written, never what is reported ("what's low in WH-02
    <words not understood>" reports WH-02, not every warehouse but WH-02)."""
    skus, warehouses = _unique(excluded.skus), _unique(excluded.warehouses)
    return contract.model_copy(
        update={
            "skus": tuple(s for s in _unique(named.skus) if s not in skus),
            "warehouses": tuple(w for w in _unique(named.warehouses) if w not in warehouses),
            "exclude_skus": skus,
            "exclude_warehouses": warehouses,
            "notes": (
                *(n for n in contract.notes if not n.startswith((_LEFT_OUT, _EXCLUDED))),
                *([_EXCLUDED + ", ".join((*skus, *warehouses))] if skus or warehouses else []),
            ),
        }
    )


def ids_in(task: str) -> dict[str, list[str]]:
    """The SKUs (`S`), warehouses (`W`) and orders (`O`) a task names, as the reader reads
    them."""
    _, marks = mark(task, {})
    return {"S": list(marks.skus), "W": list(marks.warehouses), "O": list(marks.orders)}


def parse_task(task: str, names: Mapping[str, str] | None = None) -> TaskContract:
    """The contract of `task` as the reader alone reads it (see the module docstring)."""
    return read_task(task, names).contract
