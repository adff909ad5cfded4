"""The ingest cache: an in-process LRU in front of a shared level, keyed by content hash.

The level behind the LRU is a `diskcache` directory by default, or any `CacheLevel` (the
scale-out path keeps one table in PostgreSQL that every process reads). A hit returns the
stored structure; the caller stamps it with the new capture time.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path
from typing import NotRequired, Protocol, TypedDict, cast

import diskcache

from pipeline.models import CacheState, JsonObject

__all__ = ["CacheLevel", "DiskLevel", "Entry", "IngestCache", "cache_key"]


class Entry(TypedDict):
    """One image's analysis as every level keeps it (JSON): all an ingest result is made of
    but the capture time it is stamped with. `layout` and `lines` are absent from entries an
    earlier version stored."""

    strategy: str
    engine: str
    size: list[int]
    crop: list[int] | None
    table: JsonObject
    rows: list[JsonObject]
    confidences: list[list[float]]
    mapping: dict[str, int]
    sources: list[int]
    context: list[str]
    layout: NotRequired[str]
    lines: NotRequired[list[str]]
    annotations: list[JsonObject]
    warnings: list[str]
    image: str | None
    image_tokens: int
    full_page_tokens: int
    exif_datetime: str | None
    exif_offset: str | None
    png_text: str | None
    timings_ms: dict[str, float]


def cache_key(sha256: str, *, strategy: str, engine: str, models: str, version: str) -> str:
    """Same bytes, strategy, engine, model files and pipeline version: same structure."""
    text = f"{sha256}|{strategy}|{engine}|{models}|{version}"
    return hashlib.sha256(text.encode()).hexdigest()


class CacheLevel(Protocol):
    """Where entries outlive the process; safe to call from several threads."""

    state: CacheState

    def get(self, key: str) -> Entry | None: ...

    def set(self, key: str, entry: Entry) -> None: ...

    def close(self) -> None: ...


class DiskLevel:
    """A `diskcache` directory (SQLite inside), shared by the processes of one machine."""

    state: CacheState = "disk"

    def __init__(self, directory: Path) -> None:
        self._cache = diskcache.Cache(str(directory))

    def get(self, key: str) -> Entry | None:
        stored = self._cache.get(key)
        return cast(Entry, stored) if isinstance(stored, dict) else None  # as `put` kept it

    def set(self, key: str, entry: Entry) -> None:
        self._cache.set(key, entry)

    def close(self) -> None:
        self._cache.close()


class IngestCache:
    """Thread-safe two-level cache. `directory=None` and no `level` keeps it in memory only."""

    def __init__(
        self,
        directory: Path | None = None,
        *,
        memory_items: int = 256,
        level: CacheLevel | None = None,
    ) -> None:
        self._memory: OrderedDict[str, Entry] = OrderedDict()
        self._memory_items = memory_items
        self._lock = threading.Lock()
        self._disk = (
            level
            if level is not None
            else (DiskLevel(directory) if directory is not None else None)
        )

    def get(self, key: str) -> tuple[Entry, CacheState] | None:
        with self._lock:
            entry = self._memory.get(key)
            if entry is not None:
                self._memory.move_to_end(key)
                return entry, "memory"
        if self._disk is None:
            return None
        stored = self._disk.get(key)
        if stored is None:
            return None
        self._remember(key, stored)
        return stored, self._disk.state

    def put(self, key: str, entry: Entry) -> None:
        self._remember(key, entry)
        if self._disk is not None:
            self._disk.set(key, entry)

    def clear_memory(self) -> None:
        with self._lock:
            self._memory.clear()

    def close(self) -> None:
        if self._disk is not None:
            self._disk.close()

    def __enter__(self) -> IngestCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _remember(self, key: str, entry: Entry) -> None:
        if self._memory_items <= 0:
            return
        with self._lock:
            self._memory[key] = entry
            self._memory.move_to_end(key)
            while len(self._memory) > self._memory_items:
                self._memory.popitem(last=False)
