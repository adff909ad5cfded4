"""Rectify a photo by the screen's own lines when its frame cannot be found.

A screen's content is full of straight lines in two directions: table rules, panel and card
edges, the sidebar's edge, the screen's border, and rows of text. Photographed at an angle,
each family meets in a vanishing point. The two points fix the plane up to a scale per axis:
the homography that sends them to infinity makes the rows horizontal and the columns vertical
again, whatever the bezel looks like (light, silver, none, a laptop's lid) or whether it is in
the photo at all.

Segments come from OpenCV's line segment detector on a working-size copy; rows of text add
one segment each (ink closed along the row, its axis fitted). Each family's point is the
intersection most segments agree with (a RANSAC over pairs, weighted by length), refined by
least squares over its agreeing segments. Where the text lines up no column (a few rows, or
glyphs too small to end on one line), the edges running down beside it, a screen's or a
sidebar's, give the vertical family. The scale per axis keeps the image's own size at
the centre of the content, so glyphs keep their height. The result is a `Quad` (kind
`lines`): the corners in the photo of the rectangle around the content, which the frame's
warp then treats like any other quad.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from pipeline.imaging.rectify import Quad, warp_quad
from pipeline.imaging.textrows import (
    MIN_LENGTH,
    TextRows,
    WorkingRows,
    text_rows,
    working_gray,
    working_rows,
)
from pipeline.pixels import Floats, Gray

__all__ = [
    "ContentLines",
    "Segments",
    "choose_plane",
    "content_lines",
    "find_segments",
    "quad_by_lines",
    "refine_plane",
    "straightness",
    "vanishing_point",
]


_FAMILY_DEG = 30.0
"""A segment within this many degrees of the horizontal (vertical) joins that family."""
_AGREE_DEG = 1.2
"""A segment agrees with a vanishing point when it points at it within this angle."""
_MIN_SUPPORT = 6
_TRIALS = 300
_MAX_TILT_DEG = 35.0
"""A rectified axis further than this from the photo's is not believed (a false point)."""


class Segments:
    """Line segments (x0, y0, x1, y1) in working pixels, with their lengths and angles."""

    def __init__(self, ends: Floats) -> None:
        self.ends = ends.reshape(-1, 4)
        d = self.ends[:, 2:] - self.ends[:, :2]
        self.length = np.hypot(d[:, 0], d[:, 1])
        self.angle = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180.0

    def __len__(self) -> int:
        return len(self.ends)

    def pick(self, mask: NDArray[np.bool_]) -> Segments:
        return Segments(self.ends[mask])

    def lines(self) -> Floats:
        """Each segment's line in homogeneous coordinates, normalised."""
        a = np.column_stack([self.ends[:, :2], np.ones(len(self))])
        b = np.column_stack([self.ends[:, 2:], np.ones(len(self))])
        lines = np.cross(a, b)
        norm = np.hypot(lines[:, 0], lines[:, 1])
        return np.asarray(lines / np.maximum(norm, 1e-9)[:, None], dtype=np.float64)


def find_segments(gray: Gray, text: TextRows | None = None) -> tuple[Segments, Floats]:
    """Straight segments of a working-size grey image (edges found by LSD, rows of text), and
    every word's or cell's axis (x0, y0, x1, y1), left end first. `text`: the image's rows of
    text, where they were found already."""
    height, width = gray.shape
    detector = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD)
    found = detector.detect(gray)[0]
    edges = (
        np.asarray(found, dtype=np.float64).reshape(-1, 4)
        if found is not None
        else np.zeros((0, 4), dtype=np.float64)
    )
    text = text if text is not None else text_rows(gray)
    rows, words = text.lines(), text.words()
    segments = Segments(np.vstack([edges, rows]))
    keep = segments.length >= MIN_LENGTH * float(np.hypot(width, height))
    return segments.pick(keep), words


_ALIGN_PX = 2.0
"""How far (working pixels) a word's end may lie from a column's edge line."""
_ALIGN_MIN = 4


