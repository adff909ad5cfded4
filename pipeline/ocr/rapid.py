"""RapidOCR 3.x on ONNX Runtime with the PP-OCR models shipped inside its wheel (no download)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from pipeline.errors import EngineError, EngineNotInstalledError
from pipeline.models import TextLine
from pipeline.ocr.base import (
    EngineOptions,
    Image,
    Recognised,
    default_threads,
    files_fingerprint,
    package_dir,
)

if TYPE_CHECKING:
    from rapidocr import RapidOCR
    from rapidocr.utils.output import RapidOCROutput

__all__ = ["RapidOcrEngine", "plain_rapidocr", "stop_spinning", "whole_page"]

log = logging.getLogger(__name__)

_NO_SPINNING = ("session.intra_op.allow_spinning", "0")
_MIN_DETECTION_SIDE = 64


class _Session(Protocol):
    """The parts of an ONNX Runtime session the swap reads."""

    _model_path: str

    def get_providers(self) -> list[str]: ...


class SessionHolder(Protocol):
    """rapidocr's wrapper around one model's ONNX session."""

    session: _Session


class _Model(Protocol):
    session: SessionHolder


def _loaders(engine: RapidOCR, *parts: str) -> list[Callable[[], _Model]]:
    """rapidocr's lazy loaders of the named models (`det`, `cls`, `rec`)."""
    known: dict[str, Callable[[], _Model]] = {
        "det": engine._load_det_model,
        "cls": engine._load_cls_model,
        "rec": engine._load_rec_model,
    }
    return [known[part] for part in parts]


class RapidOcrEngine:
    name = "rapidocr"

    def __init__(self, options: EngineOptions) -> None:
        """Only finds the models: rapidocr, ONNX Runtime and OpenCV load at the first image
        read, so a cache lookup (which needs the models' fingerprint) pays for none of them."""
        package = package_dir("rapidocr")
        if package is None:  # pragma: no cover - a base dependency
            raise EngineNotInstalledError(
                "rapidocr is not installed: pip install rapidocr onnxruntime"
            )
        threads = default_threads(options.threads)
        self._params: dict[str, object] = {
            "Global.log_level": "warning",
            # The 180-degree classifier flips short numbers on upright screens (857 -> LS8).
            "Global.use_cls": False,
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            # Pad each recognition batch only to its widest crop, not to 320 px.
            "Rec.rec_img_shape": [3, 48, 48],
            "Rec.rec_batch_num": 6,
        }
        self._engine: RapidOCR | None = None
        self.models = files_fingerprint(package / "models", memo=options.fingerprints)
        self._threads = threads
        self._settled: set[str] = set()
        self._lock = threading.Lock()

    def _loaded(self) -> RapidOCR:
        """The engine, built at first use (called under the lock)."""
        if self._engine is None:
            from rapidocr import RapidOCR

            self._engine = RapidOCR(params=self._params)
        return self._engine

    def _settle(self, *parts: str) -> None:
        """Rebuild each ONNX session, when rapidocr first loads it, with intra-op threads that
        wait without spinning. Spinning threads win a little on an idle machine and lose a lot
        when another process or thread wants the same cores (an API's worker threads, a batch,
        anything else running): a 1920x1080 page, warm, median (p90) per ingest on 2 cores was
        344 (390) ms spinning vs 370 (417) ms not when idle, but 780 (1699) vs 605 (1158) ms
        with one other busy process. One thread has no pool to spin."""
        for part in parts:
            if part in self._settled:
                continue
            (loader,) = _loaders(self._loaded(), part)
            if self._threads > 1:
                stop_spinning(loader().session, self._threads)
            self._settled.add(part)

    def load(self) -> None:
        """ONNX Runtime, OpenCV and the detection and recognition models, now."""
        import cv2  # noqa: F401
        import numpy  # noqa: F401

        with self._lock:
            self._settle("det", "rec")

    def recognize(self, crops: Sequence[Image]) -> list[Recognised]:
        import numpy as np

        if not crops:
            return []
        bgr = [np.ascontiguousarray(c[:, :, ::-1]) for c in crops]
        with self._lock:
            try:
                self._settle("rec")
                output = self._loaded().recognize_txt(bgr)
            except Exception as exc:
                raise EngineError(f"rapidocr recognition failed: {exc}") from exc
        if output.txts is None or output.scores is None:
            raise EngineError("rapidocr recognition returned no text for the crops")
        return [(str(t), float(s)) for t, s in zip(output.txts, output.scores, strict=True)]

    def read(self, image: Image) -> list[TextLine]:
        import cv2
        import numpy as np

        height, width = image.shape[:2]
        if min(height, width) < _MIN_DETECTION_SIDE:
            # rapidocr scales a page to its side limit and rounds each side to a multiple of
            # 32; a strip thinner than that rounds to 0 and fails. Its own edge extends it.
            image = np.asarray(
                cv2.copyMakeBorder(
                    image,
                    0,
                    max(0, _MIN_DETECTION_SIDE - height),
                    0,
                    max(0, _MIN_DETECTION_SIDE - width),
                    cv2.BORDER_REPLICATE,
                ),
                dtype=np.uint8,
            )
        from rapidocr.utils.output import RapidOCROutput

        bgr = np.ascontiguousarray(image[:, :, ::-1])
        with self._lock:
            try:
                self._settle("det", "rec")
                output = self._loaded()(bgr)
            except Exception as exc:
                raise EngineError(f"rapidocr failed: {exc}") from exc
        if not isinstance(output, RapidOCROutput):
            return []
        boxes, texts, scores = output.boxes, output.txts, output.scores
        if boxes is None or texts is None or scores is None:
            return []
        lines = []
        for quad, text, score in zip(boxes, texts, scores, strict=True):
            x, y, w, h = cv2.boundingRect(np.asarray(quad, dtype=np.float32))
            box = (min(x, width), min(y, height), min(x + w, width), min(y + h, height))
            lines.append(TextLine(text=str(text), box=box, confidence=float(score)))
        return lines


