"""One clause read: its tokens resolved (names, `order` as a verb or a noun), its action and
whether it is understood, negations attached to what they negate, and the roles of its ids (the
object of an action, a scope, an exclusion; which ids a negation or an exclusion takes is
`roles`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pipeline.contract.roles import (
    IDS,
    ROLES,
    WRITE_LIKE,
    assign_roles,
    free_of_negation,
    ids_after,
    ids_before,
    negates_a_look,
    negates_every_write,
    negation_attached,
    objects_of_another_act,
)
from pipeline.contract.tokens import Token, tokens_of

__all__ = ["EVERY", "IDS", "Clause", "read_clause"]

EVERY = frozenset({"all", "everything", "anything", "whatever"})
"""Words for a whole set ("restock everything under its minimum")."""


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


@dataclass
class Clause:
    text: str
    tokens: list[Token]
    question: bool
    leftover: list[tuple[int, int]] = field(default_factory=list)
    """Spans of the words not understood."""
    acts: set[str] = field(default_factory=set)
    negated: str | None = None
    """The words that forbid writes ("do not place", "just tell")."""
    negates: str | None = None
    """The one action those words forbid (`write`: "don't reorder", `cancel`: "don't cancel"),
    or None when they forbid every write ("don't change anything", "just tell me"). A task
    that asks only for another action still does it ("cancel PO-1 and don't reorder it")."""

    stop: str | None = None
    """The words that defer, hand over or ask hypothetically ("later", "I will", "if")."""
    own: bool = False
    """The user takes some items on themselves ("I'll handle SKU-1 myself", "SKU-1 我自己来",
    "…except SKU-1, which I will order myself"): its ids are left out, its act is the user's,
    and its stop holds only where no other clause asks for a write."""
    aside: bool = False
    """Its ids are left out as a whole (a write already made, put off, taken on by the user or
    someone else): beside no write, they are what a report covers."""
    low_condition: bool = False
    """"If <items> are low" and nothing else ("if anything is low", "如果 SKU-1 缺货"): beside a
    replenishment, which only ever orders what is low, it says nothing the write does not."""
    rest_deferred: bool = False
    """The clause only puts off "the rest" ("the rest can wait", "其他的下周再说"): beside a
    write that names its SKUs or warehouses, it defers what that write leaves out."""
    positive: list[Token] = field(default_factory=list)
    excluded: list[Token] = field(default_factory=list)
    rules: list[int] = field(default_factory=list)
    loose: list[int] = field(default_factory=list)
    conditions: list[int] = field(default_factory=list)
    """Conditions on the live on-hand (`<C#>`)."""
    names: list[str] = field(default_factory=list)
    """Warehouse names no warehouse of the store answers to."""
    beyond: bool = False
    disregard: str | None = None
    """Words that turn from cited text ("ignore it"): understood when the task cites some."""
    only_these: str | None = None
    """"Nothing else" in a clause of its own: understood when the task names what it limits
    the writes to."""
    quoting: bool = False
    """The clause cites text after a source ("the note on the screen says …")."""
    cited: list[Token] = field(default_factory=list)
    """Ids in text the clause cites ("the note says order SKU-1"): never written to."""
    reason: str | None = None
    """Words that only explain ("it was a mistake"): understood beside a cancel."""
    joined: list[Token] = field(default_factory=list)
    """Ids added to a set the clause names ("the low items as well as SKU-1"): in it when it
    holds them, never a scope narrowing it."""

    @property
    def understood(self) -> bool:
        return not self.leftover

    def quote(self, spans: Iterable[tuple[int, int]]) -> str:
        return " … ".join(_join_spans(self.text, spans))

    def span(self, first: Token, last: Token) -> str:
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


def _names(tokens: list[Token], clause: str) -> list[Token]:
    """A run of words outside the vocabulary right before a warehouse noun ("north
    warehouse", "东区仓") is a warehouse's name the store did not answer to: one token."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j].tag == "unknown":
            j += 1
        if j > i and j - i <= 4 and j < len(tokens) and tokens[j].tag == "warehouse_noun":
            start, end = tokens[i].start, tokens[j].end
            out.append(Token(clause[start:end], "placeholder", start, end, "N"))
            i = j + 1
            continue
        out.append(tokens[i])
        i += 1
    return out


