"""The default engine's ONNX Runtime threads wait without spinning (the bench's thread finding)."""

import numpy as np
from PIL import Image, ImageDraw

from pipeline.ocr import EngineOptions, make_engine


def _crop(text: str) -> np.ndarray:
    image = Image.new("RGB", (160, 40), "white")
    ImageDraw.Draw(image).text((8, 12), text, fill="black")
    return np.asarray(image, dtype=np.uint8)


def test_rapidocr_sessions_with_several_threads_do_not_spin() -> None:
    engine = make_engine("rapidocr", EngineOptions(threads=2))
    ((text, _),) = engine.recognize([_crop("SKU-10231")])
    assert "10231" in text
    inner = engine._engine  # type: ignore[attr-defined]
    options = inner.text_rec.session.session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert options.intra_op_num_threads == 2
