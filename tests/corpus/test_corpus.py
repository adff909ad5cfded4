"""The browser-rendered corpus: its ground truth, its variety and its generator."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests import truthfiles

# The generator's Chromium and design kinds; the corpus code is its own top-level package.
sys.path.append(str(Path(__file__).resolve().parents[2] / "corpus"))
from screengen.chromium import CHROMIUM
from webcorpus.designs import KINDS

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


MANIFEST: dict[str, Any] = _json(CORPUS / "manifest.json")
IMAGES: list[dict[str, Any]] = MANIFEST["images"]
TRUTHS: list[dict[str, Any]] = [_json(CORPUS / entry["truth"]) for entry in IMAGES]
IDS = [t["file"] for t in TRUTHS]
PHOTOS = [t for t in TRUTHS if t["kind"] == "photo"]
RENDERS = [e for e in IMAGES if e["photo_of"] is None]


@pytest.fixture(scope="module")
def seed() -> truthfiles.Seed:
    return truthfiles.read_seed()


def test_every_listed_image_has_its_truth_and_no_truth_file_is_unlisted() -> None:
    assert 12 <= len(RENDERS) <= 20
    for entry in IMAGES:
        assert (CORPUS / entry["file"]).is_file()
        assert entry["description"]
    assert {p.name for p in CORPUS.glob("*.truth.json")} == {e["truth"] for e in IMAGES}


def test_every_design_kind_listed_is_present_with_photos() -> None:
    assert set(MANIFEST["designs"]) == set(KINDS)
    for entry in RENDERS:
        assert entry["kind"] == KINDS[entry["design"]]
    assert {e["kind"] for e in RENDERS} == set(KINDS.values())
    assert len(PHOTOS) >= 6


def test_the_chromium_that_rendered_the_corpus_is_recorded() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", MANIFEST["chromium"])


def test_renders_vary_zoom_device_pixel_ratio_and_width() -> None:
    zooms = {e["zoom"] for e in RENDERS}
    assert min(zooms) <= 0.8 and max(zooms) >= 1.5 and len(zooms) >= 4
    assert {e["dpr"] for e in RENDERS} == {1, 2}
    widths = [e["size"][0] for e in RENDERS]
    assert min(widths) == 1280 and max(widths) == 2560
    assert all(1280 <= w <= 2560 for w in widths)


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_truth_has_the_sample_fields_plus_quad_and_html_only_where_they_apply(
    truth: dict[str, Any],
) -> None:
    extra = {"screen_quad"} if truth["kind"] == "photo" else set()
    if "table_html" in truth:
        extra.add("table_html")
    assert set(truth) == truthfiles.TRUTH_KEYS | extra
    assert truth["captured_at_source"] in {"exif", "png-text", "filename"}
    assert len(truth["header"]) == len(truth["header_fields"])
    assert set(truth["header_fields"]) <= truthfiles.SCHEMA_FIELDS | {None}
    assert all(len(row) == len(truth["header"]) for row in truth["cells"])
    assert len(truth["rows"]) == len(truth["cells"]) > 0
    for row in truth["rows"]:
        assert set(row) == truthfiles.SCHEMA_FIELDS


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_every_truth_file_matches_its_image_size_and_holds_its_table_box(
    truth: dict[str, Any],
) -> None:
    with Image.open(CORPUS / truth["file"]) as image:
        assert list(image.size) == truth["size"]
        assert image.mode == "RGB"
    truthfiles.assert_box_inside(truth)


@pytest.mark.parametrize("truth", PHOTOS, ids=[t["file"] for t in PHOTOS])
def test_photos_have_a_screen_quad_inside_the_image_around_the_table(
    truth: dict[str, Any],
) -> None:
    quad = truth["screen_quad"]
    w, h = truth["size"]
    assert len(quad) == 4
    assert all(0 <= x < w and 0 <= y < h for x, y in quad)
    (tlx, tly), (trx, try_), (brx, bry), (blx, bly) = quad
    assert tlx < trx and blx < brx and tly < bly and try_ < bry
    x0, y0, x1, y1 = truth["table_box"]
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    assert min(xs) <= x0 and x1 <= max(xs) and min(ys) <= y0 and y1 <= max(ys)


def test_photos_show_the_rows_of_the_render_they_were_taken_of() -> None:
    by_file = dict(zip(IDS, TRUTHS, strict=True))
    for entry in IMAGES:
        if entry["photo_of"] is None:
            continue
        photo, source = by_file[entry["file"]], by_file[entry["photo_of"]]
        for key in ("header", "cells", "rows", "page_warehouse", "screen_differs_from_live"):
            assert photo[key] == source[key], key


def test_merged_header_pages_store_their_table_as_html_with_spans() -> None:
    merged = [t for t in TRUTHS if t["kind"] == "merged-header"]
    assert merged
    for truth in merged:
        html = truth["table_html"]
        assert html.startswith("<table><thead><tr>") and html.endswith("</tbody></table>")
        assert 'colspan="' in html and 'rowspan="' in html
        assert html.count("<tr>") == 2 + len(truth["cells"])
        for text in truth["header"]:
            assert f">{text}</th>" in html


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_schema_rows_are_what_the_cells_display(truth: dict[str, Any]) -> None:
    assert len(truth["rows"]) == len(truth["cells"])
    truthfiles.assert_rows_show_the_cells(truth)


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_displayed_values_equal_the_seed_except_rows_listed_as_differing(
    truth: dict[str, Any], seed: truthfiles.Seed
) -> None:
    truthfiles.assert_only_listed_rows_differ(truth, seed)


def test_the_chinese_erp_page_uses_the_chinese_header_vocabulary() -> None:
    headers = {h for t in TRUTHS if t["kind"] == "antd-chinese" for h in t["header"]}
    assert {"商品编码", "商品名称", "当前库存", "警戒值", "仓库"} <= headers


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_capture_time_is_stored_where_the_truth_says(truth: dict[str, Any]) -> None:
    source, stamp = truth["captured_at_source"], truth["captured_at"]
    exif, text = truthfiles.capture_metadata(CORPUS / truth["file"])
    assert (source == "exif") == bool(exif)
    assert (source == "png-text") == (text is not None)
    if source == "exif":
        assert stamp.startswith(exif[truthfiles.DATETIME_ORIGINAL][:10].replace(":", "-"))
        assert stamp.endswith(exif[truthfiles.OFFSET_TIME_ORIGINAL])
    if source == "filename":
        digits = re.sub(r"\D", "", truth["file"])
        assert digits.startswith(re.sub(r"\D", "", stamp))
    assert stamp.startswith("2026-12-")


def test_committed_corpus_stays_small() -> None:
    total = sum((CORPUS / entry["file"]).stat().st_size for entry in IMAGES)
    assert total < 15 * 1024 * 1024


@pytest.mark.slow
@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Chromium is not at /usr/bin/chromium (`make chromium` installs it with apt-get)",
)
def test_generator_reproduces_the_committed_corpus_byte_for_byte() -> None:
    result = subprocess.run(
        [sys.executable, str(CORPUS / "generate.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if result.returncode == 2:
        pytest.skip(result.stderr.strip())
    if result.returncode == 3:
        pytest.skip(f"another Chromium; the data still matches: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
