"""Inputs for the ingest fuzz: real encodings to mutate, bombs in every format, and an engine.

`seeds()` are small images saved by Pillow in every supported format, mode and option worth
a different code path (interlaced PNG, progressive JPEG, lossless WebP, LZW TIFF, animated
GIF, EXIF), plus the sample screenshots. `mutated()` draws one and breaks it the way files
break: flipped and overwritten bytes, boundary integers in headers, cuts, insertions,
duplicated runs, splices of two files; PNG chunk checksums are repaired half of the time so
the damage reaches the decoder instead of stopping at the CRC check.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from tests.conftest import SAMPLES

__all__ = [
    "BOMBS",
    "NAMES",
    "Seed",
    "mutated",
    "not_images",
    "png_bomb",
    "png_chunk",
    "sample_seeds",
    "seeds",
]

# Names a caller may send: paths, traversal, NUL bytes, other scripts, very long ones.
NAMES = (
    "shot.png",
    "../../etc/passwd.png",
    "/var/lib/stockshot/shot.jpg",
    "C:\\Users\\me\\Desktop\\shot.tiff",
    "nul\x00byte.gif",
    "库存 スクショ 2026-11-30.webp",
    "x" * 240 + ".png",
    "shot.png.exe",
    " .bmp",
)
INTERESTING = (0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)


@dataclass(frozen=True)
class Seed:
    format: str
    label: str
    data: bytes

    def __repr__(self) -> str:  # hypothesis prints the seed of a failing example
        return f"Seed({self.format}, {self.label}, {len(self.data)} bytes)"


def encode(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def _pictures() -> dict[str, Image.Image]:
    table = Image.new("RGB", (96, 48), "white")
    draw = ImageDraw.Draw(table)
    for row, y in enumerate((4, 18, 32)):
        draw.text((3, y), f"SKU-{row}", fill="black")
        draw.text((60, y), str(row * 12), fill="black")
        draw.line((0, y + 12, 95, y + 12), fill=(200, 200, 200))
    rng = np.random.default_rng(20261130)
    noise = Image.fromarray(rng.integers(0, 255, (24, 32, 3), dtype=np.uint8))
    return {"table": table, "noise": noise}


_OPTIONS: tuple[tuple[str, dict[str, object]], ...] = (
    ("PNG", {}),
    ("PNG", {"interlace": 1}),
    ("JPEG", {"quality": 80}),
    ("JPEG", {"progressive": True, "quality": 60}),
    ("WEBP", {"lossless": True}),
    ("WEBP", {"quality": 50}),
    ("TIFF", {}),
    ("TIFF", {"compression": "tiff_lzw"}),
    ("TIFF", {"compression": "tiff_deflate"}),
    ("TIFF", {"compression": "packbits"}),
    ("GIF", {}),
    ("BMP", {}),
)
_MODES = ("RGBA", "LA", "P", "L", "1", "I;16", "CMYK")


@cache
def seeds() -> tuple[Seed, ...]:
    """Small real encodings: every format with its options, every mode each format takes."""
    found: list[Seed] = []
    pictures = _pictures()
    for label, picture in pictures.items():
        for fmt, options in _OPTIONS:
            shown = ",".join(f"{k}={v}" for k, v in options.items())
            found.append(Seed(fmt, f"{label} {shown}".strip(), encode(picture, fmt, **options)))
        for mode in _MODES:
            converted = (
                picture.convert("L").convert(mode) if mode == "I;16" else picture.convert(mode)
            )
            for fmt in ("PNG", "TIFF", "WEBP", "GIF", "JPEG", "BMP"):
                try:
                    found.append(Seed(fmt, f"{label} {mode}", encode(converted, fmt)))
                except (OSError, ValueError, KeyError):
                    continue  # this format cannot store this mode
    table, noise = pictures["table"], pictures["noise"].resize(pictures["table"].size)
    for fmt in ("GIF", "TIFF", "WEBP", "PNG"):
        found.append(
            Seed(fmt, "two frames", encode(table, fmt, save_all=True, append_images=[noise]))
        )
    exif = Image.Exif()
    exif[0x0112] = 6
    exif.get_ifd(0x8769)[36867] = "2026:11:27 09:14:52"
    for fmt in ("JPEG", "PNG", "WEBP", "TIFF"):
        found.append(Seed(fmt, "exif", encode(table, fmt, exif=exif)))
    return tuple(found)


@cache
def sample_seeds() -> tuple[Seed, ...]:
    """The sample screenshots as they are on disk."""
    paths = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".png", ".jpg"))
    kinds = {".png": "PNG", ".jpg": "JPEG"}
    return tuple(Seed(kinds[p.suffix], p.name, p.read_bytes()) for p in paths)


def fix_png_crcs(data: bytes) -> bytes:
    """Recompute every chunk's CRC so a damaged chunk reaches the decoder."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return data
    out, at = bytearray(data[:8]), 8
    while at + 8 <= len(data):
        length = struct.unpack(">I", data[at : at + 4])[0]
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if len(body) < length:
            out += data[at:]
            break
        out += data[at : at + 8] + body + struct.pack(">I", zlib.crc32(kind + body))
        at += 12 + length
    return bytes(out)


