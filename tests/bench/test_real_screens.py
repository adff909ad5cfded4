"""The real products' screens in the bench: their split, and rows scored by the scorer's rules."""

import json
from pathlib import Path
from typing import Any, cast

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


def test_the_rendered_products_split_names_each_screen_once_and_seals_whole_page_kinds() -> None:
    folder = SPLIT_FILE.parents[1] / "real-products"
    cases = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    split = json.loads((folder / "split.json").read_text(encoding="utf-8"))
    assert sorted(split["tuning"] + split["sealed"]) == sorted(c["file"] for c in cases)
    assert all((folder / c["file"]).is_file() for c in cases)
    side = {name: s for s in ("tuning", "sealed") for name in split[s]}
    kinds: dict[str, set[str]] = {}
    for case in cases:
        kinds.setdefault(case["kind"], set()).add(side[case["file"]])
    assert all(len(sides) == 1 for sides in kinds.values())
    assert {k for k, sides in kinds.items() if sides == {"sealed"}} == set(split["sealed_kinds"])
    screens = load_real_screens(folder, folder / "split.json")
    assert [s.split for s in screens] == sorted((s.split for s in screens), reverse=True)


def test_rendered_products_without_the_real_screens_scorer_are_not_measured_and_say_why(
    tmp_path: Path,
) -> None:
    from pipeline.bench.real_screens import measure_real_products

    doc = measure_real_products(cast(Any, None), tmp_path, None)
    assert doc == {"error": "the scorer lives beside the real screens: give --real-screens too"}


def _group(name: str, right: int) -> dict[str, object]:
    return {
        "name": name,
        "images": 1,
        "fields_right": right,
        "fields": 10,
        "rows_found": 2,
        "rows": 4,
        "images_with_no_rows": 0,
        "median_s": 3.0,
    }


def test_the_rendered_products_report_names_tuning_images_but_never_a_sealed_one() -> None:
    from pipeline.bench.report_accuracy import real_products_section

    doc = {
        "real_products": {
            "folder": "corpus/real-products",
            "split_file": "corpus/real-products/split.json",
            "splits": {
                "tuning": {
                    "total": _group("tuning", 7),
                    "products": [_group("django-oscar", 7)],
                    "layouts": [_group("table", 7)],
                    "images": [_group("oscar-products-1280.png", 7)],
                },
                "sealed": {
                    "total": _group("sealed", 3),
                    "products": [_group("Tryton", 3)],
                    "layouts": [_group("tree", 3)],
                    "images": [],
                },
            },
        }
    }
    text = "\n".join(real_products_section(cast(Any, doc)))
    assert "oscar-products-1280.png | 1 | 7/10 (70.0%)" in text
    assert "### Sealed split" in text and "Tryton | 1 | 3/10 (30.0%)" in text
    assert "plain `RapidOCR()`" not in text
    assert "Not measured" in "\n".join(real_products_section(cast(Any, {})))
