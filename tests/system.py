"""The system files and programs the tests open, each with the Debian package that provides it
and the make target that installs it; `make test` runs every such target before the suite.

`tests/test_system_files.py` greps the tests (and the bench's text images, which a test draws)
for paths under /usr/share/fonts and /usr/bin and fails on one that is not listed here, and
checks that each target is one `make test` runs, so the list cannot drift from what the tests
open. A test takes a font through `font_file`, which fails naming the package when it is
missing (`make test` installs it; a skip would hide a machine that was never set up)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["SYSTEM_FILES", "Need", "font_file"]


@dataclass(frozen=True)
class Need:
    package: str
    """The Debian package that provides the file."""
    target: str
    """The make target that installs it."""


_CJK = Need("fonts-noto-cjk", "fonts")
_DEJAVU = Need("fonts-dejavu-core", "fonts")

SYSTEM_FILES: dict[str, Need] = {
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc": _CJK,
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc": _CJK,
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf": _DEJAVU,
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf": _DEJAVU,
    "/usr/bin/chromium": Need("chromium", "chromium"),
    "/usr/bin/tesseract": Need("tesseract-ocr", "tesseract"),
}


def missing(path: str) -> str | None:
    """What to do about `path` when it is not on this machine, or None when it is."""
    if Path(path).exists():
        return None
    need = SYSTEM_FILES[path]
    return (
        f"{path} is missing: Debian's {need.package} provides it; `make {need.target}` installs "
        "it (`make test` runs that first)"
    )


def font_file(path: str) -> str:
    """`path`, a font the tests draw with; the test fails naming its package when it is
    missing."""
    why = missing(path)
    if why is not None:
        pytest.fail(why, pytrace=False)
    return path
