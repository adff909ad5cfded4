"""A phone photo of a monitor showing a render: keystone and roll, bezel, stand and desk, moiré,
glare, uneven light, blur and sensor noise.

Pure: numpy arrays in, numpy arrays out, random draws only from the generator passed in. Only
exact arithmetic runs over arrays (trigonometry is evaluated on scalars, a cosine table is
indexed by integers), so the output does not depend on the CPU's vector unit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from screengen.geometry import Pixels, warp_box

from .model import Photo

Image = NDArray[np.uint8]
Floats = NDArray[np.float32]
Point = tuple[float, float]

_DISTANCE = 1.5
"""Camera distance in screen widths: how strongly a tilt turns into keystone."""
_BEZEL = 0.035
_CHIN = 0.06
_MOIRE_STEPS = 4096


@dataclass(frozen=True)
class Photographed:
    image: Image
    table_box: Pixels
    quad: tuple[Point, ...]
    """The screen's corners in the photo: top left, top right, bottom right, bottom left."""


def _project(aspect: float, pitch: float, yaw: float) -> list[Point]:
    """The screen rectangle (width 1, height `aspect`) tilted and seen by a pinhole camera."""
    p, y = math.radians(pitch), math.radians(yaw)
    out = []
    for x0, y0 in ((-0.5, -aspect / 2), (0.5, -aspect / 2), (0.5, aspect / 2), (-0.5, aspect / 2)):
        x1, z1 = x0 * math.cos(y), x0 * math.sin(y)
        y2, z2 = y0 * math.cos(p) - z1 * math.sin(p), y0 * math.sin(p) + z1 * math.cos(p)
        depth = _DISTANCE + z2
        out.append((x1 / depth, y2 / depth))
    return out


def screen_quad(page: tuple[int, int], photo: Photo) -> tuple[Point, ...]:
    """Where the screen's corners land in the photo."""
    w, h = photo.size
    flat = _project(page[1] / page[0], photo.pitch, photo.yaw)
    xs, ys = [p[0] for p in flat], [p[1] for p in flat]
    scale = photo.fill * w / (max(xs) - min(xs))
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    ox, oy = w / 2 + photo.shift[0] * w, h / 2 + photo.shift[1] * h
    r = math.radians(photo.roll)
    cos, sin = math.cos(r), math.sin(r)
    quad = []
    for x, y in flat:
        dx, dy = (x - cx) * scale, (y - cy) * scale
        quad.append((ox + dx * cos - dy * sin, oy + dx * sin + dy * cos))
    return tuple(quad)


def _grow(quad: Floats, left: float, top: float, right: float, bottom: float) -> Floats:
    """The quad pushed outwards along its own edges (fractions of its width / height)."""
    tl, tr, br, bl = quad
    across, down = (tr - tl + br - bl) / 2, (bl - tl + br - tr) / 2
    grown: Floats = np.array(
        [
            tl - across * left - down * top,
            tr + across * right - down * top,
            br + across * right + down * bottom,
            bl - across * left + down * bottom,
        ],
        dtype=np.float32,
    )
    return grown


def _scene(size: tuple[int, int], horizon: float, rng: np.random.Generator) -> Floats:
    """A wall above `horizon` (a fraction of the height) and a wooden desk below it."""
    w, h = size
    t = (np.arange(h, dtype=np.float32) / np.float32(h))[:, None]
    wall = np.array([188, 184, 176], dtype=np.float32) * (np.float32(0.92) + np.float32(0.1) * t)
    desk = np.array([112, 86, 62], dtype=np.float32)
    streaks = np.convolve(rng.normal(0.0, 1.0, h), np.full(5, 0.2), mode="same")
    grain = (streaks.astype(np.float32) * np.float32(8))[:, None]
    below = (t >= np.float32(horizon)).astype(np.float32)
    column = wall * (1 - below) + (desk + grain) * below
    return np.repeat(column[:, None, :], w, axis=1)