def _resolve(tokens: list[Token]) -> None:
    """Tags that depend on their place: `order` (verb or noun), `req_modal`, `but`, number
    words, and words understood only beside a negation or an order noun."""
    _double_negations(tokens)
    for i, token in enumerate(tokens):
        before = [t for t in tokens[:i] if t.tag != "polite"]
        after = tokens[i + 1 :]
        nxt = next((t for t in after if t.tag != "filler" or t.text in _VERB_OBJECTS), None)
        if token.tag == "req_modal":
            token.tag = "polite" if all(t.tag == "filler" for t in before) else "hypo"
            if token.tag == "polite" and after and after[0].tag == "modal":
                after[0].tag = "polite"  # "could you possibly …": politeness, not a hedge
        elif token.tag == "order":
            token.tag = "write" if _order_is_verb(token, tokens[:i], nxt) else "order_noun"
        elif token.tag == "but":
            # "everything but SKU-1", "all but the ones under 50 on hand": before what it
            # leaves out (past articles and nouns) an exclusion; else a conjunction.
            named = next((t for t in after if t.tag not in ("filler", "object")), None)
            token.tag = "excl" if named is not None and named.kind in ROLES else "filler"
        elif token.tag == "number":
            # "2 screenshots", "3 warehouses": a count of what follows right after it. A
            # number further from what it counts ("and 30 in WH-02") is not understood: it
            # may be a quantity the reader has no term for.
            target = after[0] if after else None
            fine = target is not None and (
                target.tag in ("context", "warehouse_noun") or target.kind == "N"
            )
            token.tag = "filler" if fine else "unknown"
        elif token.tag == "number_word":
            target = next((t for t in after if t.tag != "filler" and t.kind != "D"), None)
            # "both are low": the items just named, said to be low (in a clause that only
            # says so: "the two lowest items" is a part of a set).
            stated = (
                target is not None
                and target.tag == "low"
                and not any(t.tag in ("write", "make", "object") for t in tokens)
            )
            fine = stated or (
                target is not None
                and (
                    target.tag in ("context", "warehouse_noun")
                    or target.kind in ("S", "W", "Q", "N")
                )
            )
            token.tag = "filler" if fine else "unknown"
        elif token.tag == "agent" and nxt is not None and nxt.tag == "low":
            # "we're almost out of SKU-1", "our team is low on SKU-1": who is low, not someone
            # acting on SKU-1 ("we've ordered SKU-1" stays an aside).
            token.tag = "filler"
        elif token.tag == "context_adj":
            target = next((t for t in after if t.tag not in ("filler", "context_adj")), None)
            follows = after[0] if after else None
            fine = (target is not None and target.tag == "context") or (
                follows is not None and follows.text in ("one", "ones")
            )
            token.tag = "context" if fine else "unknown"
    _hold_frames(tokens)
    _asides(tokens)
    _split_verbs(tokens)
    _causative(tokens)
    for i, token in enumerate(tokens):
        if token.tag == "described":
            # "everything marked low": a marking the reader knows; "the flagged items" or
            # "flagged as urgent" names a marking it does not, which may be fewer items.
            marked = next((t for t in tokens[i + 1 :] if t.tag != "filler"), None)
            token.tag = "filler" if marked is not None and marked.tag == "low" else "unknown"
    has = {t.tag for t in tokens}
    for token in tokens:
        unsupported = (token.tag == "modify" and "neg" not in has) or (
            token.tag == "neg_companion" and not {"neg", "excl", "excl_post"} & has
        )
        if unsupported:
            token.tag = "unknown"
        elif token.tag == "neg_companion":
            token.tag = "filler"
        elif token.tag == "raise":
            # "bring them up to 200": a verb that writes only with a level to reach.
            token.tag = "write" if any(t.kind == "R" for t in tokens) else "unknown"
        elif token.tag == "make" and not ({"order_noun", "write"} & has):
            token.tag = "report" if "report" in has else "unknown"
        elif token.kind == "D":
            writes = "write" in has and "context" not in has
            token.tag = "defer" if writes else "context"


