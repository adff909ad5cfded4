"""An outline that cuts through the table (the table's rows or columns go on past it) is not
warped to: the screen's own lines are used instead, else the photo is only deskewed."""

import numpy as np
import pytest
from PIL import Image

from pipeline.imaging.cuts import cuts_text
from pipeline.imaging.normalising import normalise
from pipeline.imaging.planes import quad_by_lines
from pipeline.imaging.rectify import Quad
from tests.imaging.photos import gray, page, paragraph_screenshot, photographed, worst_edge_degrees

SCREEN: list[list[float]] = [[230, 120], [1660, 200], [1620, 1010], [270, 1080]]


def part(corners: list[list[float]], *, across: float = 1.0, down: float = 1.0) -> Quad:
    """The quad over the left `across` and the top `down` of the screen at `corners`."""
    tl, tr, br, bl = (np.array(c, dtype=np.float64) for c in corners)
    top_right = tl + across * (tr - tl)
    bottom_left = tl + down * (bl - tl)
    bottom_right = bl + across * (br - bl)
    bottom_right = top_right + down * (bottom_right - top_right)
    points = [(float(x), float(y)) for x, y in (tl, top_right, bottom_right, bottom_left)]
    return Quad(points=(points[0], points[1], points[2], points[3]), kind="frame")


def test_a_screens_own_outline_does_not_cut_its_text() -> None:
    photo = photographed(page(), SCREEN, bezel=30, wall=200)
    assert not cuts_text(gray(photo), part(SCREEN))


@pytest.mark.parametrize(
    ("across", "down"), [(0.6, 1.0), (0.8, 1.0), (1.0, 0.7)], ids=["40%", "20%", "bottom"]
)
def test_an_outline_that_leaves_part_of_the_table_out_cuts_it(across: float, down: float) -> None:
    photo = photographed(page(), SCREEN, bezel=30, wall=200)
    assert cuts_text(gray(photo), part(SCREEN, across=across, down=down))


def panel_photo() -> np.ndarray:
    """A screen in a silver bezel whose page has a dark panel over its left half: the panel
    is the darkest quadrilateral in the photo, and the table's rows go on right of it."""
    screen = page().copy()
    h, w = screen.shape[:2]
    y0, y1, x0, x1 = round(0.12 * h), round(0.97 * h), round(0.03 * w), round(0.5 * w)
    screen[y0:y1, x0:x1] = 255 - screen[y0:y1, x0:x1]
    return photographed(screen, SCREEN, bezel=214, wall=200)


def test_a_dark_panel_taken_for_the_frame_is_refused_for_the_screens_own_lines() -> None:
    norm = normalise(Image.fromarray(panel_photo()))
    assert norm.refused is not None and norm.refused.kind == "frame"
    assert norm.quad is not None and norm.quad.kind == "lines"
    assert worst_edge_degrees(norm.quad, SCREEN) <= 1.5
    assert norm.photographed


def test_content_corners_that_shear_off_a_paragraphs_first_letters_cut_its_text() -> None:
    # A paragraph's ragged right edge taken for a slanted column: the content's lines give a
    # sheared plane whose corners pass through the first letters of the last lines.
    screenshot, _ = paragraph_screenshot(28)
    ink = gray(np.asarray(screenshot))
    sheared = quad_by_lines(ink)
    assert sheared is not None and sheared.points[0][0] < 0 < sheared.points[3][0]
    assert cuts_text(ink, sheared)


def test_content_corners_with_a_margin_round_the_text_do_not_cut_it() -> None:
    screenshot, _ = paragraph_screenshot(20)
    corners = ((10.0, 10.0), (890.0, 10.0), (890.0, 380.0), (10.0, 380.0))
    assert not cuts_text(gray(np.asarray(screenshot)), Quad(points=corners, kind="lines"))
