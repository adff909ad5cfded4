"""Find the screen (or page) in a photo and warp it to a rectangle.

A photographed monitor is a dark frame (bezel) against a lighter wall or desk; the screen is
the quadrilateral inside it. The frame's outline is the largest dark component away from the
photo's edges; its corners are the outline's extreme points along the diagonals (a stand or a
cable below the frame does not move them), refined by fitting a line to each side. Inside the
frame, the screen starts where the bezel's uniform band ends: on each side of the rectified
frame, the first step in brightness away from the band. A screen whose edge does not stand out
from the bezel (a dark theme) keeps the frame's outline: the warp is the same plane either way.
A page or a screen without a dark frame is the largest bright component instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.pixels import Gray, Rgb

__all__ = ["Quad", "find_quad", "warp_quad"]

Point = tuple[float, float]
Matrix = NDArray[np.float64]

_SMALL_SIDE = 800
_MIN_AREA = 0.12
"""Smallest share of the photo a screen or page covers to be rectified."""
_DARK = 64
_FILL = 0.85
_ALONG = 0.8
"""Share of an outline's hull its quad must cover: less is a frame merged with something
else dark (a desk's shadow), whose corners are not the screen's."""
_MAX_BEZEL = 0.12
"""The widest bezel looked for, as a share of the frame's width or height."""


@dataclass(frozen=True)
class Quad:
    """Corners in photo pixels: top left, top right, bottom right, bottom left."""

    points: tuple[Point, Point, Point, Point]
    kind: Literal["screen", "frame", "page", "lines"]

    def size(self) -> tuple[int, int]:
        """Width and height of the rectangle it is warped to (its longer opposite sides)."""
        p = np.array(self.points, dtype=np.float64)
        width = max(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[3]))
        height = max(np.linalg.norm(p[3] - p[0]), np.linalg.norm(p[2] - p[1]))
        return max(1, round(float(width))), max(1, round(float(height)))


def _corners(contour: NDArray[np.int32]) -> NDArray[np.float64]:
    points = contour.reshape(-1, 2).astype(np.float64)
    s, d = points.sum(axis=1), points[:, 0] - points[:, 1]
    return np.array(
        [points[s.argmin()], points[d.argmax()], points[s.argmax()], points[d.argmin()]]
    )


def _refine(contour: NDArray[np.int32], corners: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each side as the line fitted to the outline points near the segment between its two
    corners (its middle 80%), corners as the sides' intersections."""
    points = contour.reshape(-1, 2).astype(np.float64)
    lines = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        direction = b - a
        length = float(np.linalg.norm(direction))
        if length < 8:
            return corners
        unit = direction / length
        normal = np.array([-unit[1], unit[0]])
        rel = points - a
        along = rel @ unit
        off = rel @ normal
        near = (along > 0.1 * length) & (along < 0.9 * length) & (np.abs(off) < 0.02 * length + 3)
        chosen = points[near]
        if len(chosen) < 10:
            return corners
        vx, vy, x0, y0 = cv2.fitLine(chosen.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)
        lines.append((float(x0[0]), float(y0[0]), float(vx[0]), float(vy[0])))
    refined = []
    for k in range(4):
        x1, y1, dx1, dy1 = lines[(k + 3) % 4]
        x2, y2, dx2, dy2 = lines[k]
        det = dx1 * (-dy2) - (-dx2) * dy1
        if abs(det) < 1e-6:
            return corners
        t = ((x2 - x1) * (-dy2) - (-dx2) * (y2 - y1)) / det
        refined.append((x1 + t * dx1, y1 + t * dy1))
    out = np.array(refined)
    if float(np.abs(out - corners).max()) > 0.05 * max(np.ptp(corners[:, 0]), 1.0):
        return corners
    return out


def _largest(mask: NDArray[np.uint8], min_area: float) -> NDArray[np.int32] | None:
    """The outline of the largest component that does not reach three sides of the photo."""
    height, width = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    best: NDArray[np.int32] | None = None
    best_area = min_area
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        touching = (x <= 1) + (y <= 1) + (x + w >= width - 1) + (y + h >= height - 1)
        if touching >= 3:
            continue
        area = float(cv2.contourArea(cv2.convexHull(contour)))
        if area > best_area:
            best, best_area = np.asarray(contour, dtype=np.int32), area
    return best


def _quad_of(contour: NDArray[np.int32]) -> NDArray[np.float64] | None:
    corners = _refine(contour, _corners(contour))
    hull = cv2.convexHull(corners.astype(np.float32))
    if len(hull) != 4:
        return None
    area = float(cv2.contourArea(corners.astype(np.float32)))
    if area < _FILL * float(cv2.contourArea(cv2.convexHull(contour))):
        return None
    # The outline must run along the quad's sides: one merged with a shadow or the desk
    # wanders off them, and its extreme points are not the screen's corners.
    polygon = corners.astype(np.float32).reshape(-1, 1, 2)
    tolerance = 0.015 * float(np.hypot(*np.ptp(corners, axis=0)))
    points = contour.reshape(-1, 2)[::4]
    near = sum(
        abs(cv2.pointPolygonTest(polygon, (float(x), float(y)), True)) <= tolerance
        for x, y in points
    )
    if near < _ALONG * len(points):
        return None
    return corners


def _homography(corners: NDArray[np.float64], size: tuple[int, int]) -> Matrix:
    w, h = size
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    return np.asarray(matrix, dtype=np.float64)


_STRONG = 25.0
"""Grey levels of a clear screen edge (a light page against the bezel)."""
_WEAK = 3.0
_AGREE = 0.35


def _step(profile: NDArray[np.float64], limit: int) -> tuple[int, float]:
    """The first clear change of brightness within `limit` of a side of the frame, going
    inward (else the sharpest faint one): its position and size, or (0, 0) when the band
    before it is not uniform."""
    top = min(limit, len(profile) - 3)
    if top <= 6:
        return 0, 0.0
    diffs = np.abs(np.array([profile[x + 2] - profile[x - 1] for x in range(3, top)]))
    clear = np.nonzero(diffs >= _STRONG)[0]
    if clear.size:
        first = int(clear[0])
        k = first + int(diffs[first : first + 4].argmax())
    else:
        k = int(diffs.argmax())
    pos = k + 3
    band = profile[3 : max(4, pos - 1)]
    if float(np.std(band)) > 2.0:
        return 0, 0.0
    return pos, float(diffs[k])


def _widths(steps: list[tuple[int, float]]) -> list[int] | None:
    """Bezel widths (left, right, top, bottom) from each side's step. Clear edges decide; a
    side without one takes a faint step that agrees with them, else their width (a bezel is
    about as wide on every side; the chin below may be wider, never narrower)."""
    strong = [pos for k, (pos, size) in enumerate(steps) if size >= _STRONG and k < 3]
    if not strong:
        faint = [pos for pos, size in steps if size >= _WEAK]
        sides = faint[:3]
        if len(faint) < 4 or max(sides) > (1 + _AGREE) * min(sides):
            return None
        return faint
    reference = float(np.median(strong))
    widths = []
    for k, (pos, size) in enumerate(steps):
        if (
            size >= _STRONG
            or (size >= _WEAK and abs(pos - reference) <= _AGREE * reference)
            or (k == 3 and size >= _WEAK and pos > reference)
        ):
            widths.append(pos)
        else:
            widths.append(round(reference))
    return widths


def _inner(gray: Gray, corners: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """The screen inside a dark frame, or None when its edges do not show."""
    w, h = 640, max(64, round(640 * _aspect(corners)))
    matrix = _homography(corners, (w, h))
    flat = cv2.warpPerspective(gray, matrix, (w, h), flags=cv2.INTER_AREA).astype(np.float64)
    rows, cols = slice(round(h * 0.2), round(h * 0.8)), slice(round(w * 0.2), round(w * 0.8))
    limit = round(min(w, h) * _MAX_BEZEL)
    profiles = [
        flat[rows, :].mean(axis=0),
        flat[rows, ::-1].mean(axis=0),
        flat[:, cols].mean(axis=1),
        flat[::-1, cols].mean(axis=1),
    ]
    widths = _widths([_step(p, limit * (2 if k == 3 else 1)) for k, p in enumerate(profiles)])
    if widths is None:
        return None
    left, right, top, bottom = widths
    inner = np.array(
        [[[left, top], [w - right, top], [w - right, h - bottom], [left, h - bottom]]],
        dtype=np.float32,
    )
    back = cv2.perspectiveTransform(inner, np.linalg.inv(matrix))[0]
    return np.asarray(back, dtype=np.float64)


_SCREEN_SHAPES = (0.3, 2.5)
"""Height over width a screen's outline can have in a photo: from an ultrawide monitor seen
from below to a phone upright. A dark region taller or flatter is a sidebar or a panel."""


def _aspect(corners: NDArray[np.float64]) -> float:
    width = np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])
    height = np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])
    return float(height) / max(float(width), 1.0)


