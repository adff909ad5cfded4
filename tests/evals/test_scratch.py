"""Scratch stores: a case's removals reach only its own copy of the seeded store."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.evals.cases import StoreChange
from pipeline.evals.scratch import SeededStore, read_ledger
from store.stores import open_store

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _stocked(path: Path) -> set[tuple[str, str]]:
    with open_store(str(path)) as store:
        return set(read_ledger(store, all_stock=True).live)


def test_a_removal_forgets_the_row_or_the_item_in_the_copy_and_leaves_the_seeded_store(
    tmp_path: Path,
) -> None:
    seeded = SeededStore(tmp_path, now=NOW)
    before = _stocked(seeded.path)
    one_row = seeded.scratch(
        "row", [StoreChange(op="remove", sku="SKU-10231", warehouse_id="WH-01")]
    )
    everywhere = seeded.scratch("item", [StoreChange(op="remove", sku="SKU-10232")])
    assert _stocked(one_row) == before - {("SKU-10231", "WH-01")}
    assert _stocked(everywhere) == {key for key in before if key[0] != "SKU-10232"}
    assert _stocked(seeded.path) == before


def test_removing_what_is_not_stocked_is_refused_saying_so(tmp_path: Path) -> None:
    seeded = SeededStore(tmp_path, now=NOW)
    change = StoreChange(op="remove", sku="SKU-10231", warehouse_id="WH-99")
    with pytest.raises(InputError, match="remove: SKU-10231 is not stocked in WH-99"):
        seeded.scratch("missing", [change])
