"""Photos of a screen made for the rectification tests: a committed sample rendered in
perspective inside a bezel on a wall, blurred and noisy like a phone's, and how straight a
found quad makes the screen's true outline."""

import io
import math
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pipeline.imaging.rectify import Quad

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "erp-light-wh01.png"
KEYSTONE: list[list[float]] = [[230, 120], [1660, 200], [1620, 1010], [270, 1080]]
"""A screen's corners in a photo taken from below and to the left."""


def page() -> np.ndarray:
    with Image.open(SAMPLE) as opened:
        return np.asarray(opened.convert("RGB"), dtype=np.uint8)


def photographed(
    screen: np.ndarray, corners: list[list[float]], *, bezel: int, wall: int
) -> np.ndarray:
    """The screen in perspective at `corners`, inside a bezel of grey `bezel`, on a wall of
    grey `wall`, blurred and noisy like a phone photo."""
    h, w = screen.shape[:2]
    quad = np.array(corners, dtype=np.float32)
    canvas = np.full((1200, 1900, 3), wall, dtype=np.uint8)
    grown = quad + np.array([[-28, -28], [28, -28], [28, 44], [-28, 44]], dtype=np.float32)
    cv2.fillConvexPoly(canvas, grown.astype(np.int32), (bezel, bezel, bezel))
    matrix = cv2.getPerspectiveTransform(
        np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32), quad
    )
    warped = cv2.warpPerspective(screen, matrix, (1900, 1200))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (1900, 1200)) > 127
    canvas[mask] = warped[mask]
    noise = np.random.default_rng(3).normal(0, 2.5, canvas.shape).astype(np.int16)
    blurred = cv2.GaussianBlur(canvas, (0, 0), 0.8).astype(np.int16)
    return np.asarray(np.clip(blurred + noise, 0, 255), dtype=np.uint8)


def worst_edge_degrees(found: Quad, true_corners: list[list[float]]) -> float:
    """The screen's true outline after the found quad's warp: how far (degrees) its edges
    are from horizontal and vertical."""
    w, h = found.size()
    matrix = cv2.getPerspectiveTransform(
        np.array(found.points, dtype=np.float32),
        np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32),
    )
    m = cv2.perspectiveTransform(np.array([true_corners], dtype=np.float64), matrix)[0]
    worst = 0.0
    for a, b, across in ((0, 1, True), (3, 2, True), (0, 3, False), (1, 2, False)):
        dx, dy = m[b] - m[a]
        angle = math.atan2(dy, dx) if across else math.atan2(-dx, dy)
        worst = max(worst, abs(math.degrees(angle)))
    return worst


def gray(rgb: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), dtype=np.uint8)


PARAGRAPH = (
    "Stock counts are taken every Friday before the last delivery arrives. Each shelf is "
    "counted twice, by two people who do not see each other's sheets, and the counts are "
    "compared before anything is written to the ledger. Where the two counts differ, the shelf "
    "is counted a third time with the supervisor present. Damaged goods are set apart on the "
    "returns rack and written off at the end of the month, never at the count. Questions "
    "about the procedure go to the warehouse office."
)


def paragraph_screenshot(size: int, *, lines: int = 14) -> tuple[Image.Image, list[str]]:
    """A screenshot of a page of plain prose (`PARAGRAPH`, twice, in Pillow's own default
    font at `size` px, ragged right), saved as a JPEG the way screenshots are often shared,
    and the lines drawn."""
    font = ImageFont.load_default(size=size)
    width, step = 900, round(size * 1.5)
    image = Image.new("RGB", (width, step * lines + 60), "white")
    draw = ImageDraw.Draw(image)
    drawn: list[str] = []
    line = ""
    for word in f"{PARAGRAPH} {PARAGRAPH}".split():
        longer = f"{line} {word}".strip()
        if draw.textlength(longer, font=font) > width - 80:
            drawn.append(line)
            line = word
        else:
            line = longer
    drawn = [*drawn, line][:lines]
    for k, text in enumerate(drawn):
        draw.text((40, 30 + k * step), text, fill=(30, 30, 30), font=font)
    shared = io.BytesIO()
    image.save(shared, "JPEG", quality=85)
    with Image.open(shared) as jpeg:
        return jpeg.convert("RGB"), drawn
