"""Screens real products draw (the tune split of the UI-kit corpus): tables typed by their
content, cards and lists read as records, and a person's mapping laid over the typed one."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pipeline.ingest import Ingestor
from pipeline.ocr import OcrEngine
from pipeline.table.profiles import header_signature
from tests.conftest import ROOT, make_ingestor

TUNE = ROOT / "corpus" / "uikits" / "tune"


def truth(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((TUNE / f"{name}.truth.json").read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def ingestor(rapidocr: OcrEngine) -> Ingestor:
    return make_ingestor(rapidocr)


def fields(rows: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.sku, r.on_hand, r.reorder_point, r.warehouse_id) for r in rows]


def test_a_tile_view_reads_as_cards_with_every_tile(ingestor: Ingestor) -> None:
    result = ingestor.ingest_path(TUNE / "tabler-tiles-dark.png")
    expected = truth("tabler-tiles-dark.png")
    assert result.layout == "cards"
    assert fields(result.rows) == [
        (r["sku"], r["on_hand"], r["reorder_point"], r["warehouse_id"]) for r in expected["rows"]
    ]
    assert result.rows[0].name == expected["rows"][0]["name"]
    on_hand = next(c for c in result.table.columns if c.maps_to == "on_hand")
    assert (on_hand.header, on_hand.unit) == ("On hand", "pcs")


def test_a_phone_list_reads_as_a_list(ingestor: Ingestor) -> None:
    result = ingestor.ingest_path(TUNE / "Screenshot_20261205-081502.png")
    expected = truth("Screenshot_20261205-081502.png")
    assert result.layout == "list"
    assert [r.sku for r in result.rows] == [r["sku"] for r in expected["rows"]]


def test_a_table_with_units_and_an_on_order_column_is_typed_by_its_content(
    ingestor: Ingestor,
) -> None:
    result = ingestor.ingest_path(TUNE / "carbon-data-table.png")
    expected = truth("carbon-data-table.png")
    roles = {c.header: c.maps_to for c in result.table.columns}
    assert roles["In stock"] == "on_hand" and roles["On order"] is None
    assert [r.on_hand for r in result.rows] == [r["on_hand"] for r in expected["rows"]]
    # mixed units (boxes, bags, pcs, rolls): the column keeps its commonest
    assert next(c.unit for c in result.table.columns if c.header == "In stock") == "pcs"


class Saved:
    """Saved mappings by signature, as the store keeps them."""

    def __init__(self, profiles: Mapping[str, Mapping[str, str]]) -> None:
        self.profiles = profiles
        self.asked: list[str] = []

    def mapping(self, signature: str) -> Mapping[str, str] | None:
        self.asked.append(signature)
        return self.profiles.get(signature)


def test_a_saved_profile_maps_the_screen_and_a_given_mapping_beats_it(rapidocr: OcrEngine) -> None:
    plain = make_ingestor(rapidocr).ingest_path(TUNE / "carbon-data-table.png")
    signature = header_signature(plain.table.header)
    saved = Saved({signature: {"on_hand": "On order"}})
    ingestor = make_ingestor(rapidocr)
    ingestor.profiles = saved
    mapped = ingestor.ingest_path(TUNE / "carbon-data-table.png")
    assert saved.asked == [signature]
    assert {c.header: c.maps_to for c in mapped.table.columns}["On order"] == "on_hand"
    assert all(c.source == "profile" for c in mapped.table.columns)
    given = ingestor.ingest_path(TUNE / "carbon-data-table.png", columns={"on_hand": "In stock"})
    assert [r.on_hand for r in given.rows] == [r.on_hand for r in plain.rows]
    assert any(w.startswith("columns mapped by the caller") for w in given.warnings)


def test_a_list_whose_warehouse_is_only_its_selected_tab_takes_that_tabs_warehouse(
    ingestor: Ingestor,
) -> None:
    # Three tabs (WH-01, WH-02, WH-03) above the list; the page shows WH-02 underlined.
    result = ingestor.ingest_path(TUNE / "primer-list.png")
    assert truth("primer-list.png")["page_warehouse"] == "WH-02"
    assert result.page_warehouse == "WH-02"
    assert {r.warehouse_id for r in result.rows} == {"WH-02"}


def test_the_corpus_the_tests_read_is_the_tune_split() -> None:
    manifest = json.loads((TUNE / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["split"] == "tune"
    assert Path(TUNE).name == "tune"


def test_a_photographed_spreadsheet_reads_every_row_under_its_header_not_its_toolbar(
    ingestor: Ingestor,
) -> None:
    """The column letters and toolbar above a sheet's header are rows apart, not the lines of
    a wrapped header: the names line alone is the header."""
    image = ROOT / "corpus" / "photo-sheet-wh02.jpg"
    expected = json.loads(image.with_name(image.name + ".truth.json").read_text(encoding="utf-8"))
    result = ingestor.ingest_path(image)
    assert [r.sku for r in result.rows] == [r["sku"] for r in expected["rows"]]
