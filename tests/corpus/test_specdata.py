"""The UI-kit corpus's screens are data files, loaded and checked by `screengen.specdata`.

The corpus code is its own top-level package (`corpus/`), so it runs in a child interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
SCREENS = CORPUS / "uikits" / "screens"

LOAD = """
import sys
from pathlib import Path
sys.path.insert(0, {corpus!r})
from uikits.model import UiSpec
from screengen.specdata import SpecDataError, entries, read_data
path = Path(sys.argv[1])
try:
    found = entries(read_data(path), "renders", UiSpec, path)
except SpecDataError as exc:
    print(exc)
    sys.exit(1)
print(len(found), found[0].kit, found[0].screen.zoom, found[0].formats.language)
"""


def _child(snippet: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", snippet.format(corpus=str(CORPUS)), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _load(path: Path) -> subprocess.CompletedProcess[str]:
    return _child(LOAD, path)


def _edited(tmp_path: Path, change: dict[str, object]) -> Path:
    doc = json.loads((SCREENS / "tune.json").read_text(encoding="utf-8"))
    doc["renders"][0].update(change)
    path = tmp_path / "tune.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_both_splits_load_with_seventeen_renders_and_their_defaults() -> None:
    for split in ("tune", "sealed"):
        result = _load(SCREENS / f"{split}.json")
        assert result.returncode == 0, result.stdout + result.stderr
        count, _kit, zoom, language = result.stdout.split()
        assert count == "17" and float(zoom) > 0 and language in ("en", "zh")


def test_a_misspelt_field_is_an_error_that_names_it(tmp_path: Path) -> None:
    result = _load(_edited(tmp_path, {"titel": "Stock"}))
    assert result.returncode == 1
    assert "no such field: renders[0].titel" in result.stdout


def test_a_value_outside_its_kind_is_an_error_that_names_the_field(tmp_path: Path) -> None:
    result = _load(_edited(tmp_path, {"cue": "sidebar"}))
    assert result.returncode == 1
    assert "cue" in result.stdout and "sidebar" in result.stdout


SHARED = """
import json, sys
from pathlib import Path
sys.path.insert(0, {corpus!r})
from uikits.model import UiSpec
from screengen.specdata import SpecDataError, entries
path = Path(sys.argv[1])
doc = json.loads(path.read_text(encoding="utf-8"))
try:
    found = entries(doc, "renders", UiSpec, path)
except SpecDataError as exc:
    print(exc)
    sys.exit(1)
print(found[0].formats.language, found[0].formats.low, found[0].formats.ok)
"""


def _shared(tmp_path: Path, formats: object) -> subprocess.CompletedProcess[str]:
    doc = json.loads((SCREENS / "tune.json").read_text(encoding="utf-8"))
    doc["shared"] = {"zh": {"language": "zh", "low": "库存不足", "ok": "正常"}}
    doc["renders"] = [{**doc["renders"][0], "formats": formats}]
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return _child(SHARED, path)


def test_a_shared_value_is_named_whole_or_with_fields_changed(tmp_path: Path) -> None:
    assert _shared(tmp_path, "@zh").stdout.split() == ["zh", "库存不足", "正常"]
    changed = _shared(tmp_path, {"@": "zh", "low": "预警"})
    assert changed.stdout.split() == ["zh", "预警", "正常"]


def test_naming_a_shared_value_that_is_not_there_is_an_error_listing_those_that_are(
    tmp_path: Path,
) -> None:
    result = _shared(tmp_path, "@en")
    assert result.returncode == 1
    assert "no shared value 'en' (shared: zh)" in result.stdout
