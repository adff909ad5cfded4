"""What every OCR engine offers: recognise given crops, or find and read text itself."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from pipeline.models import TextLine

__all__ = ["EngineOptions", "OcrEngine", "Recognised", "default_threads"]

Image = NDArray[np.uint8]
Recognised = tuple[str, float]


@dataclass(frozen=True)
class EngineOptions:
    threads: int = 0
    model_dir: Path | None = None


def default_threads(requested: int) -> int:
    return requested if requested > 0 else max(1, os.cpu_count() or 1)


class OcrEngine(Protocol):
    """An engine works on RGB arrays. Engines are built once and reused; model loading is slow."""

    name: str

    def recognize(self, crops: Sequence[Image]) -> list[Recognised]:
        """Text and confidence for each crop of a single text line, in order."""
        ...

    def read(self, image: Image) -> list[TextLine]:
        """Detect and recognise every text line in a whole image."""
        ...
