"""The ingest cache: an in-process LRU in front of `diskcache`, keyed by content hash.

A hit returns the stored structure; the caller stamps it with the new capture time.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import diskcache

from pipeline.models import CacheState

__all__ = ["IngestCache", "cache_key"]

Entry = dict[str, Any]


def cache_key(sha256: str, *, strategy: str, engine: str, version: str) -> str:
    """Same bytes, same strategy, same engine, same pipeline version: same structure."""
    return hashlib.sha256(f"{sha256}|{strategy}|{engine}|{version}".encode()).hexdigest()


class IngestCache:
    """Thread-safe two-level cache. `directory=None` keeps it in memory only."""

    def __init__(self, directory: Path | None, *, memory_items: int = 256) -> None:
        self._memory: OrderedDict[str, Entry] = OrderedDict()
        self._memory_items = memory_items
        self._lock = threading.Lock()
        self._disk = diskcache.Cache(str(directory)) if directory is not None else None

    def get(self, key: str) -> tuple[Entry, CacheState] | None:
        with self._lock:
            entry = self._memory.get(key)
            if entry is not None:
                self._memory.move_to_end(key)
                return entry, "memory"
        if self._disk is None:
            return None
        stored = self._disk.get(key)
        if not isinstance(stored, dict):
            return None
        self._remember(key, stored)
        return stored, "disk"

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
