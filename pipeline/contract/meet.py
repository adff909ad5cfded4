"""Two readings of one task, and what both allow.

`meet(a, b)` is the contract that allows a write only where both readings allow it: writes
only when both allow writes and agree on the action, scopes intersected, exclusions united,
the screen-only limit kept if either has it, the lower of two on-hand conditions, quantities
only where both agree (a SKU whose quantity the readings disagree on is left out; a different
rule leaves no writes). So a
second reading (a model's) can narrow what the reader allows and never widen it.

`widenings(a, b)` says what `a` allows that `b` does not, in words: the test of that promise
(and of the reader's own: a rewrite that adds a negation, a deferral or an exclusion never
allows more than the original).

`settle(reading, model)` is the final contract of a run. The reader's own when no model read
the task, when the task defers, hands the action over or asks hypothetically (a report
whatever the model says), and when the reader accounted for every word: a full reading stands,
and a model that reads it otherwise is recorded and said, never met with it (a second reading
that can only subtract costs right readings and recovers none). Only where the reader did not
account for every word is the final contract the meet of its fallback (what its understood
clauses allow) and the model's reading; the model's reading itself is then a suggestion for a
person to confirm, never a write on its own. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pipeline.contract.terms import Action, Question, TaskContract, TaskReading, question

__all__ = ["meet", "offer", "settle", "widenings"]


def _scope(a: Sequence[str], b: Sequence[str]) -> tuple[tuple[str, ...], bool]:
    """Both readings' "only these" lists met: (the list, whether anything is left at all)."""
    if not a:
        return tuple(b), True
    if not b:
        return tuple(a), True
    both = tuple(x for x in a if x in b)
    return both, bool(both)


def _lower(a: int | None, b: int | None) -> int | None:
    """Two conditions "on hand below N" met: the lower (None: no condition)."""
    return b if a is None else a if b is None else min(a, b)


def _report(contract: TaskContract, why: str) -> TaskContract:
    return contract.as_report(notes=(*contract.notes, why))


def meet(a: TaskContract, b: TaskContract) -> TaskContract:
    """What both `a` and `b` allow (see the module docstring); `notes` say where they
    disagreed."""
    notes = list(dict.fromkeys((*a.notes, *b.notes)))
    exclude_skus = tuple(dict.fromkeys((*a.exclude_skus, *b.exclude_skus)))
    exclude_warehouses = tuple(dict.fromkeys((*a.exclude_warehouses, *b.exclude_warehouses)))
    warehouses, some_warehouse = _scope(a.warehouses, b.warehouses)
    skus, some_sku = _scope(a.skus, b.skus)
    warehouses = tuple(w for w in warehouses if w not in exclude_warehouses)
    skus = tuple(s for s in skus if s not in exclude_skus)
    some_warehouse = some_warehouse and (bool(warehouses) or not (a.warehouses or b.warehouses))
    some_sku = some_sku and (bool(skus) or not (a.skus or b.skus))
    base = TaskContract(
        action="report",
        writes_allowed=False,
        warehouses=warehouses,
        exclude_warehouses=exclude_warehouses,
        skus=skus,
        exclude_skus=exclude_skus,
        screen_only=a.screen_only or b.screen_only,
        on_hand_below=_lower(a.on_hand_below, b.on_hand_below),
        notes=tuple(notes),
        not_understood=tuple(dict.fromkeys((*a.not_understood, *b.not_understood))),
    )
    if not (a.writes_allowed and b.writes_allowed):
        return base
    creates = ("replenish", "order")
    if a.action != b.action and not (a.action in creates and b.action in creates):
        return _report(base, f"the readings disagree: {a.action} or {b.action}")
    if not (some_warehouse and some_sku):
        return _report(base, "no warehouse or SKU is allowed by both readings")
    if a.action == "cancel":
        if set(a.order_ids) != set(b.order_ids):
            return _report(base, "the readings name different orders to cancel")
        return base.model_copy(
            update={"action": "cancel", "writes_allowed": True, "order_ids": a.order_ids}
        )
    if a.quantity_rule != b.quantity_rule:
        return _report(base, "the readings disagree on the quantity rule")
    quantities: dict[str, int] = {}
    left_out: list[str] = []
    for sku in dict.fromkeys((*a.quantities, *b.quantities)):
        if sku in exclude_skus or (skus and sku not in skus):
            continue
        if a.quantities.get(sku) == b.quantities.get(sku):
            quantities[sku] = a.quantities[sku]
        else:
            left_out.append(sku)
    if left_out:
        exclude_skus = (*exclude_skus, *left_out)
        skus = tuple(s for s in skus if s not in left_out)
        notes.append(f"left {', '.join(left_out)} out: the readings disagree on the quantity")
        if (a.skus or b.skus) and not skus:
            return _report(
                base.model_copy(update={"exclude_skus": exclude_skus, "skus": ()}), notes[-1]
            )
    action: Action = "order" if quantities else "replenish"
    if a.action == b.action:
        action = a.action
    return base.model_copy(
        update={
            "action": action,
            "writes_allowed": True,
            "skus": skus,
            "exclude_skus": exclude_skus,
            "quantities": quantities,
            "quantity_rule": a.quantity_rule,
            "notes": tuple(notes),
        }
    )


