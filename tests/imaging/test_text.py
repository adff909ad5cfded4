"""Text a photo's blur faded below the page's ink level (a header set in light grey) is found
at a lower contrast where a name is missing; a blank region has none."""

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pipeline.imaging.text import faint_text, find_text_boxes


def photo_with(text: str, *, grey: int) -> np.ndarray:
    """A white page with `text` in grey `grey` at (300, 100), blurred and noisy like a photo."""
    image = Image.new("L", (700, 240), 255)
    ImageDraw.Draw(image).text((300, 100), text, fill=grey, font=ImageFont.load_default(size=16))
    blurred = cv2.GaussianBlur(np.asarray(image, dtype=np.uint8), (0, 0), 1.2)
    page = np.asarray(blurred, dtype=np.int16)
    noise = np.random.default_rng(4).normal(0, 2.0, page.shape).astype(np.int16)
    return np.asarray(np.clip(page + noise, 0, 255), dtype=np.uint8)


def test_a_light_grey_header_name_in_a_blurred_photo_is_found_at_a_lower_contrast() -> None:
    gray = photo_with("ON ORDER", grey=205)
    assert find_text_boxes(gray, photo=True).boxes == []
    found = faint_text(gray, (250, 85, 450, 130), text_height=11.0)
    assert found is not None
    x0, y0, x1, y1 = found
    assert 295 <= x0 <= 305 and 370 <= x1 <= 395 and 98 <= y0 <= 106 and 108 <= y1 <= 120


def test_a_blank_region_of_a_photo_has_no_faint_text() -> None:
    gray = photo_with("", grey=205)
    assert faint_text(gray, (250, 85, 450, 130), text_height=11.0) is None
