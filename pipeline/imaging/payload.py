"""An image as a model receives it: a PNG data URL within a pixel budget."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

from PIL import Image

__all__ = ["Payload", "to_payload"]


@dataclass(frozen=True)
class Payload:
    """A data URL and the size of the picture it holds (after any downscale)."""

    url: str
    width: int
    height: int


def to_payload(image: Image.Image, max_pixels: int) -> Payload:
    """`image` as a PNG data URL, scaled down (aspect kept) when it has more than `max_pixels`."""
    if image.width * image.height > max_pixels:
        factor = (max_pixels / (image.width * image.height)) ** 0.5
        image = image.resize(
            (max(1, int(image.width * factor)), max(1, int(image.height * factor))),
            Image.Resampling.LANCZOS,
        )
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return Payload(f"data:image/png;base64,{encoded}", image.width, image.height)
