"""Ingest against the committed samples and their ground truth."""

import base64
import json
from datetime import datetime
from io import BytesIO
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.bench.accuracy import cell_matches
from pipeline.errors import InputError, UnknownNameError
from pipeline.ingest.cache import IngestCache
from pipeline.models import IngestResult
from pipeline.ocr import OcrEngine
from pipeline.shelf import ScreenShelf
from pipeline.truth import Truth
from tests import truthfiles
from tests.conftest import NOW, SHANGHAI, CountingEngine, Sample, load_samples, make_ingestor
from tests.system import font_file

SAMPLES = load_samples()
FIELDS = ("sku", "name", "on_hand", "reorder_point", "warehouse_id")


@pytest.fixture(scope="module")
def results(rapidocr: OcrEngine) -> dict[str, IngestResult]:
    ingestor = make_ingestor(rapidocr)
    return {s.path.name: ingestor.ingest_path(s.path) for s in SAMPLES}


def field_matches(result: IngestResult, truth: dict[str, Any]) -> tuple[int, int]:
    hits = total = 0
    for r, expected in enumerate(truth["rows"]):
        got = result.rows[r] if r < len(result.rows) else None
        for field in FIELDS:
            want = expected[field]
            if field == "warehouse_id" and want is None:
                want = truth["page_warehouse"]
            total += 1
            hits += got is not None and getattr(got, field) == want
    return hits, total


def assert_98_percent_overall_and_90_per_sample(
    per_sample: dict[str, tuple[int, int]], unit: str
) -> None:
    """Hits over totals: 98% across all samples, and no sample under 90%."""
    hits = sum(h for h, _ in per_sample.values())
    total = sum(t for _, t in per_sample.values())
    weak = {name: f"{h}/{t}" for name, (h, t) in per_sample.items() if h < 0.9 * t}
    assert hits / total >= 0.98, f"{hits}/{total} {unit}"
    assert not weak


def test_samples_cover_every_screen_kind_the_product_promises() -> None:
    kinds = {s.truth["kind"] for s in SAMPLES}
    assert kinds >= truthfiles.SAMPLE_KINDS
    assert len(SAMPLES) >= 15


def test_table_cells_match_the_screen_for_98_percent_overall_and_90_per_sample(
    results: dict[str, IngestResult],
) -> None:
    per_sample = {
        s.path.name: cell_matches(results[s.path.name].table, cast(Truth, s.truth)) for s in SAMPLES
    }
    assert_98_percent_overall_and_90_per_sample(per_sample, "cells")


def test_inventory_fields_match_the_truth_for_98_percent_overall_and_90_per_sample(
    results: dict[str, IngestResult],
) -> None:
    with_rows = [s for s in SAMPLES if s.truth["rows"]]
    per_sample = {s.path.name: field_matches(results[s.path.name], s.truth) for s in with_rows}
    assert_98_percent_overall_and_90_per_sample(per_sample, "fields")


def test_tables_without_inventory_headers_come_back_as_generic_grids(
    results: dict[str, IngestResult],
) -> None:
    for sample in SAMPLES:
        if sample.truth["kind"] == "no-schema":
            result = results[sample.path.name]
            assert result.rows == []
            assert result.table.header == sample.truth["header"]
            assert any("generic grid" in w for w in result.warnings)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.truth["kind"])
def test_capture_time_comes_from_the_source_the_file_carries(
    sample: Sample, results: dict[str, IngestResult]
) -> None:
    result = results[sample.path.name]
    assert result.captured_at_source == sample.truth["captured_at_source"]
    if sample.truth["captured_at"] is not None:
        expected = datetime.fromisoformat(sample.truth["captured_at"])
        if expected.tzinfo is None:
            expected = expected.replace(tzinfo=SHANGHAI)
        assert result.captured_at == expected
        assert result.age_s == (NOW - expected).total_seconds()


def test_crop_box_holds_the_table_and_leaves_out_the_page_around_it(
    results: dict[str, IngestResult],
) -> None:
    sample = next(s for s in SAMPLES if s.path.name == "erp-light-wh01.png")
    crop = results[sample.path.name].crop
    x0, y0, x1, y1 = sample.truth["table_box"]
    assert crop is not None
    assert crop[0] >= x0 - 20 and crop[1] >= y0 - 20 and crop[2] <= x1 + 20 and crop[3] <= y1 + 20
    assert (crop[2] - crop[0]) * (crop[3] - crop[1]) < 0.6 * 1920 * 1080