@st.composite
def _position(draw: st.DrawFn, data: bytearray) -> int:
    """Anywhere, or (as often) inside the first 96 bytes where the headers are."""
    head = min(len(data), 96)
    return draw(st.one_of(st.integers(0, head - 1), st.integers(0, len(data) - 1)))


@st.composite
def mutated(draw: st.DrawFn, pool: Sequence[Seed]) -> tuple[Seed, bytes]:
    seed = draw(st.sampled_from(pool))
    data = bytearray(seed.data)
    for op in draw(st.lists(st.sampled_from(_OPS), min_size=1, max_size=4)):
        if not data:
            break
        at = draw(_position(data))
        if op == "flip":
            data[at] ^= draw(st.integers(1, 255))
        elif op == "integer":
            width = draw(st.sampled_from((1, 2, 4)))
            value = draw(st.sampled_from(INTERESTING)) & ((1 << (8 * width)) - 1)
            order = draw(st.sampled_from("<>"))
            data[at : at + width] = struct.pack(order + {1: "B", 2: "H", 4: "I"}[width], value)
        elif op == "cut":
            data = data[:at]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=32))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif op == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 256))] * draw(st.integers(1, 8))
        elif op == "splice":
            other = draw(st.sampled_from(pool)).data
            start = draw(st.integers(0, len(other) - 1))
            data[at:] = other[start : start + draw(st.integers(1, 512))]
    if seed.format == "PNG" and draw(st.booleans()):
        return seed, fix_png_crcs(bytes(data))
    return seed, bytes(data)


_OPS = ("flip", "flip", "integer", "cut", "insert", "delete", "repeat", "splice")

_SIGNATURES = (
    b"\x89PNG\r\n\x1a\n",
    b"\xff\xd8\xff",
    b"RIFF\x00\x00\x00\x00WEBPVP8 ",
    b"II*\x00",
    b"MM\x00*",
    b"GIF89a",
    b"BM",
    b"%PDF-1.7\n",
    b"PK\x03\x04",
    b"<svg xmlns='http://www.w3.org/2000/svg'>",
    b"<!DOCTYPE html><html>",
    b'{"image": "no"}',
    b"\x00\x00\x01\x00",  # ICO
    b"8BPS",  # PSD
)


def not_images() -> st.SearchStrategy[bytes]:
    """Bytes that are no image: random, or an image's (or a document's) first bytes and junk."""
    return st.one_of(
        st.binary(min_size=1, max_size=2048),
        st.builds(
            lambda head, tail: head + tail,
            st.sampled_from(_SIGNATURES),
            st.binary(min_size=0, max_size=512),
        ),
        st.text(min_size=1, max_size=256).map(lambda t: t.encode("utf-8") or b"x"),
    )


# Decompression bombs: a few hundred bytes that declare billions of pixels, in each format.


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bomb(width: int, height: int, *, real: bool = False) -> bytes:
    """A greyscale PNG of `width` x `height`; `real` compresses every row of zeros for real
    (a true bomb: about 1000x smaller than its pixels), else one short IDAT."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    if real:
        packer = zlib.compressobj(9)
        row = b"\x00" * (width + 1)
        body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    else:
        body = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", body)
        + png_chunk(b"IEND", b"")
    )


def _small(fmt: str, **options: object) -> bytearray:
    return bytearray(encode(Image.new("RGB", (16, 16), (200, 10, 10)), fmt, **options))


def jpeg_bomb(width: int, height: int) -> bytes:
    data = _small("JPEG")
    sof = data.find(b"\xff\xc0")
    data[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def webp_bomb(width: int, height: int) -> bytes:
    data = _small("WEBP", lossless=True)
    at = data.find(b"VP8L") + 9
    bits = int.from_bytes(data[at : at + 4], "little") & ~((1 << 28) - 1)
    bits |= (width - 1) | ((height - 1) << 14)
    data[at : at + 4] = bits.to_bytes(4, "little")
    return bytes(data)


def tiff_bomb(width: int, height: int) -> bytes:
    data = _small("TIFF")
    ifd = struct.unpack("<I", data[4:8])[0]
    for n in range(struct.unpack("<H", data[ifd : ifd + 2])[0]):
        entry = ifd + 2 + 12 * n
        tag = struct.unpack("<H", data[entry : entry + 2])[0]
        if tag in (256, 257):
            value = width if tag == 256 else height
            data[entry + 2 : entry + 12] = struct.pack("<HII", 4, 1, value)
    return bytes(data)


def gif_bomb(width: int, height: int) -> bytes:
    data = _small("GIF")
    data[6:10] = struct.pack("<HH", width, height)
    descriptor = data.find(b"\x2c", 13)
    data[descriptor + 5 : descriptor + 9] = struct.pack("<HH", width, height)
    return bytes(data)


def bmp_bomb(width: int, height: int) -> bytes:
    data = _small("BMP")
    data[18:26] = struct.pack("<ii", width, height)
    return bytes(data)


# format -> (builder, the largest size the format can declare)
BOMBS: dict[str, tuple[Callable[[int, int], bytes], int]] = {
    "PNG": (png_bomb, 100_000),
    "JPEG": (jpeg_bomb, 65_500),
    "WebP": (webp_bomb, 16_384),
    "TIFF": (tiff_bomb, 100_000),
    "GIF": (gif_bomb, 65_535),
    "BMP": (bmp_bomb, 100_000),
}
