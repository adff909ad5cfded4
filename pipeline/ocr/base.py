"""What every OCR engine offers: recognise given crops, or find and read text itself."""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias

from pipeline.models import TextLine

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "EngineOptions",
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


def default_threads(requested: int) -> int:
    return requested if requested > 0 else max(1, os.cpu_count() or 1)


def package_dir(name: str) -> Path | None:
    """Where an installed package's files are, found without importing it (an engine's
    package loads its runtime as it is imported), or None when it is not installed."""
    spec = find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@functools.cache
def files_fingerprint(*paths: Path) -> str:
    """A short digest of the files' names and bytes (a folder: every file under it). Cached
    results keyed by it are kept apart when the model files change."""
    digest = hashlib.sha256()
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            digest.update(file.name.encode())
            with file.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
    return digest.hexdigest()[:16]


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
