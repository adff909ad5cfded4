import importlib.util
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pipeline.errors import ConfigError
from pipeline.ocr import EngineOptions, make_engine
from pipeline.ocr.paddle import PaddleOcrEngine
from pipeline.ocr.paddle_models import prepare_paddle_models
from tests.ocr.render import render_table, table_rows, text_crops

pytestmark = [
    pytest.mark.paddle,
    pytest.mark.skipif(
        importlib.util.find_spec("paddleocr") is None,
        reason="paddleocr is not installed: pip install 'stockshot[paddle]'",
    ),
]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("models")
    prepare_paddle_models(root / "paddle")
    return root


@pytest.fixture(scope="module")
def engine(model_dir: Path) -> Iterator[PaddleOcrEngine]:
    yield PaddleOcrEngine(EngineOptions(threads=2, model_dir=model_dir))


def test_recognize_reads_each_crop_in_order(engine: PaddleOcrEngine) -> None:
    texts = ["SKU-10231", "1,204", "WH-01", "Hex bolt M8 x 40", "7"]

    results = engine.recognize(text_crops(texts))

    assert [text for text, _ in results] == texts
    assert all(0.8 <= confidence <= 1.0 for _, confidence in results)


def test_recognize_of_no_crops_is_empty(engine: PaddleOcrEngine) -> None:
    assert engine.recognize([]) == []


def test_an_empty_crop_reads_as_empty_text_without_disturbing_the_others(
    engine: PaddleOcrEngine,
) -> None:
    crops = text_crops(["WH-01", "SKU-10231"])
    empty = np.zeros((0, 12, 3), dtype=np.uint8)

    results = engine.recognize([crops[0], empty, crops[1]])

    assert [text for text, _ in results] == ["WH-01", "", "SKU-10231"]
    assert results[1][1] == 0.0


def test_read_finds_each_table_cell_with_its_box(engine: PaddleOcrEngine) -> None:
    shot = render_table(table_rows(4), size=(1000, 260), chrome=False)

    lines = engine.read(shot.image)

    by_text = {line.text: line for line in lines}
    for cell in shot.cells[:6]:
        assert cell.text in by_text
        x0, y0, x1, y1 = by_text[cell.text].box
        cx, cy = (cell.box[0] + cell.box[2]) / 2, (cell.box[1] + cell.box[3]) / 2
        assert x0 <= cx <= x1 and y0 <= cy <= y1
    assert {"SKU-10231", "1,204", "WH-01"} <= set(by_text)


def test_read_lists_lines_top_to_bottom_and_left_to_right(engine: PaddleOcrEngine) -> None:
    shot = render_table(table_rows(3), size=(1000, 220), chrome=False)

    # PP-OCRv4 sometimes drops a space in bold text ("Reorderpoint"); order is what counts here.
    texts = [line.text.replace(" ", "") for line in engine.read(shot.image)]

    expected = [cell.text.replace(" ", "") for cell in (*shot.header, *shot.cells[:6])]
    assert texts[:12] == expected


def test_read_of_a_blank_image_finds_nothing(engine: PaddleOcrEngine) -> None:
    assert engine.read(np.full((200, 300, 3), 255, dtype=np.uint8)) == []


def test_the_engine_refuses_a_folder_that_was_not_prepared(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"run `stockshot models prepare`") as refused:
        make_engine("paddleocr", EngineOptions(model_dir=tmp_path))

    assert str(tmp_path / "paddle") in str(refused.value)


def test_the_engine_refuses_a_damaged_folder(model_dir: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "paddle"
    shutil.copytree(model_dir / "paddle", damaged)
    (damaged / "PP-OCRv4_mobile_det" / "inference.pdiparams").write_bytes(b"\0")

    with pytest.raises(ConfigError, match=r"inference\.pdiparams does not match"):
        make_engine("paddleocr", EngineOptions(model_dir=tmp_path))


def test_the_engine_needs_a_model_dir() -> None:
    with pytest.raises(ConfigError, match="stockshot models prepare"):
        make_engine("paddleocr", EngineOptions(model_dir=None))
