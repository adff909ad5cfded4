"""A photo whose screen has no frame to find (a light or silver bezel, none at all) is
rectified by the content's own lines: rows and columns come out straight."""

import math

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.imaging.normalising import normalise
from pipeline.imaging.planes import quad_by_lines, refine_plane
from pipeline.imaging.rectify import Quad
from tests.imaging.photos import KEYSTONE, gray, page, photographed, worst_edge_degrees

TURNED: list[list[float]] = [[300, 170], [1700, 120], [1660, 1060], [240, 980]]


@pytest.mark.parametrize("corners", [KEYSTONE, TURNED], ids=["keystone", "turned"])
def test_a_screen_in_a_silver_bezel_on_a_pale_wall_comes_out_straight(
    corners: list[list[float]],
) -> None:
    photo = photographed(page(), corners, bezel=214, wall=200)
    found = quad_by_lines(gray(photo))
    assert found is not None and found.kind == "lines"
    assert worst_edge_degrees(found, corners) <= 1.5


@pytest.mark.parametrize("corners", [KEYSTONE, TURNED], ids=["keystone", "turned"])
def test_a_sidebar_running_past_a_few_rows_of_text_sets_the_columns_upright(
    corners: list[list[float]],
) -> None:
    # Five centred rows: too few, and no edges of words, to line up a column. The rows give
    # the horizontal; the sidebar's and the screen's edges, beside the text but outside it,
    # give the vertical.
    short, _ = centred_list(rows=5, centre=750, sidebar=True)
    found = quad_by_lines(gray(photographed(short, corners, bezel=228, wall=228)))
    assert found is not None
    assert worst_edge_degrees(found, corners) <= 1.0


def test_a_screen_with_no_bezel_at_all_comes_out_straight() -> None:
    photo = photographed(page(), KEYSTONE, bezel=228, wall=228)
    found = quad_by_lines(gray(photo))
    assert found is not None
    assert worst_edge_degrees(found, KEYSTONE) <= 1.5


def test_a_photo_with_no_lines_gives_no_plane() -> None:
    noise = np.random.default_rng(5).integers(90, 110, (900, 1200), dtype=np.uint8)
    assert quad_by_lines(noise) is None


def test_a_frameless_photo_is_rectified_by_its_lines_before_it_is_read() -> None:
    photo = photographed(page(), KEYSTONE, bezel=214, wall=200)
    norm = normalise(Image.fromarray(photo))
    assert norm.quad is not None and norm.quad.kind == "lines"
    height, width = norm.gray.shape
    assert width > height and abs(norm.skew_deg) <= 1.0


LID: list[list[float]] = [[330, 60], [1560, 110], [1530, 740], [360, 780]]
DECK: list[list[float]] = [[300, 860], [1600, 835], [1790, 1170], [120, 1190]]


def with_keyboard(photo: np.ndarray, deck: list[list[float]] = DECK) -> np.ndarray:
    """A laptop's deck in front of the screen: rows of keys on another plane (seen from
    above, so its rows converge elsewhere), bigger than any text on the screen."""
    keys = np.full((300, 1400), 200, dtype=np.uint8)
    for row in range(5):
        for col in range(14):
            x, y = 20 + col * 98, 20 + row * 55
            keys[y : y + 42, x : x + 80] = 80
    matrix = cv2.getPerspectiveTransform(
        np.array([[0, 0], [1400, 0], [1400, 300], [0, 300]], dtype=np.float32),
        np.array(deck, dtype=np.float32),
    )
    size = (photo.shape[1], photo.shape[0])
    drawn = cv2.warpPerspective(keys, matrix, size)
    mask = cv2.warpPerspective(np.full((300, 1400), 255, np.uint8), matrix, size) > 127
    out = photo.copy()
    out[mask] = np.repeat(drawn[mask][:, None], 3, axis=1)
    return out


def test_a_laptops_keyboard_below_its_screen_does_not_tilt_the_screen() -> None:
    photo = with_keyboard(photographed(page(), LID, bezel=214, wall=200))
    found = quad_by_lines(gray(photo))
    assert found is not None
    assert worst_edge_degrees(found, LID) <= 1.5


def rolled(corners: list[list[float]], degrees: float) -> list[list[float]]:
    """`corners` turned by `degrees` about the photo's centre: a camera held askew."""
    a = math.radians(degrees)
    return [
        [
            950 + (x - 950) * math.cos(a) - (y - 600) * math.sin(a),
            600 + (x - 950) * math.sin(a) + (y - 600) * math.cos(a),
        ]
        for x, y in corners
    ]


@pytest.mark.parametrize("degrees", [-8.0, 8.0])
def test_a_laptops_keys_stay_out_of_a_screen_photographed_askew(degrees: float) -> None:
    # Held askew, a long row of text stands as tall in the photo as a key (its tilt adds to
    # its height): the keys are told apart by their thickness across the row.
    lid = rolled(LID, degrees)
    photo = with_keyboard(photographed(page(), lid, bezel=214, wall=200), rolled(DECK, degrees))
    found = quad_by_lines(gray(photo))
    assert found is not None
    assert worst_edge_degrees(found, lid) <= 1.5
    (x0, y0), (x1, y1) = lid[3], lid[2]
    down = np.array([y0 - y1, x1 - x0]) / math.hypot(x1 - x0, y1 - y0)
    # The quad's bottom corners lie on or above the lid's bottom edge, not down in the keys.
    for corner in (found.points[2], found.points[3]):
        assert float(np.dot(np.subtract(corner, lid[3]), down)) <= 10.0


