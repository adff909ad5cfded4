"""Normalise: any image shape gets a working size and an upright view, never an empty one."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipeline.imaging.normalising import is_clean_render, normalise
from tests.imaging.photos import KEYSTONE, ROOT, page, paragraph_screenshot, photographed


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


def washed_out_page(text: tuple[int, int, int]) -> Image.Image:
    """A photo of a light page (noise: no clean render) with a line of `text`-coloured ink."""
    rng = np.random.default_rng(7)
    page = rng.normal(236, 3, (300, 400, 3)).clip(0, 255).astype(np.uint8)
    page[140:152, 60:300] = text
    return Image.fromarray(page)


def test_light_blue_text_on_a_washed_out_photo_is_as_dark_as_its_darkest_channel() -> None:
    # A link's blue after glare: luminance 197 on a 236 page, red channel 150.
    norm = normalise(washed_out_page((150, 210, 250)), deskew=False)
    page, ink = np.median(norm.gray[20:100, 20:380]), np.median(norm.gray[142:150, 80:280])
    assert page - ink >= 80


def test_grey_text_on_a_photo_keeps_its_grey() -> None:
    norm = normalise(washed_out_page((120, 120, 120)), deskew=False)
    assert abs(float(np.median(norm.gray[142:150, 80:280])) - 120) <= 2


def test_a_large_photos_warped_screen_keeps_its_glyphs_nearly_their_photographed_size() -> None:
    # A 3040 px photo: the screen warped upright is wider than the working size. Halving it,
    # as a HiDPI export is halved, would leave glyphs the camera already drew small at half
    # their height; it is brought just within the working size instead.
    photo = photographed(page(), KEYSTONE, bezel=40, wall=200)
    large = Image.fromarray(photo).resize((3040, 1920), Image.Resampling.BICUBIC)
    norm = normalise(large)
    assert norm.quad is not None
    assert max(norm.quad.size()) > 2200
    assert norm.scale >= 0.9 and max(norm.gray.shape) <= 2200


def test_a_large_export_is_halved_to_its_one_x_size() -> None:
    norm = normalise(Image.new("RGB", (2880, 1800), (255, 255, 255)))
    assert norm.scale == 0.5 and norm.gray.shape == (900, 1440)


@pytest.mark.parametrize("size", [14, 20, 28])
def test_a_jpeg_screenshot_of_a_paragraph_is_a_render_and_is_never_rectified(size: int) -> None:
    # Glyphs cover much of a page of prose: its flat background still shows it is no photo.
    screenshot, _ = paragraph_screenshot(size)
    norm = normalise(screenshot)
    assert norm.clean and not norm.photographed
    assert norm.rgb.shape[:2] == (screenshot.height, screenshot.width)


PHOTOS = [*sorted((ROOT / "corpus").glob("photo-*.jpg")), ROOT / "samples/photo-monitor-wh01.jpg"]


@pytest.mark.parametrize("path", PHOTOS, ids=[p.name for p in PHOTOS])
def test_the_corpus_photos_are_no_clean_renders(path: Path) -> None:
    with Image.open(path) as photo:
        assert not is_clean_render(np.asarray(photo.convert("RGB")))
