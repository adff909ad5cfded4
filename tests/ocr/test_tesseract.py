import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.errors import EngineError, EngineNotInstalledError
from pipeline.ocr import EngineOptions, make_engine
from pipeline.ocr.tesseract import TesseractEngine
from tests.ocr.render import render_table, table_rows, text_crops
from tests.system import font_file

CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None,
    reason="tesseract is not installed: apt-get install tesseract-ocr tesseract-ocr-chi-sim",
)


@pytest.fixture(scope="module")
def engine() -> TesseractEngine:
    built = make_engine("tesseract", EngineOptions())
    assert isinstance(built, TesseractEngine)
    return built


def test_recognize_reads_each_crop_in_order(engine: TesseractEngine) -> None:
    texts = ["SKU-10231", "1,204", "WH-01", "Hex bolt M8 x 40", "7"]

    results = engine.recognize(text_crops(texts))

    assert [text for text, _ in results] == texts
    assert all(0.0 < confidence <= 1.0 for _, confidence in results)


def test_recognize_maps_forty_crops_from_one_run_back_to_their_own_crop(
    engine: TesseractEngine,
) -> None:
    texts = [f"SKU-{10000 + 37 * i}" if i % 2 else f"{i * 97:,}" for i in range(40)]

    results = engine.recognize(text_crops(texts))

    assert len(results) == 40
    assert sum(text == expected for (text, _), expected in zip(results, texts, strict=True)) >= 38


def test_single_digit_crops_are_not_dropped(engine: TesseractEngine) -> None:
    digits = [str(d) for d in range(10)]

    assert [text for text, _ in engine.recognize(text_crops(digits))] == digits


def test_recognize_reads_light_text_on_a_dark_background(engine: TesseractEngine) -> None:
    crops = [np.asarray(255 - crop, dtype=np.uint8) for crop in text_crops(["SKU-10231", "857"])]

    assert [text for text, _ in engine.recognize(crops)] == ["SKU-10231", "857"]


def test_blank_and_empty_crops_read_as_empty_text(engine: TesseractEngine) -> None:
    (crop,) = text_crops(["1,204"])
    blank = np.full((30, 60, 3), 255, dtype=np.uint8)
    empty = np.zeros((0, 5, 3), dtype=np.uint8)

    results = engine.recognize([blank, crop, empty])

    assert results[0] == ("", 0.0)
    assert results[1][0] == "1,204"
    assert results[2] == ("", 0.0)


def test_recognize_of_no_crops_runs_nothing(engine: TesseractEngine) -> None:
    assert engine.recognize([]) == []


def test_read_returns_one_line_per_table_cell_with_its_box(engine: TesseractEngine) -> None:
    shot = render_table(table_rows(4), size=(1000, 260), chrome=False)

    lines = engine.read(shot.image)

    by_text = {line.text: line for line in lines}
    assert {"SKU-10231", "Hex bolt M8 x 40", "1,204", "2026-11-01 08:00"} <= set(by_text)
    for cell in shot.cells[:6]:
        cx, cy = (cell.box[0] + cell.box[2]) / 2, (cell.box[1] + cell.box[3]) / 2
        covering = [
            line
            for line in lines
            if line.box[0] <= cx <= line.box[2] and line.box[1] <= cy <= line.box[3]
        ]
        assert len(covering) == 1
        # Tesseract confuses O and 0 in ids ("WH-O1"); the table layer repairs those.
        assert covering[0].text[:3] == cell.text[:3]


def test_read_of_a_blank_image_finds_nothing(engine: TesseractEngine) -> None:
    assert engine.read(np.full((120, 200, 3), 255, dtype=np.uint8)) == []


def test_chinese_is_read_when_its_data_is_installed(engine: TesseractEngine) -> None:
    if "chi_sim" not in engine.lang:
        pytest.skip("tesseract-ocr-chi-sim is not installed")
    face = ImageFont.truetype(font_file(CJK_FONT), 15)
    crops = []
    for text in ("六角螺栓 M8", "仓库 WH-02"):
        image = Image.new("RGB", (160, 30), (255, 255, 255))
        ImageDraw.Draw(image).text((4, 4), text, font=face, fill=(0, 0, 0))
        crops.append(np.asarray(image, dtype=np.uint8))

    assert [text for text, _ in engine.recognize(crops)] == ["六角螺栓 M8", "仓库 WH-02"]


def test_a_missing_binary_says_how_to_install_it() -> None:
    with pytest.raises(EngineNotInstalledError) as refused:
        TesseractEngine(EngineOptions(), binary="stockshot-no-such-tesseract")

    assert str(refused.value) == (
        "tesseract is not installed: apt-get install tesseract-ocr tesseract-ocr-chi-sim"
    )


def test_a_run_past_the_timeout_is_an_engine_error() -> None:
    impatient = TesseractEngine(EngineOptions(), lang="eng", timeout_s=0.001)

    with pytest.raises(EngineError, match="longer than"):
        impatient.read(render_table(table_rows(2), size=(600, 160), chrome=False).image)


def test_an_unknown_language_is_an_engine_error() -> None:
    engine = TesseractEngine(EngineOptions(), lang="stockshot_no_such_lang")

    with pytest.raises(EngineError, match="tesseract failed"):
        engine.recognize(text_crops(["1,204"]))