def _moire(size: tuple[int, int], strength: float, rng: np.random.Generator) -> Floats:
    """Two interfering fine gratings: slow light and dark bands across the screen."""
    w, h = size
    table = np.array(
        [0.5 + 0.5 * math.cos(2 * math.pi * i / _MOIRE_STEPS) for i in range(_MOIRE_STEPS)],
        dtype=np.float32,
    )
    ys, xs = np.mgrid[0:h, 0:w].astype(np.int64)
    field = np.zeros((h, w), dtype=np.float32)
    for _ in range(2):
        kx, ky = (int(v) for v in rng.integers(3, 19, size=2))
        if rng.integers(2):
            ky = -ky
        field += table[(xs * kx + ys * ky) % _MOIRE_STEPS]
    out: Floats = np.float32(1) - np.float32(strength) * field / np.float32(2)
    return out


def _glare(
    size: tuple[int, int], quad: Floats, strength: float, rng: np.random.Generator
) -> Floats:
    """A soft bright spot of a window or lamp reflected by the screen."""
    w, h = size
    u, v = (float(x) for x in rng.uniform(0.2, 0.8, size=2))
    tl, tr, _, bl = quad
    centre = tl + (tr - tl) * u + (bl - tl) * v
    radius = float(np.linalg.norm(tr - tl)) * 0.22
    xs = (np.arange(w, dtype=np.float32) - centre[0]) / np.float32(radius)
    ys = (np.arange(h, dtype=np.float32) - centre[1]) / np.float32(radius * 0.7)
    r2 = xs[None, :] ** 2 + ys[:, None] ** 2
    falloff = np.clip(np.float32(1) - r2, 0, 1) ** 2
    out: Floats = np.float32(255 * strength) * falloff
    return out


def _lighting(size: tuple[int, int]) -> Floats:
    """Brighter top-left, darker corners."""
    w, h = size
    xs = (np.arange(w, dtype=np.float32) / np.float32(w) - np.float32(0.5))[None, :]
    ys = (np.arange(h, dtype=np.float32) / np.float32(h) - np.float32(0.5))[:, None]
    radial = np.float32(1) - np.float32(0.5) * (xs * xs + ys * ys)
    slope = np.float32(1.03) - np.float32(0.08) * (xs + ys)
    out: Floats = (radial * slope)[:, :, None].astype(np.float32)
    return out


def _fill(canvas: Floats, quad: Floats, color: tuple[float, float, float]) -> None:
    cv2.fillConvexPoly(canvas, np.rint(quad).astype(np.int32), color, lineType=cv2.LINE_AA)


_BEZEL_COLOR = {"dark": (22.0, 22.0, 25.0), "silver": (203.0, 205.0, 209.0)}
_LAPTOP_BEZEL = 0.018
_LAPTOP_CHIN = 0.035
_DECK_DEPTH = 0.42
"""How far the laptop's keyboard deck reaches below the screen, in screen heights."""
_DECK_COLOR = {"dark": (46.0, 47.0, 51.0), "silver": (178.0, 180.0, 185.0)}
_KEY_COLOR = {"dark": (24.0, 24.0, 27.0), "silver": (92.0, 94.0, 99.0)}
_KEY_ROWS, _KEY_COLUMNS = 5, 14


def _surround(photo: Photo, quad: Floats, rng: np.random.Generator) -> Floats:
    """What the photo shows around the screen: the wall, the desk and the monitor's bezel and
    stand, a laptop's bezel and keyboard, or (no bezel) the screen's own black edge."""
    w, h = photo.size
    if photo.bezel == "none":
        edge: Floats = np.full((h, w, 3), 14.0, dtype=np.float32)
        return edge
    color = _BEZEL_COLOR[photo.bezel]
    if photo.mount == "laptop":
        side = _LAPTOP_BEZEL
        bezel = _grow(quad, side, side, side, _LAPTOP_CHIN)
        horizon = min(0.97, float(bezel[2:, 1].max()) / h + 0.02)
        scene = _scene(photo.size, horizon, rng)
        _laptop_deck(scene, bezel, photo.bezel)
        _fill(scene, bezel, color)
        return scene
    bezel = _grow(quad, _BEZEL, _BEZEL, _BEZEL, _CHIN)
    horizon = min(0.97, float(bezel[2:, 1].max()) / h + 0.04)
    scene = _scene(photo.size, horizon, rng)
    neck_top = (bezel[2] + bezel[3]) / 2
    neck = neck_top + np.array([[-40, 0], [40, 0], [60, 70], [-60, 70]], dtype=np.float32)
    _fill(scene, neck, (40.0, 40.0, 44.0))
    _fill(scene, bezel, color)
    return scene


