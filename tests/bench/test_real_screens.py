"""The real products' screens in the bench: their split, and rows scored by the scorer's rules."""

import json
from pathlib import Path

import pytest

from pipeline.bench.real_screens import SPLIT_FILE, _scorer, load_real_screens, score_rows
from pipeline.errors import InputError

SHARED = next(
    (
        p
        for p in (
            Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real-screens",
            Path("/work/shared/data/real-screens"),
        )
        if (p / "score.py").is_file()
    ),
    None,
)
needs_shared = pytest.mark.skipif(SHARED is None, reason="the shared real-screens folder is absent")


def _folder(tmp_path: Path, cases: list[dict[str, object]], split: dict[str, list[str]]) -> Path:
    (tmp_path / "truth.json").write_text(json.dumps(cases), encoding="utf-8")
    (tmp_path / "split.json").write_text(json.dumps(split), encoding="utf-8")
    return tmp_path


def _case(name: str, product: str) -> dict[str, object]:
    return {"file": name, "product": product, "layout": "table", "shown": ["sku"], "rows": []}


def test_screens_are_listed_tuning_first_with_their_product_and_layout(tmp_path: Path) -> None:
    folder = _folder(
        tmp_path,
        [_case("b.png", "Beta"), _case("a.png", "Alpha")],
        {"tuning": ["a.png"], "sealed": ["b.png"]},
    )
    screens = load_real_screens(folder, folder / "split.json")
    assert [(s.path.name, s.split, s.product) for s in screens] == [
        ("a.png", "tuning", "Alpha"),
        ("b.png", "sealed", "Beta"),
    ]


def test_a_screen_the_split_does_not_name_is_refused_by_name(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [_case("new.png", "Gamma")], {"tuning": [], "sealed": []})
    with pytest.raises(InputError, match=r"names no split for new\.png"):
        load_real_screens(folder, folder / "split.json")


@needs_shared
def test_the_split_names_every_real_screen_once_and_keeps_each_product_on_one_side() -> None:
    assert SHARED is not None
    cases = json.loads((SHARED / "truth.json").read_text(encoding="utf-8"))
    split = json.loads(SPLIT_FILE.read_text(encoding="utf-8"))
    assert sorted(split["tuning"] + split["sealed"]) == sorted(c["file"] for c in cases)
    side = {name: s for s in ("tuning", "sealed") for name in split[s]}
    products: dict[str, set[str]] = {}
    for case in cases:
        products.setdefault(case["product"].split(" (")[0].split(" /")[0], set()).add(
            side[case["file"]]
        )
    assert all(len(sides) == 1 for sides in products.values())


@needs_shared
def test_rows_are_matched_by_any_identifier_field_and_codes_compare_as_the_scorer_does() -> None:
    assert SHARED is not None
    scorer = _scorer(SHARED)
    truth = {
        "shown": ["sku", "name", "on_hand"],
        "rows": [
            {"sku": "N5500DS_B-copy", "name": "Nikon Black", "on_hand": 9999},
            {"sku": "4006381333931", "name": "Pen", "on_hand": 8},
            {"sku": "R1", "name": "Reifen", "on_hand": 0},
        ],
    }
    rows = [
        {"sku": "N5500DS_B-copy", "name": "Nikon Black", "on_hand": 9999},
        {"barcode": "4006381333931", "name": "Pen", "on_hand": 80},
    ]
    score = score_rows(scorer, truth, rows)
    assert (score.rows_found, score.rows) == (2, 3)
    assert (score.fields_right, score.fields) == (5, 9)