def test_table_text_sends_under_30_percent_of_the_full_page_image_tokens(
    results: dict[str, IngestResult],
) -> None:
    for name in ("erp-light-wh01.png", "erp-dark-wh02.png", "erp-jpeg-wh01.jpg"):
        tokens = results[name].tokens
        assert results[name].strategy == "table_ocr"
        assert tokens.sent <= 0.3 * tokens.full_page_image, name


def test_model_text_is_a_markdown_table_with_low_rows_flagged(
    results: dict[str, IngestResult],
) -> None:
    text = results["erp-light-wh01.png"].text
    assert text.startswith("Screenshot captured at 2026-11-28T10:05:00+08:00")
    assert "| sku | name | on_hand | reorder_point | warehouse_id | low |" in text
    assert "| SKU-10402 | Safety gloves size L (pair) | 60 | 200 | WH-01 | yes |" in text
    assert "Other columns on screen (left out): Status, Last updated" in text
    assert "| SKU-10231 | Hex bolt M8x40 (box of 100) | 412 | 150 | WH-01 | no |" in text


def test_rows_take_the_warehouse_from_the_page_title_when_the_table_has_no_column(
    results: dict[str, IngestResult],
) -> None:
    result = results["stock_20261128-143005.png"]
    assert {r.warehouse_id for r in result.rows} == {"WH-02"}
    assert "WH-02" in result.text.splitlines()[1]


def test_a_cache_hit_returns_the_structure_without_running_the_engine_again(
    counting: CountingEngine, tmp_path: Path
) -> None:
    path = SAMPLES[0].path
    with IngestCache(tmp_path / "cache") as cache:
        first = make_ingestor(counting, cache).ingest_path(path)
        calls = counting.calls
        again = make_ingestor(counting, cache).ingest_path(path)
    assert (first.cache, again.cache) == ("miss", "memory")
    assert counting.calls == calls
    with IngestCache(tmp_path / "cache") as reopened:
        from_disk = make_ingestor(counting, reopened).ingest_path(path)
    assert from_disk.cache == "disk"
    assert counting.calls == calls
    assert from_disk.rows == first.rows


def test_a_cache_hit_is_stamped_with_the_new_capture_time(counting: CountingEngine) -> None:
    ingestor = make_ingestor(counting, IngestCache(None))
    data = SAMPLES[0].path.read_bytes()
    earlier = datetime(2026, 11, 29, 8, 0, tzinfo=SHANGHAI)
    later = datetime(2026, 11, 30, 9, 0, tzinfo=SHANGHAI)
    first = ingestor.ingest_bytes(data, name="a.png", caller_time=earlier)
    second = ingestor.ingest_bytes(data, name="b.png", caller_time=later)
    assert second.cache == "memory"
    assert (first.captured_at, second.captured_at) == (earlier, later)
    assert second.captured_at_source == "caller"
    assert "2026-11-30T09:00:00+08:00" in second.text


def test_full_page_sends_the_normalised_image_and_counts_its_tokens(rapidocr: OcrEngine) -> None:
    path = next(s.path for s in SAMPLES if s.truth["kind"] == "hidpi")
    result = make_ingestor(rapidocr).ingest_path(path, strategy="full_page")
    assert result.strategy == "full_page"
    assert result.image is not None and result.image.startswith("data:image/png;base64,")
    from io import BytesIO

    from PIL import Image

    sent = Image.open(BytesIO(base64.b64decode(result.image.split(",", 1)[1])))
    assert sent.size == (1920, 1080)
    assert result.tokens.sent >= result.tokens.full_page_image


def test_ui_crop_sends_the_table_region_with_box_coordinates(rapidocr: OcrEngine) -> None:
    result = make_ingestor(rapidocr).ingest_path(SAMPLES[0].path, strategy="ui_crop")
    assert result.strategy == "ui_crop"
    assert result.image is not None
    assert "x0,y0,x1,y1" in result.text
    assert "] SKU-10231" in result.text