def _laptop_deck(scene: Floats, bezel: Floats, finish: str) -> None:
    """The keyboard half of a laptop, hinged at the bottom edge of the screen's bezel."""
    tl, tr, br, bl = bezel
    across, down = (tr - tl + br - bl) / 2, (bl - tl + br - tr) / 2
    near_l = bl + down * _DECK_DEPTH - across * 0.07
    near_r = br + down * _DECK_DEPTH + across * 0.07
    deck = np.array([bl, br, near_r, near_l], dtype=np.float32)
    _fill(scene, deck, _DECK_COLOR[finish])

    def at(u: float, v: float) -> Floats:
        top = bl + (br - bl) * np.float32(u)
        bottom = near_l + (near_r - near_l) * np.float32(u)
        point: Floats = top + (bottom - top) * np.float32(v)
        return point

    key = _KEY_COLOR[finish]
    for row in range(_KEY_ROWS):
        v0 = 0.08 + 0.1 * row
        for col in range(_KEY_COLUMNS):
            u0 = 0.1 + 0.8 * col / _KEY_COLUMNS
            u1 = u0 + 0.8 / _KEY_COLUMNS * 0.84
            cap = np.array([at(u0, v0), at(u1, v0), at(u1, v0 + 0.08), at(u0, v0 + 0.08)])
            _fill(scene, cap.astype(np.float32), key)
    pad = np.array([at(0.38, 0.62), at(0.62, 0.62), at(0.62, 0.92), at(0.38, 0.92)])
    r, g, b = _DECK_COLOR[finish]
    _fill(scene, pad.astype(np.float32), (r * 0.92, g * 0.92, b * 0.92))


def _inside_photo(matrix: NDArray[Any], box: Pixels, photo: Photo) -> None:
    """A screen that fills the photo may be cut at the edges, but never the table."""
    x0, y0, x1, y1 = box
    corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], dtype=np.float32)
    warped = cv2.perspectiveTransform(corners, matrix)[0]
    w, h = photo.size
    if not all(0 <= float(x) < w and 0 <= float(y) < h for x, y in warped):
        raise ValueError(f"{photo.file}: the table does not fit in the photo")


def photograph(
    page: Image, table_box: Pixels, photo: Photo, rng: np.random.Generator
) -> Photographed:
    """`page` (an RGB render) shown on a monitor and photographed as `photo` says."""
    w, h = photo.size
    quad_points = screen_quad((page.shape[1], page.shape[0]), photo)
    quad = np.array(quad_points, dtype=np.float32)
    inside = all(0 <= x < w and 0 <= y < h for x, y in quad_points)
    if not inside and photo.bezel != "none":
        raise ValueError(f"{photo.file}: the screen does not fit in the photo")
    longest = max(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in (0, 2))
    factor = min(1.0, longest / page.shape[1])
    small = cv2.resize(
        page,
        (round(page.shape[1] * factor), round(page.shape[0] * factor)),
        interpolation=cv2.INTER_AREA,
    )
    sh, sw = small.shape[:2]
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad)
    ph, pw = page.shape[:2]
    whole = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float32)
    from_page = cv2.getPerspectiveTransform(whole, quad)

    scene = _surround(photo, quad, rng)
    if photo.bezel == "none":
        _inside_photo(from_page, table_box, photo)

    screen = cv2.warpPerspective(small, matrix, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((sh, sw), 255, np.uint8), matrix, (w, h))
    m = (mask.astype(np.float32) / np.float32(255))[:, :, None]
    lit = screen.astype(np.float32) * np.array([0.96, 0.98, 1.03], dtype=np.float32)
    lit = lit * _moire(photo.size, photo.moire, rng)[:, :, None] + np.float32(10)
    lit = lit + _glare(photo.size, quad, photo.glare, rng)[:, :, None]
    composed = (scene * (1 - m) + lit * m) * _lighting(photo.size)
    sharp = np.clip(np.rint(composed), 0, 255).astype(np.uint8)
    blurred = np.asarray(cv2.GaussianBlur(sharp, (0, 0), photo.blur), dtype=np.uint8)
    noise = rng.normal(0.0, photo.noise, blurred.shape)
    out = np.clip(np.rint(blurred.astype(np.float64) + noise), 0, 255).astype(np.uint8)
    return Photographed(out, warp_box(from_page, table_box, photo.size), quad_points)
