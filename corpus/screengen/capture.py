"""Where a screenshot's capture time lives (EXIF, a PNG text chunk, the file name or only the
file's modification time), the encoders that write an image with it, with fixed options so
that a corpus regenerates byte for byte, and an `Entry`: an image written with its truth file
beside it."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Literal

from PIL import Image
from PIL.PngImagePlugin import PngInfo

CaptureSource = Literal["exif", "png-text", "filename", "mtime"]

EXIF_IFD = 0x8769
DATETIME_ORIGINAL = 36867
OFFSET_TIME_ORIGINAL = 36881
MAKE, MODEL = 0x010F, 0x0110
CAMERA = ("Google", "Pixel 8")
"""The phone that took the corpora's photos, as their EXIF names it."""
PNG_LEVEL = 9
JPEG_SUBSAMPLING = "4:2:0"
_EXIF_FORMAT = "%Y:%m:%d %H:%M:%S"
FILENAME_STAMPS = (
    "Screenshot %Y-%m-%d at %H.%M.%S",
    "Screenshot %Y-%m-%d %H%M%S",
    "Screenshot_%Y%m%d-%H%M%S",
    "stock_%Y%m%d-%H%M%S",
)
"""The file names screenshot tools give, which carry the capture time."""


@dataclass(frozen=True)
class Capture:
    """Where the capture time lives: `value` as the metadata writes it (EXIF's
    `2026:11:24 09:12:00`, a PNG `Creation Time`), `offset` EXIF's UTC offset; `mtime`: no
    metadata at all, the file's modification time is all there is."""

    source: CaptureSource
    value: str | None = None
    offset: str | None = None


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


def captured_at(file: str, capture: Capture) -> str | None:
    """The capture time exactly as the file's metadata states it, in ISO 8601; None where
    only the modification time tells it."""
    if capture.source == "mtime":
        return None
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


def png_bytes(image: Image.Image, capture: Capture, *, optimize: bool = False) -> bytes:
    """PNG at a fixed zlib level (or Pillow's `optimize`); a `Creation Time` text chunk when
    the capture says so."""
    info = PngInfo()
    if capture.source == "png-text" and capture.value:
        info.add_text("Creation Time", capture.value)
    out = io.BytesIO()
    if optimize:
        image.save(out, "PNG", optimize=True, pnginfo=info)
    else:
        image.save(out, "PNG", compress_level=PNG_LEVEL, pnginfo=info)
    return out.getvalue()


def _exif(capture: Capture, camera: tuple[str, str] | None) -> bytes:
    exif = Image.Exif()
    if camera:
        exif[MAKE], exif[MODEL] = camera
    tags: dict[int, str] = {DATETIME_ORIGINAL: capture.value or ""}
    if capture.offset:
        tags[OFFSET_TIME_ORIGINAL] = capture.offset
    exif[EXIF_IFD] = tags
    return exif.tobytes()


def jpeg_bytes(
    image: Image.Image,
    capture: Capture,
    quality: int,
    *,
    camera: tuple[str, str] | None = CAMERA,
    optimize: bool = False,
) -> bytes:
    """Baseline JPEG at a fixed quality and subsampling (Huffman tables optimised on request);
    EXIF, naming `camera`, when the capture says so."""
    options: dict[str, Any] = {
        "quality": quality,
        "subsampling": JPEG_SUBSAMPLING,
        "optimize": optimize,
    }
    if capture.source == "exif":
        options["exif"] = _exif(capture, camera)
    out = io.BytesIO()
    image.save(out, "JPEG", **options)
    return out.getvalue()


def truth_name(file: str) -> str:
    """The name of the truth file beside the image `file`."""
    return f"{file}.truth.json"


def json_text(data: Any) -> str:
    """JSON as the corpora commit it: keys sorted, two-space indent, UTF-8 text, a last newline."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


@dataclass(frozen=True)
class Entry:
    """One image of a corpus: its encoded bytes, its truth and its manifest line."""

    file: str
    data: bytes
    truth: dict[str, Any]
    manifest: dict[str, Any]

    def write(self, folder: Path) -> tuple[str, str]:
        """The image and its truth written into `folder`; returns their names there."""
        truth: str = self.manifest["truth"]
        (folder / self.file).write_bytes(self.data)
        (folder / truth).write_text(json_text(self.truth), encoding="utf-8")
        return self.file, truth
