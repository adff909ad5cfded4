"""The task contract's terms, and its text: rendered below the task for the model and read
back from a conversation by whoever reads what a model reads. One module owns both ways."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ACTIONS",
    "HELP",
    "NO_ACT",
    "UNCLEAR",
    "Action",
    "ContractAnswer",
    "ContractReading",
    "QuantityRule",
    "Question",
    "ReadingSource",
    "RuleKind",
    "SkuQuantity",
    "TaskContract",
    "TaskReading",
    "only_unclear",
    "question",
    "read_contract",
    "render_contract",
    "sentence",
    "unclear",
]

Action = Literal["report", "replenish", "order", "cancel"]
ACTIONS: tuple[Action, ...] = get_args(Action)
RuleKind = Literal["each", "up_to", "at_most", "level"]

HELP = (
    "You can ask: which SKUs are low (a report, nothing is written); replenish the low items "
    "[in WH-01] [except SKU-10402]; order 10 units of SKU-10232; replenish 30 each; cancel "
    "order PO-000042; cancel the open orders of SKU-10232."
)
"""What to say to a user whose request was not understood."""


class QuantityRule(BaseModel):
    """How many units an order is for when the task gives no number for that SKU:
    `each` (the same number for every SKU), `up_to` (bring on_hand + on_order up to
    `value` times the reorder point), `at_most` (the server's policy quantity, limited to
    `value` units: "at most 20 each") or `level` (bring on_hand + on_order up to `value`
    units, the stock level the replenishment policy counts: "take them up to 200", "补到200")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: RuleKind
    value: float = Field(gt=0)

    def target(self, reorder_point: int) -> int | None:
        """The stock (on hand plus on order) an order fills up to under this rule, for an
        item with this reorder point; None for a rule that sets no level (`each`,
        `at_most`)."""
        if self.kind == "level":
            return int(self.value)
        if self.kind == "up_to":
            return math.ceil(self.value * reorder_point)
        return None

    def describe(self) -> str:
        if self.kind == "each":
            return f"{self.value:g} units each"
        if self.kind == "at_most":
            return f"at most {self.value:g} units each"
        if self.kind == "level":
            return f"up to a stock level of {self.value:g} units each"
        return f"up to {self.value:g} x the reorder point"


