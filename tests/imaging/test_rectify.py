"""Photos are rectified before anything else: the screen's quad found and warped upright."""

import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image

from pipeline.imaging.normalising import is_clean_render, normalise
from pipeline.imaging.rectify import find_quad, warp_quad

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
PHOTOS = [
    e
    for e in json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))["images"]
    if e.get("photo_of")
]


def truth(entry: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CORPUS / entry["truth"]).read_text(encoding="utf-8"))
    return data


def rgb(path: Path) -> np.ndarray:
    with Image.open(path) as opened:
        return np.asarray(opened.convert("RGB"), dtype=np.uint8)


def corner_errors(found: tuple[tuple[float, float], ...], want: list[list[float]]) -> list[float]:
    return [math.dist(a, b) for a, b in zip(found, want, strict=True)]


@pytest.mark.parametrize("entry", PHOTOS, ids=lambda e: e["file"])
def test_the_screen_corners_of_each_corpus_photo_are_found(entry: dict[str, Any]) -> None:
    """Light screens: the screen's own corners within 25 px (2016x1512 photos). A dark theme
    whose edge does not stand out from the bezel keeps the frame's outline (same plane,
    the bezel's width further out)."""
    quad = find_quad(rgb(CORPUS / entry["file"]))
    assert quad is not None
    errors = corner_errors(quad.points, truth(entry)["screen_quad"])
    if quad.kind == "frame":
        assert max(errors) <= 100, errors
    else:
        assert quad.kind == "screen"
        assert max(errors) <= 25, errors


def test_only_the_dark_theme_photo_falls_back_to_the_frame() -> None:
    kinds = {e["file"]: find_quad(rgb(CORPUS / e["file"])) for e in PHOTOS}
    frames = [name for name, quad in kinds.items() if quad is not None and quad.kind == "frame"]
    assert frames == ["photo-dark-wh01.jpg"]


def on_a_wall(
    page: np.ndarray, quad: np.ndarray, bezel: tuple[int, int, int], width: tuple[int, int]
) -> np.ndarray:
    """`page` in perspective at `quad` of a 1900x1200 grey wall, inside a bezel of colour
    `bezel`, `width` pixels at its top and sides and at its bottom."""
    h, w = page.shape[:2]
    side, bottom = width
    canvas = np.full((1200, 1900, 3), 182, dtype=np.uint8)
    rim = np.array([[-side, -side], [side, -side], [side, bottom], [-side, bottom]])
    cv2.fillConvexPoly(canvas, (quad + rim).astype(np.int32), bezel)
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(source, quad)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (1900, 1200)) > 127
    canvas[mask] = cv2.warpPerspective(page, matrix, (1900, 1200))[mask]
    return canvas


def test_a_render_warped_onto_a_dark_frame_is_found_and_warped_back_upright() -> None:
    """A derived photo made here: a sample render in perspective inside a bezel on a wall."""
    page = rgb(ROOT / "samples" / "erp-light-wh01.png")
    h, w = page.shape[:2]
    quad = np.array([[210, 140], [1690, 180], [1640, 1030], [250, 990]], dtype=np.float32)
    canvas = on_a_wall(page, quad, (22, 22, 25), (30, 50))
    noisy = np.clip(
        cv2.GaussianBlur(canvas, (0, 0), 0.8).astype(np.int16)
        + np.random.default_rng(7).normal(0, 2.5, canvas.shape).astype(np.int16),
        0,
        255,
    ).astype(np.uint8)
    found = find_quad(noisy)
    assert found is not None and found.kind == "screen"
    assert max(corner_errors(found.points, quad.tolist())) <= 12
    flat, to_photo = warp_quad(noisy, found)
    assert abs(flat.shape[1] / flat.shape[0] - w / h) < 0.1
    back = cv2.perspectiveTransform(np.array([[[0.0, 0.0]]]), to_photo)[0][0]
    assert math.dist(back, quad[0]) <= 12


def test_renders_are_not_rectified_and_photos_are() -> None:
    render = Image.open(ROOT / "samples" / "erp-jpeg-wh01.jpg").convert("RGB")
    assert is_clean_render(np.asarray(render)) and normalise(render).quad is None
    photo = Image.open(CORPUS / "photo-sheet-wh02.jpg").convert("RGB")
    assert not is_clean_render(np.asarray(photo))
    norm = normalise(photo)
    assert norm.quad is not None and not norm.clean


def test_a_box_in_the_rectified_image_maps_back_into_the_photo() -> None:
    entry = next(e for e in PHOTOS if e["file"] == "photo-grid-wh02.jpg")
    norm = normalise(Image.open(CORPUS / entry["file"]).convert("RGB"))
    height, width = norm.gray.shape
    x0, y0, x1, y1 = norm.to_original((0, 0, width, height))
    quad = np.array(truth(entry)["screen_quad"])
    assert abs(x0 - quad[:, 0].min()) <= 25 and abs(y1 - quad[:, 1].max()) <= 25
    assert abs(x1 - quad[:, 0].max()) <= 25 and abs(y0 - quad[:, 1].min()) <= 25


def test_a_tall_dark_sidebar_on_a_light_screen_is_not_taken_for_the_frame() -> None:
    """A light page with a dark sidebar, photographed in a silver bezel: the sidebar is the
    largest dark region, but no screen is four times as tall as it is wide."""
    page = rgb(ROOT / "samples" / "erp-light-wh01.png").copy()
    page[:, : page.shape[1] // 5] = (33, 37, 41)
    quad = np.array([[100, 60], [1820, 90], [1780, 1130], [130, 1110]], dtype=np.float32)
    found = find_quad(on_a_wall(page, quad, (205, 207, 210), (25, 40)))
    assert found is None or found.kind != "frame"
    if found is not None:
        xs = [x for x, _ in found.points]
        assert max(xs) - min(xs) > 0.6 * (1820 - 100)