def _aligned_ends(words: Floats, rng: np.random.Generator) -> Floats:
    """Columns' edges as segments: lines through the left (or right) ends of four or more
    words or cells, roughly vertical (left-aligned names, right-aligned numbers)."""
    found = []
    for side in (0, 2):
        ends = words[:, side : side + 2]
        free = np.ones(len(ends), dtype=bool)
        for _ in range(40):
            pool = np.nonzero(free)[0]
            if len(pool) < _ALIGN_MIN:
                break
            best: NDArray[np.intp] | None = None
            for _ in range(150):
                i, j = rng.choice(pool, size=2, replace=False)
                d = ends[j] - ends[i]
                if abs(d[1]) < 1e-6 or abs(d[0]) > np.tan(np.radians(_FAMILY_DEG)) * abs(d[1]):
                    continue
                normal = np.array([-d[1], d[0]]) / float(np.hypot(*d))
                near = pool[np.abs((ends[pool] - ends[i]) @ normal) <= _ALIGN_PX]
                if best is None or len(near) > len(best):
                    best = near
            if best is None or len(best) < _ALIGN_MIN:
                break
            chosen = ends[best]
            top, bottom = chosen[chosen[:, 1].argmin()], chosen[chosen[:, 1].argmax()]
            found.append([top[0], top[1], bottom[0], bottom[1]])
            free[best] = False
    return np.asarray(found, dtype=np.float64).reshape(-1, 4)


def _within(segments: Segments, rows: Floats) -> NDArray[np.bool_]:
    """Segments whose middle lies on the text's region (the hull of the rows of text, grown a
    little): a laptop's keyboard below its screen has edges of another plane."""
    hull = cv2.convexHull(rows.reshape(-1, 2).astype(np.float32))
    _, _, w, h = cv2.boundingRect(hull)
    grow = 0.06 * max(w, h)
    mid = (segments.ends[:, :2] + segments.ends[:, 2:]) / 2
    inside = [cv2.pointPolygonTest(hull, (float(mx), float(my)), True) >= -grow for mx, my in mid]
    return np.asarray(inside, dtype=np.bool_)


def _alongside(segments: Segments, words: Floats) -> NDArray[np.bool_]:
    """Segments that run down beside the text, over at least half its height: a screen's or
    a sidebar's edge. A keyboard below the screen lies below the text."""
    top, bottom = float(words[:, 1::2].min()), float(words[:, 1::2].max())
    lo = np.minimum(segments.ends[:, 1], segments.ends[:, 3])
    hi = np.maximum(segments.ends[:, 1], segments.ends[:, 3])
    covered = np.minimum(hi, bottom) - np.maximum(lo, top)
    return np.asarray(covered >= 0.5 * (bottom - top), dtype=np.bool_)


def _agrees(segments: Segments, point: Floats) -> NDArray[np.bool_]:
    """Segments whose direction points at `point` (homogeneous; at infinity too)."""
    return np.asarray(_misses(segments, point) <= _AGREE_DEG, dtype=np.bool_)


def _misses(segments: Segments, point: Floats) -> Floats:
    """How far (degrees) each segment's direction is from pointing at `point`."""
    mid = (segments.ends[:, :2] + segments.ends[:, 2:]) / 2
    d = segments.ends[:, 2:] - segments.ends[:, :2]
    if abs(point[2]) < 1e-9:
        to = np.broadcast_to(point[:2], mid.shape)
    else:
        to = point[:2] / point[2] - mid
    cross = d[:, 0] * to[:, 1] - d[:, 1] * to[:, 0]
    dot = d[:, 0] * to[:, 0] + d[:, 1] * to[:, 1]
    off = np.degrees(np.abs(np.arctan2(cross, dot)))
    return np.asarray(np.minimum(off, 180.0 - off), dtype=np.float64)


def vanishing_point(segments: Segments, rng: np.random.Generator) -> tuple[Floats, float] | None:
    """The point most of the segments (by length) point at, and the share of the length that
    agrees; None when fewer than a handful agree on any."""
    if len(segments) < 2:
        return None
    lines = segments.lines()
    weights = segments.length / segments.length.sum()
    best: Floats | None = None
    best_score = 0.0
    for _ in range(_TRIALS):
        i, j = rng.choice(len(segments), size=2, replace=False, p=weights)
        point = np.cross(lines[i], lines[j])
        if not np.any(point):
            continue
        point = point / np.linalg.norm(point)
        score = float(segments.length[_agrees(segments, point)].sum())
        if score > best_score:
            best, best_score = point, score
    if best is None:
        return None
    inliers = _agrees(segments, best)
    if int(inliers.sum()) < _MIN_SUPPORT:
        return None
    refined = _refined(segments, lines, best, inliers)
    weights = segments.length[inliers]
    miss = [
        float(np.average(_misses(segments, p)[inliers], weights=weights)) for p in (best, refined)
    ]
    if miss[1] <= miss[0]:
        # A better fit to the same segments, though a few at the tolerance's edge may leave.
        best = refined
        inliers = _agrees(segments, best)
    return best, float(segments.length[inliers].sum() / segments.length.sum())


