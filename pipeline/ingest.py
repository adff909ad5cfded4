"""Image bytes in, `IngestResult` out: validate, normalise, crop, OCR, structure, stamp.

I/O objects come in from the entry points: the OCR engine, the cache and the clock.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from statistics import median
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from pipeline.cache import IngestCache, cache_key
from pipeline.errors import EmptyInputError, InputError, UnknownNameError
from pipeline.freshness import age_seconds, resolve_capture
from pipeline.imaging.emphasis import emphasised
from pipeline.imaging.load import LoadedImage, check_size, load_image
from pipeline.imaging.normalise import Normalised, normalise
from pipeline.imaging.payload import to_payload
from pipeline.imaging.text import TextBoxes, find_text_boxes, ink_bounds, restore_spaces
from pipeline.models import (
    Box,
    ColumnSource,
    IngestResult,
    Layout,
    Row,
    Table,
    TextLine,
    Tokens,
)
from pipeline.ocr.base import OcrEngine
from pipeline.ocr.structure import TableStructureModel
from pipeline.screentext import TextBox, render_screen
from pipeline.table.cards import cards_table, read_cards
from pipeline.table.cells import clean_text
from pipeline.table.grid import sheet_chrome, strip_icons
from pipeline.table.html import table_from_html
from pipeline.table.layout import (
    TableLayout,
    find_table,
    reading_order,
    structure_region,
    union_box,
)
from pipeline.table.profiles import format_columns, header_signature, roles_from_mapping
from pipeline.table.rows import (
    UNSURE,
    MappedRows,
    estimate_text_tokens,
    fit_budget,
    mapping_doubts,
    page_warehouse,
    screen_text,
    selected_line,
    to_rows,
    warehouse_ids,
    warehouse_label,
)
from pipeline.table.schema import is_code, map_columns, type_columns, well_formed
from pipeline.tiers import LADDERS, Rung, image_tokens, judge

__all__ = [
    "PIPELINE_VERSION",
    "REQUESTABLE",
    "IngestConfig",
    "Ingestor",
    "ProfileLookup",
    "apply_columns",
]

log = logging.getLogger(__name__)

PIPELINE_VERSION = "4"
REQUESTABLE = ("auto", "table_ocr", "full_page", "ui_crop")
Rgb = NDArray[np.uint8]


@dataclass(frozen=True)
class IngestConfig:
    max_bytes: int
    max_pixels: int
    tz: tzinfo
    strategy: str = "auto"
    vision_max_pixels: int = 1920 * 1080
    text_share: float | None = 0.3
    """Most of the full-page image's tokens a `table_ocr` text may cost: beyond it the page
    context, a warehouse column shared by every row and the product names are left out, in
    that order (`fit_budget`); None sends everything."""


@dataclass
class _Page:
    """One analysis's working image and what the rungs found on it, each computed once."""

    norm: Normalised
    memo: dict[bytes, tuple[str, float]] = field(default_factory=dict)
    found: TextBoxes | None = None
    detected: list[TextLine] | None = None
    """Text lines the engine detected, boxes in working pixels."""
    detected_whole: list[TextLine] | None = None
    """The same over the whole page (blocks of cards are not one table region)."""

    def boxes(self) -> TextBoxes:
        if self.found is None:
            self.found = find_text_boxes(self.norm.gray, photo=self.norm.quad is not None)
        return self.found


@dataclass
class _Attempt:
    """What one rung of the ladder produced."""

    rung: Rung
    table: Table | None = None
    confidences: list[list[float]] = field(default_factory=list)
    mapped: MappedRows = field(default_factory=MappedRows)
    context: list[str] = field(default_factory=list)
    crop: Box | None = None
    annotations: list[TextLine] = field(default_factory=list)
    reasons: tuple[str, ...] = ()
    doubts: tuple[str, ...] = ()
    """Signs from the layout that the grid is not the table's structure."""
    region: Box | None = None
    """The table's box in working pixels (what `ui_crop` cuts out)."""
    layout: Layout = "table"

    @property
    def score(self) -> float:
        filled = [c for row in self.confidences for c in row]
        return (len(self.mapped.rows) + 1) * (sum(filled) / len(filled) if filled else 0.0)