def widenings(a: TaskContract, b: TaskContract) -> list[str]:
    """What `a` allows that `b` does not, in words (empty: `a` allows at most what `b`
    does)."""
    if not a.writes_allowed:
        return []
    if not b.writes_allowed:
        return [f"{a.action} with writes where the other allows none"]
    found: list[str] = []
    creates = ("replenish", "order")
    if a.action != b.action and not (a.action in creates and b.action in creates):
        found.append(f"{a.action} where the other reads {b.action}")
    if b.warehouses and (not a.warehouses or set(a.warehouses) - set(b.warehouses)):
        found.append("warehouses beyond " + ", ".join(b.warehouses))
    if b.skus and (not a.skus or set(a.skus) - set(b.skus)):
        found.append("SKUs beyond " + ", ".join(b.skus))
    found += [
        f"{w}, which the other excludes" for w in b.exclude_warehouses if a.allows_warehouse(w)
    ]
    found += [f"{s}, which the other excludes" for s in b.exclude_skus if a.allows_sku(s)]
    if b.screen_only and not a.screen_only:
        found.append("SKUs beyond the screen")
    below = b.on_hand_below
    if below is not None and (a.on_hand_below is None or a.on_hand_below > below):
        found.append(f"SKUs with {below} or more on hand")
    if a.action == "cancel" and set(a.order_ids) - set(b.order_ids):
        found.append("orders " + ", ".join(sorted(set(a.order_ids) - set(b.order_ids))))
    if a.action in creates:
        if a.quantity_rule != b.quantity_rule:
            found.append("another quantity rule")
        for sku, units in a.quantities.items():
            if b.allows_sku(sku) and b.quantity_for(sku) not in (None, units):
                found.append(f"{units} units of {sku} where the other says {b.quantity_for(sku)}")
            elif b.allows_sku(sku) and b.quantity_for(sku) is None:
                found.append(f"{units} units of {sku} where the other leaves it to the policy")
    return found


def settle(reading: TaskReading, model: TaskContract | None) -> tuple[TaskContract, list[str]]:
    """The run's contract from the reader's reading and a model's (None: no model read it),
    and what of the model's reading it did not take: its widenings of the reading it was held
    to (the reader's own, or its fallback)."""
    if model is None:
        return reading.contract, []
    if reading.stop is not None or reading.contract.understood:
        return reading.contract, widenings(model, reading.contract)
    blocked = widenings(model, reading.fallback)
    final = meet(reading.fallback, model)
    if not final.writes_allowed:
        # A report covers what the reader's own report covers: exclusions made to narrow
        # writes never narrow what is reported.
        scope = ("warehouses", "exclude_warehouses", "skus", "exclude_skus")
        final = final.model_copy(update={k: getattr(reading.contract, k) for k in scope})
    return final, blocked


def offer(
    reading: TaskReading,
    final: TaskContract,
    model: TaskContract | None = None,
    items: Mapping[str, str] | None = None,
) -> Question | None:
    """The question a run asks instead of guessing, or None: when the reader did not account
    for every word and the final contract writes nothing, a reading that writes is offered to
    a person: a model's (when it read the task as writing more than the final contract), else
    what the reader's understood clauses allow. A task that defers, hands the action over or
    asks hypothetically offers nothing; neither does one the reader understood in full, nor
    one whose words not understood limit it in a way no reading shows (`TaskReading.held`). A
    model's reading that writes to what the task's words leave out is never offered."""
    if final.writes_allowed or reading.stop is not None or not reading.contract.not_understood:
        return None
    if reading.held:
        return None
    source: Literal["reader", "model"]
    # A model's reading that writes to what the task's own words leave out is never offered.
    said_out = {*reading.contract.exclude_skus, *reading.contract.exclude_warehouses}
    if model is not None and said_out & {*model.skus, *model.warehouses}:
        model = None
    if model is not None and model.writes_allowed and widenings(model, final):
        found, source = model, "model"
    elif reading.offer is not None:
        found, source = reading.offer, "reader"
    else:
        return None
    return question(found, source, reading.contract.not_understood, items)
