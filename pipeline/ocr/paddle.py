"""PaddleOCR 3.x on Paddle Inference (CPU), offline, from folders `stockshot models prepare` made.

Detection and recognition are the PaddleOCR `TextDetection` and `TextRecognition` predictors
(PP-OCRv4 mobile) loaded from local folders; `read` crops each detected box and hands the crops
to the same recogniser that `recognize` uses, so the recognition model is loaded once.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import threading
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.errors import ConfigError, EngineError, EngineNotInstalledError
from pipeline.models import TextLine
from pipeline.ocr.base import (
    EngineOptions,
    Image,
    Recognised,
    default_threads,
    files_fingerprint,
)
from pipeline.ocr.paddle_models import (
    DET_MODEL_NAME,
    REC_MODEL_NAME,
    paddle_model_dirs,
    resolve_paddle_dir,
    verify_prepared,
)

__all__ = ["PaddleOcrEngine"]

log = logging.getLogger(__name__)

_INSTALL_HINT = "paddleocr is not installed: pip install 'stockshot[paddle]'"
_PREPARE_HINT = "run `stockshot models prepare`"
# The detector sees the page at most this long on its longer side (PP-OCRv4 mobile default);
# recognition always works on crops of the full-resolution image.
_DET_LIMIT_SIDE = 960
_REC_BATCH = 8


@contextlib.contextmanager
def _paddle_import_warnings_ignored() -> Iterator[None]:
    # PaddleX probes the model hosting sites at import unless told the models are local; the
    # probe fails (or stalls) without a network. Read when paddlex is imported, so set first.
    os.environ.setdefault("PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK", "True")
    with warnings.catch_warnings():
        # Paddle warns "No ccache found" when paddlex first imports it (while the predictors are
        # built); ccache only matters for compiling C++ extensions, which this engine never does.
        warnings.filterwarnings("ignore", message="No ccache found", category=UserWarning)
        yield


def _load(det_dir: Path, rec_dir: Path, engine_config: dict[str, Any]) -> tuple[Any, Any]:
    try:
        import paddleocr
    except ImportError as exc:
        raise EngineNotInstalledError(f"{_INSTALL_HINT} ({exc})") from exc
    on_cpu = {"device": "cpu", "engine": "paddle_static", "engine_config": engine_config}
    try:
        det = paddleocr.TextDetection(
            model_name=DET_MODEL_NAME,
            model_dir=str(det_dir),
            limit_side_len=_DET_LIMIT_SIDE,
            limit_type="max",
            **on_cpu,
        )
        rec = paddleocr.TextRecognition(model_name=REC_MODEL_NAME, model_dir=str(rec_dir), **on_cpu)
    except Exception as exc:
        raise EngineError(
            f"paddleocr could not load the models in {det_dir.parent}: {exc}"
        ) from exc
    return det, rec


class PaddleOcrEngine:
    name = "paddleocr"

    def __init__(self, options: EngineOptions) -> None:
        if importlib.util.find_spec("paddleocr") is None:
            raise EngineNotInstalledError(_INSTALL_HINT)
        if options.model_dir is None:
            raise ConfigError(f"no model directory is configured for paddleocr; {_PREPARE_HINT}")
        root = resolve_paddle_dir(options.model_dir)
        problems = verify_prepared(root)
        if problems:
            raise ConfigError(
                f"PaddleOCR models are not prepared in {root} ({'; '.join(problems)}); "
                f"{_PREPARE_HINT}"
            )
        det_dir, rec_dir = paddle_model_dirs(root)
        self.models = files_fingerprint(det_dir, rec_dir, memo=options.fingerprints)
        threads = default_threads(options.threads)
        # oneDNN under the new PIR executor fails at the first detection with
        # "ConvertPirAttribute2RuntimeAttribute not support [pir::ArrayAttribute<...Double...>]";
        # the legacy executor with oneDNN works and is the fast CPU path.
        engine_config = {"run_mode": "mkldnn", "cpu_threads": threads, "enable_new_ir": False}
        with _paddle_import_warnings_ignored():
            self._det, self._rec = _load(det_dir, rec_dir, engine_config)
        self._lock = threading.Lock()
        log.debug("paddleocr loaded from %s with %d threads", root, threads)

    def recognize(self, crops: Sequence[Image]) -> list[Recognised]:
        if not crops:
            return []
        with self._lock:
            return self._recognize_bgr([_to_bgr(c) for c in crops])

    def read(self, image: Image) -> list[TextLine]:
        bgr = _to_bgr(image)
        height, width = bgr.shape[:2]
        if height < 2 or width < 2:
            return []
        with self._lock:
            try:
                (result,) = self._det.predict(bgr)
            except Exception as exc:
                raise EngineError(f"paddleocr detection failed: {exc}") from exc
            boxes: list[tuple[int, int, int, int]] = []
            for quad in np.asarray(result["dt_polys"]).reshape(-1, 4, 2):
                x0, y0 = np.clip(quad.min(axis=0), 0, (width, height))
                x1, y1 = np.clip(quad.max(axis=0), 0, (width, height))
                if x1 - x0 >= 2 and y1 - y0 >= 2:
                    boxes.append((int(x0), int(y0), int(x1), int(y1)))
            boxes = _reading_order(boxes)
            recognised = self._recognize_bgr([bgr[y0:y1, x0:x1] for x0, y0, x1, y1 in boxes])
        return [
            TextLine(text=text, box=box, confidence=score)
            for box, (text, score) in zip(boxes, recognised, strict=True)
            if text.strip()
        ]

    def _recognize_bgr(self, crops: Sequence[Image]) -> list[Recognised]:
        """Recognise BGR crops; the caller holds the lock."""
        results: list[Recognised] = [("", 0.0)] * len(crops)
        usable = [k for k, c in enumerate(crops) if min(c.shape[:2]) > 0]
        # Each batch is padded to its widest member: batch crops of similar aspect together.
        usable.sort(key=lambda k: crops[k].shape[1] / crops[k].shape[0])
        if not usable:
            return results
        try:
            output = self._rec.predict([crops[k] for k in usable], batch_size=_REC_BATCH)
        except Exception as exc:
            raise EngineError(f"paddleocr recognition failed: {exc}") from exc
        for k, item in zip(usable, output, strict=True):
            score = min(1.0, max(0.0, float(item["rec_score"])))
            results[k] = (str(item["rec_text"]).strip(), score)
        return results


def _to_bgr(image: Image) -> Image:
    if image.ndim == 2:
        return np.ascontiguousarray(np.repeat(image[:, :, None], 3, axis=2))
    return np.ascontiguousarray(image[:, :, ::-1])


def _reading_order(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Top to bottom, and left to right within a line (boxes whose tops are within half a
    line height of each other)."""
    ordered = sorted(boxes, key=lambda b: (b[1], b[0]))
    lines: list[list[tuple[int, int, int, int]]] = []
    for box in ordered:
        if lines:
            first = lines[-1][0]
            if abs(box[1] - first[1]) <= max(2, (first[3] - first[1]) // 2):
                lines[-1].append(box)
                continue
        lines.append([box])
    return [box for line in lines for box in sorted(line, key=lambda b: b[0])]
