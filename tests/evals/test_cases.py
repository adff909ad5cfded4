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
    SMOKE_DIR,
    TASK_FAMILIES,
    Case,
    first_calls,
    load_cases,
    select_cases,
)
from pipeline.evals.scratch import SeededStore
from store.models import OrderQuery
from store.stores import sqlite_store
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


def test_a_cancel_without_the_orders_it_cancels_is_refused(tmp_path: Path) -> None:
    directory = _write(tmp_path, [{**LIGHT, "expect": {"outcome": "cancel"}}])
    with pytest.raises(InputError, match="lists the cancelled orders"):
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


def test_every_expected_write_names_what_the_changed_store_holds(
    cases: list[Case], seeded: SeededStore
) -> None:
    """Guards the hand-written expectations against typos, without deriving them: an expected
    order is for a row the store stocks, an expected cancel is an order open before the run."""
    for case in cases:
        path = seeded.scratch(case.id, case.store)
        with sqlite_store(path) as store, store.reading() as tx:
            stocked = {(lv.sku, lv.warehouse_id) for lv in tx.stock_levels()}
            open_orders = {o.id for o in tx.orders(OrderQuery(status="open", limit=500))}
        seeded.discard(path)
        for order in case.expect.orders:
            assert (order.sku, order.warehouse_id) in stocked, case.id
        assert set(case.expect.cancelled) <= open_orders, case.id


def test_every_task_family_has_english_and_chinese_cases(cases: list[Case]) -> None:
    for family in TASK_FAMILIES:
        languages = {c.language for c in cases if c.category == family}
        assert languages == {"en", "zh"}, family


def test_a_task_that_narrows_the_request_lists_its_own_first_calls(cases: list[Case]) -> None:
    narrowing = ("scope", "one_sku", "exclusion", "cancel", "unsupported", "nothing_low")
    assert all(c.first_calls is not None for c in cases if c.category in narrowing)


def test_the_issues_four_requests_are_cases(cases: list[Case]) -> None:
    by_task = {c.task: c for c in cases}
    assert by_task["Which SKUs are low? Do not place any orders, just tell me."].expect.outcome == (
        "no_writes"
    )
    assert by_task["先别下单，看看哪些缺货"].expect.outcome == "no_writes"
    assert by_task["Cancel order PO-000001"].expect.cancelled == ("PO-000001",)
    (order,) = by_task["Order 10 units of SKU-10232 only"].expect.orders
    assert (order.sku, order.warehouse_id, order.quantity) == ("SKU-10232", "WH-01", 10)


def test_first_calls_accept_reads_from_the_screen_or_a_question(cases: list[Case]) -> None:
    light = next(c for c in cases if c.id == "core-light-wh01")
    options = first_calls(light)
    names = {o.name for o in options}
    assert names == {"inventory_query_stock", "inventory_get_item", "orders_list"}
    query = next(o for o in options if o.name == "inventory_query_stock")
    assert query.warehouse_ids == ("WH-01",)
    ask = next(c for c in cases if c.id == "ask-cropped-no-warehouse")
    assert any(o.ask for o in first_calls(ask))


def test_the_sealed_set_loads_apart_with_no_core_cases_and_ids_of_its_own() -> None:
    from pipeline.evals.cases import load_all_cases

    every = load_all_cases()
    sealed = [c for c in every if c.split == "sealed"]
    tuning = [c for c in every if c.split == "tuning"]
    assert len(sealed) >= 40 and not any(c.core for c in sealed)
    assert {c.language for c in sealed} == {"en", "zh"}
    assert len({c.id for c in every}) == len(every)
    assert sum(c.core for c in tuning) == CORE_SIZE
    assert select_cases(every, splits=("sealed",)) == sealed


def test_a_case_file_cannot_name_its_own_split(tmp_path: Path) -> None:
    directory = _write(tmp_path, [{**LIGHT, "split": "sealed"}])
    with pytest.raises(InputError, match="the split comes from the folder"):
        load_cases(directory)


def test_the_smoke_set_loads_apart_with_each_kind_in_english_and_chinese(
    cases: list[Case], seeded: SeededStore
) -> None:
    smoke = load_cases(SMOKE_DIR, split="smoke")
    assert len(smoke) >= 8 and not any(c.core for c in smoke)
    assert {c.language for c in smoke} == {"en", "zh"}
    assert {c.category for c in smoke} >= {"core", "report", "exclusion", "one_sku"}
    assert not {c.id for c in smoke} & {c.id for c in cases}
    core_images = {i.file for c in cases if c.core for i in c.images}
    assert not {i.file for c in smoke for i in c.images} & core_images
    for case in smoke:
        path = seeded.scratch(case.id, case.store)
        with sqlite_store(path) as store, store.reading() as tx:
            stocked = {(lv.sku, lv.warehouse_id) for lv in tx.stock_levels()}
        seeded.discard(path)
        assert all((o.sku, o.warehouse_id) in stocked for o in case.expect.orders), case.id
    assert select_cases(smoke, splits=("smoke",)) == smoke
