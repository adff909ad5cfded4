"""The bench document (`bench.json`): what `pipeline.bench.run` assembles section by section
and the report, the targets and the misses read. Each section's shape is typed here, down to
the figures of one image and one tool (the table and text sets' in
`pipeline.bench.tables_doc`); `BenchDoc` is the whole document."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, final

from pipeline.bench.tables_doc import (
    Breakdown,
    ImageRead,
    Peer,
    PeerReads,
    Reading,
    RungCost,
    SetTotals,
    TablesDoc,
    TableSetDoc,
    TextRead,
    TextsDoc,
    TextTotal,
    ToolRead,
    ToolTotal,
)

__all__ = [
    "MODES",
    "ApiMemoryDoc",
    "BatchConfigDoc",
    "BatchDoc",
    "BenchDoc",
    "BenchMode",
    "Breakdown",
    "CacheDoc",
    "ColdDoc",
    "CommandsDoc",
    "CpuScaling",
    "HostDoc",
    "HostRunsDoc",
    "ImageRead",
    "IngestDoc",
    "IngestImage",
    "Measurements",
    "MemoryDoc",
    "MetaDoc",
    "MissDoc",
    "NotMeasured",
    "Peer",
    "PeerReads",
    "ProfileDoc",
    "RatioDoc",
    "Reading",
    "RealScreenGroup",
    "RealScreensDoc",
    "RealScreensSpeed",
    "RealSplitDoc",
    "RoundsDoc",
    "RungCost",
    "SetTotals",
    "StdioRunsDoc",
    "SummaryDoc",
    "TableSetDoc",
    "TablesDoc",
    "Target",
    "TextRead",
    "TextTotal",
    "TextsDoc",
    "TierTokensDoc",
    "TokensDoc",
    "ToolRead",
    "ToolTotal",
    "VariantDoc",
]


class SummaryDoc(TypedDict):
    """Repeated timings: median, min–max, and how many (`pipeline.bench.stats.Summary`)."""

    median: float
    min: float
    max: float
    n: int


class RatioDoc(TypedDict):
    """A ratio of medians and its range (`pipeline.bench.stats.Ratio`)."""

    value: float
    min: float
    max: float


@final
class NotMeasured(TypedDict):
    """A section that could not be measured, and why."""

    error: str


BenchMode = Literal["quick", "standard", "full"]

MODES: dict[BenchMode, str] = {
    "quick": "a smoke run: two samples, one round, rapidocr only, no warm-up processes, no API "
    "process; not every target is computed",
    "standard": "every image once (the headline image and the cheap sections three times), the "
    "peers on the first image of each set and on every table picture, plain RapidOCR on the "
    "real screens' tuning split, the ui_crop and full_page tokens of the headline image only, "
    "every target computed",
    "full": "every image and every peer on every image (real screens and tokens too), the "
    "headline image and the cheap sections at least five times, three process starts",
}
"""What each kind of run measures, as the report states it."""


class RoundsDoc(TypedDict):
    """Timed rounds per section (`pipeline.bench.context.rounds_of`)."""

    images: int
    headline: int
    cheap: int
    cold: int
    stdio: int
    batch: int
    commands: int
    """Turns of each whole command beside the plain RapidOCR process (best of them)."""
    warm_up_processes: bool


class MetaDoc(TypedDict):
    """The run itself: when, the command, the machine and its load, the packages, the rounds;
    the seconds of each section, the load at the end and the duration once it is over."""

    started_at: str
    command: str
    cpu_count: int | None
    platform: str
    python: str
    versions: dict[str, str]
    load_avg_start: list[float]
    repeat: int
    rounds: RoundsDoc
    mode: BenchMode
    quick: bool
    ocr_threads_setting: int
    images: list[str]
    section_s: NotRequired[dict[str, float]]
    load_avg_end: NotRequired[list[float]]
    duration_s: NotRequired[float]


class VariantDoc(TypedDict):
    """An ingest variant: its key, its label, and whether it runs on the headline image only."""

    key: str
    label: str
    headline_only: bool


class IngestImage(TypedDict):
    """One image of the ingest section: per variant its samples (ms), their summary, its ratio
    to the baseline and its cells right (hits, total)."""

    name: str
    size: str
    headline: bool
    samples_ms: dict[str, list[float]]
    summary: dict[str, SummaryDoc]
    vs_baseline: dict[str, RatioDoc | None]
    accuracy: dict[str, list[int]]


class IngestDoc(TypedDict):
    """The baseline against the pipeline and its engines, image by image."""

    headline: str
    rounds: int
    headline_rounds: int
    baseline: str
    ours: str
    baseline_code: str
    variants: list[VariantDoc]
    images: list[IngestImage]
    accuracy_overall: dict[str, list[int]]
    skipped_engines: dict[str, str]
    errors: dict[str, str]


@final
class CacheDoc(TypedDict):
    """A miss against hits from memory and from disk: samples and summaries by path (`miss`,
    `memory`, `disk`), the ratios, and the cache states seen."""

    image: str
    samples_ms: dict[str, list[float]]
    summary: dict[str, SummaryDoc]
    miss_vs_memory: RatioDoc | None
    miss_vs_disk: RatioDoc | None
    states: list[str]


class ColdDoc(TypedDict):
    """A fresh process against a warm one: samples and summaries (`cold`, `warm`), their ratio,
    the ingest's own time inside each cold run, and the runs that failed."""

    image: str
    command: str
    samples_ms: dict[str, list[float]]
    summary: dict[str, SummaryDoc]
    cold_vs_warm: RatioDoc | None
    ingest_ms_inside_cold: list[float | None]
    errors: list[str]


