"""Every corpus generator's command (`screengen.command`): `--check` says which committed file
drifted or is no longer generated, a setup problem in one line, and a render by another
Chromium apart. Run in a child interpreter, as the corpus code is its own top-level package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

GENERATE = """
import sys
from pathlib import Path
sys.path.insert(0, {corpus!r})
from screengen.command import Generator, main
from screengen.fonts import MissingFontsError

root, scenario = Path(sys.argv[1]), sys.argv[2]
FILES = {{"a.png": b"pixels", "a.truth.json": b'{{"rows": 1}}'}}

def build(out):
    if scenario == "no-font":
        raise MissingFontsError("missing fonts: x.ttf; install them with: apt-get install fonts-x")
    for name, data in FILES.items():
        (out / name).write_bytes(data if scenario != "other-pixels" or name != "a.png" else b"moved")
    return list(FILES), ("157" if scenario == "other-pixels" else "156")

def listed(folder):
    return {{p.name for p in folder.iterdir()}}

gen = Generator(
    what="test",
    script="generate.py",
    root=root,
    build=build,
    listed=listed,
    setup_errors=(MissingFontsError,),
    recorded=lambda _: "156",
    same_data=lambda a, b: a.suffix == ".png" or a.read_bytes() == b.read_bytes(),
)
sys.exit(main(gen, "test", ["--check"] if scenario != "write" else []))
"""


def generate(root: Path, scenario: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", GENERATE.format(corpus=str(CORPUS)), str(root), scenario],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def committed(tmp_path: Path) -> Path:
    assert generate(tmp_path, "write").returncode == 0
    return tmp_path


def test_files_as_generated_are_up_to_date(committed: Path) -> None:
    result = generate(committed, "check")
    assert result.returncode == 0, result.stderr
    assert "2 test files are up to date (Chromium 156)" in result.stdout


def test_a_drifted_file_is_named_and_fails_the_check(committed: Path) -> None:
    (committed / "a.truth.json").write_text('{"rows": 2}')
    result = generate(committed, "check")
    assert result.returncode == 1
    assert "drift: a.truth.json" in result.stderr
    assert "run python generate.py" in result.stderr


def test_a_committed_file_no_longer_generated_is_stale(committed: Path) -> None:
    (committed / "old.png").write_bytes(b"gone")
    result = generate(committed, "check")
    assert result.returncode == 1
    assert "stale: old.png is no longer generated" in result.stderr


def test_a_missing_font_is_a_setup_problem_in_one_line(committed: Path) -> None:
    result = generate(committed, "no-font")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "missing fonts: x.ttf; install them with: apt-get install fonts-x"
    )


def test_another_chromium_compares_only_what_the_pixels_do_not_decide(committed: Path) -> None:
    result = generate(committed, "other-pixels")
    assert result.returncode == 3
    assert "Chromium 157 is installed" in result.stderr
    assert "(1 of 2 files differ)" in result.stderr
    (committed / "a.truth.json").write_text('{"rows": 2}')
    assert generate(committed, "other-pixels").returncode == 1