def _double_negations(tokens: list[Token]) -> None:
    """A negation of leaving something out asks for it: "don't forget to reorder", "make sure
    you don't skip the low items", "don't leave out SKU-1", "别忘了补货". The negation and the
    word it negates are then read as asking (`polite`); a word of leaving out with no negation
    stays not understood."""
    for i, token in enumerate(tokens):
        if token.tag != "neg":
            continue
        after = next((t for t in tokens[i + 1 :] if t.tag not in ("filler", "polite")), None)
        if after is not None and (
            after.tag == "omit" or (after.tag == "excl" and "skip" in after.text)
        ):
            token.tag = after.tag = "polite"
    for i, token in enumerate(tokens):
        if token.tag == "omit":
            # "Forget SKU-1, restock the rest": leaving out the ids right after it.
            after = next((t for t in tokens[i + 1 :] if t.tag != "filler"), None)
            token.tag = "excl" if after is not None and after.kind in IDS else "unknown"


_SETS = frozenset({"everything", "anything", "whatever"})


def _joined(tokens: list[Token]) -> list[Token]:
    """The ids after `plus` ("and also", "as well as") when a set and no id comes before it
    ("restock the low items and also SKU-1"); a quantity there is its own order, not
    understood. Elsewhere `plus` only joins a list."""
    for i, token in enumerate(tokens):
        if token.tag != "plus":
            continue
        token.tag = "filler"
        before, after = tokens[:i], tokens[i + 1 :]
        general = any(
            t.tag == "low" or (t.tag == "object" and t.text in _SETS) or t.text == "all"
            for t in before
        )
        if not general or any(t.kind in IDS for t in before):
            continue
        for t in after:
            if t.kind == "Q":
                t.tag = "unknown"
        return [t for t in after if t.kind == "S"]
    return []


def _split_verbs(tokens: list[Token]) -> None:
    """ "Top everything up", "fill them up": the verb and its `up` after the object are one
    write; either alone is not understood."""
    for i, token in enumerate(tokens):
        if token.tag != "split":
            continue
        up = next((t for t in tokens[i + 1 :] if t.tag == "particle"), None)
        if up is not None:
            token.tag, up.tag = "write", "filler"
    for token in tokens:
        if token.tag in ("split", "particle"):
            token.tag = "unknown"


_CAUSATIVE = frozenset({"get", "gets", "have"})
_PARTICIPLES = frozenset(
    {"ordered", "reordered", "re-ordered", "replenished", "restocked", "purchased", "raised"}
)


def _causative(tokens: list[Token]) -> None:
    """ "Get the low items reordered", "can you have SKU-1 restocked": a request that opens
    with get / have asks for the write its participle names (no one else is said to act)."""
    first = next((t for t in tokens if t.tag != "polite"), None)
    if tokens and tokens[0].text.endswith("if you"):
        # "I'd appreciate it if you restocked …": the past tense of a polite request.
        first = tokens[0]
    else:
        polite = any(t.tag == "polite" for t in tokens)
        got = [i for i, t in enumerate(tokens) if t.text in ("get", "gets")]
        if polite and got and got[0] + 1 < len(tokens):
            # "please make sure the low items get reordered"
            first = tokens[got[0]] if tokens[got[0] + 1].tag == "write_past" else first
        if first is None or first.text not in _CAUSATIVE:
            return
    if first is None:
        return
    after = tokens[tokens.index(first) + 1 :]
    if after and after[0].text in ("you", "we", "i", "they", "it", "its"):
        return  # "have you reordered …": a question of what was done
    if any(t.tag in ("agent", "self", "neg") for t in tokens):
        return
    for token in tokens:
        if token.tag == "write_past" and token.text in _PARTICIPLES:
            token.tag = "write"


def _hold_frames(tokens: list[Token]) -> None:
    """ "Keep SKU-1 as is", "leave SKU-1 and SKU-2 out of it": a verb of keeping, the ids, and
    the words that close the frame leave those ids out (the close reads as a postposed
    exclusion). `keep` and `leave` elsewhere ("keep SKU-1 stocked") are not understood."""
    for i, token in enumerate(tokens):
        if token.tag != "hold":
            continue
        j = i + 1
        while j < len(tokens) and (tokens[j].kind in IDS or tokens[j].tag == "filler"):
            j += 1
        named = any(t.kind in IDS for t in tokens[i + 1 : j])
        closes = j < len(tokens) and (
            tokens[j].tag == "hold_end" or tokens[j].text in ("for now", "for the moment")
        )
        if named and closes:
            token.tag, tokens[j].tag = "filler", "excl_post"
    for token in tokens:
        if token.tag in ("hold", "hold_end"):
            token.tag = "unknown"


