"""Decode and validate image bytes: the boundary where Pillow's exceptions become InputErrors."""

from __future__ import annotations

import io
import json
import logging
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from pipeline.errors import (
    EmptyInputError,
    ImageTooLargeError,
    UndecodableImageError,
    UnsupportedFormatError,
    UploadTooLargeError,
)

__all__ = ["SUPPORTED_FORMATS", "LoadedImage", "check_size", "load_image"]

log = logging.getLogger(__name__)

SUPPORTED_FORMATS = {
    "PNG": "PNG",
    "JPEG": "JPEG",
    "MPO": "JPEG",
    "WEBP": "WebP",
    "BMP": "BMP",
    "DIB": "BMP",
    "TIFF": "TIFF",
    "GIF": "GIF",
}
_EXIF_IFD = 0x8769
_DATETIME_ORIGINAL = 36867
_OFFSET_TIME_ORIGINAL = 36881


def _any(data: bytes) -> bool:
    return True


def _is_json(data: bytes) -> bool:
    """One brace is no evidence (random bytes start with one now and then); parsing is."""
    try:
        json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return True


_SIGNATURES: tuple[tuple[bytes, str, Callable[[bytes], bool]], ...] = (
    (b"%PDF", "a PDF document", _any),
    (b"PK\x03\x04", "a ZIP archive (or an Office document)", _any),
    (b"<!DOCTYPE", "an HTML page", _any),
    (b"<html", "an HTML page", _any),
    (b"<?xml", "an XML/SVG document", _any),
    (b"<svg", "an SVG drawing", _any),
    (b"{", "JSON text", _is_json),
)
"""What a file that is not an image turns out to be: its first bytes, and a test of the whole
file where those bytes alone prove little."""


@dataclass(frozen=True)
class LoadedImage:
    """An RGB image upright as the screen showed it, with the capture metadata it carried."""

    image: Image.Image
    format: str
    exif_datetime: str | None
    exif_offset: str | None
    png_creation_time: str | None
    alpha_background: str | None


def check_size(size: int, *, name: str, max_bytes: int) -> None:
    """Refuse an empty file or one over the byte limit before anything reads it."""
    if size == 0:
        raise EmptyInputError(f"{name}: empty file (0 bytes)")
    if size > max_bytes:
        raise UploadTooLargeError(
            f"{name}: {size:,} bytes is over the limit of {max_bytes:,} bytes"
        )


def load_image(data: bytes, *, name: str, max_bytes: int, max_pixels: int) -> LoadedImage:
    """Decode `data`; every way it can be unusable raises its own InputError naming `name`."""
    check_size(len(data), name=name, max_bytes=max_bytes)
    image = _open(data, name, max_pixels)
    fmt = SUPPORTED_FORMATS[str(image.format)]
    with _pillow_warnings(name):
        exif_datetime, exif_offset = _exif_stamp(image)
    png_time = image.info.get("Creation Time") if fmt == "PNG" else None
    try:
        image.seek(0)
        image.load()
        upright = ImageOps.exif_transpose(image)
        rgb, background = _flatten(upright)
    except Exception as exc:
        # The header was read; whatever fails now is the data's. Pillow's decoders raise more
        # than OSError on crafted bytes (a TypeError for a PNG whose interlace method is out of
        # range, struct.error, IndexError, ...), so every one of them means "undecodable".
        raise UndecodableImageError(f"{name}: corrupt or truncated {fmt} data ({exc})") from exc
    return LoadedImage(
        image=rgb,
        format=fmt,
        exif_datetime=exif_datetime,
        exif_offset=exif_offset,
        png_creation_time=str(png_time) if png_time else None,
        alpha_background=background,
    )


# `warnings.catch_warnings` swaps the process-wide filter list; threads that enter and leave it
# at the same time can restore each other's filters and leave them changed for good. Parsing a
# header and its metadata is quick, so decoders take turns at it.
_WARNINGS_LOCK = threading.Lock()