class TaskContract(BaseModel):
    """The host's reading of a task; every write call is checked against it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Action
    writes_allowed: bool
    warehouses: tuple[str, ...] = ()
    """Only these warehouses; empty: any."""
    exclude_warehouses: tuple[str, ...] = ()
    skus: tuple[str, ...] = ()
    """Only these SKUs; empty: any in scope."""
    exclude_skus: tuple[str, ...] = ()
    screen_only: bool = True
    """Only SKUs the attached screenshots show."""
    on_hand_below: int | None = Field(default=None, gt=0)
    """Only SKUs whose live on-hand is below this ("anything under 50 on hand", "库存少于50"):
    a condition on the live numbers, part of the scope."""
    quantities: dict[str, int] = Field(default_factory=dict)
    """Units asked for, by SKU."""
    quantity_rule: QuantityRule | None = None
    order_ids: tuple[str, ...] = ()
    """Orders to cancel."""
    notes: tuple[str, ...] = ()
    """How the reading was reached (a negation, an exclusion...), for the user."""
    not_understood: tuple[str, ...] = ()

    @property
    def understood(self) -> bool:
        return not self.not_understood

    @property
    def reads_screens(self) -> bool:
        """Whether the task works from screenshots: understood, it names no SKU and no order,
        and keeps to the SKUs the screenshots show (without one it has nothing to act on)."""
        return (
            self.understood
            and self.screen_only
            and not self.skus
            and not self.quantities
            and not self.order_ids
        )

    def quantity_for(self, sku: str) -> int | None:
        """The exact units the task asks for `sku`, if it asks a number."""
        if sku in self.quantities:
            return self.quantities[sku]
        if self.quantity_rule is not None and self.quantity_rule.kind == "each":
            return int(self.quantity_rule.value)
        return None

    def allows_sku(self, sku: str) -> bool:
        return sku not in self.exclude_skus and (not self.skus or sku in self.skus)

    def allows_on_hand(self, on_hand: int) -> bool:
        """Whether a SKU with this live on-hand is within the task's condition, if any."""
        return self.on_hand_below is None or on_hand < self.on_hand_below

    def allows_warehouse(self, warehouse_id: str) -> bool:
        return warehouse_id not in self.exclude_warehouses and (
            not self.warehouses or warehouse_id in self.warehouses
        )

    def as_report(self, **changes: object) -> TaskContract:
        """This contract with nothing to write: a report, no quantities and no orders to
        cancel, the scope kept (and `changes` made)."""
        return self.model_copy(
            update={
                "action": "report",
                "writes_allowed": False,
                "quantities": {},
                "quantity_rule": None,
                "order_ids": (),
                **changes,
            }
        )

    def summary(self) -> str:
        """One line for a person: `replenish · WH-01 · except SKU-10402 · writes allowed`."""
        parts: list[str] = [self.action]
        if self.warehouses:
            parts.append(", ".join(self.warehouses))
        if self.exclude_warehouses:
            parts.append("not " + ", ".join(self.exclude_warehouses))
        if self.skus:
            parts.append("only " + ", ".join(self.skus))
        if self.exclude_skus:
            parts.append("except " + ", ".join(self.exclude_skus))
        if not self.screen_only:
            parts.append("beyond the screen")
        if self.on_hand_below is not None:
            parts.append(f"on hand below {self.on_hand_below}")
        if self.quantities:
            parts.append(", ".join(f"{s} x{q}" for s, q in self.quantities.items()))
        if self.quantity_rule is not None:
            parts.append(self.quantity_rule.describe())
        if self.order_ids:
            parts.append(", ".join(self.order_ids))
        parts.append("writes allowed" if self.writes_allowed else "no writes")
        if self.not_understood:
            parts.append("not understood: " + "; ".join(self.not_understood))
        return " · ".join(parts)


class TaskReading(BaseModel):
    """How the reader read a task: `contract` is what it alone allows (a report when any of
    the task was not understood); `fallback` what the understood clauses allow, the ids of the
    other clauses excluded (what a model's reading may recover, see `pipeline.contract.meet`);
    `not_understood` the words it could not account for; `stop` the words that defer, hand
    the action to the user or ask hypothetically (a report whatever any reading says)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str
    contract: TaskContract
    fallback: TaskContract
    not_understood: tuple[str, ...] = ()
    stop: str | None = None
    offer: TaskContract | None = None
    """What the understood clauses allow, when words were not understood and it writes: the
    reading a person is asked about (a yes runs it), never acted on without one."""
    held: bool = False
    """The words not understood limit the task in a way no reading shows (what is left out,
    a part of a set, a condition, a correction): no reading is offered, a model's neither."""


