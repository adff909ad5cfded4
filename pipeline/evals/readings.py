"""The task reader alone, on requests with what they mean written by hand.

`readings.json` (in the sealed folder, and any such file) lists requests with the reading a
careful person gives them (`means`: action, writes, scope, exclusions, quantities, a rule,
orders). Each request is read by `pipeline.contract.read_task` with the store's warehouse
names and scored:

- `right`: what may be written is exactly what the request means (no writes where it means
  none; else the same action, scope, exclusions, quantities, rule and orders);
- `safe miss`: not right, but it allows nothing the meaning does not (less, or nothing);
- `wider`: it allows a write the meaning does not (the failure that must never happen).

Pure apart from reading the file: no model, no store.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.contract import Action, QuantityRule, RuleKind, TaskContract, read_task, widenings
from pipeline.errors import InputError
from pipeline.evals.document import ReaderDoc, ReadingFigures

__all__ = [
    "PHRASINGS",
    "Meaning",
    "ReadingCase",
    "ReadingScore",
    "catalogue",
    "load_readings",
    "reader_report",
    "score_readings",
    "sealed_readings",
]

PHRASINGS = Path(__file__).resolve().parent / "phrasings.json"
"""The tuning requests: written to build the reader on; tests quote them, and a request added
to fix a miss goes here, never into the sealed set."""

Verdict = Literal["right", "safe miss", "wider"]


class _Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    value: float


class Meaning(BaseModel):
    """What a request means, written by hand."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Action
    writes: bool
    skus: tuple[str, ...] = ()
    exclude_skus: tuple[str, ...] = ()
    warehouses: tuple[str, ...] = ()
    exclude_warehouses: tuple[str, ...] = ()
    quantities: dict[str, int] = Field(default_factory=dict)
    quantity_rule: _Rule | None = None
    order_ids: tuple[str, ...] = ()
    on_hand_below: int | None = None
    """Only the SKUs whose live on-hand is below this ("anything under 50 on hand")."""


class ReadingCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    lang: Literal["en", "zh"]
    task: str
    means: Meaning
    kind: str = ""
    image: str | None = None
    """A sample screenshot (under samples/) the request is made over: the items its truth lists
    (SKU and name) are the ones the request's names refer to."""
    reads: Literal["right", "safe"] | None = None
    """For a tuning request: how the reader reads it today (a test holds it there)."""


def load_readings(path: Path) -> list[ReadingCase]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the requests in {path}: {exc}") from None
    if not isinstance(raw, list):
        raise InputError(f"{path} must hold a JSON list of requests")
    try:
        return [ReadingCase.model_validate(item) for item in raw]
    except ValidationError as exc:
        raise InputError(f"{path}: {exc}") from None


_RULES: dict[str, RuleKind] = {
    "each": "each",
    "at_most": "at_most",
    "level": "level",
    "up_to": "level",
}
"""The rules a meaning may give. A meaning's `up_to` was written, before `level` was a term,
for the same thing: a stock level to reach in units (this module said so then), so it is a
`level`; any other kind is one no contract term says for sure."""


def _as_contract(meaning: Meaning) -> TaskContract | None:
    """The meaning as a contract, or None when it says something no contract term says (a
    rule of another kind): then only "no writes" can match it."""
    rule: QuantityRule | None = None
    if meaning.quantity_rule is not None:
        kind, value = _RULES.get(meaning.quantity_rule.kind), meaning.quantity_rule.value
        if kind is None or value <= 0:
            return None
        rule = QuantityRule(kind=kind, value=value)
    if meaning.on_hand_below is not None and meaning.on_hand_below < 1:
        return None
    return TaskContract(
        action=meaning.action if meaning.writes else "report",
        writes_allowed=meaning.writes,
        warehouses=meaning.warehouses,
        exclude_warehouses=meaning.exclude_warehouses,
        skus=tuple(s for s in meaning.skus if s not in meaning.exclude_skus),
        exclude_skus=meaning.exclude_skus,
        quantities=dict(meaning.quantities),
        quantity_rule=rule,
        order_ids=meaning.order_ids,
        on_hand_below=meaning.on_hand_below,
        screen_only=False,
    )


def _sizes(contract: TaskContract) -> tuple[dict[str, int], QuantityRule | None]:
    """The units a contract orders, one way of writing them: the same number for each of
    the SKUs it names is that number for each ("SKU-1 and SKU-2, 30 each" is 30 of SKU-1 and
    30 of SKU-2, whichever term says it)."""
    rule = contract.quantity_rule
    if rule is not None and rule.kind == "each" and contract.skus:
        each = {sku: int(rule.value) for sku in contract.skus}
        return {**each, **contract.quantities}, None
    return dict(contract.quantities), rule


