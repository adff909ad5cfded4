"""The case files load, validate, and say what the screenshots and the store say."""

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import InputError
from pipeline.evals.cases import (
    CATEGORIES,
    CORE_SIZE,
    SAMPLES_DIR,
    Case,
    first_calls,
    load_cases,
    load_truth,
    select_cases,
)
from pipeline.evals.scratch import SeededStore
from pipeline.host.groups import choose_groups
from servers.sqlite_store import SqliteStore
from tests.evals.conftest import write_cases

LIGHT = {
    "id": "a",
    "category": "core",
    "task": "raise replenishment orders",
    "images": ["erp-light-wh01.png"],
    "expect": {"outcome": "no_writes"},
}


def test_cases_load_with_unique_ids_real_images_and_fourteen_core(cases: list[Case]) -> None:
    assert len(cases) >= 40
    assert len({c.id for c in cases}) == len(cases)
    assert sum(c.core for c in cases) == CORE_SIZE
    for case in cases:
        for image in case.images:
            assert (SAMPLES_DIR / image.file).is_file()


def test_every_category_has_cases_and_tasks_come_in_english_and_chinese(
    cases: list[Case],
) -> None:
    assert {c.category for c in cases} == set(CATEGORIES)
    assert {c.language for c in cases} == {"en", "zh"}
    assert any(len(c.images) > 1 for c in cases)
    assert any(c.store for c in cases)


def test_the_core_subset_covers_replenishment_stale_confusion_unknown_multi_and_ask(
    cases: list[Case],
) -> None:
    core = [c for c in cases if c.core]
    assert {c.category for c in core} >= {
        "core",
        "stale",
        "confusion",
        "unknown_sku",
        "multi_image",
        "ask",
    }


def _write(tmp_path: Path, items: list[dict[str, Any]]) -> Path:
    return write_cases(tmp_path / "cases", json.dumps(items))


def test_a_duplicate_id_is_refused(tmp_path: Path) -> None:
    directory = _write(tmp_path, [LIGHT, LIGHT])
    with pytest.raises(InputError, match="appears twice"):
        load_cases(directory)


def test_an_image_that_is_not_a_sample_is_refused(tmp_path: Path) -> None:
    directory = _write(tmp_path, [{**LIGHT, "images": ["nope.png"]}])
    with pytest.raises(InputError, match=r"no sample image 'nope\.png'"):
        load_cases(directory)


def test_a_core_subset_of_another_size_is_refused(tmp_path: Path) -> None:
    directory = _write(tmp_path, [{**LIGHT, "core": True}])
    with pytest.raises(InputError, match="core subset has 1 cases; it must have 14"):
        load_cases(directory)


def test_a_malformed_case_names_its_file_and_id(tmp_path: Path) -> None:
    directory = _write(tmp_path, [{**LIGHT, "expect": {"outcome": "orders"}}])
    with pytest.raises(InputError, match=r"(?s)cases\.json, case a: .*needs at least one order"):
        load_cases(directory)


def test_select_keeps_the_core_subset_or_the_ids_asked_for(cases: list[Case]) -> None:
    assert len(select_cases(cases, subset="core")) == CORE_SIZE
    picked = select_cases(cases, ids=["ask-cropped-no-warehouse", "core-light-wh01"])
    assert [c.id for c in picked] == ["ask-cropped-no-warehouse", "core-light-wh01"]
    with pytest.raises(InputError, match="unknown case id"):
        select_cases(cases, ids=["no-such-case"])


def _screen_low(case: Case) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for image in case.images:
        truth = load_truth(image.file)
        for sku, warehouse, _, _ in truth.low(cropped=image.crop is not None):
            if warehouse is not None:
                found.add((sku, warehouse))
    return found


def test_expected_orders_are_the_screen_low_rows_still_low_in_the_changed_store(
    cases: list[Case], seeded: SeededStore
) -> None:
    """Guards the case data against typos: recomputed from the truth files and the store."""
    for case in cases:
        if case.category == "read_only":
            assert "orders" not in choose_groups(case.task), case.id
            continue
        shown = _screen_low(case)
        if case.expect.outcome == "ask":
            assert not shown, case.id
            continue
        path = seeded.scratch(case.id, case.store)
        with SqliteStore(path) as store, store.reading() as tx:
            live = {(lv.sku, lv.warehouse_id): lv for lv in tx.stock_levels()}
        seeded.discard(path)
        still_low = {key for key in shown if key in live and live[key].needs_reorder}
        expected = {(o.sku, o.warehouse_id) for o in case.expect.orders}
        assert expected == still_low, case.id
        if still_low:
            assert "orders" in choose_groups(case.task), case.id


def test_first_calls_accept_reads_from_the_screen_or_a_question(cases: list[Case]) -> None:
    light = next(c for c in cases if c.id == "core-light-wh01")
    options = first_calls(light)
    names = {o.name for o in options}
    assert names == {
        "warehouses_list",
        "inventory_query_stock",
        "inventory_get_item",
        "orders_list",
    }
    query = next(o for o in options if o.name == "inventory_query_stock")
    assert query.warehouse_ids == ("WH-01",)
    ask = next(c for c in cases if c.id == "ask-cropped-no-warehouse")
    assert any(o.ask for o in first_calls(ask))