_REFINE_ROUNDS = 6
_ROBUST_DEG = 0.3
"""Segments further than this from the point weigh less in the fit (Cauchy): an edge a
degree off (a glare band's, a shadow's, a keyboard's) does not pull the point."""


def _refined(
    segments: Segments, lines: Floats, point: Floats, inliers: NDArray[np.bool_]
) -> Floats:
    """The point that best fits the agreeing segments' directions, by angle and length.

    A least-squares fit of the lines' distances to a far point is dominated by the segments
    nearest to it, so the fit is reweighted each round by the distance from each segment's
    middle to the current point: a residual in pixels becomes one in angle (small angles),
    and a long row of text far from the point counts as much as one near it."""
    mid = (segments.ends[:, :2] + segments.ends[:, 2:]) / 2
    agreeing = segments.pick(inliers)
    rows = lines[inliers]
    middles = mid[inliers]
    length = np.sqrt(segments.length[inliers])
    for _ in range(_REFINE_ROUNDS):
        reach = np.hypot(*(point[:2][None, :] - middles * point[2]).T)
        robust = 1.0 / np.sqrt(1.0 + (_misses(agreeing, point) / _ROBUST_DEG) ** 2)
        chosen = rows * (length * robust / np.maximum(reach, 1e-9))[:, None]
        _, _, vt = np.linalg.svd(chosen)
        point = vt[-1] / np.linalg.norm(vt[-1])
    return np.asarray(point, dtype=np.float64)


def _direction(point: Floats, at: Floats, reference: Floats) -> Floats:
    """The unit direction from `at` towards the vanishing point, signed like `reference`."""
    d = point[:2].copy() if abs(point[2]) < 1e-9 else point[:2] / point[2] - at
    d = d / max(float(np.linalg.norm(d)), 1e-9)
    return d if float(d @ reference) >= 0 else -d


def _homography(h_point: Floats, v_point: Floats, centre: Floats) -> Floats | None:
    """The homography sending both points to infinity with rows horizontal and columns
    vertical, its scale at `centre` one pixel per pixel along each axis."""
    horizon = np.cross(h_point, v_point)
    if abs(horizon[2]) < 1e-12 or abs(float(horizon @ np.append(centre, 1.0))) < 1e-12:
        projective = np.eye(3)
    else:
        # Moved to infinity, the horizon keeps the centre's side positive.
        horizon = horizon / float(horizon @ np.append(centre, 1.0))
        projective = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], horizon])
    dx = _direction(h_point, centre, np.array([1.0, 0.0]))
    dy = _direction(v_point, centre, np.array([0.0, 1.0]))
    tilt = max(
        abs(np.degrees(np.arctan2(dx[1], dx[0]))), abs(np.degrees(np.arctan2(-dy[0], dy[1])))
    )
    if tilt > _MAX_TILT_DEG:
        return None
    # After the projective step the families are parallel: map their directions (at the
    # centre, where the step's Jacobian is taken) onto the axes, keeping lengths there.
    eps = 1.0
    c = np.append(centre, 1.0)
    mapped = [projective @ np.append(centre + eps * d, 1.0) for d in (dx, dy)]
    base = projective @ c
    base = base[:2] / base[2]
    ex, ey = (m[:2] / m[2] - base for m in mapped)
    basis = np.column_stack([ex, ey])
    if abs(float(np.linalg.det(basis))) < 1e-9:
        return None
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis) * eps
    affine[:2, 2] = -affine[:2, :2] @ base
    return np.asarray(affine @ projective, dtype=np.float64)


@dataclass(frozen=True)
class ContentLines:
    """A photo's content's lines on its working copy (`rows`), and the plane's quad they give
    (None without two clear families), found once for every look at the photo."""

    rows: WorkingRows
    segments: Segments
    words: Floats
    quad: Quad | None


