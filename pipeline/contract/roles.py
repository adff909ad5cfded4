"""Which ids a clause's words take up and which they leave out: a negation attached to what it
negates (or to nothing the clause names), the ids an exclusion marker governs before or after
it, and the clauses whose every id is left out. Pure functions over a clause's tokens."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.contract.tokens import Token

__all__ = [
    "IDS",
    "PASS_OVER",
    "ROLES",
    "WRITE_LIKE",
    "assign_roles",
    "free_of_negation",
    "governed_before",
    "ids_after",
    "ids_before",
    "negates_a_look",
    "negates_every_write",
    "negation_attached",
    "objects_of_another_act",
]

WRITE_LIKE = frozenset({"write", "make", "order_noun", "modify", "cancel", "write_past"})
"""What a negation attached to a clause negates: a verb of writing or change."""
PASS_OVER = frozenset({"filler", "neg_companion", "polite", "neg"})
"""Words between a negation and what it negates that it reaches past (`not even`, `please`)."""


def negation_attached(tokens: Sequence[Token]) -> bool:
    """Every negation in a clause that names ids negates a write ("don't order SKU-1",
    "SKU-1 先别补"), or stands right before the ids ("not SKU-1") or right after them at the end
    ("SKU-1 不要"); otherwise the clause does not say what it negates."""
    for i, token in enumerate(tokens):
        if token.tag != "neg":
            continue
        after = next((t for t in tokens[i + 1 :] if t.tag not in PASS_OVER), None)
        before = next((t for t in reversed(tokens[:i]) if t.tag not in PASS_OVER), None)
        if after is None:
            if before is None or before.kind not in ("S", "W", "O", "Q"):
                return False
        elif after.tag not in WRITE_LIKE and after.kind not in ("S", "W", "O", "Q"):
            return False
    return True


def free_of_negation(tokens: Sequence[Token]) -> list[bool]:
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


def ids_after(tokens: Sequence[Token], marker: Token) -> bool:
    start = tokens.index(marker)
    return any(t.kind in ROLES for t in tokens[start + 1 :])


def ids_before(tokens: Sequence[Token], marker: Token) -> bool:
    start = tokens.index(marker)
    return any(t.kind in ROLES for t in tokens[:start])


IDS = ("S", "W", "O", "Q")
ROLES = (*IDS, "C")
"""What takes a role in a clause: the ids, and conditions on the live on-hand (`<C#>`), which
are left out by the same words that leave ids out."""


def assign_roles(tokens: Sequence[Token], *, all_excluded: bool) -> tuple[list[Token], list[Token]]:
    """The ids and conditions of a clause, positive (the object of the action, a scope) and
    excluded: after an exclusion marker (until the next verb) or a negation (until "but" or
    "other"), before a postposed exclusion (除外, 以外, excepted) or a negation with no id
    after it ("SKU-1 先别补"), or anywhere in a clause that tells of a write already made or of
    someone else's action."""
    if all_excluded:
        return [], [t for t in tokens if t.kind in ROLES]
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
            if any(t.kind in ROLES for t in ahead[:stop]):
                mode = "neg"
            elif not objects_of_another_act(tokens, i):
                excluded |= governed_before(tokens, i, stop_at_quantity=False)
        elif (token.tag == "else" or token.text == "but") or (
            token.tag in ("write", "make", "cancel", "report") and mode == "excl"
        ):
            mode = None
        elif token.kind in ROLES and mode is not None:
            excluded.add(i)
        elif token.tag == "excl_post":
            excluded |= governed_before(tokens, i, stop_at_quantity=True)
    positive = [t for i, t in enumerate(tokens) if t.kind in ROLES and i not in excluded]
    return positive, [t for i, t in enumerate(tokens) if t.kind in ROLES and i in excluded]


_ACT = {"write": "write", "make": "write", "cancel": "cancel"}


def objects_of_another_act(tokens: Sequence[Token], negation: int) -> bool:
    """The ids before a negation that names none are the objects of a verb of another action
    ("Cancel PO-1 and don't reorder it"): the negation forbids its own action, it does not
    exclude them. Under the same action ("reorder SKU-1, no, don't reorder it") they are."""
    negated = next((_ACT[t.tag] for t in tokens[negation + 1 :] if t.tag in _ACT), None)
    before = next((_ACT[t.tag] for t in reversed(tokens[:negation]) if t.tag in _ACT), None)
    return negated is not None and before is not None and before != negated


def negates_a_look(tokens: Sequence[Token], negation: int) -> bool:
    """ "No need to check, just reorder": a negation of looking or asking forbids no write."""
    after = next((t for t in tokens[negation + 1 :] if t.tag not in PASS_OVER), None)
    return after is not None and after.tag == "report" and not any(t.kind in IDS for t in tokens)


def negates_every_write(tokens: Sequence[Token], negation: int) -> bool:
    """A negation of change itself ("cancel PO-1 but don't change anything") forbids every
    write, whatever ids that verb names; with ids after it ("don't touch SKU-1") or with no
    verb before it ("WH-02 暂时不管") it leaves those ids out."""
    ahead = tokens[negation + 1 :]
    after = next((t for t in ahead if t.tag not in PASS_OVER), None)
    named = any(t.kind in IDS for t in ahead)
    asked = any(t.tag in ("write", "make", "cancel") for t in tokens[:negation])
    return after is not None and after.tag == "modify" and not named and asked


def governed_before(tokens: Sequence[Token], end: int, *, stop_at_quantity: bool) -> set[int]:
    """The ids a postposed marker at `end` governs: the group right before it (ids joined by
    filler words, a relative "which" or the one it speaks of: "SKU-1 which we are phasing
    out"; a quantity-bearing id ends it for an exclusion), or for a negation every id back to
    "but" / "other" or the clause's start."""
    found: set[int] = set()
    kind = ""
    j = end - 1
    while j >= 0:
        token = tokens[j]
        if token.tag == "else" or token.text == "but":
            break
        if token.kind in ROLES:
            if stop_at_quantity and (token.kind == "Q" or kind not in ("", token.kind)):
                break
            kind = token.kind
            found.add(j)
        elif (
            stop_at_quantity
            and token.tag not in ("filler", "neg_companion", "agent")
            and (token.text not in ("which", "who"))
        ):
            break
        j -= 1
    return found
