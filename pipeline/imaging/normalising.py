"""Normalise a screenshot for OCR: working size, polarity, skew."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from pipeline.imaging.cuts import cuts_text
from pipeline.imaging.planes import ContentLines, choose_plane, content_lines, refine_plane
from pipeline.imaging.rectify import Quad, find_quad, warp_quad
from pipeline.imaging.textrows import working_rows
from pipeline.pixels import Gray, Rgb

__all__ = [
    "Normalised",
    "darkest_channel",
    "estimate_skew",
    "is_clean_render",
    "is_dark",
    "normalise",
    "rotate",
    "working_scale",
]


_MAX_WORKING_SIDE = 2200
_SKEW_LIMIT_DEG = 5.0


@dataclass(frozen=True)
class Normalised:
    """The working image and how it relates to the original pixels."""

    rgb: Rgb
    gray: Gray
    scale: float
    dark: bool
    skew_deg: float
    clean: bool
    quad: Quad | None = None
    """The screen or page found in a photo, which the working image is warped from."""
    refused: Quad | None = None
    """An outline found in a photo but not warped to: the table's text goes on past it."""
    to_photo: NDArray[np.float64] | None = None
    """Homography from the warped image's pixels (before scaling) to the photo's."""

    @property
    def photographed(self) -> bool:
        """A photo of a screen or page (rectified, or its outline refused), not a render."""
        return self.quad is not None or self.refused is not None

    def to_original(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """A box in working pixels as the bounding box of its corners in the original image."""
        s = self.scale
        x0, y0, x1, y1 = box[0] / s, box[1] / s, box[2] / s, box[3] / s
        if self.to_photo is None:
            return (round(x0), round(y0), round(x1), round(y1))
        corners = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], dtype=np.float64)
        mapped = cv2.perspectiveTransform(corners, self.to_photo)[0]
        return (
            round(float(mapped[:, 0].min())),
            round(float(mapped[:, 1].min())),
            round(float(mapped[:, 0].max())),
            round(float(mapped[:, 1].max())),
        )


def working_scale(
    width: int, height: int, max_side: int = _MAX_WORKING_SIDE, *, export: bool = True
) -> float:
    """Downscale factor for very large captures (HiDPI 2x exports become 1x); never upscale.
    A photo's warped screen is no export: it is brought just within `max_side`, since halving
    it would halve glyphs the camera already drew small."""
    longest = max(width, height)
    if longest <= max_side:
        return 1.0
    if not export:
        return max_side / longest
    # Halve exact 2x/3x exports so glyphs keep their rendered shapes.
    for factor in (2, 3, 4):
        if longest / factor <= max_side:
            return 1.0 / factor
    return max_side / longest


def is_dark(gray: Gray) -> bool:
    """A dark theme: most of the screen is darker than mid-grey."""
    return float(np.median(gray)) < 100.0


def darkest_channel(rgb: Rgb) -> Gray:
    """Each pixel's darkest channel: the grey a light page's ink is found in. Coloured text (a
    link's light blue, a status's green) is dark in one channel, while its luminance comes
    close to the page's white once glare or blur has washed it out; grey and black text, and
    the page itself, keep their luminance. (Plane by plane: numpy's reduction over a last axis
    of three is about twenty times slower.)"""
    return np.asarray(np.minimum(np.minimum(rgb[..., 0], rgb[..., 1]), rgb[..., 2]), dtype=np.uint8)


_FLAT_STEP = 6
"""A step between neighbours (summed over the channels) this small is within a flat area."""


def is_clean_render(rgb: Rgb) -> bool:
    """A screen render has large areas of exactly repeated colours; a photo has none.

    Colours are quantised to 4 bits per channel so JPEG noise does not hide a flat background.
    The flat areas decide, however much of the picture text covers (a screenshot of a
    paragraph is mostly glyphs): a render's small steps between neighbours are nearly all
    none at all, a photo's sensor noise and blur make most of them a level or two.
    """
    small = rgb[::4, ::4]
    quantised = (small >> 4).astype(np.uint32)
    keys = (quantised[..., 0] << 8) | (quantised[..., 1] << 4) | quantised[..., 2]
    counts = np.bincount(keys.ravel(), minlength=4096)
    top = np.sort(counts)[-3:].sum()
    if top / keys.size <= 0.45:
        return False
    # Flat areas of a render (a JPEG one too) hold exactly equal neighbours; a photo's sensor
    # noise and blur leave few, however flat the page it shows (a spreadsheet photographed).
    steps = np.diff(small.astype(np.int16).sum(axis=2), axis=1)
    flat = np.abs(steps) <= _FLAT_STEP
    if not flat.any():
        return True
    return float(np.mean(steps[flat] == 0)) >= 0.7


