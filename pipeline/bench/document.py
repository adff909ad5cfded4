"""The bench document (`bench.json`): what `pipeline.bench.run` assembles section by section
and the report, the targets and the misses read. Its small, fixed shapes are typed here; a
section as a whole is a `Doc`, JSON whose shape its own measuring module gives."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = [
    "Breakdown",
    "Doc",
    "ImageRead",
    "RatioDoc",
    "Reading",
    "RungCost",
    "SummaryDoc",
    "Target",
    "TextRead",
    "TextTotal",
    "ToolRead",
]

Doc = dict[str, Any]
"""A section of the bench document, as its measuring module writes it."""


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


class ToolRead(TypedDict):
    """One tool's reading of one image in the table sets (`pipeline.bench.peers`): rows and
    layout where it gives them, warm times, cells and inventory fields right (hits, total),
    TEDS, whether it had page text; and for this pipeline what its result said."""

    rows: int | None
    layout: str | None
    samples_ms: list[float]
    median_ms: float | None
    cells: list[int]
    fields: list[int]
    teds: float | None
    text: bool | None
    tokens: NotRequired[dict[str, int]]
    strategy: NotRequired[str]
    warnings: NotRequired[list[str]]
    timings_ms: NotRequired[dict[str, float]]
    chosen: NotRequired[str]


class ImageRead(TypedDict):
    """An image of a table set, what its truth says it is, and every tool's reading."""

    name: str
    size: str
    kit: str | None
    layout: str | None
    photo: bool
    truth_rows: int
    tools: dict[str, ToolRead]


class RungCost(TypedDict):
    """A rung of the ingest ladder over a set: on how many images it ran, was kept, its ms."""

    ran: int
    kept: int
    median_ms: float


class Breakdown(TypedDict):
    """A set's inventory fields (hits, total) by kit and by layout, and the screens that gave
    no row."""

    by_kit: dict[str, list[int]]
    by_layout: dict[str, list[int]]
    no_rows: list[str]


class Reading(TypedDict):
    """What one tool read of a text image, and its character error rate."""

    read: str
    cer: float


class TextRead(TypedDict):
    """A text image: what it says, and what each tool read with its character error rate."""

    name: str
    note: str
    text: str
    tools: dict[str, Reading]


class TextTotal(TypedDict):
    """A tool over all text images: how many it read right (CER 0), and its mean CER."""

    right: int
    images: int
    mean_cer: float | None