def test_a_dark_theme_screen_on_a_dark_surround_comes_out_straight() -> None:
    # Light text on a dark page, the photo mostly dark: its rows of text are found all the
    # same, whichever way the photo's own brightness leans.
    dark_page = np.asarray(255 - page(), dtype=np.uint8)
    photo = photographed(dark_page, KEYSTONE, bezel=24, wall=30)
    found = quad_by_lines(gray(photo))
    assert found is not None
    assert worst_edge_degrees(found, KEYSTONE) <= 1.5


def test_keystoned_screens_come_out_straight_to_a_fraction_of_a_degree() -> None:
    # Each row of text is fitted to within a tenth of a degree or two; the plane they give
    # together must be finer than any pair of them (a pair is off by half a degree or more).
    rng = np.random.default_rng(1)
    square = np.array([[230, 120], [1660, 120], [1660, 1060], [230, 1060]], dtype=np.float64)
    worst = []
    for _ in range(8):
        corners = (square + rng.uniform(-70, 70, (4, 2))).tolist()
        found = quad_by_lines(gray(photographed(page(), corners, bezel=214, wall=200)))
        assert found is not None
        worst.append(worst_edge_degrees(found, corners))
    assert max(worst) <= 0.75, worst


def centred_list(
    rows: int = 12, centre: int = 640, sidebar: bool = False
) -> tuple[np.ndarray, list[float]]:
    """A phone-style list on a light page: each item's name and details centred at `centre`,
    so no column edge lines up and nothing is vertical (with `sidebar`, a dark sidebar down
    the page's whole height on its left); and the heights of its first and last rows of
    text."""
    canvas = Image.new("RGB", (1280, 900), (250, 250, 250))
    draw = ImageDraw.Draw(canvas)
    if sidebar:
        draw.rectangle((0, 0, 220, 900), fill=(40, 48, 60))
    font = ImageFont.load_default(size=26)
    small = ImageFont.load_default(size=20)
    heights: list[float] = []
    for n in range(rows):
        y = 40 + n * 70
        name = f"Kraft mailer box {310 + 10 * n}x{220 - 5 * n}"
        details = f"BX-{310 + n}-K · On hand {12 + 7 * n} pcs · Reorder at {40 + n}"
        draw.text((centre, y), name, fill=(30, 30, 30), font=font, anchor="mt")
        draw.text((centre, y + 34), details, fill=(90, 90, 90), font=small, anchor="mt")
        heights += [y + 13, y + 44]
    return np.asarray(canvas, dtype=np.uint8), [heights[0], heights[-1]]


def test_a_list_with_no_column_edges_comes_out_with_straight_rows_and_every_row_inside() -> None:
    listing, (first, last) = centred_list()
    photo = photographed(listing, KEYSTONE, bezel=228, wall=228)
    found = quad_by_lines(gray(photo))
    assert found is not None
    w, h = found.size()
    to_flat = cv2.getPerspectiveTransform(
        np.array(found.points, dtype=np.float32),
        np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32),
    )
    to_photo = cv2.getPerspectiveTransform(
        np.array([[0, 0], [1280, 0], [1280, 900], [0, 900]], dtype=np.float32),
        np.array(KEYSTONE, dtype=np.float32),
    )
    ends = np.array([[[400, first], [880, first], [400, last], [880, last]]], dtype=np.float64)
    flat = cv2.perspectiveTransform(cv2.perspectiveTransform(ends, to_photo), to_flat)[0]
    for a, b in ((flat[0], flat[1]), (flat[2], flat[3])):
        assert abs(np.degrees(np.arctan2(b[1] - a[1], b[0] - a[0]))) <= 1.0
    assert flat[:, 1].min() >= 0 and flat[:, 1].max() <= h


def frame(corners: list[list[float]]) -> Quad:
    (a, b), (c, d), (e, f), (g, h) = corners
    return Quad(points=((a, b), (c, d), (e, f), (g, h)), kind="frame")


def test_a_frame_whose_corner_was_found_in_the_bezel_is_corrected_by_the_warped_rows() -> None:
    # The frame's far corners found 45 px off in the bezel: the warped rows still converge.
    off: list[list[float]] = [[230, 120], [1660, 200 - 45], [1620 + 40, 1010], [270, 1080]]
    first = frame(off)
    photo = gray(photographed(page(), KEYSTONE, bezel=214, wall=200))
    assert worst_edge_degrees(first, KEYSTONE) > 2.0
    better = refine_plane(photo, first)
    assert better.kind == "frame"
    assert worst_edge_degrees(better, KEYSTONE) <= 1.0


def test_a_quad_that_already_makes_the_rows_straight_is_kept_as_it_is() -> None:
    photo = gray(photographed(page(), KEYSTONE, bezel=214, wall=200))
    true = frame(KEYSTONE)
    assert refine_plane(photo, true) is true