def test_an_unknown_strategy_names_the_known_ones(rapidocr: OcrEngine) -> None:
    with pytest.raises(UnknownNameError, match="known: auto, full_page, table_ocr, ui_crop"):
        make_ingestor(rapidocr).ingest_bytes(b"x", name="a.png", strategy="fast")


CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def corpus_truth(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CORPUS / f"{name}.truth.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def report(rapidocr: OcrEngine) -> IngestResult:
    return make_ingestor(rapidocr).ingest_path(CORPUS / "report-stock-status.png")


def test_merged_cells_and_a_two_row_header_are_read_by_the_structure_rung(
    report: IngestResult,
) -> None:
    truth = corpus_truth("report-stock-status.png")
    assert report.strategy == "table_ocr"
    assert any(w.startswith("table_ocr/lines unsure") and "merged" in w for w in report.warnings)
    assert report.table.header == truth["header"]
    assert report.table.cells == truth["cells"]
    assert report.table.html is not None and 'rowspan="6"' in report.table.html
    assert [r.warehouse_id for r in report.rows] == [r["warehouse_id"] for r in truth["rows"]]


def test_without_a_structure_model_the_merged_warehouse_column_is_lost(
    rapidocr: OcrEngine, report: IngestResult
) -> None:
    plain = make_ingestor(rapidocr, structure=False).ingest_path(
        CORPUS / "report-stock-status.png", strategy="table_ocr"
    )
    assert "Warehouse" not in plain.table.header
    assert {r.warehouse_id for r in plain.rows} == {None}
    assert {r.warehouse_id for r in report.rows} == {"WH-01", "WH-02"}


def test_a_rectified_photo_is_read_into_its_rows(rapidocr: OcrEngine) -> None:
    truth = corpus_truth("photo-grid-wh02.jpg")
    result = make_ingestor(rapidocr).ingest_path(CORPUS / "photo-grid-wh02.jpg")
    assert any(w.startswith("photo rectified: screen corners") for w in result.warnings)
    hits, total = field_matches(result, truth)
    assert hits >= 0.97 * total, f"{hits}/{total}"


def test_a_photo_whose_outline_cuts_the_table_says_so_and_is_rectified_by_its_lines(
    rapidocr: OcrEngine, tmp_path: Path
) -> None:
    from tests.imaging.test_cuts import panel_photo

    photo = tmp_path / "panel.jpg"
    Image.fromarray(panel_photo()).save(photo, quality=92)
    result = make_ingestor(rapidocr).ingest_path(photo, strategy="table_ocr")
    refused = [w for w in result.warnings if w.startswith("photo outline refused: the frame")]
    assert refused and refused[0].endswith("the screen's own lines used instead")
    assert any(
        w.startswith("photo rectified: by the screen's own lines (the outline found cuts")
        for w in result.warnings
    )


def _page_without_a_table(path: Path) -> None:
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (900, 360), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=26)
    for y, text in enumerate(
        ("Weekly notes", "The stock count moves to Friday.", "Ask Mei Lin for the keys.")
    ):
        draw.text((40, 40 + 90 * y), text, fill="black", font=font)
    image.save(path)


def test_a_page_without_a_table_still_sends_its_text_in_reading_order(
    rapidocr: OcrEngine, tmp_path: Path
) -> None:
    path = tmp_path / "notes.png"
    _page_without_a_table(path)
    result = make_ingestor(rapidocr).ingest_path(path, strategy="table_ocr")
    assert result.table.cells == [] and result.rows == []
    assert any(w.startswith("no table found: the text carries") for w in result.warnings)
    lines = [ln[2:] for ln in result.text.splitlines() if ln.startswith("> ")]
    assert lines == [
        "Weekly notes",
        "The stock count moves to Friday.",
        "Ask Mei Lin for the keys.",
    ]


def test_a_jpeg_screenshot_of_a_paragraph_is_read_whole_and_never_rectified(
    rapidocr: OcrEngine, tmp_path: Path
) -> None:
    from tests.imaging.photos import paragraph_screenshot

    screenshot, drawn = paragraph_screenshot(28)
    path = tmp_path / "procedure.png"
    screenshot.save(path)
    result = make_ingestor(rapidocr).ingest_path(path, strategy="table_ocr")
    assert not [w for w in result.warnings if w.startswith("photo")]
    assert [ln[2:] for ln in result.text.splitlines() if ln.startswith("> ")] == drawn