@contextmanager
def _pillow_warnings(name: str) -> Iterator[None]:
    """Pillow's warnings about one file (a tag past its end, corrupt EXIF) stay here: logged,
    never printed or raised, whatever filters the process runs with. A decompression-bomb
    warning is raised as an error instead."""
    with _WARNINGS_LOCK, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        yield
    for warning in caught:
        log.debug("%s: %s", name, warning.message)


def _too_many_pixels(
    name: str, size: tuple[int, int] | None, max_pixels: int
) -> ImageTooLargeError:
    """Our limit and what to do, whoever noticed first (our check, or Pillow's bomb guard,
    whose own limit is not the one a user can set)."""
    counted = "" if size is None else f"{size[0]}x{size[1]} = {size[0] * size[1]:,} pixels "
    return ImageTooLargeError(
        f"{name}: {counted or 'the image '}is over the limit of {max_pixels:,} pixels "
        "(STOCKSHOT_MAX_IMAGE_PIXELS); send a smaller screenshot, or crop it to the table"
    )


def _declared_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a header declares, read without decoding (None when even that
    is refused)."""
    try:
        with _WARNINGS_LOCK, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            size: tuple[int, int] = Image.open(io.BytesIO(data)).size
    except Exception:  # the header is refused again, which the caller reports
        return None
    return size


def _open(data: bytes, name: str, max_pixels: int) -> Image.Image:
    try:
        with _pillow_warnings(name):
            image = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise _too_many_pixels(name, _declared_size(data), max_pixels) from exc
    except UnidentifiedImageError as exc:
        raise UndecodableImageError(f"{name}: {_describe_unknown(data)}") from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise UndecodableImageError(f"{name}: corrupt image header ({exc})") from exc
    if image.format not in SUPPORTED_FORMATS:
        raise UnsupportedFormatError(
            f"{name}: {image.format} images are not supported; "
            f"send PNG, JPEG, WebP, BMP, TIFF or GIF"
        )
    width, height = image.size
    if width <= 0 or height <= 0:
        raise UndecodableImageError(f"{name}: image has no pixels ({width}x{height})")
    if width * height > max_pixels:
        raise _too_many_pixels(name, (width, height), max_pixels)
    return image


def _describe_unknown(data: bytes) -> str:
    head = data[:64].lstrip()
    for signature, what, confirmed in _SIGNATURES:
        if head[: len(signature)].lower() == signature.lower() and confirmed(data):
            return f"this is {what}, not an image; send PNG, JPEG, WebP, BMP, TIFF or GIF"
    return (
        "not an image: its bytes match no image format stockshot reads; send PNG, JPEG, "
        "WebP, BMP, TIFF or GIF"
    )


def _exif_stamp(image: Image.Image) -> tuple[str | None, str | None]:
    try:
        ifd = image.getexif().get_ifd(_EXIF_IFD)
    except (OSError, SyntaxError, ValueError, KeyError, TypeError):
        return None, None
    stamp = ifd.get(_DATETIME_ORIGINAL)
    offset = ifd.get(_OFFSET_TIME_ORIGINAL)
    return (
        str(stamp).strip("\x00 ") if stamp else None,
        str(offset).strip("\x00 ") if offset else None,
    )


def _flatten(image: Image.Image) -> tuple[Image.Image, str | None]:
    """RGB on the background that keeps text readable: light text gets black, dark gets white."""
    has_alpha = image.mode in ("RGBA", "LA", "PA") or (
        image.mode == "P" and "transparency" in image.info
    )
    if not has_alpha:
        return image.convert("RGB"), None
    rgba = image.convert("RGBA")
    alpha = rgba.getchannel("A")
    if alpha.getextrema()[0] == 255:
        return rgba.convert("RGB"), None
    opaque = alpha.point(lambda a: 255 if a >= 128 else 0)
    luminance = rgba.convert("L")
    histogram = luminance.histogram(mask=opaque)
    count = sum(histogram)
    mean = sum(i * n for i, n in enumerate(histogram)) / count if count else 0.0
    background = "black" if mean > 150 else "white"
    canvas = Image.new("RGB", rgba.size, (0, 0, 0) if background == "black" else (255, 255, 255))
    canvas.paste(rgba, mask=alpha)
    return canvas, background