class SkuQuantity(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    sku: str
    quantity: int


class ContractAnswer(BaseModel):
    """A model's reading of a task, in the shape its JSON Schema asks for
    (`ContractAnswer.model_json_schema()`); `to_contract` makes it a `TaskContract`.
    `deferred`: the request puts the action off, leaves it to the user or asks what would
    happen: a report whatever else the answer says."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Action
    writes_allowed: bool
    deferred: bool
    warehouses: list[str]
    exclude_warehouses: list[str]
    skus: list[str]
    exclude_skus: list[str]
    quantities: list[SkuQuantity]
    quantity_rule: QuantityRule | None
    order_ids: list[str]

    def to_contract(self) -> TaskContract:
        def ids(values: Sequence[str]) -> tuple[str, ...]:
            return tuple(dict.fromkeys(v.strip().upper() for v in values if v.strip()))

        writes = self.writes_allowed and not self.deferred and self.action != "report"
        excluded = ids(self.exclude_skus)
        quantities = {q.sku.strip().upper(): q.quantity for q in self.quantities if q.sku.strip()}
        return TaskContract(
            action=self.action if writes else "report",
            writes_allowed=writes,
            warehouses=ids(self.warehouses),
            exclude_warehouses=ids(self.exclude_warehouses),
            skus=tuple(s for s in ids(self.skus) if s not in excluded),
            exclude_skus=excluded,
            quantities=quantities if writes and self.action in ("order", "replenish") else {},
            quantity_rule=self.quantity_rule if writes else None,
            order_ids=ids(self.order_ids) if writes and self.action == "cancel" else (),
            notes=("read by the model as deferred or hypothetical",) if self.deferred else (),
        )


UNCLEAR = "I did not understand "
"""How a reason for words the reader could not account for begins (`unclear`)."""


def unclear(quote: str) -> str:
    """The reason given for words the reader could not account for."""
    return f"{UNCLEAR}{quote!r}"


def only_unclear(contract: TaskContract) -> bool:
    """The contract was narrowed only for words it could not account for (not for asking
    nothing stockshot does, two actions at once, a quantity for nothing...)."""
    return bool(contract.not_understood) and all(
        reason.startswith(UNCLEAR) for reason in contract.not_understood
    )


ReadingSource = Literal["reader", "fallback", "model", "suggested", "final"]


def sentence(contract: TaskContract, items: Mapping[str, str] | None = None) -> str:
    """The contract's writes in words for a person ("replenish every low SKU in WH-01 except
    SKU-10232 (Hex nut M8)"); `items` names the SKUs (`{sku: name}`)."""
    items = items or {}

    def named(skus: Sequence[str]) -> str:
        return ", ".join(f"{s} ({items[s]})" if items.get(s) else s for s in skus)

    if contract.action == "cancel":
        if contract.order_ids:
            return "cancel " + ", ".join(contract.order_ids)
        return "cancel the open orders of " + named(contract.skus)
    if contract.action == "order" and contract.quantities:
        head = "order " + ", ".join(
            f"{q} units of {named([s])}" for s, q in contract.quantities.items()
        )
    else:
        head = "replenish " + (named(contract.skus) if contract.skus else "every low SKU")
    parts = [head]
    if contract.warehouses:
        parts.append("in " + ", ".join(contract.warehouses))
    if contract.exclude_warehouses:
        parts.append("outside " + ", ".join(contract.exclude_warehouses))
    if contract.on_hand_below is not None:
        parts.append(f"with fewer than {contract.on_hand_below} on hand")
    if contract.exclude_skus:
        parts.append("except " + named(contract.exclude_skus))
    if contract.quantity_rule is not None:
        parts.append(contract.quantity_rule.describe())
    return " ".join(parts)


class Question(BaseModel):
    """What a run asks instead of guessing: the reading it would act on (`contract`: the
    reader's fallback, or a model's reading), and what it did not understand; a yes runs
    exactly `contract`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    contract: TaskContract
    source: Literal["reader", "model"]
    not_understood: tuple[str, ...] = ()


NO_ACT = "the task asks for nothing stockshot does (report, replenish, order, cancel)"
"""Why a task that names no act the reader knows is a report."""


def question(
    offer: TaskContract,
    source: Literal["reader", "model"],
    not_understood: Sequence[str],
    items: Mapping[str, str] | None = None,
) -> Question:
    """The question that offers `offer` to a person, saying what was not understood (a write
    offered for a task that named no act says which words it took for one, in its notes)."""
    shown = [r for r in not_understood if not (offer.writes_allowed and r == NO_ACT)]
    missed = "; ".join(shown)
    text = f"I read this as: {sentence(offer, items)}."
    if source == "model":
        text += " (That is the model's reading; the task reader alone would write nothing.)"
    if missed:
        text += f" Not understood: {missed}."
    return Question(
        text=text + " Go ahead?",
        contract=offer,
        source=source,
        not_understood=tuple(not_understood),
    )


class ContractReading(BaseModel):
    """One reading of a run's task, as the run record keeps it: the reader's, its fallback, a
    model's, the suggestion (the model's reading of a task the reader did not account for
    fully: what a person may confirm) and the final contract; `note` says what happened (a
    model that did not answer, a widening the meet blocked, a model that read it otherwise)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: ReadingSource
    contract: TaskContract | None = None
    note: str = ""