_ASKS = frozenset({"write", "make", "cancel", "order", "raise"})


def _citations(tokens: list[Token]) -> tuple[list[Token], bool]:
    """Text the task cites, not asks for: quoted words (`quote`), and what follows a word of
    citing after a source ("the note on the screen says order 500 of SKU-1", "截图上写着…").
    Cited words are read as nothing asked: their ids are kept as `cited` (never written to),
    their quantities and verbs count for nothing. A word that turns from them ("ignore the
    note that says …") turns from nothing the task asks. A citing word with no source before
    it or no words after, a source with no citing, and a citation in the clause of a request
    (whose object it may be) are not understood."""
    quoted = any(t.tag == "quote" for t in tokens)
    start = next(
        (
            i
            for i, t in enumerate(tokens)
            if t.tag == "cite"
            and i + 1 < len(tokens)
            and any(b.tag in ("source", "context", "quote") for b in tokens[:i])
        ),
        None,
    )
    end = start if start is not None else len(tokens)
    if any(t.tag in _ASKS for t in tokens[:end]) and (quoted or start is not None):
        # "Restock what the note says: SKU-1": the request's object may be the cited words.
        for token in tokens:
            if token.tag in ("cite", "source", "quote"):
                token.tag = "unknown"
        return [], False
    cited: list[Token] = []
    if start is not None:
        for token in tokens[start + 1 :]:
            if token.kind in IDS:
                cited.append(Token(token.text, "cited", token.start, token.end, token.kind))
                cited[-1].index = token.index
            token.tag, token.kind = "filler", ""
    framed = quoted or start is not None
    for i, token in enumerate(tokens):
        if token.tag == "quote" or (token.tag in ("cite", "source") and framed):
            token.tag = "filler"
        elif token.tag in ("cite", "source"):
            token.tag = "unknown"
        elif framed and token.tag == "excl" and not any(t.kind in IDS for t in tokens[i:]):
            token.tag = "filler"
    return cited, start is not None


_EXPLAINS = frozenset(
    {"filler", "object", "order_noun", "write_past", "reason", "polite", "agent", "placeholder"}
)
"""What a clause that only explains may hold beside its reason: orders it names
("PO-1 was a duplicate") are the ones the task's cancel is about."""


def _asides(tokens: list[Token]) -> None:
    """Words that explain or restate without asking anything more: a reason ("it was a
    mistake") beside a cancel or in a clause of nothing else (`reason`: the task must be a
    cancel, whose order it explains, not a request it may take back), and a restatement ("I mean the
    low ones only") that names no id (one that does may correct the ids before it: the task
    is then a report)."""
    for i, token in enumerate(tokens):
        if token.tag == "settled":
            token.tag = "excl_post"  # "SKU-1 is on its way", "PO-1 is fine": left as they are
        elif token.tag == "unwanted":
            # "SKU-1 is discontinued" leaves SKU-1 out; "PO-1 is no longer needed" is why
            # PO-1 goes.
            ids = [t for t in tokens[:i] if t.kind in IDS]
            token.tag = "reason" if ids and all(t.kind == "O" for t in ids) else "excl_post"
    tags = {t.tag for t in tokens}
    named = any(t.kind in ("S", "W", "Q") for t in tokens)
    for token in tokens:
        if token.tag == "reason":
            alone = not named and tags <= _EXPLAINS
            token.tag = "filler" if "cancel" in tags else "reason" if alone else "unknown"
        elif token.tag == "only_these":
            # "Order 30 of SKU-1 and nothing else": the ids before it are all; alone in its
            # clause it is read against the task's ids (`pipeline.contract.reading`).
            before = tokens[: tokens.index(token)]
            if any(t.kind in IDS for t in before):
                token.tag = "only"
            elif named or not tags <= {"only_these", "filler", "polite"}:
                token.tag = "unknown"
        elif token.tag == "restate":
            # "order SKU-1, I mean SKU-2" corrects: which ids stand is not clear, so the
            # task asks nothing to be written (as a hypothetical does).
            token.tag = "hypo" if named else "filler"