class Ingestor:
    """Turns screenshots into results; thread-safe; the same bytes are analysed once."""

    def __init__(
        self,
        engine: OcrEngine,
        *,
        config: IngestConfig,
        cache: IngestCache | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        structure: TableStructureModel | None = None,
        profiles: ProfileLookup | None = None,
    ) -> None:
        """`structure` is the table-structure model of the `structure` rung; without one that
        rung is skipped. `profiles` finds the column mapping a person saved for a table's
        header signature (`pipeline.table.profiles`)."""
        self.engine = engine
        self.structure = structure
        self.profiles = profiles
        self.config = config
        self.cache = cache
        self.clock = clock
        self._inflight: dict[str, threading.Lock] = {}
        self._inflight_guard = threading.Lock()

    def ingest_path(
        self,
        path: Path,
        *,
        caller_time: datetime | None = None,
        strategy: str | None = None,
        columns: Mapping[str, str] | None = None,
    ) -> IngestResult:
        """Read a file and ingest it; its mtime is the last-resort capture time."""
        if path.is_dir():
            raise EmptyInputError(f"{path}: is a directory, not an image file")
        try:
            stat = path.stat()
            check_size(stat.st_size, name=str(path), max_bytes=self.config.max_bytes)
            data = path.read_bytes()
        except FileNotFoundError as exc:
            raise EmptyInputError(f"{path}: no such file") from exc
        except PermissionError as exc:
            raise InputError(f"{path}: permission denied") from exc
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc.strerror})") from exc
        mtime = datetime.fromtimestamp(stat.st_mtime, tz=self.config.tz)
        return self.ingest_bytes(
            data,
            name=str(path),
            caller_time=caller_time,
            mtime=mtime,
            strategy=strategy,
            columns=columns,
        )

    def ingest_bytes(
        self,
        data: bytes,
        *,
        name: str,
        caller_time: datetime | None = None,
        mtime: datetime | None = None,
        strategy: str | None = None,
        columns: Mapping[str, str] | None = None,
    ) -> IngestResult:
        """`columns` (field -> header) lays a person's mapping over the typed one; without it
        a profile saved for the table's header signature does."""
        started = time.perf_counter()
        requested = strategy or self.config.strategy
        if requested not in REQUESTABLE:
            raise UnknownNameError("strategy", requested, REQUESTABLE)
        check_size(len(data), name=name, max_bytes=self.config.max_bytes)
        digest = hashlib.sha256(data).hexdigest()
        key = self._cache_key(digest, requested)
        with self._single_flight(key):
            entry, state = self._lookup(key)
            if entry is None:
                entry = self._analyse(data, name=name, requested=requested)
                if self.cache is not None:
                    self.cache.put(key, entry)
        received = self.clock()
        capture = resolve_capture(
            received=received,
            tz=self.config.tz,
            caller=caller_time,
            exif_datetime=entry["exif_datetime"],
            exif_offset=entry["exif_offset"],
            png_text=entry["png_text"],
            filename=Path(name).name,
            mtime=mtime,
        )
        table = Table.model_validate(entry["table"])
        mapped = MappedRows(
            rows=[Row.model_validate(r) for r in entry["rows"]],
            mapping=entry["mapping"],
            sources=entry["sources"],
        )
        mapping_notes: list[str] = []
        override, source = self._override(table, columns)
        if override:
            table, mapped, mapping_notes = remap(entry, table, override, source)
        image = entry["image"]
        budget = (
            round(self.config.text_share * entry["full_page_tokens"])
            if self.config.text_share is not None and entry["strategy"] == "table_ocr"
            else None
        )
        text, left_out = _model_text(entry, table, mapped, capture.at, budget)
        sent = estimate_text_tokens(text) + (entry["image_tokens"] if image else 0)
        timings = dict(entry["timings_ms"]) if state == "miss" else {}
        timings["total"] = round((time.perf_counter() - started) * 1000, 2)
        return IngestResult(
            file=name,
            sha256=digest,
            captured_at=capture.at,
            captured_at_source=capture.source,
            age_s=round(age_seconds(capture.at, received), 3),
            strategy=entry["strategy"],
            engine=entry["engine"],
            cache=state,
            size=tuple(entry["size"]),
            crop=tuple(entry["crop"]) if entry["crop"] else None,
            table=table,
            layout=entry.get("layout", "table"),
            rows=mapped.rows,
            page_warehouse=page_warehouse(entry.get("context", [])),
            text=text,
            tokens=Tokens(full_page_image=entry["full_page_tokens"], sent=sent),
            warnings=[
                *(w for w in entry["warnings"] if not (override and w.startswith(UNSURE))),
                *mapping_notes,
                *_zone_note(capture.at, capture.source, self.config),
                *(
                    [
                        f"text kept within {self.config.text_share:.0%} of the image's tokens: "
                        f"left out {', '.join(left_out)} (all still in `table`)"
                    ]
                    if left_out and self.config.text_share is not None
                    else []
                ),
            ],
            timings_ms=timings,
            image=image,
        ).with_source(data)

    def _override(
        self, table: Table, columns: Mapping[str, str] | None
    ) -> tuple[Mapping[str, str] | None, ColumnSource]:
        if columns:
            return columns, "given"
        if self.profiles is not None and table.header:
            found = self.profiles.mapping(header_signature(table.header))
            if found:
                return found, "profile"
        return None, "typed"

    def cached(self, sha256: str, *, strategy: str | None = None) -> bool:
        """Whether the analysis of the bytes with this SHA-256 is cached (ingesting them again
        is a lookup, not an analysis)."""
        if self.cache is None:
            return False
        return self.cache.get(self._cache_key(sha256, strategy or self.config.strategy)) is not None

    def cache_key(self, sha256: str, strategy: str | None = None) -> str:
        """The cache key the analysis of these bytes with this strategy is kept under."""
        return self._cache_key(sha256, strategy or self.config.strategy)

    def _cache_key(self, sha256: str, strategy: str) -> str:
        structure = self.structure
        return cache_key(
            sha256,
            strategy=strategy,
            engine=self.engine.name,
            models=self.engine.models + (f"+{structure.models}" if structure else ""),
            version=PIPELINE_VERSION,
        )

    @contextmanager
    def _single_flight(self, key: str) -> Iterator[None]:
        with self._inflight_guard:
            lock = self._inflight.setdefault(key, threading.Lock())
        with lock:
            yield
        with self._inflight_guard:
            if self._inflight.get(key) is lock and not lock.locked():
                del self._inflight[key]

    def _lookup(self, key: str) -> tuple[dict[str, Any] | None, str]:
        if self.cache is None:
            return None, "miss"
        hit = self.cache.get(key)
        return (hit[0], hit[1]) if hit else (None, "miss")

    def _analyse(self, data: bytes, *, name: str, requested: str) -> dict[str, Any]:
        timings: dict[str, float] = {}
        with _timed(timings, "load"):
            loaded = load_image(
                data, name=name, max_bytes=self.config.max_bytes, max_pixels=self.config.max_pixels
            )
        with _timed(timings, "normalise"):
            norm = normalise(loaded.image)
        ladder = (
            LADDERS[requested if norm.clean else f"{requested}_photo"]
            if requested != "full_page"
            else LADDERS["full_page"]
        )
        page = _Page(norm)
        attempts: list[_Attempt] = []
        chosen: _Attempt | None = None
        grid: _Attempt | None = None
        """A grid that passed every check but holds no inventory rows, kept while the cards
        rung looks for records in blocks."""
        methods = [r.method for r in ladder]
        for rung in ladder:
            with _timed(timings, rung.method):
                attempt = self._climb(rung, page)
            if attempt.rung.method == "image":
                best = max(attempts, key=lambda a: a.score, default=None)
                chosen = _escalated(attempt, best)
                break
            attempts.append(attempt)
            if rung.method == "cards" and attempt.table is None and grid is not None:
                chosen = grid  # no records in blocks either: the grid it was
                break
            if attempt.table is None and attempt.reasons:
                continue
            doubts = attempt.doubts
            if norm.quad is not None and attempt.table and not attempt.mapped.rows:
                # A photo's grid that names no inventory column is as likely misread as not
                # an inventory table: the next rung reads it another way.
                doubts = (*doubts, "no inventory columns recognised")
            verdict = judge(attempt.table, attempt.confidences, attempt.mapped.rows, doubts)
            attempt.reasons = verdict.reasons
            untried = "cards" in methods[methods.index(rung.method) + 1 :]
            if verdict.ok and not attempt.mapped.rows and untried:
                # A page of cards or tiles lines up as a grid of text: read it as blocks
                # before taking the grid.
                grid = attempt
                attempt.reasons = ("no inventory rows: the page may show cards or a list",)
                continue
            if verdict.ok:
                chosen = attempt
                break
        if chosen is None:
            chosen = max(attempts, key=lambda a: a.score)
        elif norm.quad is not None and chosen.rung.method == "lines" and "detect" in methods:
            chosen = self._weighed(chosen, page, attempts, timings)
        chosen = self._selected_tab(chosen, page)
        page_lines: list[str] = []
        if not (chosen.table and chosen.table.cells) or chosen.rung.strategy == "full_page":
            with _timed(timings, "page_text"):
                page_lines = self._page_text(page)
        warnings = [
            *_warnings(loaded, norm, attempts, chosen, bool(page_lines)),
            *mapping_doubts(chosen.mapped),
        ]
        width, height = loaded.image.size
        working = (norm.rgb.shape[1], norm.rgb.shape[0])
        image_payload, payload_tokens = None, 0
        if chosen.rung.strategy in ("full_page", "ui_crop"):
            region = norm.rgb
            if chosen.rung.strategy == "ui_crop" and chosen.region:
                x0, y0, x1, y1 = chosen.region
                region = norm.rgb[max(0, y0) : y1, max(0, x0) : x1]
            image_payload, payload_tokens = _payload(region, self.config.vision_max_pixels)
        return {
            "strategy": chosen.rung.strategy,
            "engine": self.engine.name if chosen.rung.method != "image" or chosen.table else "none",
            "size": [width, height],
            "crop": list(chosen.crop) if chosen.crop else None,
            "table": (chosen.table or Table()).model_dump(),
            "rows": [r.model_dump() for r in chosen.mapped.rows],
            "confidences": chosen.confidences,
            "mapping": chosen.mapped.mapping,
            "sources": chosen.mapped.sources,
            "context": chosen.context,
            "layout": chosen.layout if chosen.table and chosen.table.cells else "none",
            "lines": page_lines,
            "annotations": [a.model_dump() for a in chosen.annotations],
            "warnings": warnings,
            "image": image_payload,
            "image_tokens": payload_tokens,
            "full_page_tokens": image_tokens(*working),
            "exif_datetime": loaded.exif_datetime,
            "exif_offset": loaded.exif_offset,
            "png_text": loaded.png_creation_time,
            "timings_ms": timings,
        }

    def _selected_tab(self, chosen: _Attempt, page: _Page) -> _Attempt:
        """Rows without a warehouse on a page that names several above its table, as a row of
        tabs (`WH-01 | WH-02 | WH-03`): the warehouse of the tab drawn as chosen (underlined,
        filled, heavier), recorded in the context; else the rows stay without one."""
        mapped = chosen.mapped
        if (
            not mapped.rows
            or "warehouse_id" in mapped.mapping
            or page_warehouse(chosen.context) is not None
            or len(warehouse_ids(chosen.context)) < 2
        ):
            return chosen
        lines = (
            self._detect(page, whole=True) if page.norm.quad is not None else self._page_lines(page)
        )
        labels = [line for line in lines if warehouse_label(line.text)]
        for row in _rows_of(labels):
            names = [warehouse_label(line.text) or "" for line in row]
            if len(set(names)) < 2:
                continue
            k = emphasised(page.norm.gray, [line.box for line in row])
            if k is None:
                continue
            warehouse = names[k]
            rows = [
                r if r.warehouse_id else r.model_copy(update={"warehouse_id": warehouse})
                for r in mapped.rows
            ]
            return replace(
                chosen,
                context=[*chosen.context, selected_line(warehouse)],
                mapped=replace(mapped, rows=rows),
            )
        return chosen

    def _weighed(
        self, chosen: _Attempt, page: _Page, attempts: list[_Attempt], timings: dict[str, float]
    ) -> _Attempt:
        """A photo's reading by its own text boxes, or the engine's detection when that reads
        more fields as values of their kind, or as many with more confidence: photographed,
        the boxes can cut a faint word (a link's blue on dark) or misread small Chinese that
        the detection reads whole."""
        with _timed(timings, "detect"):
            other = self._climb(Rung(chosen.rung.strategy, "detect"), page)
        if other.table is None or other.reasons:
            return chosen
        verdict = judge(other.table, other.confidences, other.mapped.rows, other.doubts)
        other.reasons = verdict.reasons
        attempts.append(other)
        if not verdict.ok:
            return chosen
        mine = (well_formed(chosen.mapped.rows), _mapped_confidence(chosen))
        theirs = (well_formed(other.mapped.rows), _mapped_confidence(other))
        return other if theirs > mine else chosen

    def _climb(self, rung: Rung, page: _Page) -> _Attempt:
        if rung.method == "image":
            return _Attempt(rung)
        if rung.method == "lines":
            return self._by_lines(rung, page)
        if rung.method == "structure":
            return self._by_structure(rung, page)
        if rung.method == "cards":
            return self._by_cards(rung, page)
        return self._by_detection(rung, page)

    def _by_cards(self, rung: Rung, page: _Page) -> _Attempt:
        """Records in blocks (cards, tiles, list items) read from the page's text lines."""
        norm = page.norm
        lines = self._detect(page, whole=True) if norm.quad is not None else self._page_lines(page)
        found = read_cards(lines, norm.gray)
        if found is None:
            return _Attempt(rung, reasons=("no records in cards or a list",))
        table, confidences, roles = cards_table(found)
        mapped = to_rows(
            table,
            confidences,
            default_warehouse=page_warehouse(found.context),
            roles=roles,
        )
        table = table.model_copy(update={"columns": mapped.columns()})
        annotations = [
            TextLine(text=line.text, box=_to_original(line.box, norm), confidence=line.confidence)
            for line in lines
        ]
        return _Attempt(
            rung,
            table=table,
            confidences=confidences,
            mapped=mapped,
            context=found.context[:8],
            crop=_to_original(found.box, norm),
            annotations=annotations,
            region=found.box,
            layout=found.layout,
        )

    def _by_lines(self, rung: Rung, page: _Page) -> _Attempt:
        """Clean render: image processing finds the cells, the engine only recognises them."""
        norm = page.norm
        found = page.boxes()
        layout = find_table(found.boxes, found.text_height, norm.gray)
        if layout is None:
            return _Attempt(rung, reasons=("no table found",))
        cells = [layout.header, *layout.rows]
        crops: list[Rgb] = []
        slots: list[tuple[int, int]] = []
        for r, row in enumerate(cells):
            for c, members in enumerate(row):
                if not members:
                    continue
                tight = ink_bounds(found.mask, union_box([found.boxes[i] for i in members]))
                if tight is None:
                    continue
                crops.append(_line_crop(norm.rgb, tight, found.text_height))
                slots.append((r, c))
        context_boxes = [union_box([found.boxes[i] for i in p]) for p in layout.context]
        # Each box of a context phrase is read on its own (two filter chips side by side read
        # as one crop come out as neither), the phrase joined from them.
        members = [i for p in layout.context for i in p]
        context_crops = [
            _line_crop(
                norm.rgb,
                ink_bounds(found.mask, found.boxes[i]) or found.boxes[i],
                found.text_height,
            )
            for i in members
        ]
        recognised = _recognize_unique(self.engine, [*crops, *context_crops], page.memo)
        read = dict(zip(members, (t for t, _ in recognised[len(crops) :]), strict=True))
        phrases = [" ".join(read[i] for i in p if read[i].strip()) for p in layout.context]
        texts = [["" for _ in layout.columns] for _ in cells]
        confs = [[1.0 for _ in layout.columns] for _ in cells]
        for (r, c), (text, conf), crop in zip(slots, recognised, crops, strict=False):
            texts[r][c] = clean_text(restore_spaces(text, crop))
            confs[r][c] = conf
        context = _context_texts(context_boxes, phrases)
        annotations = [
            TextLine(text=t, box=_to_original(_pad(found.boxes[i], 0), norm), confidence=c)
            for (r, col), (t, c) in zip(slots, recognised, strict=False)
            for i in cells[r][col][:1]
        ]
        return _finish(rung, texts, confs, context, layout.box, norm, annotations, _strays(layout))

    def _detect(self, page: _Page, *, whole: bool = False) -> list[TextLine]:
        """Every text line the engine detects on the page (or, on a render, on the table
        region image processing finds, unless `whole` or the region holds almost no text),
        boxes in working pixels; run once per analysis and kind."""
        if whole:
            if page.detected_whole is None:
                page.detected_whole = [
                    line for line in self.engine.read(page.norm.rgb) if line.text.strip()
                ]
            return page.detected_whole
        if page.detected is not None:
            return page.detected
        norm = page.norm
        if norm.quad is not None:
            # A photo's own text boxes are its weak part: the region they make a table of can
            # miss a faint column or be a keyboard's keys. The engine reads the whole page.
            page.detected = self._detect(page, whole=True)
            return page.detected
        found = page.boxes()
        coarse = find_table(found.boxes, found.text_height, norm.gray)
        height, width = norm.gray.shape
        offset = (0, 0)
        region = norm.rgb
        if coarse is not None:
            margin = round(found.text_height * 4)
            x0, y0, x1, y1 = structure_region(coarse, found.boxes, found.text_height)
            x0, y0 = max(0, x0 - margin), max(0, y0 - margin * 3)
            x1, y1 = min(width, x1 + margin), min(height, y1 + margin)
            region = norm.rgb[y0:y1, x0:x1]
            offset = (x0, y0)
        page.detected = [
            TextLine(
                text=line.text,
                box=(
                    line.box[0] + offset[0],
                    line.box[1] + offset[1],
                    line.box[2] + offset[0],
                    line.box[3] + offset[1],
                ),
                confidence=line.confidence,
            )
            for line in self.engine.read(region)
            if line.text.strip()
        ]
        if coarse is None:
            page.detected_whole = page.detected
        elif len(page.detected) < _FEW_LINES:
            # The region image processing took for a table holds no text the engine sees
            # (a grid of tiles or icons): the table is elsewhere on the page.
            page.detected = self._detect(page, whole=True)
        return page.detected

    def _by_detection(self, rung: Rung, page: _Page) -> _Attempt:
        """Photo or clutter: the engine detects text lines; the grid is rebuilt from their boxes."""
        norm = page.norm
        lines = self._detect(page)
        if not lines:
            return _Attempt(rung, reasons=("no text detected",))
        boxes = [line.box for line in lines]
        text_height = median(b[3] - b[1] for b in boxes) * 0.6
        layout = find_table(boxes, text_height, norm.gray)
        if layout is None:
            return _Attempt(rung, reasons=("no table among the detected text",))
        cells = [layout.header, *layout.rows]
        texts = [
            [
                " ".join(
                    clean_text(restore_spaces(lines[i].text, _box_crop(norm.rgb, lines[i].box)))
                    for i in members
                )
                for members in row
            ]
            for row in cells
        ]
        confs = [
            [min((lines[i].confidence for i in members), default=1.0) for members in row]
            for row in cells
        ]
        context = _context_texts(
            [union_box([boxes[i] for i in p]) for p in layout.context],
            [" ".join(lines[i].text for i in p) for p in layout.context],
        )
        annotations = [
            TextLine(text=line.text, box=_to_original(line.box, norm), confidence=line.confidence)
            for line in lines
        ]
        return _finish(rung, texts, confs, context, layout.box, norm, annotations, _strays(layout))

    def _page_lines(self, page: _Page) -> list[TextLine]:
        """The page's text lines with their texts, in working pixels: on a rectified photo the
        ones the engine detects, else the text boxes image processing found (lone dashes and
        dense columns included), recognised."""
        if page.norm.quad is not None:
            # A photo's own text boxes are its weak part: the engine's detection reads it.
            return self._detect(page)
        found = page.boxes()
        crops = [
            _line_crop(page.norm.rgb, ink_bounds(found.mask, b) or b, found.text_height)
            for b in found.boxes
        ]
        recognised = _recognize_unique(self.engine, crops, page.memo)
        return [
            TextLine(
                text=clean_text(restore_spaces(t, crop)), box=b, confidence=max(0.0, min(1.0, c))
            )
            for b, (t, c), crop in zip(found.boxes, recognised, crops, strict=True)
            if t.strip()
        ]

    def _page_text(self, page: _Page) -> list[str]:
        """What the page says, line by line in reading order (for a page without a table, and
        beside the image of a full-page send). Where a rung already had the engine detect the
        whole page, its lines are kept unless image processing's text boxes read clearly more
        (a fifth more text): those boxes are made for UI text and cut large lettering into
        strokes and pieces (a 120 px `我是中国人` read as `玉` and `1`, a banner's `仓库WH-02`
        as `仓`, `库W`, `L`, `H`), the engine's detection finds words whatever their size."""
        boxes = self._page_lines(page)
        detected = page.detected_whole
        if detected is not None and _said(detected) * _CLEARLY_MORE >= _said(boxes):
            return reading_order(detected)
        return reading_order(boxes)

    def _by_structure(self, rung: Rung, page: _Page) -> _Attempt:
        """A table-structure model reads rows, columns and merged cells from the table's pixels;
        the text comes from the same boxes the other rungs read."""
        if self.structure is None:
            return _Attempt(rung, reasons=("no table-structure model",))
        norm = page.norm
        lines = self._page_lines(page)
        if not lines:
            return _Attempt(rung, reasons=("no text found",))
        boxes = [line.box for line in lines]
        text_height = median(b[3] - b[1] for b in boxes) * 0.6
        layout = find_table(boxes, text_height, norm.gray)
        if layout is None:
            return _Attempt(rung, reasons=("no table found",))
        height, width = norm.gray.shape
        x0, y0, x1, y1 = structure_region(layout, boxes, text_height)
        pad = round(text_height)
        x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
        x1, y1 = min(width, x1 + pad), min(height, y1 + pad)
        inside = [
            TextLine(
                text=line.text,
                box=(line.box[0] - x0, line.box[1] - y0, line.box[2] - x0, line.box[3] - y0),
                confidence=line.confidence,
            )
            for line in lines
            if line.box[0] >= x0 and line.box[1] >= y0 and line.box[2] <= x1 and line.box[3] <= y1
        ]
        html = self.structure.structure(np.ascontiguousarray(norm.rgb[y0:y1, x0:x1]), inside)
        table = table_from_html(html)
        if not table.cells:
            return _Attempt(rung, reasons=("the structure model found no table",))
        mean = sum(line.confidence for line in inside) / len(inside)
        texts = _deepest_header([table.header, *table.cells])
        confs = [[mean for _ in row] for row in texts]
        region_box = (x0, y0, x1, y1)
        context = [
            t
            for t in _context_texts(
                [b for b in boxes if b[3] <= y0], [ln.text for ln in lines if ln.box[3] <= y0]
            )
        ][-8:]
        annotations = [
            TextLine(text=line.text, box=_to_original(line.box, norm), confidence=line.confidence)
            for line in lines
            if line.box[3] > y0
        ]
        return _finish(rung, texts, confs, context, region_box, norm, annotations, (), table.html)