class CommandsDoc(TypedDict):
    """Whole commands, one process each, beside a plain RapidOCR process on the same image
    (`pipeline.bench.commands`): seconds per turn, each one's best, its best over the plain
    process's best, and the commands that failed."""

    image: str
    turns: int
    samples_s: dict[str, list[float]]
    best_s: dict[str, float]
    vs_plain: dict[str, float]
    errors: dict[str, str]


class TierTokensDoc(TypedDict):
    """Tokens one image costs: the full-page estimate, what each tier sent and as what strategy
    (`pipeline.bench.tokens.TierTokens`), and each tier's share of the estimate."""

    image: str
    full_page_image: int
    sent: dict[str, int]
    strategy: dict[str, str]
    table_screen: bool
    share: dict[str, float]


class TokensDoc(TypedDict):
    """How the full-page estimate is made, and every image's tokens per tier."""

    formula: str
    images: list[TierTokensDoc]


class CpuScaling(TypedDict):
    """One plain loop per core at once against one alone: seconds each, and the scaling."""

    alone_s: float
    together_s: float
    scaling: float


class BatchConfigDoc(TypedDict):
    """A batch configuration over its rounds: images per minute, wall and busy ms, each
    worker's peak RSS, ms per image by stage, and its error if it failed."""

    key: str
    label: str
    processes: int
    threads: int
    per_minute: list[float]
    wall_ms: list[float]
    busy_ms: list[float]
    peak_rss_mb: list[float]
    stage_ms_per_image: dict[str, float]
    summary: SummaryDoc
    error: str | None


class BatchDoc(TypedDict):
    """The pool against one process: every configuration, the ratios, the bound one-thread
    workers can reach, and what the machine gave a plain loop before and after the rounds."""

    images_per_round: int
    strategy: str
    configs: list[BatchConfigDoc]
    pool_vs_single_all_cores: RatioDoc | None
    pool_vs_single_one_thread: RatioDoc | None
    one_thread_bound: float | None
    cpu_scaling: list[CpuScaling]


class HostRunsDoc(TypedDict):
    """Host runs over in-memory servers (`pipeline.bench.host.HostRuns`) and the summaries of
    `per_hop_ms`, `host_ms` and `total_ms`."""

    per_hop_ms: list[float]
    host_ms: list[float]
    total_ms: list[float]
    hops: list[int]
    tool_calls: list[int]
    statuses: list[str]
    summary: dict[str, SummaryDoc]


