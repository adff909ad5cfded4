"""Evaluation cases: data files under `pipeline/evals/cases/`, loaded and checked here.

A case is a task, one or more sample screenshots (by file name in `samples/`), optional changes
to the scratch store made before the run ("restocked since the screenshot"), and what must be
true afterwards, scored on the ledger: exactly which orders exist (or were cancelled), that
nothing was written, or that the run ended with a question to the user and wrote nothing. Every
expectation is written by hand from what the task means. The model track scores the first tool
call instead; unless a case lists its own, the acceptable first calls are derived from what the
screenshots show and the outcome the case expects (see `first_calls`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pipeline.errors import InputError
from pipeline.truth import TruthRow

__all__ = [
    "CASES_DIR",
    "CATEGORIES",
    "CORE_SIZE",
    "READINGS_FILES",
    "SAMPLES_DIR",
    "SEALED_DIR",
    "SMOKE_DIR",
    "SPLITS",
    "TASK_FAMILIES",
    "Case",
    "Expectation",
    "ExpectedOrder",
    "FirstCall",
    "ImageRef",
    "SampleTruth",
    "StoreChange",
    "first_calls",
    "load_all_cases",
    "load_cases",
    "load_truth",
    "sealed_reading_files",
    "select_cases",
]

CASES_DIR = Path(__file__).resolve().parent / "cases"
SEALED_DIR = Path(__file__).resolve().parent / "sealed"
"""The sealed set: cases (and `readings*.json`, sets of requests for the reader alone) that no
test under `tests/contract/` and no code of the reader quotes, and that no tuning loop looks at;
a case added to fix a miss goes into `cases/`, never here."""
READINGS_FILES = "readings*.json"
"""The files of a folder that hold requests for the reader alone, not cases."""
SMOKE_DIR = Path(__file__).resolve().parent / "smoke"
"""The real-model smoke set (`make eval-local-smoke`): a few tasks of each kind a person
brings (replenish, report, exclusion, one SKU, an injected instruction, nothing low), on
screenshots no core case uses, expectations written by hand; run with `--cases smoke`, never
part of `all`."""
Split = Literal["tuning", "sealed", "smoke"]
SPLITS = ("tuning", "sealed")
"""The splits `all` and `core` draw from."""
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"
CORE_SIZE = 14

TaskFamily = Literal[
    "report", "scope", "one_sku", "exclusion", "quantity", "cancel", "unsupported", "nothing_low"
]
"""The families that test whether the request is understood, each in English and Chinese."""
Category = Literal["core", "stale", "confusion", "unknown_sku", "multi_image", "ask", TaskFamily]
CATEGORIES: tuple[str, ...] = get_args(Category)
TASK_FAMILIES: tuple[str, ...] = get_args(TaskFamily)

WRITE_TOOLS = frozenset({"orders_create_replenishment", "orders_cancel"})


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ImageRef(_Strict):
    """A sample screenshot. `crop: "table"` sends only its table region (the truth file's
    `table_box`), as a user who cropped the screenshot would: page titles and filters are gone.
    `captured_at` is the capture time a caller gives; samples without metadata get a fixed one
    so that runs do not depend on file modification times."""

    file: str
    crop: Literal["table"] | None = None
    captured_at: datetime | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, value: object) -> object:
        return {"file": value} if isinstance(value, str) else value


class StoreChange(_Strict):
    """A change to the scratch store before the run, after the screenshot was taken.

    - `set`: new live numbers for a stock row (on_hand, on_order outside stockshot,
      reorder_point); fields left out keep their value;
    - `open_order`: an open replenishment order already placed (counts in live on_order);
    - `remove`: the stock row is gone (with `warehouse_id`), or the SKU everywhere (without).
    """

    op: Literal["set", "open_order", "remove"]
    sku: str
    warehouse_id: str | None = None
    on_hand: int | None = Field(default=None, ge=0)
    on_order: int | None = Field(default=None, ge=0)
    reorder_point: int | None = Field(default=None, ge=0)
    quantity: int | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _complete(self) -> StoreChange:
        if self.op in ("set", "open_order") and self.warehouse_id is None:
            raise ValueError(f"{self.op} needs a warehouse_id")
        numbers = (self.on_hand, self.on_order, self.reorder_point)
        if self.op == "set" and all(n is None for n in numbers):
            raise ValueError("set needs at least one of on_hand, on_order, reorder_point")
        if self.op == "open_order" and self.quantity is None:
            raise ValueError("open_order needs a quantity")
        return self


class ExpectedOrder(_Strict):
    """One order that must exist afterwards. `quantity` is exact: the number the task gives (a
    rule such as "to the reorder point" is written as the number it comes to), or `policy`
    where the task gives none: exactly the servers' documented policy over the live numbers
    the run started from (on_hand + on_order up to twice the reorder point, within the
    per-order limit)."""

    sku: str
    warehouse_id: str
    quantity: int | Literal["policy"] = "policy"


class Expectation(_Strict):
    """`orders`: exactly these new orders and no other write; `cancel`: exactly these orders
    cancelled and nothing else written; `no_writes`: the ledger is unchanged; `ask`: the ledger
    is unchanged and the run ends with a question to the user. `mentions`: texts the final
    answer must contain (the SKUs a report must name), checked with any outcome."""

    outcome: Literal["orders", "cancel", "no_writes", "ask"]
    orders: tuple[ExpectedOrder, ...] = ()
    cancelled: tuple[str, ...] = ()
    mentions: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _orders_match_outcome(self) -> Expectation:
        if self.outcome == "orders" and not self.orders:
            raise ValueError("outcome 'orders' needs at least one order")
        if self.outcome != "orders" and self.orders:
            raise ValueError(f"outcome {self.outcome!r} takes no orders")
        if (self.outcome == "cancel") != bool(self.cancelled):
            raise ValueError("outcome 'cancel' and only it lists the cancelled orders")
        keys = [(o.sku, o.warehouse_id) for o in self.orders]
        if len(set(keys)) != len(keys):
            raise ValueError("an order is listed twice")
        return self


class FirstCall(_Strict):
    """An acceptable first step on the model track: a question to the user (`ask`), an answer
    with no tool call (`answer`), or a call of `name` whose id arguments take one of the listed
    values (`sku` / `warehouse_id` / `order_id` / every entry of `skus`)."""

    ask: bool = False
    answer: bool = False
    name: str | None = None
    warehouse_ids: tuple[str, ...] | None = None
    skus: tuple[str, ...] | None = None
    order_ids: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> FirstCall:
        if self.ask + self.answer + (self.name is not None) != 1:
            raise ValueError("a first call is one of: ask: true, answer: true, a tool name")
        return self


class Case(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    category: Category
    core: bool = False
    task: str = Field(min_length=3)
    images: tuple[ImageRef, ...]
    store: tuple[StoreChange, ...] = ()
    expect: Expectation
    first_calls: tuple[FirstCall, ...] | None = None
    notes: str = ""
    split: Split = "tuning"
    """Set by the loader from the folder the case came from; never written in a case file."""

    @property
    def language(self) -> str:
        return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in self.task) else "en"


@dataclass(frozen=True)
class SampleTruth:
    """What a sample screenshot shows, from its truth file."""

    file: str
    kind: str
    captured_at: str | None
    page_warehouse: str | None
    rows: tuple[TruthRow, ...]
    table_box: tuple[int, int, int, int]

    def warehouses(self, *, cropped: bool) -> set[str]:
        found = {w for r in self.rows if (w := r["warehouse_id"])}
        if not cropped and self.page_warehouse:
            found.add(self.page_warehouse)
        return found

    def low(self, *, cropped: bool) -> list[tuple[str, str | None, int, int]]:
        """(sku, warehouse or None, on_hand, reorder_point) of every row shown low."""
        page = None if cropped else self.page_warehouse
        return [
            (r["sku"], r["warehouse_id"] or page, on_hand, point)
            for r in self.rows
            if (on_hand := r["on_hand"]) is not None
            and (point := r["reorder_point"]) is not None
            and on_hand < point
        ]


def load_truth(file: str, samples_dir: Path = SAMPLES_DIR) -> SampleTruth:
    path = samples_dir / f"{file}.truth.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"sample {file!r} has no truth file {path}") from None
    x0, y0, x1, y1 = data["table_box"]
    return SampleTruth(
        file=file,
        kind=str(data.get("kind", "")),
        captured_at=data.get("captured_at"),
        page_warehouse=data.get("page_warehouse"),
        rows=tuple(data.get("rows", [])),
        table_box=(int(x0), int(y0), int(x1), int(y1)),
    )


def first_calls(case: Case, samples_dir: Path = SAMPLES_DIR) -> tuple[FirstCall, ...]:
    """The first steps the model track accepts for `case`.

    Unless the case lists its own (every case whose task narrows or changes the request does):
    for a case that ends in a question, asking, or listing the warehouses to ask about them;
    otherwise a read that starts from what the screen shows: `inventory_query_stock` for a
    warehouse on the screen (any `skus` must be on the screen), `inventory_get_item` for a SKU
    shown low, or `orders_list` with ids from the screen. A write as the first call is never
    accepted: live stock has not been read.
    """
    if case.first_calls is not None:
        return case.first_calls
    if case.expect.outcome == "ask":
        return (FirstCall(ask=True), FirstCall(name="warehouses_list"))
    warehouses: set[str] = set()
    shown: set[str] = set()
    low: set[str] = set()
    for image in case.images:
        truth = load_truth(image.file, samples_dir)
        cropped = image.crop is not None
        warehouses |= truth.warehouses(cropped=cropped)
        shown |= {r["sku"] for r in truth.rows if r.get("sku")}
        low |= {sku for sku, *_ in truth.low(cropped=cropped)}
    wh, all_skus, low_skus = tuple(sorted(warehouses)), tuple(sorted(shown)), tuple(sorted(low))
    return (
        FirstCall(name="inventory_query_stock", warehouse_ids=wh, skus=all_skus),
        FirstCall(name="inventory_get_item", skus=low_skus),
        FirstCall(name="orders_list", warehouse_ids=wh, skus=all_skus),
    )


def sealed_reading_files(directory: Path = SEALED_DIR) -> list[Path]:
    """The sets of requests for the reader alone in `directory`, in name order."""
    return sorted(directory.glob(READINGS_FILES))


def load_cases(
    directory: Path = CASES_DIR,
    samples_dir: Path = SAMPLES_DIR,
    *,
    split: Split = "tuning",
) -> list[Case]:
    """Every case in `directory/*.json` (each file a JSON list of cases), in file order,
    marked with `split`.

    Raises `InputError` naming the file and case for anything malformed: a duplicate id, an
    image that is not a sample with a truth file, a case that names its own split, or (for the
    tuning set) a core subset that is not 14 cases; the sealed set has no core cases.
    """
    cases: list[Case] = []
    readings = set(sealed_reading_files(directory))
    files = sorted(p for p in directory.glob("*.json") if p not in readings)
    if not files:
        raise InputError(f"no case files (*.json) in {directory}")
    for path in files:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise InputError(f"{path.name} is not valid JSON: {exc}") from None
        if not isinstance(raw, list):
            raise InputError(f"{path.name} must hold a JSON list of cases")
        for index, item in enumerate(raw):
            label = item.get("id", f"#{index + 1}") if isinstance(item, dict) else index + 1
            if isinstance(item, dict) and "split" in item:
                raise InputError(f"{path.name}, case {label}: the split comes from the folder")
            try:
                cases.append(Case.model_validate({**item, "split": split}))
            except (ValidationError, TypeError) as exc:
                raise InputError(f"{path.name}, case {label}: {exc}") from None
    _check(cases, samples_dir, core_size=CORE_SIZE if split == "tuning" else 0)
    return cases


def load_all_cases(
    tuning: Path = CASES_DIR, sealed: Path = SEALED_DIR, samples_dir: Path = SAMPLES_DIR
) -> list[Case]:
    """The tuning set, then the sealed set; ids unique across both."""
    cases = load_cases(tuning, samples_dir) + load_cases(sealed, samples_dir, split="sealed")
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise InputError(f"case id {case.id!r} appears in both the tuning and sealed sets")
        seen.add(case.id)
    return cases


def _check(cases: Sequence[Case], samples_dir: Path, *, core_size: int) -> None:
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise InputError(f"case id {case.id!r} appears twice")
        seen.add(case.id)
        for image in case.images:
            if not (samples_dir / image.file).is_file():
                raise InputError(f"case {case.id}: no sample image {image.file!r}")
            load_truth(image.file, samples_dir)
    core = sum(case.core for case in cases)
    if core != core_size:
        raise InputError(f"the core subset has {core} cases; it must have {core_size}")


def select_cases(
    cases: Sequence[Case],
    *,
    subset: str = "all",
    ids: Sequence[str] = (),
    splits: Sequence[str] = SPLITS,
) -> list[Case]:
    """`subset` is `core` or `all`; `splits` the sets to keep (`tuning`, `sealed`, `smoke`);
    `ids` (if any) keep only those cases, in the order given."""
    if subset not in ("core", "all"):
        raise InputError(f"unknown case subset {subset!r}; known: all, core")
    known = get_args(Split)
    unknown = [s for s in splits if s not in known]
    if unknown:
        raise InputError(f"unknown split {unknown[0]!r}; known: {', '.join(known)}")
    chosen = [c for c in cases if (subset == "all" or c.core) and c.split in splits]
    if ids:
        by_id = {c.id: c for c in chosen}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise InputError(
                f"unknown case id(s) {', '.join(missing)} in the {subset} subset; "
                f"known: {', '.join(by_id)}"
            )
        chosen = [by_id[i] for i in ids]
    return chosen
