"""The `Ingestor`: the cache and one analysis per bytes at a time; an analysis climbs the
ladder of rungs (`ladder`, each reading the page its own way: `readings`) until one's reading
is taken, completes it with what the other readings found, takes the tab a page shows
selected, and puts the result together (`results`). The OCR engine, the cache and the clock
come in from the entry points."""

from __future__ import annotations

import hashlib
import importlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import EmptyInputError, InputError, UnknownNameError
from pipeline.imaging import check_size
from pipeline.ingest.cache import Entry, IngestCache, cache_key
from pipeline.ingest.columns import ProfileLookup, remap
from pipeline.ingest.config import IngestConfig
from pipeline.ingest.freshness import age_seconds, resolve_capture
from pipeline.ingest.results import model_text, timed, zone_note
from pipeline.models import (
    ColumnSource,
    IngestResult,
    Row,
    Table,
    Tokens,
)
from pipeline.ocr.base import LoadsLater, OcrEngine
from pipeline.table import (
    UNSURE,
    MappedRows,
    estimate_text_tokens,
    header_signature,
    page_warehouse,
)

if TYPE_CHECKING:
    # Reading an image loads these (OpenCV, NumPy, Pillow, the OCR engine's models) on first
    # use; a cached result is put together without them.
    from pipeline.ingest.attempts import Attempt, Page
    from pipeline.ingest.readings import Reader
    from pipeline.ocr.structure import TableStructureModel
    from pipeline.shelf import ScreenShelf

log = logging.getLogger(__name__)

PIPELINE_VERSION = "34"
"""Part of every cache key: a result cached by an earlier version is read again. What each
version changed is in docs/changelog.md; a bump adds its line there."""


REQUESTABLE = ("auto", "table_ocr", "full_page", "ui_crop")


_ANALYSIS_MODULES = (
    "pipeline.imaging.load",
    "pipeline.imaging.normalising",
    "pipeline.ingest.attempts",
    "pipeline.ingest.ladder",
    "pipeline.ingest.results",
    "pipeline.tiers",
)
"""What an analysis imports at its first image (`Ingestor._analyse`), loaded by `warm`."""


class Ingestor:
    def __init__(
        self,
        engine: OcrEngine,
        *,
        config: IngestConfig,
        cache: IngestCache | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        structure: TableStructureModel | None = None,
        profiles: ProfileLookup | None = None,
        shelf: ScreenShelf | None = None,
    ) -> None:
        """`structure` is the table-structure model of the `structure` rung; without one that
        rung is skipped. `profiles` finds the column mapping a person saved for a table's
        header signature (`pipeline.table.profiles`). `shelf` keeps the bytes of each
        screenshot read, so what a run read can be shown later (`pipeline.shelf`)."""
        self.engine = engine
        self.shelf = shelf
        self.structure = structure
        self.profiles = profiles
        self.config = config
        self.cache = cache
        self.clock = clock
        self._inflight: dict[str, threading.Lock] = {}
        self._inflight_guard = threading.Lock()

    @cached_property
    def reader(self) -> Reader:
        """The rungs' reader, built at the first image that is read rather than looked up."""
        from pipeline.ingest.readings import Reader

        return Reader(self.engine, self.structure)

    def warm(self) -> None:
        """Load now what the first image read would load: the analysis's modules, the rungs'
        reader, the engine's runtime and models and the structure model. A process that keeps
        running (`serve`, a worker) pays for them as it starts, not at its first upload; a
        command that only looks up the cache never calls this."""
        for module in _ANALYSIS_MODULES:
            importlib.import_module(module)
        self.reader  # noqa: B018 - built and kept
        for model in (self.engine, self.structure):
            if isinstance(model, LoadsLater):
                model.load()

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
        self._keep(digest, data, name)
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
        text, left_out = model_text(entry, table, mapped, capture.at, budget)
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
                *zone_note(capture.at, capture.source, self.config),
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

    def _keep(self, digest: str, data: bytes, name: str) -> None:
        """Keep the picture for whoever reviews what was read from it; a disk that refuses
        it costs the picture, never the reading."""
        if self.shelf is None:
            return
        try:
            self.shelf.keep(digest, data)
        except OSError as exc:
            log.warning("%s: the screenshot could not be kept in %s: %s", name,
                        self.shelf.directory, exc)  # fmt: skip

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

    def _lookup(self, key: str) -> tuple[Entry | None, str]:
        if self.cache is None:
            return None, "miss"
        hit = self.cache.get(key)
        return (hit[0], hit[1]) if hit else (None, "miss")

    def _analyse(self, data: bytes, *, name: str, requested: str) -> Entry:
        from pipeline.imaging import load_image, normalise
        from pipeline.ingest.attempts import Page, warehouse_of_others
        from pipeline.ingest.ladder import climb, make_steps
        from pipeline.ingest.results import payload, warnings_of
        from pipeline.table import mapping_doubts
        from pipeline.tiers import LADDERS, image_tokens

        timings: dict[str, float] = {}
        with timed(timings, "load"):
            loaded = load_image(
                data, name=name, max_bytes=self.config.max_bytes, max_pixels=self.config.max_pixels
            )
        with timed(timings, "normalise"):
            norm = normalise(loaded.image)
        ladder = (
            LADDERS[requested if norm.clean else f"{requested}_photo"]
            if requested != "full_page"
            else LADDERS["full_page"]
        )
        page = Page(norm)
        chosen, climbed = climb(
            make_steps(ladder, self.reader.climb, photo=norm.photographed),
            page,
            timer=lambda rung: timed(timings, rung.method),
        )
        attempts = climbed.readings
        chosen = warehouse_of_others(chosen, attempts)
        chosen = self._selected_tab(chosen, page)
        page_lines: list[str] = []
        if not (chosen.table and chosen.table.cells) or chosen.rung.strategy == "full_page":
            with timed(timings, "page_text"):
                page_lines = self.reader.page_text(page)
        warnings = [
            *warnings_of(loaded, norm, attempts, chosen, bool(page_lines), climbed.note()),
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
            image_payload, payload_tokens = payload(region, self.config.vision_max_pixels)
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

    def _selected_tab(self, chosen: Attempt, page: Page) -> Attempt:
        """Rows without a warehouse on a page that names several above its table, as a row of
        tabs (`WH-01 | WH-02 | WH-03`): the warehouse of the tab drawn as chosen (underlined,
        filled, heavier), recorded in the context; else the rows stay without one."""
        from pipeline.table import (
            emphasised,
            selected_line,
            visual_lines,
            warehouse_ids,
            warehouse_label,
        )

        mapped = chosen.mapped
        if (
            not mapped.rows
            or "warehouse_id" in mapped.mapping
            or page_warehouse(chosen.context) is not None
            or len(warehouse_ids(chosen.context)) < 2
        ):
            return chosen
        lines = (
            self.reader.detect(page, whole=True)
            if page.norm.photographed
            else self.reader.page_lines(page)
        )
        labels = [line for line in lines if warehouse_label(line.text)]
        for row in visual_lines(labels):
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
