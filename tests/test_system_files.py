"""Every system file the tests open is declared in `tests/system.py` with the make target
that installs it, and `make test` runs each of those targets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.system import SYSTEM_FILES, font_file, missing

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PATH = re.compile(r"/usr/(?:share/fonts|bin)/[\w.+/-]*[\w+-]")
OPENED_BY_TESTS = (
    *sorted((ROOT / "tests").rglob("*.py")),
    ROOT / "pipeline" / "bench" / "text_images.json",
)


def _paths_named_in(files: tuple[Path, ...]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for file in files:
        for path in SYSTEM_PATH.findall(file.read_text(encoding="utf-8")):
            found.setdefault(path, []).append(str(file.relative_to(ROOT)))
    return found


def _test_prerequisites() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = re.search(r"^test:(.*)$", makefile, re.MULTILINE)
    assert line is not None, "the Makefile has no test target"
    return set(line.group(1).split())


def test_every_font_or_program_path_the_tests_name_is_declared_with_its_package() -> None:
    named = _paths_named_in(OPENED_BY_TESTS)

    undeclared = {path: files for path, files in named.items() if path not in SYSTEM_FILES}

    assert named, "the grep found no system path at all: its pattern no longer matches"
    assert undeclared == {}, "declare these in tests/system.py with their package and target"


def test_make_test_runs_the_target_that_installs_each_declared_file() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    prerequisites = _test_prerequisites()

    for path, need in SYSTEM_FILES.items():
        assert need.target in prerequisites, f"`make test` does not run `make {need.target}`"
        assert need.package in makefile, f"no make target installs {need.package} ({path})"


def test_a_missing_font_fails_the_test_naming_the_package_and_the_target(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    font = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
    monkeypatch.setattr(Path, "exists", lambda _self: False)

    with pytest.raises(pytest.fail.Exception) as failed:
        font_file(font)

    assert str(failed.value) == missing(font)
    assert "fonts-noto-cjk" in str(failed.value) and "`make fonts`" in str(failed.value)