def content_lines(gray: Gray, rows: WorkingRows | None = None, *, seed: int = 0) -> ContentLines:
    """The content's lines of a grey photo (`rows`: its rows of text, found already)."""
    rows = rows if rows is not None else working_rows(gray)
    segments, words = find_segments(rows.small, rows.text)
    quad = _quad_from(segments, words, rows.factor, np.random.default_rng(seed))
    return ContentLines(rows, segments, words, _plausible(quad, gray))


def quad_by_lines(gray: Gray, *, seed: int = 0) -> Quad | None:
    """The photo's plane found from the content's two families of lines, as the quad (in the
    photo's pixels) of the rectangle around the content; None without two clear families."""
    return content_lines(gray, seed=seed).quad


def choose_plane(
    gray: Gray, outline: Quad | None, *, seed: int = 0, found: ContentLines | None = None
) -> Quad | None:
    """The content's lines' quad or `outline` (a frame or page found by its edges): the lines'
    when they make the content's segments clearly straighter once warped, or when there is no
    outline. `found`: the photo's content lines, found already."""
    found = found if found is not None else content_lines(gray, seed=seed)
    by_lines, segments, words = found.quad, found.segments, found.words
    if by_lines is None or outline is None:
        return by_lines or outline
    if len(words) >= _MIN_SUPPORT:
        segments = segments.pick(_within(segments, words))
    gain = straightness(by_lines, segments, found.rows.factor) - straightness(
        outline, segments, found.rows.factor
    )
    return by_lines if gain > _CLEARLY_STRAIGHTER else outline


_STRAIGHT_DEG = 1.0
_CLEARLY_STRAIGHTER = 0.15
"""The share of the segments' length the lines' quad must straighten beyond the outline's
to replace it: an outline found by its edges is a direct measurement of the plane."""


def straightness(quad: Quad, segments: Segments, factor: float) -> float:
    """The share of the segments' length (working pixels) that `quad`'s warp leaves within a
    degree of horizontal or vertical."""
    if len(segments) == 0:
        return 0.0
    w, h = quad.size()
    matrix = cv2.getPerspectiveTransform(
        (np.array(quad.points, dtype=np.float64) * factor).astype(np.float32),
        np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32),
    )
    ends = cv2.perspectiveTransform(segments.ends.reshape(-1, 1, 2), matrix).reshape(-1, 4)
    d = ends[:, 2:] - ends[:, :2]
    angle = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 90.0
    off = np.minimum(angle, 90.0 - angle)
    straight = off <= _STRAIGHT_DEG
    return float(segments.length[straight].sum() / segments.length.sum())