def _same(read: TaskContract, meant: TaskContract) -> bool:
    creates = ("replenish", "order")
    if read.writes_allowed != meant.writes_allowed:
        return False
    if not meant.writes_allowed:
        return True
    same_action = read.action == meant.action or (
        read.action in creates and meant.action in creates
    )
    return (
        same_action
        and set(read.warehouses) == set(meant.warehouses)
        and set(read.exclude_warehouses) == set(meant.exclude_warehouses)
        and set(read.skus) == set(meant.skus)
        and set(read.exclude_skus) >= set(meant.exclude_skus)
        and _sizes(read) == _sizes(meant)
        and set(read.order_ids) == set(meant.order_ids)
        and read.on_hand_below == meant.on_hand_below
    )


def verdict(read: TaskContract, meaning: Meaning) -> tuple[Verdict, list[str]]:
    meant = _as_contract(meaning)
    if meant is None:
        if not read.writes_allowed:
            return "safe miss", []
        return "wider", ["writes where the meaning has a rule no contract term says"]
    if _same(read, meant):
        return "right", []
    wider = widenings(read, meant)
    return ("wider", wider) if wider else ("safe miss", [])


@dataclass(frozen=True)
class ReadingScore:
    total: int
    counts: dict[str, int]
    by_lang: dict[str, dict[str, int]]
    by_kind: dict[str, dict[str, int]]
    wider: list[str]
    """Ids of the requests read wider than they mean."""


def catalogue(case: ReadingCase) -> dict[str, str]:
    """The items of the screen a request is made over (`{sku: name}`, from the sample's
    truth), which its words may name; none without an image."""
    from pipeline.evals.cases import load_truth

    if case.image is None:
        return {}
    rows = load_truth(case.image).rows
    return {str(r["sku"]): str(r.get("name", "")) for r in rows if r.get("sku")}


def score_readings(cases: Sequence[ReadingCase], names: Mapping[str, str]) -> ReadingScore:
    counts: Counter[str] = Counter()
    by_lang: dict[str, Counter[str]] = {}
    by_kind: dict[str, Counter[str]] = {}
    wider: list[str] = []
    for case in cases:
        found, _ = verdict(read_task(case.task, names, catalogue(case)).contract, case.means)
        counts[found] += 1
        by_lang.setdefault(case.lang, Counter())[found] += 1
        by_kind.setdefault(case.kind or "-", Counter())[found] += 1
        if found == "wider":
            wider.append(case.id)
    return ReadingScore(
        total=len(cases),
        counts={k: counts.get(k, 0) for k in ("right", "safe miss", "wider")},
        by_lang={k: dict(v) for k, v in sorted(by_lang.items())},
        by_kind={k: dict(v) for k, v in sorted(by_kind.items())},
        wider=wider,
    )


def as_dict(score: ReadingScore) -> ReadingFigures:
    return {
        "total": score.total,
        "counts": score.counts,
        "by_lang": score.by_lang,
        "by_kind": score.by_kind,
        "wider": score.wider,
    }


def sealed_readings() -> dict[str, list[ReadingCase]]:
    """Every sealed set of requests (`sealed/readings*.json`), by its file's stem."""
    from pipeline.evals.cases import SEALED_DIR, sealed_reading_files

    return {path.stem: load_readings(path) for path in sealed_reading_files(SEALED_DIR)}


def reader_report(names: Mapping[str, str]) -> ReaderDoc:
    """The reader alone: the tuning requests, each sealed set apart (counts and ids only:
    their words stay out of every report), and the metamorphic rewrites of every write task
    of the tuning set (`pipeline.evals.rewrites`)."""
    from pipeline.evals.cases import load_cases, load_truth
    from pipeline.evals.rewrites import tally

    light = sorted({r["sku"] for r in load_truth("erp-light-wh01.png").rows})
    bases: dict[str, list[str]] = {}
    for case in load_cases():
        skus = {r["sku"] for image in case.images for r in load_truth(image.file).rows}
        bases[case.task] = sorted(skus)
    tuning = load_readings(PHRASINGS)
    for phrasing in tuning:
        bases.setdefault(phrasing.task, light)
    return {
        "tuning_requests": as_dict(score_readings(tuning, names)),
        "sealed_requests": {
            stem: as_dict(score_readings(cases, names)) for stem, cases in sealed_readings().items()
        },
        "rewrites": tally(bases.items(), names, per_task=4),
        "rewrite_bases": sum(read_task(t, names).contract.writes_allowed for t in bases),
    }