def _order_is_verb(token: Token, before: Sequence[Token], nxt: Token | None) -> bool:
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


def read_clause(text: str, question: bool) -> Clause:
    tokens = _names(tokens_of(text), text)
    cited, quoting = _citations(tokens)
    _resolve(tokens)
    _unwanted_orders(tokens)
    _kept_stocked(tokens)
    clause = Clause(text, tokens, question)
    clause.cited, clause.quoting = cited, quoting
    has = {t.tag for t in tokens}
    clause.joined = _joined(tokens)
    clause.reason = next((t.text for t in tokens if t.tag == "reason"), None)
    clause.only_these = next((t.text for t in tokens if t.tag == "only_these"), None)
    clause.disregard = next((t.text for t in tokens if t.tag == "disregard"), None)
    # A correction ("wait, no", "scratch that", "不对") changes what came before in ways the
    # clauses do not say: never understood.
    clause.leftover = [
        (t.start, t.end) for t in tokens if t.tag in ("unknown", "retract", "unless", "part")
    ]
    ids = [t for t in tokens if t.kind in ("S", "W", "O", "Q")]
    clause.names = [t.text for t in tokens if t.kind == "N"]

    # What the clause does, and whether it stops the task from writing at all. A verb under
    # a negation is not asked for ("SKU-20111 先别补"), unless "other" / "but" comes between
    # ("不要补 SKU-1，其他都补").
    free = free_of_negation(tokens)
    writes = any(t.tag == "write" and ok for t, ok in zip(tokens, free, strict=True)) or (
        any(t.tag == "make" and ok for t, ok in zip(tokens, free, strict=True))
        and "order_noun" in has
    )
    cancels = any(t.tag == "cancel" and ok for t, ok in zip(tokens, free, strict=True))
    if question and writes and _which_first(tokens):
        # "哪些要补货？", "which ones to reorder?": the write says which items are asked
        # about, it is not asked for; the clause is a report.
        writes = False
    past = "write_past" in has and not writes
    stop = next((t for t in tokens if t.tag in ("defer", "self", "hypo", "advice")), None)
    agent = next((t for t in tokens if t.tag == "agent"), None)
    modal = next((t for t in tokens if t.tag == "modal"), None)
    # "SKU-10501 can wait", "SKU-10318 下次再说": a clause of ids and one deferral after them
    # (nothing else) defers those ids, which are left out; the rest of the task stands.
    deferred = (
        stop is not None
        and stop.tag == "defer"
        and any(t.kind in ("S", "W", "Q") for t in ids)
        and all(t.kind in IDS or t.tag in ("defer", "filler", "polite") for t in tokens)
        and [t.tag for t in tokens if not (t.kind in IDS or t.tag in ("filler", "polite"))]
        == ["defer"]
        and max(t.start for t in ids) < stop.start
    )
    if deferred:
        stop = None
    clause.own = _own(tokens, ids, stop)
    clause.low_condition = (
        stop is not None
        and stop.text in _IF
        and "low" in has
        and not any(t.kind in ("O", "Q", "R", "L", "C") for t in tokens)
        and all(t.kind in IDS or t.tag in ("hypo", "low", "object", "filler") for t in tokens)
    )
    clause.rest_deferred = (
        stop is not None
        and stop.tag == "defer"
        and not ids
        and "else" in has
        and all(t.tag in ("else", "defer", "filler", "polite", "object") for t in tokens)
    )
    if stop is not None:
        clause.stop = stop.text
    elif question and "polite" not in has and (writes or cancels):
        clause.stop = text.strip() + "?"
    elif agent is not None and writes:
        clause.stop = agent.text
    elif modal is not None and writes and agent is None:
        clause.stop = modal.text

    negation = next((t for t in tokens if t.tag == "neg"), None)
    if negation is not None and ids and not negation_attached(tokens):
        # "Don't these rows are from WH-01": a negation of nothing it can name; its ids are
        # not read as excluded, the clause is not understood.
        clause.leftover += [(t.start, t.end) for t in tokens if t.tag == "neg"]
    other_act = negation is not None and (
        objects_of_another_act(tokens, tokens.index(negation))
        or negates_every_write(tokens, tokens.index(negation))
    )
    if negation is not None and (other_act or not ids) and not any(t.tag == "else" for t in tokens):
        clause.negated, clause.negates = _negated_write(clause, tokens, negation)
        if clause.negated is None and not negates_a_look(tokens, tokens.index(negation)):
            # A negation of nothing the reader knows ("the items that are not low").
            clause.leftover.append((negation.start, negation.end))
    if "only" in has and "report" in has and not writes and not cancels:
        first = next(t for t in tokens if t.tag == "only")
        last = next(t for t in tokens if t.tag == "report")
        if clause.negated is None:
            clause.negated, clause.negates = clause.span(*sorted((first, last), key=_at)), None

    if writes:
        clause.acts.add("write")
    if cancels:
        clause.acts.add("cancel")
    if "report" in has or question:
        clause.acts.add("report")
    clause.beyond = "beyond" in has

    # The roles of its ids.
    if clause.own:
        clause.acts -= {"write", "report"}
    clause.aside = past or deferred or agent is not None or clause.own
    if clause.aside:
        # "a colleague may have ordered some of it": a part of what someone else did scopes
        # nothing this task writes.
        parts = {(t.start, t.end) for t in tokens if t.tag == "part"}
        clause.leftover = [span for span in clause.leftover if span not in parts]
    positive, excluded = assign_roles(tokens, all_excluded=clause.aside)
    clause.positive += positive
    clause.excluded += excluded
    clause.positive = [t for t in clause.positive if t not in clause.joined]
    # "Reordering SKU-1 is not needed", "reorder SKU-1, which is on its way": the write's only
    # objects are left out by the words after them, and no set is named: nothing is asked.
    sets = {"low", "object", "else", "beyond", "each_warehouse"} & has or any(
        t.text in EVERY for t in tokens
    )
    if (
        "write" in clause.acts
        and clause.excluded
        and not clause.positive
        and "excl_post" in {t.tag for t in tokens}
        and not sets
    ):
        clause.acts.discard("write")
    clause.rules = [t.index for t in tokens if t.kind == "R"]
    clause.loose = [t.index for t in tokens if t.kind == "L"]
    # A condition on the live on-hand only ever narrows what is written: one the clause leaves
    # out ("everything but what's under 50 on hand") says no term of a contract, so the clause
    # is not understood, never read as the scope it names.
    clause.conditions = [t.index for t in clause.positive if t.kind == "C"]
    clause.leftover += [(t.start, t.end) for t in clause.excluded if t.kind == "C"]
    clause.positive = [t for t in clause.positive if t.kind != "C"]
    clause.excluded = [t for t in clause.excluded if t.kind != "C"]

    # Structure: an exclusion needs ids, and a SKU or an order needs something that gives it
    # a role; otherwise the clause is not understood.
    for token in tokens:
        if token.tag == "excl" and not ids_after(tokens, token):
            clause.leftover.append((token.start, token.end))
        if token.tag == "excl_post" and not ids_before(tokens, token):
            clause.leftover.append((token.start, token.end))
    anchors = {"write", "make", "cancel", "report", "only", "excl", "excl_post", "neg"}
    anchors |= {"write_past", "agent", "reason"} | ({"defer"} if deferred else set())
    anchors |= {"self"} if clause.own else set()
    anchors |= {"hypo"} if clause.low_condition else set()
    anchored = bool(anchors & has) or question
    if any(t.kind in ("S", "O") for t in ids) and not anchored and not clause.leftover:
        clause.leftover += [(t.start, t.end) for t in ids if t.kind in ("S", "O")]
    return clause


