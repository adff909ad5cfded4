"""What happens to a rendered page before it is saved: an alpha overlay export, or a phone photo
of the monitor. Only exact arithmetic in numpy (no transcendental array functions), so the output
does not depend on the CPU's vector unit."""

from __future__ import annotations

import math

import cv2
import numpy as np
from PIL import Image
from screengen.geometry import Pixels, warp_box

from .model import RGB, Photo


def to_overlay(page: Image.Image, ink: RGB) -> Image.Image:
    """White-on-black render → `ink` coloured text on a fully transparent background."""
    alpha = page.convert("L")
    overlay = Image.new("RGBA", page.size, (0, 0, 0, 0))
    overlay.paste(
        Image.new("RGBA", page.size, (*ink, 255)), mask=alpha.point(lambda a: 255 * (a > 0))
    )
    overlay.putalpha(alpha)
    return overlay


def _rotate(points: np.ndarray, angle: float, centre: tuple[float, float]) -> np.ndarray:
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    cx, cy = centre
    x, y = points[:, 0] - cx, points[:, 1] - cy
    return np.stack([cx + x * cos - y * sin, cy + x * sin + y * cos], axis=1).astype(np.float32)


def _scene(photo: Photo) -> np.ndarray:
    """Wall above, desk below, as a float32 RGB image."""
    w, h = photo.size
    t = (np.arange(h, dtype=np.float32) / np.float32(h))[:, None, None]
    wall = np.array([196, 188, 174], dtype=np.float32)
    desk = np.array([92, 74, 58], dtype=np.float32)
    shade = np.clip((t - np.float32(0.78)) * np.float32(12), 0, 1)
    column = wall * (1 - shade) + desk * shade
    return np.repeat(column, w, axis=1)


def _lighting(photo: Photo) -> np.ndarray:
    """Uneven light: brighter top-left, a vignette towards the corners."""
    w, h = photo.size
    xs = (np.arange(w, dtype=np.float32) / np.float32(w) - np.float32(0.5))[None, :]
    ys = (np.arange(h, dtype=np.float32) / np.float32(h) - np.float32(0.5))[:, None]
    radial = np.float32(1) - np.float32(0.55) * (xs * xs + ys * ys)
    slope = np.float32(1.04) - np.float32(0.10) * (xs + ys)
    scan = np.where(np.arange(h) % 4 == 0, np.float32(0.975), np.float32(1))[:, None]
    field: np.ndarray = (radial * slope * scan)[:, :, None].astype(np.float32)
    return field


def photograph(
    page: Image.Image, table_box: Pixels, photo: Photo, seed: int
) -> tuple[Image.Image, Pixels]:
    """A slightly rotated, blurred, noisy, unevenly lit photo of a monitor showing `page`."""
    cv2.setNumThreads(1)
    w, h = photo.size
    quad = _rotate(np.array(photo.quad, dtype=np.float32), photo.angle, (w / 2, h / 2))
    width = float(np.linalg.norm(quad[1] - quad[0]))
    factor = width / page.width
    small = cv2.resize(
        np.asarray(page),
        (round(page.width * factor), round(page.height * factor)),
        interpolation=cv2.INTER_AREA,
    )
    sh, sw = small.shape[:2]
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad)
    scene = _scene(photo)
    centre = quad.mean(axis=0)
    bezel = (centre + (quad - centre) * np.float32(1.045)).astype(np.int32)
    cv2.fillConvexPoly(scene, bezel, (24.0, 24.0, 26.0), lineType=cv2.LINE_AA)
    screen = cv2.warpPerspective(small, matrix, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
    mask = cv2.warpPerspective(np.full((sh, sw), 255, np.uint8), matrix, (w, h))
    m = (mask.astype(np.float32) / np.float32(255))[:, :, None]
    tint = np.array([0.97, 0.99, 1.04], dtype=np.float32)
    image = scene * (1 - m) + screen * tint * m
    image = image * _lighting(photo)
    image = np.clip(np.rint(image), 0, 255).astype(np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), photo.blur)
    noise = np.random.default_rng(seed).normal(0.0, photo.noise, image.shape)
    image = np.clip(np.rint(image.astype(np.float64) + noise), 0, 255).astype(np.uint8)
    x0, y0, x1, y1 = (round(v * factor) for v in table_box)
    return Image.fromarray(image, "RGB"), warp_box(matrix, (x0, y0, x1, y1), photo.size)
