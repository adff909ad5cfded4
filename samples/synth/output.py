"""Write a sample: the image with its capture-time metadata, and the truth JSON beside it."""

from __future__ import annotations

import json
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from PIL import Image
from PIL.PngImagePlugin import PngInfo

from .model import Capture, Spec

EXIF_IFD = 0x8769
DATETIME_ORIGINAL = 36867
OFFSET_TIME_ORIGINAL = 36881
MAKE, MODEL = 0x010F, 0x0110
_EXIF_FORMAT = "%Y:%m:%d %H:%M:%S"
_FILENAME_STAMPS = (
    "Screenshot %Y-%m-%d at %H.%M.%S",
    "Screenshot %Y-%m-%d %H%M%S",
    "Screenshot_%Y%m%d-%H%M%S",
    "stock_%Y%m%d-%H%M%S",
)


def _from_filename(file: str) -> str:
    stem = Path(file).stem
    for pattern in _FILENAME_STAMPS:
        try:
            return datetime.strptime(stem, pattern).isoformat()
        except ValueError:
            continue
    raise ValueError(f"{file}: no time stamp in the file name")


def _from_png_text(value: str) -> str:
    if value[:4].isdigit():
        return datetime.fromisoformat(value).isoformat()
    return parsedate_to_datetime(value).isoformat()


def captured_at(spec: Spec) -> str | None:
    """The capture time exactly as the sample's metadata states it, in ISO 8601."""
    capture = spec.capture
    if capture.source == "mtime":
        return None
    if capture.source == "filename":
        return _from_filename(spec.file)
    if capture.value is None:
        raise ValueError(f"{spec.file}: {capture.source} capture needs a value")
    if capture.source == "png-text":
        return _from_png_text(capture.value)
    stamp = datetime.strptime(capture.value, _EXIF_FORMAT).isoformat()
    return stamp + (capture.offset or "")


def _exif(capture: Capture, camera: tuple[str, str] | None) -> bytes:
    exif = Image.Exif()
    if camera:
        exif[MAKE], exif[MODEL] = camera
    tags: dict[int, str] = {DATETIME_ORIGINAL: capture.value or ""}
    if capture.offset:
        tags[OFFSET_TIME_ORIGINAL] = capture.offset
    exif[EXIF_IFD] = tags
    return exif.tobytes()


def save_image(image: Image.Image, spec: Spec, path: Path) -> None:
    """PNG or JPEG by extension; metadata only as the spec's capture source says."""
    capture = spec.capture
    if path.suffix.lower() == ".png":
        info = PngInfo()
        if capture.source == "png-text" and capture.value:
            info.add_text("Creation Time", capture.value)
        image.save(path, "PNG", optimize=True, pnginfo=info)
        return
    quality = spec.photo.quality if spec.photo else spec.jpeg_quality
    options: dict[str, Any] = {"quality": quality or 90, "optimize": True, "subsampling": "4:2:0"}
    if capture.source == "exif":
        camera = ("Google", "Pixel 8") if spec.photo else None
        options["exif"] = _exif(capture, camera)
    image.save(path, "JPEG", **options)


def truth(
    spec: Spec,
    size: tuple[int, int],
    box: tuple[int, int, int, int],
    header: tuple[str, ...],
    fields: tuple[str | None, ...],
    cells: tuple[tuple[str, ...], ...],
    rows: tuple[dict[str, Any], ...],
    differs: tuple[dict[str, Any], ...],
) -> dict[str, Any]:
    return {
        "file": spec.file,
        "kind": spec.kind,
        "size": list(size),
        "captured_at": captured_at(spec),
        "captured_at_source": spec.capture.source,
        "table_box": list(box),
        "header": list(header),
        "header_fields": list(fields),
        "cells": [list(row) for row in cells],
        "rows": list(rows),
        "page_warehouse": spec.page_warehouse,
        "screen_differs_from_live": list(differs),
        "notes": spec.notes,
    }


def dump_json(data: Any, path: Path) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")
