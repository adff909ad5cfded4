"""The images a bench run measures: the committed samples and any folder a user adds."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from PIL import Image

from pipeline.errors import InputError
from pipeline.truth import Truth

__all__ = ["HEADLINE", "SAMPLES_DIR", "BenchImage", "collect", "headline"]

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"
HEADLINE = "erp-light-wh01.png"
"""The 1920x1080 light ERP page the ingest targets are stated on."""
_QUICK_EXTRA = "overlay-black-wh02.png"
_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff", ".gif"}


@dataclass(frozen=True)
class BenchImage:
    path: Path
    width: int
    height: int
    truth: Truth | None

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"


def _truth(path: Path) -> Truth | None:
    beside = path.with_name(path.name + ".truth.json")
    if not beside.is_file():
        return None
    loaded = json.loads(beside.read_text(encoding="utf-8"))
    # The shape is the generators' (corpus/screengen); a file that is no object is no truth.
    return cast(Truth, loaded) if isinstance(loaded, dict) else None


def _image(path: Path) -> BenchImage:
    with Image.open(path) as opened:
        width, height = opened.size
    return BenchImage(path, width, height, _truth(path))


def _committed(quick: bool) -> list[Path]:
    manifest = SAMPLES_DIR / "manifest.json"
    if not manifest.is_file():
        return []
    entries = json.loads(manifest.read_text(encoding="utf-8"))
    names = [str(e["file"]) for e in entries]
    if quick:
        names = [n for n in (HEADLINE, _QUICK_EXTRA) if n in names]
    return [SAMPLES_DIR / n for n in names]


def _folder(folder: Path, quick: bool) -> list[Path]:
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder of images")
    found = sorted(p for p in folder.iterdir() if p.suffix.lower() in _SUFFIXES and p.is_file())
    if not found:
        raise InputError(f"{folder}: holds no PNG, JPEG, WebP, BMP, TIFF or GIF images")
    return found[:2] if quick else found


def collect(folders: Sequence[Path], *, quick: bool, samples: bool = True) -> list[BenchImage]:
    """Committed samples first (two of them with `quick`), then each folder's images."""
    paths = _committed(quick) if samples else []
    for folder in folders:
        paths += _folder(folder, quick)
    unique = list(dict.fromkeys(p.resolve() for p in paths))
    if not unique:
        raise InputError("no images to measure: the samples folder is missing; pass --images DIR")
    return [_image(p) for p in unique]


def headline(images: Sequence[BenchImage]) -> BenchImage:
    """The sample the targets name, else the first 1920x1080 image, else the first image."""
    for image in images:
        if image.name == HEADLINE:
            return image
    return next((i for i in images if (i.width, i.height) == (1920, 1080)), images[0])
