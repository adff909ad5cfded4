"""Write a sample: the image with its capture-time metadata, and the truth JSON beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image
from screengen.capture import CAMERA, captured_at, jpeg_bytes, json_text, png_bytes

from .model import Spec


def save_image(image: Image.Image, spec: Spec, path: Path) -> None:
    """PNG or JPEG by extension; metadata only as the spec's capture source says."""
    if path.suffix.lower() == ".png":
        path.write_bytes(png_bytes(image, spec.capture, optimize=True))
        return
    quality = spec.photo.quality if spec.photo else spec.jpeg_quality
    camera = CAMERA if spec.photo else None  # a screenshot saved as JPEG names no camera
    data = jpeg_bytes(image, spec.capture, quality or 90, camera=camera, optimize=True)
    path.write_bytes(data)


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
        "captured_at": captured_at(spec.file, spec.capture),
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
    path.write_text(json_text(data), encoding="utf-8")
