"""Kept screenshots: the bytes of each screenshot read, on disk by their SHA-256, so what a run
read can still be shown after a restart, by another process, or the next morning.

    <directory>/<first two hex digits>/<sha256>

A picture is written once (a temporary file, then a rename, so a reader never sees half of
one) and touched when it is read in again: its modification time is its last use. `prune`
removes the pictures unused for longer than the retention, then the least recently used
ones past a size cap, never one named in `needed` (what a pending proposal still shows).
A file whose bytes no longer hash to its name is damaged: `read` removes it and says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from pipeline.errors import KeptFileError

__all__ = ["Pruned", "ScreenShelf"]

_SHA256 = re.compile(r"[0-9a-f]{64}")
_PART = ".part"
_STALE_PART = timedelta(hours=1)
"""A temporary file this old was left by a process that stopped while writing it."""


@dataclass(frozen=True)
class _Entry:
    sha256: str
    path: Path
    size: int
    used: float


@dataclass(frozen=True)
class Pruned:
    """What one pruning removed and what it kept because a pending proposal needs it."""

    removed: tuple[str, ...]
    freed_bytes: int
    spared: tuple[str, ...]


class ScreenShelf:
    """The kept screenshots under `directory`; safe to share between processes (each write is
    one rename, each removal one unlink)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path_of(self, sha256: str) -> Path | None:
        """Where the picture with this SHA-256 lives; None for what is not a SHA-256."""
        if not _SHA256.fullmatch(sha256):
            return None
        return self.directory / sha256[:2] / sha256

    def keep(self, sha256: str, data: bytes) -> None:
        """Keep `data` (whose SHA-256 is `sha256`); a picture already kept whole is touched."""
        path = self.path_of(sha256)
        if path is None:
            raise ValueError(f"not a SHA-256: {sha256!r}")
        with contextlib.suppress(FileNotFoundError):
            if path.stat().st_size == len(data):
                os.utime(path)
                return
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=_PART)
        temp = Path(name)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            temp.replace(path)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise

    def read(self, sha256: str) -> bytes | None:
        """The kept bytes, or None when none are kept. A damaged file (bytes that no longer
        hash to its name) is removed and raises `KeptFileError` saying so."""
        path = self.path_of(sha256)
        if path is None:
            return None
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise KeptFileError(
                f"the kept screenshot {sha256} cannot be read ({exc.strerror or exc}); "
                f"check the permissions of {self.directory}"
            ) from exc
        if hashlib.sha256(data).hexdigest() != sha256:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            raise KeptFileError(
                f"the kept screenshot {sha256} was damaged on disk (its {len(data):,} bytes no "
                "longer match its SHA-256) and has been removed; upload it again to see it"
            )
        return data

    def __contains__(self, sha256: object) -> bool:
        path = self.path_of(sha256) if isinstance(sha256, str) else None
        return path is not None and path.is_file()

    def _entries(self) -> list[_Entry]:
        entries: list[_Entry] = []
        if not self.directory.is_dir():
            return entries
        for path in self.directory.glob("??/*"):
            if not _SHA256.fullmatch(path.name):
                continue
            with contextlib.suppress(FileNotFoundError):
                stat = path.stat()
                entries.append(_Entry(path.name, path, stat.st_size, stat.st_mtime))
        return entries

    def _sweep_parts(self, before: float) -> None:
        for part in self.directory.glob(f"??/.*{_PART}"):
            with contextlib.suppress(FileNotFoundError):
                if part.stat().st_mtime < before:
                    part.unlink()

    def prune(
        self,
        *,
        now: datetime,
        max_age: timedelta,
        max_bytes: int | None = None,
        needed: Collection[str] = (),
    ) -> Pruned:
        """Remove the pictures unused since `now - max_age`, then the least recently used past
        `max_bytes` in all (None: no cap), sparing those in `needed`."""
        self._sweep_parts((now - _STALE_PART).timestamp())
        before = (now - max_age).timestamp()
        entries = sorted(self._entries(), key=lambda e: e.used)
        total = sum(e.size for e in entries)
        removed: list[str] = []
        spared: list[str] = []
        freed = 0
        for entry in entries:
            old = entry.used < before
            over = max_bytes is not None and total > max_bytes
            if not (old or over):
                continue
            if entry.sha256 in needed:
                spared.append(entry.sha256)
                continue
            with contextlib.suppress(FileNotFoundError):
                entry.path.unlink()
            removed.append(entry.sha256)
            freed += entry.size
            total -= entry.size
        return Pruned(tuple(removed), freed, tuple(spared))
