"""Write an image with its capture-time metadata with fixed encoder options, and JSON files."""

from __future__ import annotations

import io
import json
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from PIL import Image
from PIL.PngImagePlugin import PngInfo

from .model import Capture

EXIF_IFD = 0x8769
DATETIME_ORIGINAL = 36867
OFFSET_TIME_ORIGINAL = 36881
MAKE, MODEL = 0x010F, 0x0110
CAMERA = ("Google", "Pixel 8")
PNG_LEVEL = 9
JPEG_SUBSAMPLING = "4:2:0"
_EXIF_FORMAT = "%Y:%m:%d %H:%M:%S"
FILENAME_STAMPS = (
    "Screenshot %Y-%m-%d at %H.%M.%S",
    "Screenshot %Y-%m-%d %H%M%S",
    "Screenshot_%Y%m%d-%H%M%S",
    "stock_%Y%m%d-%H%M%S",
)


def _from_filename(file: str) -> str:
    stem = Path(file).stem
    for pattern in FILENAME_STAMPS:
        try:
            return datetime.strptime(stem, pattern).isoformat()
        except ValueError:
            continue
    raise ValueError(f"{file}: no time stamp in the file name")


def _from_png_text(value: str) -> str:
    if value[:4].isdigit():
        return datetime.fromisoformat(value).isoformat()
    return parsedate_to_datetime(value).isoformat()


def captured_at(file: str, capture: Capture) -> str:
    """The capture time exactly as the file's metadata states it, in ISO 8601."""
    if capture.source == "filename":
        return _from_filename(file)
    if capture.value is None:
        raise ValueError(f"{file}: {capture.source} capture needs a value")
    if capture.source == "png-text":
        return _from_png_text(capture.value)
    stamp = datetime.strptime(capture.value, _EXIF_FORMAT).isoformat()
    return stamp + (capture.offset or "")


def decode_png(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as opened:
        return opened.convert("RGB")


def png_bytes(image: Image.Image, capture: Capture) -> bytes:
    """PNG at a fixed zlib level; a `Creation Time` text chunk when the capture says so."""
    info = PngInfo()
    if capture.source == "png-text" and capture.value:
        info.add_text("Creation Time", capture.value)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_LEVEL, pnginfo=info)
    return out.getvalue()


def _exif(capture: Capture) -> bytes:
    exif = Image.Exif()
    exif[MAKE], exif[MODEL] = CAMERA
    tags: dict[int, str] = {DATETIME_ORIGINAL: capture.value or ""}
    if capture.offset:
        tags[OFFSET_TIME_ORIGINAL] = capture.offset
    exif[EXIF_IFD] = tags
    return exif.tobytes()


def jpeg_bytes(image: Image.Image, capture: Capture, quality: int) -> bytes:
    """Baseline JPEG at a fixed quality and subsampling; EXIF when the capture says so."""
    options: dict[str, Any] = {"quality": quality, "subsampling": JPEG_SUBSAMPLING}
    if capture.source == "exif":
        options["exif"] = _exif(capture)
    out = io.BytesIO()
    image.save(out, "JPEG", **options)
    return out.getvalue()


def json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
