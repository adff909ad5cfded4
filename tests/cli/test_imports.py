"""Imports follow the work: each command's module, imported in a fresh interpreter, loads none
of the heavy libraries its command does not need at once, and a cache hit through
`stockshot ingest` loads no OCR engine, no OpenCV, no MCP SDK and no host."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "erp-light-wh01.png"

OCR = ("rapidocr", "onnxruntime", "rapid_table", "paddle", "paddleocr", "pytesseract", "cv2")
HOST = ("mcp", "pipeline.host", "pipeline.vlm", "httpx", "uvicorn")
STORE = ("sqlalchemy",)

NOT_AT_IMPORT: dict[str, tuple[str, ...]] = {
    "ingest": (*OCR, *HOST, *STORE),
    "run": (*OCR, "mcp", "pipeline.vlm", "uvicorn", *STORE),
    "demo": (*OCR, *HOST, *STORE),
    "models": (*OCR, *HOST, *STORE),
    "profiles": (*OCR, *HOST, *STORE),
    "serve": (*OCR, *HOST, *STORE, "fastapi"),
    "watch": (*OCR, "mcp", "pipeline.vlm", *STORE),
    "bench": (*OCR, *HOST, *STORE),
    "worker": (*OCR, *STORE),
    "approvals": (*OCR, *STORE),
    "eval": OCR,
    "webhooks": (*OCR, *HOST, *STORE),
}
"""What importing each command's module must not load (its handler loads what it needs)."""

_LOADED = (
    "import sys; heavy = {heavy!r}; "
    "print([h for h in heavy if any(m == h or m.startswith(h + '.') for m in sys.modules)])"
)
_INGEST = """
import contextlib, io, json
from pipeline.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    main(["ingest", "--json", {image!r}])
print(json.loads(out.getvalue())["cache"])
"""


def _probe(code: str, heavy: tuple[str, ...], env: dict[str, str] | None = None) -> list[str]:
    """What `code` prints in a fresh interpreter, then which of `heavy` it loaded."""
    probe = f"{code}\n{_LOADED.format(heavy=heavy)}"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip().splitlines()


def test_every_command_is_guarded() -> None:
    assert set(NOT_AT_IMPORT) == set(COMMANDS) - {"store", "orders", "servers"}


@pytest.mark.parametrize("name", sorted(NOT_AT_IMPORT))
def test_a_commands_module_loads_only_what_its_command_needs_at_once(name: str) -> None:
    assert _probe(f"import {COMMANDS[name]}", NOT_AT_IMPORT[name]) == ["[]"]


def test_a_cache_hit_through_ingest_loads_no_engine_no_opencv_and_no_host(
    tmp_path: Path,
) -> None:
    env = {"STOCKSHOT_DATA_DIR": str(tmp_path)}
    ingest = _INGEST.format(image=str(SAMPLE))
    miss = _probe(ingest, ("rapidocr",), env)
    hit = _probe(ingest, (*OCR, *HOST, "numpy"), env)

    assert miss == ["miss", "['rapidocr']"]
    assert hit == ["disk", "[]"]
