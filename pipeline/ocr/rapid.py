"""RapidOCR 3.x on ONNX Runtime with the PP-OCR models shipped inside its wheel (no download)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from pipeline.errors import EngineError, EngineNotInstalledError
from pipeline.models import TextLine
from pipeline.ocr.base import EngineOptions, Image, Recognised, default_threads

__all__ = ["RapidOcrEngine"]

log = logging.getLogger(__name__)


class RapidOcrEngine:
    name = "rapidocr"

    def __init__(self, options: EngineOptions) -> None:
        try:
            from rapidocr import RapidOCR
        except ImportError as exc:  # pragma: no cover - a base dependency
            raise EngineNotInstalledError(
                "rapidocr is not installed: pip install rapidocr onnxruntime"
            ) from exc
        threads = default_threads(options.threads)
        params: dict[str, Any] = {
            "Global.log_level": "warning",
            # The 180-degree classifier flips short numbers on upright screens (857 -> LS8).
            "Global.use_cls": False,
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            # Pad each recognition batch only to its widest crop, not to 320 px.
            "Rec.rec_img_shape": [3, 48, 48],
            "Rec.rec_batch_num": 6,
        }
        self._engine: Any = RapidOCR(params=params)
        self._lock = threading.Lock()

    def recognize(self, crops: Sequence[Image]) -> list[Recognised]:
        if not crops:
            return []
        bgr = [np.ascontiguousarray(c[:, :, ::-1]) for c in crops]
        with self._lock:
            try:
                output = self._engine.recognize_txt(bgr)
            except Exception as exc:
                raise EngineError(f"rapidocr recognition failed: {exc}") from exc
        return [(str(t), float(s)) for t, s in zip(output.txts, output.scores, strict=True)]

    def read(self, image: Image) -> list[TextLine]:
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        with self._lock:
            try:
                output = self._engine(bgr)
            except Exception as exc:
                raise EngineError(f"rapidocr failed: {exc}") from exc
        if output.boxes is None or output.txts is None:
            return []
        lines = []
        for quad, text, score in zip(output.boxes, output.txts, output.scores, strict=True):
            x, y, w, h = cv2.boundingRect(np.asarray(quad, dtype=np.float32))
            lines.append(
                TextLine(text=str(text), box=(x, y, x + w, y + h), confidence=float(score))
            )
        return lines
