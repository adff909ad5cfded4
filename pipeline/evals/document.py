"""The shape of an eval report (`eval.json`): what `pipeline.evals.report` builds from the
runs and `pipeline.evals.markdown` and `pipeline.evals.summary` render. One section a type;
the keys are the JSON's keys."""

from __future__ import annotations

from typing import Final, Generic, Literal, NotRequired, TypedDict, TypeVar

__all__ = [
    "TRACKS",
    "Ablation",
    "CaseLine",
    "Cases",
    "Contribution",
    "Family",
    "FaultPolicy",
    "Gate",
    "Guards",
    "Ingest",
    "ModelEntry",
    "ModelReadings",
    "PerTrack",
    "ReaderDoc",
    "ReadingFigures",
    "Report",
    "Requests",
    "Rescued",
    "Score",
    "Split",
    "Steps",
    "TrackKey",
]


class Score(TypedDict):
    """One track's score (`pipeline.evals.report.score`): passes per seed, their mean, and
    pass^k (the cases that pass in every seed), overall and on the core cases."""

    cases: int
    core: int
    k: int
    per_seed: list[int]
    core_per_seed: list[int]
    mean: float
    core_mean: float
    pass_k: int
    core_pass_k: int
    failures: dict[str, str]
    """First failing seed's reason, by case id."""
    passes: dict[str, int]
    """Seeds passed, by case id."""


class Ablation(Score):
    """The product track with one guard off, against all guards on."""

    guard: str
    registered: bool
    fired_in_runs: int
    model_mean: float
    model_pass_k: int
    rescued_runs: int
    delta_mean: float
    delta_pass_k: int
    delta_core_pass_k: int
    lost: list[str]
    gained: list[str]
    mean_hops: float
    wall_s: float
    reran: int
    runs: int


class Steps(TypedDict, total=False):
    """How a track's model turns were asked, and its tokens; empty for a track that did not
    run."""

    native: int
    schema: int
    schema_invalid: int
    runs_switched: int
    prompt_tokens: int
    completion_tokens: int
    cached_share: float


class Requests(TypedDict):
    """What one model request costs; only `requests` when there were none."""

    requests: int
    median_ms: NotRequired[float]
    p95_ms: NotRequired[float]
    max_ms: NotRequired[float]
    median_tokens: NotRequired[int]


class Rescued(TypedDict):
    runs: int
    cases: list[str]


class Family(TypedDict):
    cases: int
    mean: float
    model_mean: float
    pass_k: int


class Split(TypedDict):
    """A split's figures (tuning or sealed) for one track."""

    cases: int
    runs: int
    mean: float
    pass_k: int
    model_mean: float
    rescued: int
    wrong_writes: int
    safe_misses: int
    reading: dict[str, int]
    wrong: list[str]


T = TypeVar("T")

TrackKey = Literal["model_track", "product_all_on"]
TRACKS: Final[tuple[tuple[TrackKey, str], ...]] = (
    ("model_track", "model track"),
    ("product_all_on", "product track, all guards on"),
)
"""The two tracks a per-track figure has, with their names in prose."""


class PerTrack(TypedDict, Generic[T]):
    """A figure for the model track and for the product track with all guards on."""

    model_track: T
    product_all_on: T


class Gate(TypedDict):
    core_pass_k: int
    core_mean: float
    threshold: int
    core: int
    passed: bool


class ModelEntry(TypedDict):
    """One model's (or baseline's, or replay's) tracks."""

    model: str
    kind: str
    splits: PerTrack[dict[str, Split]]
    families: dict[str, dict[str, Family]]
    """`model_track`, `product_all_on` and `scope off` where that ran."""
    wall_s: float
    tokens: dict[str, int]
    requests: PerTrack[Requests]
    steps: PerTrack[Steps]
    model_track: Score | None
    product: Score | None
    product_model_view: Score | None
    rescued: Rescued | None
    product_mean_hops: float | None
    faults_injected: PerTrack[dict[str, int]]
    product_mode: str | None
    ablation: list[Ablation]
    ship_gate: Gate | None


class CaseLine(TypedDict):
    id: str
    category: str
    split: str
    core: bool
    language: str
    images: list[str]
    expect: str
    orders: int
    store_changes: int
    first_calls: list[str]


class Cases(TypedDict):
    total: int
    core: int
    core_ids: list[str]
    by_category: dict[str, int]
    by_split: dict[str, int]
    list: list[CaseLine]


class Ingest(TypedDict):
    screenshots: int
    ms: float


class Guards(TypedDict):
    names: list[str]
    registered: list[str]


class FaultPolicy(TypedDict):
    """The fault replay's settings, and its rule in words."""

    fault_rate: float
    fix_rate: float
    vary_rate: float
    faults: list[str]
    weights: dict[str, float]
    truncation_need: list[float]
    ignore_task_rate: float
    faults_known: list[str]
    rule: str


class ReadingFigures(TypedDict):
    """The task reader on one set of requests (`pipeline.evals.readings.ReadingScore`)."""

    total: int
    counts: dict[str, int]
    by_lang: dict[str, dict[str, int]]
    by_kind: dict[str, dict[str, int]]
    wider: list[str]


class ModelReadings(TypedDict):
    """A task-reading model on one set of requests (`pipeline.evals.modelreads.judge`): the
    verdicts of the reader, the model, the final contract, the model's suggestion and what the
    run does with it (`asked`: acts, asks, or only reports) where the reader did not account
    for every word (`not_full` requests), and
    the requests where the model recovered, was kept from widening, gave no reading, where the
    final contract was still wider, where a right reading of the reader's was lost, or that
    the model has not read (`unread`)."""

    requests: int
    not_full: int
    counts: dict[str, dict[str, int]]
    recovered: list[str]
    blocked: list[str]
    no_reading: list[str]
    final_wider: list[str]
    lost: list[str]
    unread: list[str]


class ReaderDoc(TypedDict):
    tuning_requests: ReadingFigures
    sealed_requests: dict[str, ReadingFigures]
    """Each sealed set of requests apart, by its file's stem (`readings`, ...)."""
    rewrites: dict[str, dict[str, int]]
    rewrite_bases: int


class Contribution(TypedDict):
    """A model's product track minus a baseline's."""

    model: str
    baseline: str
    product_mean: float
    model_mean: float
    pass_k: int
    cases: int


class Report(TypedDict):
    k: int
    seeds: list[int]
    clock: str
    mode: str
    wall_s: float
    ingest: Ingest
    cases: Cases
    guards: Guards
    ship_gate_rule: str
    fault_policy: FaultPolicy | None
    reader: ReaderDoc | None
    models: list[ModelEntry]
    contributions: list[Contribution]