def _quad_from(
    segments: Segments,
    words: Floats,
    factor: float,
    rng: np.random.Generator,
    *,
    holds: Floats | None = None,
) -> Quad | None:
    """The quad of the plane the segments give, around the content, or around every point of
    `holds` (working pixels) when given."""
    if len(segments) < _MIN_SUPPORT:
        return None
    every = segments
    if len(words) >= _MIN_SUPPORT:
        # The screen's segments only: a laptop's keyboard below it is another plane, with
        # more edges (every key's) than the screen has rules, and the rectangle is the
        # screen's content, not the keyboard's rows.
        segments = segments.pick(_within(segments, words))
    tilt = np.minimum(segments.angle, 180.0 - segments.angle)
    across = segments.pick(tilt <= _FAMILY_DEG)
    down = segments.pick(np.abs(segments.angle - 90.0) <= _FAMILY_DEG)
    h_found = vanishing_point(across, rng)
    if h_found is None:
        return None
    h_point = h_found[0]
    columns = Segments(_aligned_ends(words, rng))
    down = Segments(np.vstack([down.ends, columns.ends]))
    v_found = vanishing_point(down, rng)
    if v_found is None and len(words) >= _MIN_SUPPORT:
        # Text too small or too short to line its columns up (a far monitor, a few rows):
        # the screen's own edges and a sidebar's run down beside the text, outside its hull.
        beside = every.pick(_alongside(every, words) & (np.abs(every.angle - 90.0) <= _FAMILY_DEG))
        v_found = vanishing_point(Segments(np.vstack([beside.ends, columns.ends])), rng)
    if v_found is not None:
        v_point = v_found[0]
    else:
        # Rows but no columns (a list, cards): the rows are straightened and the columns
        # taken square to them where the rows are, which leaves any tilt up or down.
        rows = across.ends[_agrees(across, h_point)]
        middle = (rows[:, :2] + rows[:, 2:]).reshape(-1, 2).mean(axis=0) / 2
        along = _direction(h_point, middle, np.array([1.0, 0.0]))
        v_point = np.array([-along[1], along[0], 0.0])
    lined = Segments(
        np.vstack([across.ends[_agrees(across, h_point)], down.ends[_agrees(down, v_point)]])
    )
    if len(lined) < _MIN_SUPPORT:
        return None
    content = lined.ends.reshape(-1, 2)
    centre = content.mean(axis=0)
    matrix = _homography(h_point, v_point, centre)
    if matrix is None:
        return None
    # The rectangle holds the lines and every word: rows of text too short or faint to give
    # a segment (a list's lower items under glare) are content as well.
    if holds is not None:
        flat = cv2.perspectiveTransform(holds.reshape(-1, 1, 2), matrix).reshape(-1, 2)
        lo, hi = flat.min(axis=0), flat.max(axis=0)
    else:
        extent = np.vstack([content, words.reshape(-1, 2)])
        flat = cv2.perspectiveTransform(extent.reshape(-1, 1, 2), matrix).reshape(-1, 2)
        lo = np.percentile(flat, 1, axis=0)
        hi = np.percentile(flat, 99, axis=0)
        margin = 0.03 * (hi - lo)
        lo, hi = lo - margin, hi + margin
    rectangle = np.array(
        [[[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]]], dtype=np.float64
    )
    corners = cv2.perspectiveTransform(rectangle, np.linalg.inv(matrix))[0] / factor
    c = [(float(x), float(y)) for x, y in corners]
    return Quad(points=(c[0], c[1], c[2], c[3]), kind="lines")


def _plausible(quad: Quad | None, photo: Gray) -> Quad | None:
    """`quad` when it is convex, covers a fair share of the photo, and lies mostly inside it."""
    if quad is None:
        return None
    height, width = photo.shape[:2]
    p = np.array(quad.points, dtype=np.float32)
    if len(cv2.convexHull(p)) != 4:
        return None
    area = float(cv2.contourArea(p))
    if area < 0.1 * width * height:
        return None
    slack = 0.25
    inside = bool(
        np.all(p[:, 0] >= -slack * width)
        and np.all(p[:, 0] <= (1 + slack) * width)
        and np.all(p[:, 1] >= -slack * height)
        and np.all(p[:, 1] <= (1 + slack) * height)
    )
    return quad if inside else None


_REFINE_GAIN = 0.03
"""The share of the warped content's segment length a second look must straighten beyond the
first warp for its correction to be kept."""


def refine_plane(gray: Gray, quad: Quad, *, seed: int = 0) -> Quad:
    """`quad` corrected by the content's lines as they lie once it is warped, when that makes
    them clearly straighter.

    A frame's corner found in a silver bezel, or rows measured faintly under glare, leave the
    warped rows still converging. Warped, they are nearly parallel, the text rows close along
    their length, and their vanishing point is found far better than in the tilted photo.
    The correction is composed with the first warp, so `quad` stays the photo's corners."""
    flat, to_photo = warp_quad(gray, quad)
    small, factor = working_gray(flat)
    segments, words = find_segments(small)
    height, width = flat.shape[:2]
    # Everything the first warp kept stays in: the corrected rectangle holds its corners.
    kept = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
    rng = np.random.default_rng(seed)
    found = _quad_from(segments, words, factor, rng, holds=kept * factor)
    if found is None:
        return quad
    whole = Quad(points=((0.0, 0.0), (width, 0.0), (width, height), (0.0, height)), kind="lines")
    gain = straightness(found, segments, factor) - straightness(whole, segments, factor)
    if gain < _REFINE_GAIN:
        return quad
    corners = cv2.perspectiveTransform(np.array([found.points], dtype=np.float64), to_photo)[0]
    c = [(float(x), float(y)) for x, y in corners]
    composed = _plausible(Quad(points=(c[0], c[1], c[2], c[3]), kind=quad.kind), gray)
    return composed or quad