@pytest.mark.parametrize("ink", [(255, 255, 255, 255), (0, 0, 0, 255)], ids=["white", "black"])
def test_large_lettering_on_a_transparent_page_is_read_as_its_words_not_its_strokes(
    rapidocr: OcrEngine, tmp_path: Path, ink: tuple[int, int, int, int]
) -> None:
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_file("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"), 120)
    page = Image.new("RGBA", (760, 240), (0, 0, 0, 0))
    ImageDraw.Draw(page).text((40, 30), "我是中国人", font=font, fill=ink)
    path = tmp_path / "banner.png"
    page.save(path)
    result = make_ingestor(rapidocr).ingest_path(path)
    lines = [ln[2:] for ln in result.text.splitlines() if ln.startswith("> ")]
    assert "".join("".join(lines).split()) == "我是中国人"


def test_full_page_sends_the_image_and_the_text_lines(rapidocr: OcrEngine) -> None:
    result = make_ingestor(rapidocr).ingest_path(SAMPLES[0].path, strategy="full_page")
    assert result.image is not None
    assert "Text on the screen (OCR lines, top to bottom):" in result.text
    assert "SKU-10231" in result.text


class Blind:
    """An engine that reads nothing: what ingest keeps besides the OCR."""

    name = "blind"
    models = "none"

    def recognize(self, crops: Any) -> list[tuple[str, float]]:
        return [("", 0.0) for _ in crops]

    def read(self, image: Any) -> list[Any]:
        return []


def test_a_result_holds_its_bytes_in_process_only_and_a_cache_hit_too() -> None:
    data = SAMPLES[0].path.read_bytes()
    ingestor = make_ingestor(Blind(), IngestCache(None), structure=False)
    first = ingestor.ingest_bytes(data, name="erp.png", strategy="full_page")
    again = ingestor.ingest_bytes(data, name="erp.png", strategy="full_page")
    assert again.cache == "memory"
    assert first.source == data and again.source == data
    assert "source" not in first.model_dump()
    assert IngestResult.model_validate_json(first.model_dump_json()).source is None


def test_a_sidebar_menu_beside_the_table_never_joins_it(rapidocr: OcrEngine) -> None:
    font = ImageFont.truetype(font_file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), 15)
    page = Image.new("RGB", (1100, 560), (250, 250, 250))
    draw = ImageDraw.Draw(page)
    menu = ["Dashboard", "Inventory", "Transfers", "Suppliers", "Reports", "Settings"]
    for k, word in enumerate(menu):  # the menu's own pitch, on the page's background
        draw.text((24, 92 + 33 * k), word, fill=(40, 40, 40), font=font)
    columns = (220, 380, 700, 860)
    for x, head in zip(columns, ("SKU", "Name", "On hand", "Min qty"), strict=True):
        draw.text((x, 60), head, fill=(20, 20, 20), font=font)
    skus = [f"SKU-10{k:03d}" for k in range(231, 244)]
    for r, sku in enumerate(skus):
        y = 92 + 32 * r
        cells = (sku, f"Hex bolt M{r + 4}", str(10 + r), str(40 + r))
        for x, text in zip(columns, cells, strict=True):
            draw.text((x, y), text, fill=(20, 20, 20), font=font)
    buffer = BytesIO()
    page.save(buffer, format="PNG")
    result = make_ingestor(rapidocr).ingest_bytes(buffer.getvalue(), name="stock.png")
    assert result.table.header == ["SKU", "Name", "On hand", "Min qty"]
    assert [r.sku for r in result.rows] == skus


def test_each_screenshot_read_is_kept_on_the_shelf_and_a_refused_one_is_not(
    rapidocr: OcrEngine, shared_cache: IngestCache, tmp_path: Path
) -> None:
    ingestor = make_ingestor(rapidocr, shared_cache)
    ingestor.shelf = ScreenShelf(tmp_path / "screens")
    sample = SAMPLES[0].path

    result = ingestor.ingest_path(sample)
    with pytest.raises(InputError):
        ingestor.ingest_bytes(b"\x89PNG\r\n\x1a\n not a picture", name="broken.png")

    assert ingestor.shelf.read(result.sha256) == sample.read_bytes()
    assert [p.name for p in (tmp_path / "screens").rglob("*") if p.is_file()] == [result.sha256]