def estimate_skew(gray: Gray, *, dark: bool) -> float:
    """Small rotation in degrees (counter-clockwise positive) by projection-profile search."""
    ink = gray if dark else 255 - gray
    height, width = ink.shape
    factor = min(1.0, 800.0 / width)
    # A thin strip keeps at least one pixel on each side (OpenCV refuses an empty size).
    size = (max(1, int(width * factor)), max(1, int(height * factor)))
    small = cv2.resize(ink, size, interpolation=cv2.INTER_AREA)
    binary = cv2.adaptiveThreshold(
        small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 15, -10
    )
    center = (binary.shape[1] / 2, binary.shape[0] / 2)

    def sharpness(angle: float) -> float:
        matrix = cv2.getRotationMatrix2D(center, angle, 1.0)
        rotated = cv2.warpAffine(binary, matrix, (binary.shape[1], binary.shape[0]))
        profile = rotated.sum(axis=1, dtype=np.float64)
        return float(np.square(np.diff(profile)).sum())

    coarse = [float(a) for a in np.arange(-_SKEW_LIMIT_DEG, _SKEW_LIMIT_DEG + 0.01, 0.5)]
    best = max(coarse, key=sharpness)
    fine = [float(a) for a in np.arange(best - 0.4, best + 0.41, 0.1)]
    angle = max(fine, key=sharpness)
    return 0.0 if abs(angle) < 0.15 else round(angle, 2)


def rotate(image: NDArray[np.uint8], angle: float, *, border: int) -> NDArray[np.uint8]:
    height, width = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    rotated = cv2.warpAffine(
        image,
        matrix,
        (width, height),
        flags=cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(border, border, border),
    )
    return np.asarray(rotated, dtype=np.uint8)


def normalise(image: Image.Image, *, deskew: bool = True) -> Normalised:
    """RGB array at working size, upright; `dark` tells the text finder which polarity to expect.
    A light picture that is not a clean render (a photo) is looked at in its darkest channel.
    A photo is rectified first (its screen or page warped to a rectangle, or, without a frame,
    the plane its content's lines give; either looked at again once warped), then deskewed. An
    outline the table's text goes on past is refused: the content's lines are tried instead,
    else the photo is only deskewed."""
    quad, refused, to_photo = None, None, None
    original = np.asarray(image.convert("RGB"), dtype=np.uint8)
    clean = is_clean_render(original)
    if not clean:
        quad = find_quad(original)
        gray = np.asarray(cv2.cvtColor(original, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
        # The photo's rows of text and its content's lines, found once for every look.
        rows = working_rows(gray)
        found: ContentLines | None = None
        if quad is None or quad.kind == "page":
            # No frame: a light or silver bezel, none, a laptop. The content's own lines fix
            # the plane, unless the bright region's outline makes them straighter.
            found = content_lines(gray, rows)
            quad = choose_plane(gray, quad, found=found)
        if quad is not None and cuts_text(gray, quad, rows=rows):
            refused = quad
            lines = None
            if quad.kind != "lines":
                lines = (found or content_lines(gray, rows)).quad
            quad = lines if lines is not None and not cuts_text(gray, lines, rows=rows) else None
        if quad is not None:
            # A second look once warped: the rows, nearly parallel now, show what perspective
            # the first estimate left.
            better = refine_plane(gray, quad)
            quad = quad if better is quad or cuts_text(gray, better, rows=rows) else better
            flat, to_photo = warp_quad(original, quad)
            image = Image.fromarray(flat)
    scale = working_scale(*image.size, export=quad is None)
    if scale != 1.0:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(
            size, Image.Resampling.BOX if scale >= 0.5 else Image.Resampling.LANCZOS
        )
    rgb = original if image.mode == "RGB" and quad is None and scale == 1.0 else None
    if rgb is None:
        rgb = np.asarray(image.convert("RGB"), dtype=np.uint8)
    gray = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
    dark = is_dark(gray)
    if not clean and not dark:
        gray = darkest_channel(rgb)
    skew = estimate_skew(gray, dark=dark) if deskew and not clean else 0.0
    if skew:
        fill = int(np.median(gray))
        rgb = rotate(rgb, skew, border=fill)
        gray = rotate(gray, skew, border=fill)
    return Normalised(
        rgb=rgb,
        gray=gray,
        scale=scale,
        dark=dark,
        skew_deg=skew,
        clean=clean and quad is None,
        quad=quad,
        refused=refused,
        to_photo=to_photo,
    )
