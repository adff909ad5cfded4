"""Tesseract 5 through its command line (Debian `tesseract-ocr`), one process per call.

`read` runs the page once and splits Tesseract's lines into cells at wide gaps. `recognize`
stacks all crops on one tall canvas, one per line with blank space between, runs one process
and hands each recognised word back to the crop whose band holds it: a process per crop would
cost a start-up and a model load each.

Tesseract reads small screen text badly; every image is first scaled so its capital letters
are about `_TARGET_CAP` pixels high, and light-on-dark text is inverted to dark-on-light.
"""

from __future__ import annotations

import csv
import io
import logging
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from pipeline.errors import EngineError, EngineNotInstalledError
from pipeline.models import TextLine
from pipeline.ocr.base import EngineOptions, Image, Recognised
from pipeline.pixels import Gray

__all__ = ["TesseractEngine"]

log = logging.getLogger(__name__)

_INSTALL_HINT = "tesseract is not installed: apt-get install tesseract-ocr tesseract-ocr-chi-sim"
_TARGET_CAP = 24.0
_MAX_SCALE = 4.0
# The canvas of `recognize` is cut into pieces no taller than this (Leptonica and Tesseract
# handle at most 32767 pixels a side; smaller pieces also bound a run's memory).
_MAX_CANVAS_HEIGHT = 16000
_MARGIN = 24
# `read` never enlarges a page beyond this many pixels a side (time and memory grow with area).
_MAX_READ_SIDE = 12000
_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_GAP = re.compile(f"(?<=[{_CJK}]) +(?=[{_CJK}])")


@dataclass(frozen=True)
class _Word:
    text: str
    confidence: float
    box: tuple[int, int, int, int]
    line: tuple[int, int, int]


