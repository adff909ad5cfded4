import subprocess
import sys

import pytest

from pipeline.errors import UnknownNameError
from pipeline.ocr import OCR_ENGINES, EngineOptions, make_engine


def test_paddleocr_and_tesseract_are_registered_beside_rapidocr() -> None:
    assert {"rapidocr", "paddleocr", "tesseract"} <= set(OCR_ENGINES)


def test_an_unknown_engine_name_lists_the_registered_ones() -> None:
    with pytest.raises(UnknownNameError, match="paddleocr, rapidocr, tesseract"):
        make_engine("easyocr", EngineOptions())


def test_importing_the_ocr_package_loads_no_engine_library() -> None:
    probe = (
        "import sys, pipeline, pipeline.ocr, pipeline.cli.models; "
        "print(sorted(m for m in ('paddle', 'paddleocr', 'paddlex', 'rapidocr') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )

    assert done.stdout.strip() == "[]"