_WHICH = frozenset({"which", "what", "哪些", "哪个", "哪几个", "哪几样", "什么"})


def _which_first(tokens: Sequence[Token]) -> bool:
    """A question word before the clause's first write verb (nothing that hedges or advises
    in it): the verb describes the items the question is about."""
    first = next((k for k, t in enumerate(tokens) if t.tag in ("write", "make")), None)
    if first is None or any(t.tag in ("hypo", "advice", "modal", "req_modal") for t in tokens):
        return False
    return any(t.tag == "report" and t.text in _WHICH for t in tokens[:first])


_IF = frozenset({"if", "in case", "如果", "假如", "要是", "万一", "若"})
"""Words that open a condition (as well as a hypothetical)."""


def _kept_stocked(tokens: list[Token]) -> None:
    """ "Don't let WH-01 run out", "never let SKU-1 go low", "别让 WH-01 断货": a negation of
    letting items be low asks to keep them stocked, a replenishment of them (the negation is
    consumed, `let` read as the write). Anything else after `let` is left as it is."""
    for k, token in enumerate(tokens[:-1]):
        allow = tokens[k + 1]
        if token.tag != "neg" or not (allow.tag == "allow" or allow.text == "让"):
            continue
        after = tokens[k + 2 :]
        kept = (
            any(t.tag == "low" for t in after)
            and all(t.kind in IDS or t.tag in ("object", "filler", "low") for t in after)
            and not any(t.tag in ("cancel", "report") for t in tokens)
        )
        if kept:
            token.tag, allow.tag = "filler", "write"
        break
    for token in tokens:
        if token.tag == "allow":
            token.tag = "unknown"