def _rows_of(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Lines side by side at one height (a row of tabs), left to right; rows of two or more."""
    rows: list[list[TextLine]] = []
    for line in sorted(lines, key=lambda ln: (ln.box[1] + ln.box[3]) / 2):
        centre = (line.box[1] + line.box[3]) / 2
        if rows:
            last = rows[-1][-1].box
            if abs(centre - (last[1] + last[3]) / 2) <= 0.5 * (last[3] - last[1]):
                rows[-1].append(line)
                continue
        rows.append([line])
    return [sorted(row, key=lambda ln: ln.box[0]) for row in rows if len(row) >= 2]


def _mapped_confidence(attempt: _Attempt) -> float:
    """The mean recognition confidence of the cells an attempt's rows were read from."""
    cells = [
        attempt.confidences[r][c]
        for r in attempt.mapped.sources
        for c in attempt.mapped.mapping.values()
        if r < len(attempt.confidences) and c < len(attempt.confidences[r])
    ]
    return sum(cells) / len(cells) if cells else 0.0


def _recognize_unique(
    engine: OcrEngine, crops: Sequence[Rgb], memo: dict[bytes, tuple[str, float]]
) -> list[tuple[str, float]]:
    """Recognise each distinct crop once: a clean render draws a repeated value (a warehouse
    column, a status badge) with the very same pixels, and a later rung reads the same boxes
    as an earlier one (`memo` keeps what one analysis has read)."""
    keys = [
        hashlib.blake2b(c.tobytes() + bytes(str(c.shape), "ascii"), digest_size=16).digest()
        for c in crops
    ]
    unique: dict[bytes, int] = {}
    for k, key in enumerate(keys):
        if key not in memo:
            unique.setdefault(key, k)
    firsts = list(unique.values())
    memo.update(
        zip((keys[k] for k in firsts), engine.recognize([crops[k] for k in firsts]), strict=True)
    )
    return [memo[key] for key in keys]


def _finish(
    rung: Rung,
    texts: list[list[str]],
    confs: list[list[float]],
    context: list[str],
    region: Box,
    norm: Normalised,
    annotations: list[TextLine],
    strays: Sequence[str],
    html: str | None = None,
) -> _Attempt:
    letters, numbers = sheet_chrome(texts)
    if letters:
        texts, confs = texts[1:], confs[1:]
    keep = [
        c
        for c in range(len(texts[0]))
        if c not in numbers and _holds_text([row[c] for row in texts])
    ]
    keep = [
        c
        for n, c in enumerate(keep)
        if not (n in (0, len(keep) - 1) and _navigation([row[c] for row in texts]))
    ]
    texts = [[row[c] for c in keep] for row in texts]
    confs = [[row[c] for c in keep] for row in confs]
    if _names_columns_better(texts):
        # A filter or caption line above the real header, taken for it.
        context = [*context, *(t for t in texts[0] if t)]
        texts, confs = texts[1:], confs[1:]
    header = [strip_icons(h) for h in texts[0]]
    table = Table(header=header, cells=[row for row in texts[1:]], html=html)
    body_confs = confs[1:]
    mapped = to_rows(table, body_confs, default_warehouse=page_warehouse(context))
    table = table.model_copy(update={"columns": mapped.columns()})
    doubts = [*strays, *_blank_headers(table)]
    return _Attempt(
        rung,
        table=table,
        confidences=body_confs,
        mapped=mapped,
        context=context,
        crop=_to_original(region, norm),
        annotations=annotations,
        doubts=tuple(doubts),
        region=region,
    )


def _deepest_header(rows: list[list[str]]) -> list[list[str]]:
    """The rows from the header on: a model may miss that a header block spans two rows; the
    row below that names more schema fields (a group header's sub-headers) is the header."""
    best, best_count = 0, -1
    for k in range(min(3, len(rows) - 1)):
        body = rows[k + 1 :]
        columns = [[r[c] if c < len(r) else "" for r in body] for c in range(len(rows[k]))]
        count = len(map_columns(rows[k], columns, headers_only=True))
        if count > best_count:
            best, best_count = k, count
    return rows[best:]


def _names_columns_better(texts: list[list[str]]) -> bool:
    """Whether the second row names the table's columns better than the first: more schema
    fields recognised from its texts, while the first leaves columns blank."""
    if len(texts) < 3 or all(t.strip() for t in texts[0]):
        return False
    body = texts[2:]
    columns = [[row[c] if c < len(row) else "" for row in body] for c in range(len(texts[0]))]
    first = len(map_columns(texts[0], columns, headers_only=True))
    second = len(map_columns(texts[1], columns, headers_only=True))
    return second > first


def _zone_note(at: datetime, source: str, config: IngestConfig) -> list[str]:
    """A capture time stored without a zone (PNG text, a file name, EXIF without an offset) is
    the local time of the machine that took the screenshot; say which zone it was read in."""
    if source not in ("exif", "png-text", "filename") or at.tzinfo is not config.tz:
        return []
    zone = getattr(config.tz, "key", None) or at.tzname() or str(config.tz)
    return [
        f"capture time has no zone: read as {zone} local time (STOCKSHOT_TIMEZONE sets the "
        "zone screenshots are taken in; unset, this machine's own zone)"
    ]


def _strays(layout: TableLayout) -> tuple[str, ...]:
    if not layout.strays:
        return ()
    return (f"{len(layout.strays)} text boxes beside the table's columns (merged cells?)",)


def _blank_headers(table: Table) -> list[str]:
    """A column whose body is filled under a blank header: its header sits on another line
    (one spanning two header rows)."""
    rows = len(table.cells)
    blank = [
        c
        for c, head in enumerate(table.header)
        if not head.strip()
        and rows
        and sum(bool(row[c].strip()) for row in table.cells if c < len(row)) >= 0.5 * rows
    ]
    return [f"{len(blank)} filled columns without a header (a multi-row header?)"] if blank else []


def _navigation(column: Sequence[str]) -> bool:
    """A sidebar's menu read into the table's edge column: no header, a few short words (no
    number, no code) on some rows only, the menu's pitch not being the table's."""
    header, cells = column[0], column[1:]
    filled = [t for t in cells if t.strip()]
    if header.strip() or not filled or len(filled) > 0.75 * len(cells):
        return False
    return all(
        len(t.split()) <= 3 and not any(ch.isdigit() for ch in t) and not is_code(t) for t in filled
    )


def _holds_text(column: Sequence[str]) -> bool:
    """A column of text, not of icons: some letter or digit, and some cell longer than one
    character (a checkbox, status dot or sort arrow reads as one stray glyph per row)."""
    return any(any(ch.isalnum() for ch in t) for t in column) and any(
        len(t.strip()) > 1 for t in column
    )


def _escalated(image_attempt: _Attempt, best: _Attempt | None) -> _Attempt:
    if best is None:
        return image_attempt
    return _Attempt(
        image_attempt.rung,
        table=best.table,
        confidences=best.confidences,
        mapped=best.mapped,
        context=best.context,
        crop=best.crop,
        reasons=best.reasons,
        region=best.region,
    )


_FEW_LINES = 3
"""Fewer text lines than this in a table's region is no table."""


def _warnings(
    loaded: LoadedImage,
    norm: Normalised,
    attempts: Sequence[_Attempt],
    chosen: _Attempt,
    has_text: bool,
) -> list[str]:
    notes: list[str] = []
    if norm.quad is not None:
        corners = ", ".join(f"({x:.0f},{y:.0f})" for x, y in norm.quad.points)
        how = (
            "by the screen's own lines (no frame found), content corners"
            if norm.quad.kind == "lines"
            else f"{norm.quad.kind} corners"
        )
        notes.append(f"photo rectified: {how} {corners}")
    if loaded.alpha_background:
        notes.append(f"transparent image flattened onto {loaded.alpha_background}")
    if norm.scale != 1.0:
        notes.append(f"downscaled by {norm.scale:g} to a working size")
    if norm.skew_deg:
        notes.append(f"deskewed by {norm.skew_deg:+.2f} degrees")
    for attempt in attempts:
        if attempt is not chosen and attempt.reasons:
            tier = f"{attempt.rung.strategy}/{attempt.rung.method}"
            notes.append(f"{tier} unsure: {'; '.join(attempt.reasons)}")
    if chosen.reasons and chosen.rung.strategy != "full_page":
        notes.append(f"result unsure: {'; '.join(chosen.reasons)}")
    if chosen.rung.strategy == "full_page" and attempts:
        notes.append("escalated to full_page: the model reads the image itself")
    if chosen.table is not None and chosen.table.cells and not chosen.mapped.rows:
        notes.append("no inventory columns recognised: returned as a generic grid")
    if not (chosen.table and chosen.table.cells):
        notes.append(
            "no table found: the text carries the page's OCR lines in reading order"
            if has_text
            else "no table found and no readable text"
        )
    return notes


def _context_texts(boxes: Sequence[Box], texts: Sequence[str]) -> list[str]:
    ordered = sorted(zip(boxes, texts, strict=True), key=lambda bt: (bt[0][1], bt[0][0]))
    return [clean_text(t) for _, t in ordered if sum(ch.isalnum() for ch in t) >= 2]


def _line_crop(rgb: Rgb, tight: Box, text_height: float) -> Rgb:
    """A text line as the recogniser reads it best and cheapest: a little margin at the sides
    and generous margin above and below, made of the background at the crop's own edge so no
    neighbouring row leaks in. (Its cost grows with width/height once scaled to 48 px high.)"""
    x0, y0, x1, y1 = tight
    height, width = rgb.shape[:2]
    side = max(1, round(text_height * 0.2))
    region = rgb[max(0, y0 - 1) : min(height, y1 + 1), max(0, x0 - side) : min(width, x1 + side)]
    vertical = max(2, round(text_height * 0.45))
    bordered = cv2.copyMakeBorder(region, vertical, vertical, 0, 0, cv2.BORDER_REPLICATE)
    return np.asarray(bordered, dtype=np.uint8)


def _box_crop(rgb: Rgb, box: Box) -> Rgb:
    x0, y0, x1, y1 = box
    return rgb[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]


def _pad(box: Box, pad: int) -> Box:
    return (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)


_CLEARLY_MORE = 1.25


def _said(lines: Sequence[TextLine]) -> float:
    """How much text the lines read, weighed by the engine's confidence in each."""
    return sum(len(line.text.strip()) * line.confidence for line in lines)


def _to_original(box: Box, norm: Normalised) -> Box:
    return norm.to_original(box)


def _payload(rgb: Rgb, max_pixels: int) -> tuple[str, int]:
    payload = to_payload(Image.fromarray(rgb), max_pixels)
    return payload.url, image_tokens(payload.width, payload.height)


def _model_text(
    entry: dict[str, Any],
    table: Table,
    mapped: MappedRows,
    captured_at: datetime,
    budget: int | None,
) -> tuple[str, list[str]]:
    """What the model reads for the chosen tier, stamped with this capture time, within
    `budget` tokens where leaving out context, a shared warehouse column or names gets there."""
    full_page = entry["strategy"] == "full_page"
    boxes = (
        [TextBox(box=tuple(a["box"]), text=a["text"]) for a in entry["annotations"]]
        if entry["strategy"] == "ui_crop"
        else []
    )
    screen = screen_text(
        table if table.cells or not full_page else Table(),
        mapped,
        captured_at=captured_at,
        context=entry["context"],
        image_attached=full_page,
        unsure=full_page,
        boxes=boxes,
        lines=entry.get("lines", []),
    )
    left_out: list[str] = []
    if budget is not None:
        screen, left_out = fit_budget(screen, budget)
    return render_screen(screen), left_out


@contextmanager
def _timed(timings: dict[str, float], label: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[label] = round(timings.get(label, 0.0) + (time.perf_counter() - started) * 1000, 2)


class ProfileLookup(Protocol):
    """Saved column mappings by header signature (the store's `column_profiles`)."""

    def mapping(self, signature: str) -> Mapping[str, str] | None: ...


def remap(
    entry: Mapping[str, Any], table: Table, mapping: Mapping[str, str], source: ColumnSource
) -> tuple[Table, MappedRows, list[str]]:
    """The entry's rows again with `mapping` (field -> header) laid over the typed roles."""
    confidences = entry.get("confidences") or [[1.0] * len(r) for r in table.cells]
    warehouse = page_warehouse(entry.get("context", []))
    return remap_table(table, confidences, warehouse, mapping, source)


def remap_table(
    table: Table,
    confidences: Sequence[Sequence[float]],
    warehouse: str | None,
    mapping: Mapping[str, str],
    source: ColumnSource,
) -> tuple[Table, MappedRows, list[str]]:
    """`table`'s rows with `mapping` (field -> header) laid over its typed roles."""
    width = len(table.header)
    columns = [[row[c] if c < len(row) else "" for row in table.cells] for c in range(width)]
    typed = type_columns(table.header, columns)
    roles, missing = roles_from_mapping(table.header, mapping, typed, source=source)
    mapped = to_rows(table, confidences, default_warehouse=warehouse, roles=roles)
    notes = [f"columns mapped by {_SOURCES[source]}: {format_columns(mapping)}"]
    if missing:
        notes.append(
            f"no column with the header given for {', '.join(missing)} "
            f"(headers: {', '.join(h for h in table.header if h)})"
        )
    return table.model_copy(update={"columns": mapped.columns(source)}), mapped, notes


def apply_columns(
    result: IngestResult, mapping: Mapping[str, str], source: ColumnSource
) -> IngestResult:
    """A result read again with a column mapping a person (or a model) gave: rows, columns,
    the text a model reads, and a warning saying where the mapping came from."""
    table = result.table
    if len(result.rows) == len(table.cells):
        confidences = [[row.confidence for _ in table.header] for row in result.rows]
    else:
        confidences = [[1.0 for _ in table.header] for _ in table.cells]
    table, mapped, notes = remap_table(table, confidences, result.page_warehouse, mapping, source)
    screen = screen_text(
        table,
        mapped,
        captured_at=result.captured_at,
        context=[f"Warehouse {result.page_warehouse}"] if result.page_warehouse else [],
    )
    changed = result.model_copy(
        update={
            "table": table,
            "rows": mapped.rows,
            "text": render_screen(screen),
            "warnings": [*(w for w in result.warnings if not w.startswith(UNSURE)), *notes],
        }
    )
    return changed.with_source(result.source)


_SOURCES = {"given": "the caller", "profile": "a saved profile", "model": "the model"}