class TesseractEngine:
    name = "tesseract"

    def __init__(
        self,
        options: EngineOptions,
        *,
        lang: str | None = None,
        read_psm: int = 6,
        timeout_s: float = 120.0,
        binary: str = "tesseract",
    ) -> None:
        """`lang` None: English, plus Simplified Chinese when its data is installed. `read_psm`
        6 (one block) read table screenshots better and faster than 11 (sparse text).
        `options.threads` is not used: each call is one single-threaded process."""
        path = shutil.which(binary)
        if path is None:
            raise EngineNotInstalledError(_INSTALL_HINT)
        self._binary = path
        self._read_psm = read_psm
        self._timeout_s = timeout_s
        # Tesseract's OpenMP threads make it slower on a few cores, not faster.
        self._env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        self.lang = lang or self._default_lang()
        self.models = f"{self._version()}|{self.lang}"

    def _version(self) -> str:
        """Its first `--version` line (the cache key changes with the engine's version)."""
        try:
            done = subprocess.run(
                [self._binary, "--version"], capture_output=True, env=self._env, timeout=30,
                check=False,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired):
            return "tesseract"
        lines = done.stdout.decode("utf-8", "replace").splitlines()
        return lines[0] if lines else "tesseract"

    def _default_lang(self) -> str:
        output = self._call([self._binary, "--list-langs"], b"").decode("utf-8", "replace")
        installed = {line.strip() for line in output.splitlines()[1:]}
        if "eng" not in installed:
            raise EngineNotInstalledError(f"tesseract has no English data; {_INSTALL_HINT}")
        return "eng+chi_sim" if "chi_sim" in installed else "eng"

    def recognize(self, crops: Sequence[Image]) -> list[Recognised]:
        results: list[Recognised] = [("", 0.0)] * len(crops)
        prepared: list[tuple[int, Gray]] = []
        for k, crop in enumerate(crops):
            if crop.size == 0:
                continue
            gray = _dark_on_light(_to_gray(crop))
            scale = _scale_for(gray, fallback_cap=gray.shape[0] * 0.5)
            prepared.append((k, _resize(gray, scale)))
        piece: list[tuple[int, Gray]] = []
        height = _MARGIN
        for item in prepared:
            step = item[1].shape[0] + _gap(item[1])
            if piece and height + step > _MAX_CANVAS_HEIGHT:
                self._recognize_piece(piece, results)
                piece, height = [], _MARGIN
            piece.append(item)
            height += step
        if piece:
            self._recognize_piece(piece, results)
        return results

    def _recognize_piece(self, piece: list[tuple[int, Gray]], results: list[Recognised]) -> None:
        width = max(g.shape[1] for _, g in piece) + 2 * _MARGIN
        height = _MARGIN + sum(g.shape[0] + _gap(g) for _, g in piece)
        canvas = np.full((height, width), 255, dtype=np.uint8)
        bands: list[tuple[int, int, int]] = []
        y = _MARGIN
        for k, gray in piece:
            h, w = gray.shape
            canvas[y : y + h, _MARGIN : _MARGIN + w] = gray
            bands.append((k, y, y + h))
            y += h + _gap(gray)
        # 6 (one uniform block), not 4 (a column of lines of varying size): 4 reads table cells
        # about as well but drops every single-character crop ("7", "0").
        words = self._run(canvas, psm=6)
        found: dict[int, list[_Word]] = {}
        for word in words:
            centre = (word.box[1] + word.box[3]) / 2
            k = min(bands, key=lambda b: max(b[1] - centre, centre - b[2], 0.0))[0]
            found.setdefault(k, []).append(word)
        for k, members in found.items():
            members.sort(key=lambda w: (w.line, w.box[0]))
            results[k] = (_join(members), min(w.confidence for w in members))

    def read(self, image: Image) -> list[TextLine]:
        if image.size == 0:
            return []
        gray = _to_gray(image)
        scale = _scale_for(_dark_on_light(gray), fallback_cap=_TARGET_CAP)
        scale = min(scale, max(1.0, _MAX_READ_SIDE / max(gray.shape)))
        words = self._run(_resize(gray, scale), psm=self._read_psm)
        lines: list[TextLine] = []
        for segment in _segments(words):
            x0 = min(w.box[0] for w in segment)
            y0 = min(w.box[1] for w in segment)
            x1 = max(w.box[2] for w in segment)
            y1 = max(w.box[3] for w in segment)
            box = (
                int(x0 / scale),
                int(y0 / scale),
                int(np.ceil(x1 / scale)),
                int(np.ceil(y1 / scale)),
            )
            confidence = min(w.confidence for w in segment)
            lines.append(TextLine(text=_join(segment), box=box, confidence=confidence))
        return lines

    def _run(self, gray: Gray, *, psm: int) -> list[_Word]:
        ok, encoded = cv2.imencode(".png", gray, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        if not ok:
            raise EngineError("could not encode the image for tesseract")
        command = [
            self._binary,
            "stdin",
            "stdout",
            "-l",
            self.lang,
            "--oem",
            "1",
            "--psm",
            str(psm),
            # Screenshots carry no resolution; saying one avoids Tesseract's guess and warning.
            "--dpi",
            "300",
            "tsv",
        ]
        log.debug("tesseract --psm %d on %dx%d", psm, gray.shape[1], gray.shape[0])
        output = self._call(command, encoded.tobytes())
        return _parse_tsv(output.decode("utf-8", "replace"))

    def _call(self, command: list[str], stdin: bytes) -> bytes:
        try:
            done = subprocess.run(
                command,
                input=stdin,
                capture_output=True,
                env=self._env,
                timeout=self._timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise EngineError(f"tesseract took longer than {self._timeout_s:g} s") from exc
        except FileNotFoundError as exc:
            raise EngineNotInstalledError(_INSTALL_HINT) from exc
        except OSError as exc:
            raise EngineError(f"tesseract could not run: {exc}") from exc
        if done.returncode != 0:
            detail = done.stderr.decode("utf-8", "replace").strip()[-500:]
            raise EngineError(f"tesseract failed (exit {done.returncode}): {detail}")
        return done.stdout


def _parse_tsv(tsv: str) -> list[_Word]:
    words: list[_Word] = []
    reader = csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE)
    for row in reader:
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        left, top = int(row["left"]), int(row["top"])
        right, bottom = left + int(row["width"]), top + int(row["height"])
        confidence = min(1.0, max(0.0, float(row["conf"]) / 100))
        line = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        words.append(_Word(text, confidence, (left, top, right, bottom), line))
    return words


def _join(words: Sequence[_Word]) -> str:
    """Words joined by spaces, except between two CJK characters (Tesseract splits Chinese
    text into one word per character)."""
    return _CJK_GAP.sub("", " ".join(w.text for w in words))


def _segments(words: list[_Word]) -> list[list[_Word]]:
    """Tesseract's lines cut where the space between two words is wider than the line is high
    (a column gap, not a word space)."""
    by_line: dict[tuple[int, int, int], list[_Word]] = {}
    for word in words:
        by_line.setdefault(word.line, []).append(word)
    segments: list[list[_Word]] = []
    for members in by_line.values():
        members.sort(key=lambda w: w.box[0])
        height = float(np.median([w.box[3] - w.box[1] for w in members]))
        current = [members[0]]
        for word in members[1:]:
            if word.box[0] - current[-1].box[2] > height * 1.2:
                segments.append(current)
                current = []
            current.append(word)
        segments.append(current)
    return segments


def _to_gray(image: Image) -> Gray:
    if image.ndim == 2:
        return np.ascontiguousarray(image)
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY), dtype=np.uint8)


def _dark_on_light(gray: Gray) -> Gray:
    """Inverted when the background (the border pixels) is darker than mid-grey."""
    border = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    if float(np.median(border)) < 128:
        return np.asarray(255 - gray, dtype=np.uint8)
    return gray


def _cap_height(gray: Gray) -> float | None:
    """The typical height of tall glyphs (capitals, digits): a high percentile of the heights
    of the ink's connected components, rules and boxes left out."""
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return None
    widths = stats[1:, cv2.CC_STAT_WIDTH]
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    glyph = (heights >= 4) & (heights <= 200) & (widths <= heights * 4) & (heights <= widths * 8)
    if not glyph.any():
        return None
    return float(np.percentile(heights[glyph], 80))


def _scale_for(gray: Gray, *, fallback_cap: float) -> float:
    cap = _cap_height(gray) or fallback_cap
    return float(min(_MAX_SCALE, max(1.0, _TARGET_CAP / max(cap, 1.0))))


def _resize(gray: Gray, scale: float) -> Gray:
    if scale == 1.0:
        return gray
    return np.asarray(
        cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC), dtype=np.uint8
    )


def _gap(gray: Gray) -> int:
    return max(_MARGIN, int(gray.shape[0]))