_NOT_WANTED = frozenset({"don't want", "dont want", "do not want"})


def _unwanted_orders(tokens: list[Token]) -> None:
    """Orders the user says they do not want, with no verb ("I don't want PO-1 anymore",
    "PO-1 不要了", "cancel PO-1, I don't want it"): why they go beside a cancel (read as a
    `reason`), never a negation that leaves them out of it. A clause that holds anything but
    orders and those words is left as it is ("cancel PO-2, not PO-1" keeps PO-1)."""
    if any(t.kind in IDS and t.kind != "O" for t in tokens):
        return
    if not all(
        t.kind == "O" or t.tag in ("neg", "agent", "filler", "neg_companion", "polite")
        for t in tokens
    ):
        return
    for i, token in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.tag == "neg" and (
            token.text in _NOT_WANTED
            or (token.text == "不要" and after is not None and after.text == "了")
        ):
            token.tag = "reason"
            for other in tokens[:i]:
                if other.tag == "agent" and other.text in ("i", "we"):
                    other.tag = "filler"
            return


_OWN_WORDS = frozenset(
    {"self", "filler", "polite", "write", "order", "make", "order_noun", "object"}
)
"""What a clause in which the user takes items on themselves may hold besides their ids."""
_RELATIVE = frozenset({"which", "that", "those"})


def _own(tokens: Sequence[Token], ids: Sequence[Token], stop: Token | None) -> bool:
    """Whether the clause only says the user will see to some items themselves: a `self`
    word, SKUs or warehouses (or, for none, a relative word that points back to the ids
    before it: "which I will order myself") and nothing else but their own act."""
    if stop is None or stop.tag != "self" or any(t.kind in ("O", "Q", "R", "L") for t in ids):
        return False
    rest = [t for t in tokens if t.kind not in IDS]
    if not ids:
        if not rest or rest[0].text not in _RELATIVE:
            return False
        rest = rest[1:]
    return all(t.tag in _OWN_WORDS for t in rest)


def _at(token: Token) -> int:
    return token.start


def _negated_write(
    clause: Clause, tokens: Sequence[Token], negation: Token
) -> tuple[str | None, str | None]:
    """The words that forbid writes: the negation up to the write it negates (after it, or
    before it: "replenish nothing"), and the action they forbid (None: every write)."""
    start = tokens.index(negation)
    for token in tokens[start:]:
        if token.tag in WRITE_LIKE:
            return clause.span(negation, token), _FORBIDS.get(token.tag)
    for token in reversed(tokens[:start]):
        if token.tag in WRITE_LIKE:
            return clause.span(token, negation), _FORBIDS.get(token.tag)
    for token in tokens[start:]:
        if token.tag == "object" and token.text in ("anything", "everything"):
            return clause.span(negation, token), None
    return None, None


_FORBIDS = {
    "write": "write",
    "make": "write",
    "order_noun": "write",
    "write_past": "write",
    "cancel": "cancel",
}
"""The action a negated verb forbids; a verb of change in general (`modify`) forbids all."""