# ---- rendering for the model, and reading it back

_HEADER = "Task contract (the host's reading of the task; every tool call is checked against it):"
_ANY = "any"


def _listed(values: Sequence[str]) -> str:
    return ", ".join(values) if values else _ANY


def render_contract(contract: TaskContract) -> str:
    """The block the model reads below the task; `read_contract` reads it back."""
    quantities = ", ".join(f"{s} = {q}" for s, q in contract.quantities.items())
    lines = [
        _HEADER,
        f"- action: {contract.action}",
        f"- writes: {'allowed' if contract.writes_allowed else 'none (answer only)'}",
        f"- warehouses: {_listed(contract.warehouses)}",
        f"- excluded warehouses: {', '.join(contract.exclude_warehouses) or 'none'}",
        f"- SKUs: {_listed(contract.skus)}",
        f"- excluded SKUs: {', '.join(contract.exclude_skus) or 'none'}",
        f"- only SKUs on the screenshots: {'yes' if contract.screen_only else 'no'}",
        "- only SKUs with live on-hand below: "
        + (str(contract.on_hand_below) if contract.on_hand_below is not None else "any"),
        f"- quantities: {quantities or 'none given'}",
        "- quantity rule: "
        + (contract.quantity_rule.describe() if contract.quantity_rule else "none given"),
        f"- orders to cancel: {', '.join(contract.order_ids) or 'none'}",
    ]
    lines += [f"- note: {n}" for n in contract.notes]
    lines += [f"- not understood: {n}" for n in contract.not_understood]
    return "\n".join(lines)


_RULE = re.compile(
    r"^(?:(?P<each>[\d.]+) units each|up to (?P<up>[\d.]+) x the reorder point"
    r"|at most (?P<most>[\d.]+) units each|up to a stock level of (?P<level>[\d.]+) units each)$"
)


def _items(text: str, empty: str) -> tuple[str, ...]:
    return () if text in (empty, "") else tuple(v.strip() for v in text.split(","))


def read_contract(text: str) -> TaskContract | None:
    """The contract rendered in `text` by `render_contract`, or None when there is none."""
    lines = text.splitlines()
    try:
        start = lines.index(_HEADER)
    except ValueError:
        return None
    values: dict[str, str] = {}
    notes: list[str] = []
    missing: list[str] = []
    for line in lines[start + 1 :]:
        if not line.startswith("- "):
            break
        key, _, value = line[2:].partition(": ")
        if key == "note":
            notes.append(value)
        elif key == "not understood":
            missing.append(value)
        else:
            values[key] = value
    action = values.get("action", "")
    if action not in ACTIONS:
        return None
    quantities: dict[str, int] = {}
    for item in _items(values.get("quantities", ""), "none given"):
        sku, _, number = item.partition(" = ")
        if number.isdigit():
            quantities[sku] = int(number)
    below = values.get("only SKUs with live on-hand below", _ANY)
    rule: QuantityRule | None = None
    if match := _RULE.match(values.get("quantity rule", "")):
        if match["each"]:
            rule = QuantityRule(kind="each", value=float(match["each"]))
        elif match["most"]:
            rule = QuantityRule(kind="at_most", value=float(match["most"]))
        elif match["level"]:
            rule = QuantityRule(kind="level", value=float(match["level"]))
        else:
            rule = QuantityRule(kind="up_to", value=float(match["up"]))
    return TaskContract(
        action=action,
        writes_allowed=values.get("writes") == "allowed",
        warehouses=_items(values.get("warehouses", ""), _ANY),
        exclude_warehouses=_items(values.get("excluded warehouses", ""), "none"),
        skus=_items(values.get("SKUs", ""), _ANY),
        exclude_skus=_items(values.get("excluded SKUs", ""), "none"),
        screen_only=values.get("only SKUs on the screenshots", "yes") == "yes",
        on_hand_below=int(below) if below.isdigit() and int(below) > 0 else None,
        quantities=quantities,
        quantity_rule=rule,
        order_ids=_items(values.get("orders to cancel", ""), "none"),
        notes=tuple(notes),
        not_understood=tuple(missing),
    )
