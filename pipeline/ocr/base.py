"""What every OCR engine offers: recognise given crops, or find and read text itself."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias, runtime_checkable

from pipeline.models import TextLine

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "EngineOptions",
    "LoadsLater",
    "OcrEngine",
    "Recognised",
    "default_threads",
    "files_fingerprint",
    "package_dir",
]

Image: TypeAlias = "NDArray[np.uint8]"
Recognised = tuple[str, float]


@dataclass(frozen=True)
class EngineOptions:
    threads: int = 0
    model_dir: Path | None = None
    """Where downloaded models live; the memo of the models' digests is kept there too."""

    @property
    def fingerprints(self) -> Path | None:
        """The memo `files_fingerprint` keeps its digests in, when there is a model folder."""
        return None if self.model_dir is None else self.model_dir / "fingerprints.json"


def default_threads(requested: int) -> int:
    return requested if requested > 0 else max(1, os.cpu_count() or 1)


def package_dir(name: str) -> Path | None:
    """Where an installed package's files are, found without importing it (an engine's
    package loads its runtime as it is imported), or None when it is not installed."""
    spec = find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _files(paths: Sequence[Path]) -> list[Path]:
    return [
        file
        for path in paths
        for file in (sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path])
    ]


@functools.cache
def files_fingerprint(*paths: Path, memo: Path | None = None) -> str:
    """A short digest of the files' names and bytes (a folder: every file under it). Cached
    results keyed by it are kept apart when the model files change.

    Reading tens of megabytes of models costs a process more than a cache lookup does, so
    with `memo` (a small JSON file) a digest is kept under the files' paths, sizes and
    modification times and read again only when one of them changes."""
    files = _files(paths)
    stamp = hashlib.sha256(
        json.dumps([[str(f), f.stat().st_size, f.stat().st_mtime_ns] for f in files]).encode()
    ).hexdigest()
    known = _read_memo(memo)
    if stamp in known:
        return known[stamp]
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode())
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    found = digest.hexdigest()[:16]
    if memo is not None:
        _write_memo(memo, {**dict(list(known.items())[-(_MEMO_ENTRIES - 1) :]), stamp: found})
    return found


_MEMO_ENTRIES = 16
"""Digests a memo keeps (the newest): one per model set an installation has used lately."""


def _read_memo(memo: Path | None) -> dict[str, str]:
    if memo is None:
        return {}
    try:
        data = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # none yet, or unreadable: the files are read again
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def _write_memo(memo: Path, known: dict[str, str]) -> None:
    """Written whole and moved into place, so a reader never sees half of it; a folder that
    cannot be written only means the digest is worked out again next time."""
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        partial = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(known), encoding="utf-8")
        partial.replace(memo)
    except OSError:
        return


class OcrEngine(Protocol):
    """An engine works on RGB arrays. Engines are built once and reused; model loading is slow."""

    name: str
    models: str
    """A fingerprint of the model files (and version) it reads with; part of the cache key."""

    def recognize(self, crops: Sequence[Image]) -> list[Recognised]:
        """Text and confidence for each crop of a single text line, in order."""
        ...

    def read(self, image: Image) -> list[TextLine]:
        """Detect and recognise every text line in a whole image."""
        ...


@runtime_checkable
class LoadsLater(Protocol):
    """A model that loads its runtime and weights at the first image it is given, so a process
    that only looks up its cache never pays for them; `load` does it now instead."""

    def load(self) -> None:
        """Load what the first image would (once; later calls cost nothing)."""
        ...
