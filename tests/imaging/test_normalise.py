"""Normalise: any image shape gets a working size and an upright view, never an empty one."""

import numpy as np
import pytest
from PIL import Image

from pipeline.imaging.normalise import normalise


def noise(width: int, height: int) -> Image.Image:
    rng = np.random.default_rng(width * 7919 + height)
    return Image.fromarray(rng.integers(0, 255, (height, width, 3), dtype=np.uint8))


@pytest.mark.parametrize(
    ("width", "height"), [(5000, 1), (1, 5000), (4000, 3), (2200, 2), (801, 1), (1, 1)]
)
def test_a_thin_strip_is_normalised_without_a_side_shrinking_to_zero(
    width: int, height: int
) -> None:
    # Noise is no clean render, so the skew search runs on the strips too.
    norm = normalise(noise(width, height))
    assert norm.rgb.shape[0] >= 1 and norm.rgb.shape[1] >= 1
    assert norm.gray.shape == norm.rgb.shape[:2]