def find_quad(rgb: Rgb) -> Quad | None:
    """The screen or page in a photo, or None when there is no such quadrilateral."""
    height, width = rgb.shape[:2]
    if min(height, width) < 64:
        return None
    factor = min(1.0, _SMALL_SIDE / max(height, width))
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    small = cv2.resize(rgb, size, interpolation=cv2.INTER_LINEAR)
    gray = np.asarray(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
    gray = np.asarray(cv2.GaussianBlur(gray, (5, 5), 0), dtype=np.uint8)
    min_area = _MIN_AREA * gray.size
    kernel = np.ones((5, 5), np.uint8)
    found: tuple[NDArray[np.float64], Literal["screen", "frame", "page"]] | None = None
    dark = np.asarray(
        cv2.morphologyEx((gray < _DARK).astype(np.uint8) * 255, cv2.MORPH_CLOSE, kernel),
        dtype=np.uint8,
    )
    frame = _largest(dark, min_area)
    corners = _quad_of(frame) if frame is not None else None
    if corners is not None and not _SCREEN_SHAPES[0] <= _aspect(corners) <= _SCREEN_SHAPES[1]:
        corners = None  # a dark sidebar or panel, not a screen's frame
    if corners is not None:
        inner = _inner(gray, corners)
        found = (inner, "screen") if inner is not None else (corners, "frame")
    else:
        level, _ = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        bright = np.asarray(
            cv2.morphologyEx((gray > level).astype(np.uint8) * 255, cv2.MORPH_CLOSE, kernel),
            dtype=np.uint8,
        )
        page = _largest(bright, min_area)
        if page is not None and (corners := _quad_of(page)) is not None:
            found = (corners, "page")
    if found is None:
        return None
    corners, kind = found
    full = corners / factor
    points = tuple((float(x), float(y)) for x, y in full)
    return Quad(points=(points[0], points[1], points[2], points[3]), kind=kind)


def warp_quad(rgb: Rgb, quad: Quad) -> tuple[Rgb, Matrix]:
    """The quad warped to an upright rectangle, and the matrix from its pixels to the photo's."""
    size = quad.size()
    matrix = _homography(np.array(quad.points, dtype=np.float64), size)
    flat = cv2.warpPerspective(
        rgb, matrix, size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(flat, dtype=np.uint8), np.asarray(np.linalg.inv(matrix), dtype=np.float64)