def stop_spinning(holder: SessionHolder, threads: int) -> None:
    """Swap the `InferenceSession` inside rapidocr's session wrapper for one that does not spin;
    settings otherwise as rapidocr makes them. Keeps rapidocr's own when its layout differs."""
    import onnxruntime as ort

    try:
        current = holder.session
        path = current._model_path
        providers = current.get_providers()
    except AttributeError:
        log.warning("rapidocr's ONNX session layout is unknown; its threads keep spinning")
        return
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.enable_cpu_mem_arena = False
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry(*_NO_SPINNING)
    holder.session = ort.InferenceSession(path, sess_options=options, providers=providers)


def plain_rapidocr(threads: int | None = None) -> RapidOCR:
    """`RapidOCR()` as a user would build it, for comparison: its defaults throughout; with
    `threads`, the same engine with only our thread settings (that many intra-op threads, one
    inter-op thread, pools that wait without spinning), so a comparison can tell the settings
    apart from the rest of the pipeline."""
    from rapidocr import RapidOCR

    if threads is None:
        return RapidOCR()
    count = default_threads(threads)
    engine = RapidOCR(
        params={
            "EngineConfig.onnxruntime.intra_op_num_threads": count,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }
    )
    if count > 1:
        for loader in _loaders(engine, "det", "cls", "rec"):
            stop_spinning(loader().session, count)
    return engine


def whole_page(engine: RapidOCR, path: str) -> RapidOCROutput | None:
    """`engine` on a whole image as a user calls it; None for a reply without a page reading
    (detection or recognition alone)."""
    from rapidocr.utils.output import RapidOCROutput

    output = engine(path)
    return output if isinstance(output, RapidOCROutput) else None
