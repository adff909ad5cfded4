"""Boxes through a photo's perspective warp."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Pixels = tuple[int, int, int, int]
"""A box in whole pixels: left, top, right, bottom."""


def warp_box(matrix: NDArray[Any], box: Pixels, size: tuple[int, int]) -> Pixels:
    """The upright box around `box` carried by the perspective `matrix`, kept inside an image
    of `size`."""
    x0, y0, x1, y1 = box
    corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], dtype=np.float32)
    warped = cv2.perspectiveTransform(corners, matrix)[0]
    w, h = size
    return (
        max(0, math.floor(float(warped[:, 0].min()))),
        max(0, math.floor(float(warped[:, 1].min()))),
        min(w, math.ceil(float(warped[:, 0].max()))),
        min(h, math.ceil(float(warped[:, 1].max()))),
    )
