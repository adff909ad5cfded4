"""RapidOCR on pages of any shape: a thin strip is read, never a failed resize."""

import cv2
import numpy as np
import pytest

from pipeline.ocr import OcrEngine


def strip(width: int, height: int) -> np.ndarray:
    page = np.full((height, width, 3), 255, dtype=np.uint8)
    if height >= 12 and width >= 120:
        cv2.putText(page, "SKU 10232", (4, height - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0))
    return page


@pytest.mark.parametrize(("width", "height"), [(2200, 18), (2200, 1), (18, 2200), (1, 1), (40, 8)])
def test_a_strip_thinner_than_the_detector_scales_is_read_with_boxes_inside_it(
    rapidocr: OcrEngine, width: int, height: int
) -> None:
    lines = rapidocr.read(strip(width, height))
    for line in lines:
        x0, y0, x1, y1 = line.box
        assert 0 <= x0 <= x1 <= width and 0 <= y0 <= y1 <= height
