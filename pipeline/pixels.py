"""The pixel arrays the imaging, table and OCR code pass between them."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["Floats", "Gray", "Rgb"]

Gray = NDArray[np.uint8]
"""One channel, 0–255, rows by columns."""
Rgb = NDArray[np.uint8]
"""Three channels (red, green, blue), 0–255, rows by columns by 3."""
Floats = NDArray[np.float64]
"""Measurements: coordinates, angles, scores."""