class StdioRunsDoc(TypedDict):
    """Runs over stdio servers (`pipeline.bench.host.StdioRuns`), the summaries of
    `spawn_and_run_ms` and `run_ms`, and the ratio of the one to the other."""

    spawn_and_run_ms: list[float]
    run_ms: list[float]
    hops: list[int]
    tool_calls: list[int]
    statuses: list[str]
    error: str | None
    summary: dict[str, SummaryDoc]
    spawn_and_run_vs_run: RatioDoc | None


class HostDoc(TypedDict):
    """The task the host ran, over in-memory servers and over stdio."""

    task: str
    memory: HostRunsDoc
    stdio: StdioRunsDoc


class ApiMemoryDoc(TypedDict):
    """The API process's memory (`pipeline.bench.memory.ApiMemory`); only whether it was
    measured and why not when it was not."""

    measured: bool
    note: str
    after_ready_mb: NotRequired[float | None]
    after_ingest_mb: NotRequired[float | None]
    ingest_ms: NotRequired[float | None]


class MemoryDoc(TypedDict):
    """Peak RSS of the ingest process, of each batch configuration's workers, and the API's."""

    ingest_process_peak_rss_mb: float | None
    batch_worker_peak_rss_mb: dict[str, list[float]]
    api: ApiMemoryDoc


class Target(TypedDict):
    """A target judged: the measured value against its threshold, and the margin in words."""

    key: str
    statement: str
    value: float | None
    op: str
    threshold: float
    unit: str
    met: bool | None
    margin: str
    detail: str


class ProfileDoc(TypedDict):
    """A profile of what missed (`pipeline.bench.profile.Profile`): its subject and seconds,
    the functions with the most own time, the call tree, a note, the stages' seconds."""

    subject: str
    seconds: float
    top: list[tuple[str, float]]
    tree: str
    note: str
    stages: dict[str, float]


class MissDoc(TypedDict):
    """A missed target: what the figures show, the profile of the thing that missed where
    there is one, and the next step."""

    target: str
    finding: str
    profile: ProfileDoc | None
    next_step: str


class RealScreenGroup(TypedDict):
    """Real screens read, as a group (a split, a product, a layout, one image): the shown
    fields right, the truth rows found, the images where not one was, the median seconds."""

    name: str
    images: int
    fields_right: int
    fields: int
    rows_found: int
    rows: int
    images_with_no_rows: int
    median_s: float


class RealSplitDoc(TypedDict):
    """One side of the real screens' split: its total, per product, per layout, and (the
    tuning side only) per image."""

    total: RealScreenGroup
    products: list[RealScreenGroup]
    layouts: list[RealScreenGroup]
    images: list[RealScreenGroup]


class RealScreensSpeed(TypedDict):
    """Our ingest of real screens beside a plain `RapidOCR()` reading the same ones whole,
    warm: the medians over those screens and their ratio (no screen named)."""

    screens: str
    images: int
    ours_median_s: float
    plain_median_s: float
    ours_vs_plain: float | None


class RealScreensDoc(TypedDict):
    """Real products' screenshots with hand-written truth (`pipeline.bench.real_screens`)."""

    folder: str
    split_file: str
    splits: dict[str, RealSplitDoc]
    speed: NotRequired[RealScreensSpeed]
    """Beside a plain RapidOCR reading of the same screens (the shared real screens only)."""


class Measurements(TypedDict):
    """The document's measured sections, in the order they are measured."""

    meta: MetaDoc
    ingest: IngestDoc
    cache: CacheDoc | NotMeasured
    cold_start: ColdDoc
    commands: CommandsDoc
    tokens: TokensDoc
    tables: TablesDoc
    texts: TextsDoc
    batch: BatchDoc
    host: HostDoc
    memory: MemoryDoc
    real_screens: NotRequired[RealScreensDoc | NotMeasured]
    """Where a real screens folder was given (`--real-screens`)."""
    real_products: NotRequired[RealScreensDoc | NotMeasured]
    """Real products' own screens rendered here (`--real-products`), scored by the real
    screens' scorer."""


class BenchDoc(Measurements):
    """The whole bench document: the measurements, the targets judged from them, and a
    profile and next step for each missed one."""

    targets: list[Target]
    profiles: list[MissDoc]
