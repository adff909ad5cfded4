"""OCR engines behind one interface, chosen by name from a plain registry."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.errors import registered
from pipeline.ocr.base import EngineOptions, OcrEngine

__all__ = ["OCR_ENGINES", "EngineOptions", "OcrEngine", "make_engine"]


def _rapidocr(options: EngineOptions) -> OcrEngine:
    from pipeline.ocr.rapid import RapidOcrEngine

    return RapidOcrEngine(options)


def _paddleocr(options: EngineOptions) -> OcrEngine:
    from pipeline.ocr.paddle import PaddleOcrEngine

    return PaddleOcrEngine(options)


def _tesseract(options: EngineOptions) -> OcrEngine:
    from pipeline.ocr.tesseract import TesseractEngine

    return TesseractEngine(options)


OCR_ENGINES: dict[str, Callable[[EngineOptions], OcrEngine]] = {
    "rapidocr": _rapidocr,
    "paddleocr": _paddleocr,
    "tesseract": _tesseract,
}


def make_engine(name: str, options: EngineOptions) -> OcrEngine:
    return registered(OCR_ENGINES, "OCR engine", name)(options)
