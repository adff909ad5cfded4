"""Data shapes shared by every layer: what ingest returns and what engines produce."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, JsonValue, PrivateAttr

from pipeline.fields import KeyKind

__all__ = [
    "CACHE_STATES",
    "CAPTURE_SOURCES",
    "STRATEGIES",
    "Box",
    "CacheState",
    "CaptureSource",
    "EventSink",
    "IngestResult",
    "InventoryRow",
    "JsonObject",
    "JsonValue",
    "Message",
    "ModelResponse",
    "ModelSettings",
    "Role",
    "Row",
    "RunEvent",
    "Strategy",
    "Table",
    "TextLine",
    "Tokens",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "is_low",
]

JsonObject = dict[str, JsonValue]
"""An object as JSON carries it (`JsonValue`, pydantic's: a string, number, boolean, null,
list or object of those)."""
RunEvent = JsonObject
"""One event of a run as the host emits it and the job queues store and stream it: `run_id`,
`type` and the fields of that type."""
EventSink = Callable[[RunEvent], None]
"""Where a run's events go, one at a time, as they happen."""

Box = tuple[int, int, int, int]
"""An axis-aligned box `(x0, y0, x1, y1)` in pixels of the image it was found in."""

CaptureSource = Literal["caller", "exif", "png-text", "filename", "mtime", "upload"]
CAPTURE_SOURCES: tuple[CaptureSource, ...] = (
    "caller",
    "exif",
    "png-text",
    "filename",
    "mtime",
    "upload",
)
Strategy = Literal["table_ocr", "full_page", "ui_crop", "multi_image"]
STRATEGIES: tuple[Strategy, ...] = ("table_ocr", "full_page", "ui_crop", "multi_image")
CacheState = Literal["miss", "memory", "disk", "database"]
CACHE_STATES: tuple[CacheState, ...] = ("miss", "memory", "disk", "database")


class TextLine(BaseModel):
    """One piece of recognised text with where it was and how sure the engine is."""

    text: str
    box: Box
    confidence: float = Field(ge=0.0, le=1.0)


Layout = Literal["table", "cards", "list", "none"]
"""How a screen shows its records: a table, cards or tiles, a list of items, or none found."""


ColumnSource = Literal["typed", "profile", "given", "model"]


class ColumnInfo(BaseModel):
    """What ingest took one column of the grid to hold, and why."""

    header: str
    maps_to: str | None = Field(
        default=None,
        description="the schema field (sku, name, on_hand, reorder_point, "
        "warehouse_id) this column holds, or None",
    )
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    why: str = Field(default="", description="the evidence: header words and value shapes")
    unit: str | None = Field(
        default=None,
        description="the unit the column's quantities carry (`pcs`, `件`), kept "
        "here: row quantities are the numbers alone",
    )
    key: KeyKind | None = Field(
        default=None,
        description="where this column gives the rows their key: what kind of identifier it "
        "is (sku, barcode, part_number, code, or name where the screen shows nothing else)",
    )
    key_part: str | None = Field(
        default=None,
        description="the part of the cell the key is, where it is not the whole cell "
        "(`the code in brackets`)",
    )
    source: ColumnSource = Field(
        default="typed",
        description="typed from the header and values; a saved profile; given by the caller "
        "(--columns); asked of a model",
    )


class Table(BaseModel):
    """A generic grid: whatever the screen's header said, and the cell texts row by row."""

    header: list[str] = Field(default_factory=list)
    cells: list[list[str]] = Field(default_factory=list)
    columns: list[ColumnInfo] = Field(
        default_factory=list, description="each column's role, one per header cell"
    )
    html: str | None = Field(
        default=None,
        description="the table as HTML with its merged cells, when a structure model read it "
        "(merged values are repeated in `cells`; `header` is the bottom header row)",
    )


NONE_MARKS = ("-", "—", "–", "一")
"""What a cell shows for none (a dash, or `一` as a Chinese page's OCR reads one)."""


