"""The committed sample screenshots: their ground truth, their data and their generator."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests import truthfiles

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

ROW_KEYS = {"sku", "name", "on_hand", "reorder_point", "warehouse_id"}
STAMP_IN_NAME = re.compile(r"20\d\d-?[01]\d-?[0-3]\d")


def _manifest() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(
        (SAMPLES / "manifest.json").read_text(encoding="utf-8")
    )
    return entries


def _truth(entry: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / entry["truth"]).read_text(encoding="utf-8"))
    return data


MANIFEST = _manifest()
TRUTHS = [_truth(entry) for entry in MANIFEST]
IDS = [t["file"] for t in TRUTHS]


@pytest.fixture(scope="module")
def seed() -> truthfiles.Seed:
    return truthfiles.read_seed()


def _by_kind(kind: str) -> dict[str, Any]:
    return next(t for t in TRUTHS if t["kind"] == kind)


def test_there_are_at_least_seventeen_samples_each_with_an_image_and_truth() -> None:
    assert len(MANIFEST) >= 17
    for entry in MANIFEST:
        assert (SAMPLES / entry["file"]).is_file()
        assert (SAMPLES / entry["truth"]).is_file()
        assert entry["description"]


def test_every_truth_file_in_the_folder_is_listed_in_the_manifest() -> None:
    listed = {entry["truth"] for entry in MANIFEST}
    assert {p.name for p in SAMPLES.glob("*.truth.json")} == listed


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_truth_has_the_documented_fields_and_shapes(truth: dict[str, Any]) -> None:
    assert set(truth) == truthfiles.TRUTH_KEYS
    assert truth["captured_at_source"] in {"exif", "png-text", "filename", "mtime"}
    assert len(truth["header"]) == len(truth["header_fields"])
    assert all(len(row) == len(truth["header"]) for row in truth["cells"])
    assert set(truth["header_fields"]) <= truthfiles.SCHEMA_FIELDS | {None}
    for row in truth["rows"]:
        assert set(row) == ROW_KEYS
        assert isinstance(row["on_hand"], int)


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_image_matches_the_size_and_table_box_in_its_truth(truth: dict[str, Any]) -> None:
    with Image.open(SAMPLES / truth["file"]) as image:
        assert list(image.size) == truth["size"]
    truthfiles.assert_box_inside(truth)


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_schema_rows_are_what_the_cells_display(truth: dict[str, Any]) -> None:
    fields = truth["header_fields"]
    assert len(truth["rows"]) == (len(truth["cells"]) if any(fields) else 0)
    truthfiles.assert_rows_show_the_cells(truth)


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_every_shown_sku_exists_in_the_seed_for_its_warehouse(
    truth: dict[str, Any], seed: truthfiles.Seed
) -> None:
    for row in truth["rows"]:
        assert (row["sku"], truthfiles.warehouse_of(row, truth)) in seed
    shown = " ".join(" ".join(cells) for cells in truth["cells"])
    assert len(re.findall(r"SKU-\d+", shown)) == len(truth["rows"])


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_displayed_values_equal_live_except_rows_listed_as_differing(
    truth: dict[str, Any], seed: truthfiles.Seed
) -> None:
    truthfiles.assert_only_listed_rows_differ(truth, seed)


def test_every_required_screen_kind_is_present() -> None:
    assert not truthfiles.SAMPLE_KINDS - {t["kind"] for t in TRUTHS}


def test_the_main_demo_shows_restocked_covered_and_still_low_items(
    seed: truthfiles.Seed,
) -> None:
    truth = json.loads((SAMPLES / "erp-light-wh01.png.truth.json").read_text(encoding="utf-8"))
    assert truth["kind"] == "light"
    assert truth["size"] == [1920, 1080]
    assert 12 <= len(truth["rows"]) <= 17
    rows = {row["sku"]: row for row in truth["rows"]}
    assert rows["SKU-10402"]["on_hand"] == 60
    assert truth["screen_differs_from_live"] == [
        {"sku": "SKU-10402", "warehouse_id": "WH-01", "shown_on_hand": 60, "live_on_hand": 310}
    ]
    covered = seed[("SKU-10403", "WH-01")]
    assert rows["SKU-10403"]["on_hand"] == 95
    assert int(covered["on_hand"]) + int(covered["on_order"]) >= int(covered["reorder_point"])
    for sku in ("SKU-10232", "SKU-10310", "SKU-10318", "SKU-10501", "SKU-10520"):
        assert rows[sku]["on_hand"] < rows[sku]["reorder_point"]


def test_page_warehouse_sample_states_the_warehouse_only_in_page_context() -> None:
    truth = _by_kind("page-warehouse")
    assert truth["page_warehouse"] == "WH-02"
    assert "warehouse_id" not in truth["header_fields"]
    assert all(row["warehouse_id"] is None for row in truth["rows"])


def test_no_schema_samples_have_a_grid_but_no_stock_rows() -> None:
    generic = [t for t in TRUTHS if t["kind"] == "no-schema"]
    assert generic
    for truth in generic:
        assert truth["cells"]
        assert truth["rows"] == []
        assert not any(truth["header_fields"])


def test_compare_pair_is_one_page_at_two_times_with_changed_quantities() -> None:
    am, pm = _by_kind("compare-am"), _by_kind("compare-pm")
    assert am["header"] == pm["header"]
    assert [r["sku"] for r in am["rows"]] == [r["sku"] for r in pm["rows"]]
    changed = [a for a, p in zip(am["rows"], pm["rows"], strict=True) if a != p]
    assert changed
    assert datetime.fromisoformat(am["captured_at"]) < datetime.fromisoformat(pm["captured_at"])


def test_header_vocabularies_vary_across_samples() -> None:
    spellings: dict[str, set[str]] = {}
    for truth in TRUTHS:
        for header, field in zip(truth["header"], truth["header_fields"], strict=True):
            if field:
                spellings.setdefault(field, set()).add(header)
    assert all(len(spellings[field]) >= 4 for field in truthfiles.SCHEMA_FIELDS)
    assert {"商品编码", "商品名称", "当前库存", "警戒值", "仓库"} <= set().union(
        *spellings.values()
    )


def test_extra_columns_and_thousands_separators_appear_on_screen() -> None:
    cells = {text for t in TRUTHS for row in t["cells"] for text in row}
    assert {"Low", "OK", "库存不足", "1,204"} <= cells
    extras = [h for t in TRUTHS for h, f in zip(t["header"], t["header_fields"], strict=True)]
    assert {"Last updated", "Unit price", "Category"} <= set(extras)


@pytest.mark.parametrize("truth", TRUTHS, ids=IDS)
def test_capture_time_is_stored_only_where_the_truth_says(truth: dict[str, Any]) -> None:
    source, stamp = truth["captured_at_source"], truth["captured_at"]
    exif, text = truthfiles.capture_metadata(SAMPLES / truth["file"])
    assert (source == "exif") == bool(exif)
    assert (source == "png-text") == (text is not None)
    assert (source == "filename") == bool(STAMP_IN_NAME.search(truth["file"]))
    assert (source == "mtime") == (stamp is None)
    if source == "exif":
        original = datetime.strptime(exif[truthfiles.DATETIME_ORIGINAL], "%Y:%m:%d %H:%M:%S")
        assert stamp == original.isoformat() + exif.get(truthfiles.OFFSET_TIME_ORIGINAL, "")
    if stamp:
        assert stamp.startswith("2026-11-")


def test_capture_sources_are_spread_over_the_samples() -> None:
    stamps = {t["captured_at"] for t in TRUTHS if t["captured_at"]}
    sources = [t["captured_at_source"] for t in TRUTHS]
    for source in ("exif", "png-text", "filename", "mtime"):
        assert sources.count(source) >= 2, source
    assert any(stamp.endswith("+08:00") for stamp in stamps)


def test_transparent_samples_are_opaque_only_where_text_and_lines_are() -> None:
    for kind in ("transparent-white", "transparent-black"):
        truth = _by_kind(kind)
        with Image.open(SAMPLES / truth["file"]) as image:
            assert image.mode == "RGBA"
            alpha = image.getchannel("A")
            assert alpha.getpixel((0, 0)) == 0
            histogram = alpha.histogram()
            assert histogram[0] > 0.7 * sum(histogram)
            assert histogram[255] > 0


def test_committed_samples_stay_small() -> None:
    total = sum((SAMPLES / entry["file"]).stat().st_size for entry in MANIFEST)
    assert total < 15 * 1024 * 1024


def test_generator_reproduces_the_committed_files_byte_for_byte() -> None:
    result = subprocess.run(
        [sys.executable, str(SAMPLES / "generate.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if result.returncode == 2 and "missing fonts" in result.stderr:
        pytest.skip(result.stderr.strip())
    assert result.returncode == 0, result.stderr
