"""The table and text sets' sections of the bench document (`pipeline.bench.document`): each
tool's reading of each image, a set's totals by tool, and text read by content."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

__all__ = [
    "Breakdown",
    "ImageRead",
    "Peer",
    "PeerReads",
    "Reading",
    "RungCost",
    "SetTotals",
    "TableSetDoc",
    "TablesDoc",
    "TextRead",
    "TextTotal",
    "TextsDoc",
    "ToolRead",
    "ToolTotal",
]

Peer = Literal[
    "stockshot",
    "rapidocr+rows",
    "rapidocr+rows@threads",
    "rapid_table",
    "rapid_table@our-crop",
    "rapid_table@truth-box",
    "img2table",
]
"""A tool of the table sets: this pipeline or one of its peers (`pipeline.bench.peers`), in
the order the report lists them."""


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


PeerReads = TypedDict(
    "PeerReads",
    {
        "stockshot": NotRequired[ToolRead],
        "rapidocr+rows": NotRequired[ToolRead],
        "rapidocr+rows@threads": NotRequired[ToolRead],
        "rapid_table": NotRequired[ToolRead],
        "rapid_table@our-crop": NotRequired[ToolRead],
        "rapid_table@truth-box": NotRequired[ToolRead],
        "img2table": NotRequired[ToolRead],
    },
)
"""Every tool's reading of one image, by tool; a tool that did not read it is left out."""


class ImageRead(TypedDict):
    """An image of a table set, what its truth says it is, and every tool's reading."""

    name: str
    size: str
    kit: str | None
    layout: str | None
    photo: bool
    truth_rows: int
    tools: PeerReads


class RungCost(TypedDict):
    """A rung of the ingest ladder over a set: on how many images it ran, was kept, its ms."""

    ran: int
    kept: int
    median_ms: float


class ToolTotal(TypedDict):
    """A tool over a set: the images it read, cells and fields right (hits, total), mean TEDS,
    the median and the slowest of its images' medians, and which images had page text."""

    images: int
    cells: list[int]
    fields: list[int]
    teds: float | None
    median_ms: float | None
    max_ms: float | None
    texts: list[bool]


SetTotals = TypedDict(
    "SetTotals",
    {
        "stockshot": NotRequired[ToolTotal],
        "rapidocr+rows": NotRequired[ToolTotal],
        "rapidocr+rows@threads": NotRequired[ToolTotal],
        "rapid_table": NotRequired[ToolTotal],
        "rapid_table@our-crop": NotRequired[ToolTotal],
        "rapid_table@truth-box": NotRequired[ToolTotal],
        "img2table": NotRequired[ToolTotal],
        "rungs": NotRequired[dict[str, RungCost]],
        "token_shares": NotRequired[list[tuple[str, float]]],
    },
)
"""A set's totals: each tool's by its name, then this pipeline's cost per rung (`rungs`) and
the share of the full-page estimate its tokens were on each table screen (`token_shares`)."""


class TableSetDoc(TypedDict):
    """An image set read by every tool: its images and its totals."""

    key: str
    label: str
    images: list[ImageRead]
    totals: SetTotals


class TablesDoc(TypedDict):
    """The pipeline against its peers on every image set; a peer that failed, with its error."""

    tools: list[Peer]
    sets: list[TableSetDoc]
    errors: dict[str, str]
    rounds: int


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


class TextsDoc(TypedDict):
    """Text judged by content: every text image and each tool's totals, or no image and the
    reason."""

    images: list[TextRead]
    totals: NotRequired[dict[str, TextTotal]]
    error: NotRequired[str]
    not_drawn: NotRequired[list[str]]
    """The images left out for a missing font, each naming the package that provides it."""