def is_low(on_hand: int | None, reorder_point: int | None) -> bool:
    """Below its reorder point, where both numbers are known."""
    return on_hand is not None and reorder_point is not None and on_hand < reorder_point


class InventoryRow(BaseModel):
    """The inventory schema's fields, as a screen showed them; a field the screen lacks is
    None. What a mapped row (`Row`) and a row the model reads (`ScreenRow`) both carry."""

    sku: str | None = None
    name: str | None = None
    on_hand: int | None = None
    reorder_point: int | None = None
    warehouse_id: str | None = None


class Row(InventoryRow):
    """A table row mapped onto the inventory schema; a field the screen lacks is None."""

    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    unit: str | None = None
    """The unit the screen writes beside the row's on-hand quantity (`箱`, `pcs`, `Stück`,
    `g`), kept apart from the number; None where it writes none."""

    @property
    def is_low(self) -> bool:
        return is_low(self.on_hand, self.reorder_point)


class Tokens(BaseModel):
    full_page_image: int = Field(description="estimated tokens if the whole page went as an image")
    sent: int = Field(description="tokens of what the chosen tier actually sends")


class IngestResult(BaseModel):
    """What `stockshot ingest --json` prints per image (DESIGN §1).

    In the process that ingested it, a result also holds the screenshot's bytes (`source`,
    never serialised), so a run can show the model the picture a text tier left out
    (`screen_view`) without reading the file again; a result read back from JSON has none."""

    file: str
    sha256: str
    captured_at: datetime
    captured_at_source: CaptureSource
    age_s: float
    strategy: Strategy
    engine: str
    cache: CacheState
    size: tuple[int, int]
    crop: Box | None
    table: Table
    layout: Layout = Field(
        default="table",
        description="how the screen showed its records: table, cards (tiles), list, or none",
    )
    rows: list[Row]
    page_warehouse: str | None = Field(
        default=None, description="the warehouse the page names (title, filter, breadcrumb)"
    )
    text: str
    tokens: Tokens
    warnings: list[str] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    image: str | None = Field(
        default=None, description="data URL of the image a vision model gets (full_page, ui_crop)"
    )
    _source: bytes | None = PrivateAttr(default=None)

    @property
    def source(self) -> bytes | None:
        """The screenshot's bytes as ingested, in this process only."""
        return self._source

    def with_source(self, data: bytes | None) -> IngestResult:
        """This result holding `data`, the bytes it was read from (None: no longer)."""
        self._source = data
        return self


# --- Conversation with a model: one normalised format; adapters translate to wire formats. ---

Role = Literal["system", "user", "assistant", "tool"]


class ToolCall(BaseModel):
    """A call a model proposed. `arguments` is the parsed object; `raw_arguments` keeps the text
    when it was not valid JSON (a guard may still repair it)."""

    id: str
    name: str
    arguments: JsonObject = Field(default_factory=dict)
    raw_arguments: str | None = None


class Message(BaseModel):
    role: Role
    content: str = ""
    images: list[str] = Field(default_factory=list, description="data URLs")
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = Field(default=0, description="prompt tokens the server had cached")


class ModelResponse(BaseModel):
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: str = "stop"
    usage: Usage = Field(default_factory=Usage)
    model: str = ""
    asks: bool = Field(default=False, description="the reply is a question to the user")
    steps: Literal["native", "schema"] | None = Field(
        default=None, description="how the adapter asked for this turn (structured steps)"
    )
    schema_valid: bool | None = Field(
        default=None, description="schema steps: whether the reply met the step schema"
    )
    note: str = Field(default="", description="what the adapter decided on the way")

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"


def _any_object() -> JsonObject:
    return {"type": "object"}


class ToolSpec(BaseModel):
    """A tool as the host offers it to a model, built from MCP `tools/list`."""

    name: str
    description: str = ""
    input_schema: JsonObject = Field(default_factory=_any_object)
    group: str
    read_only: bool = False


class ModelSettings(BaseModel):
    max_tokens: int = Field(default=1024, gt=0)
    temperature: float = 0.0
    seed: int | None = None
