"""Two readings of one task meet: a second reading can narrow what the first allows, never
widen it."""

import pytest

from pipeline.contract import (
    ContractAnswer,
    QuantityRule,
    TaskContract,
    meet,
    offer,
    read_task,
    settle,
    widenings,
)
from tests.contract.answers import answer

REPLENISH = TaskContract(action="replenish", writes_allowed=True)
REPORT = TaskContract(action="report", writes_allowed=False)


def replenish(**fields: object) -> TaskContract:
    return TaskContract.model_validate({"action": "replenish", "writes_allowed": True, **fields})


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (REPLENISH, REPORT, REPORT),
        (
            replenish(warehouses=("WH-01", "WH-02")),
            replenish(warehouses=("WH-02",)),
            replenish(warehouses=("WH-02",)),
        ),
        (
            replenish(exclude_skus=("SKU-1",)),
            replenish(exclude_skus=("SKU-2",)),
            replenish(exclude_skus=("SKU-1", "SKU-2")),
        ),
        (
            replenish(skus=("SKU-1", "SKU-2")),
            replenish(exclude_skus=("SKU-2",)),
            replenish(skus=("SKU-1",), exclude_skus=("SKU-2",)),
        ),
        (
            replenish(quantity_rule=QuantityRule(kind="at_most", value=20)),
            replenish(quantity_rule=QuantityRule(kind="at_most", value=20)),
            replenish(quantity_rule=QuantityRule(kind="at_most", value=20)),
        ),
    ],
)
def test_the_meet_allows_what_both_readings_allow(
    a: TaskContract, b: TaskContract, expected: TaskContract
) -> None:
    got = meet(a, b)
    assert (got.action, got.writes_allowed, got.warehouses, got.skus) == (
        expected.action,
        expected.writes_allowed,
        expected.warehouses,
        expected.skus,
    )
    assert set(got.exclude_skus) == set(expected.exclude_skus)
    assert got.quantity_rule == expected.quantity_rule
    assert widenings(got, a) == [] and widenings(got, b) == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (replenish(warehouses=("WH-01",)), replenish(warehouses=("WH-02",))),
        (REPLENISH, TaskContract(action="cancel", writes_allowed=True, order_ids=("PO-000001",))),
        (replenish(quantity_rule=QuantityRule(kind="each", value=30)), REPLENISH),
        (
            TaskContract(action="cancel", writes_allowed=True, order_ids=("PO-000001",)),
            TaskContract(action="cancel", writes_allowed=True, order_ids=("PO-000002",)),
        ),
    ],
)
def test_readings_that_disagree_leave_no_writes_and_say_so(
    a: TaskContract, b: TaskContract
) -> None:
    got = meet(a, b)
    assert not got.writes_allowed
    assert got.notes


def test_a_quantity_the_readings_disagree_on_leaves_that_sku_out() -> None:
    a = TaskContract(
        action="order",
        writes_allowed=True,
        skus=("SKU-1", "SKU-2"),
        quantities={"SKU-1": 10, "SKU-2": 5},
    )
    b = a.model_copy(update={"quantities": {"SKU-1": 10, "SKU-2": 50}})
    got = meet(a, b)
    assert (got.skus, got.quantities, "SKU-2" in got.exclude_skus) == (
        ("SKU-1",),
        {"SKU-1": 10},
        True,
    )


def test_widenings_name_what_one_reading_allows_beyond_the_other() -> None:
    assert widenings(REPLENISH, REPORT) == ["replenish with writes where the other allows none"]
    assert widenings(REPLENISH, replenish(exclude_skus=("SKU-1",))) == [
        "SKU-1, which the other excludes"
    ]
    assert widenings(replenish(exclude_skus=("SKU-1",)), REPLENISH) == []
    assert widenings(REPORT, REPLENISH) == []


def test_a_models_reading_recovers_a_safe_miss_and_cannot_widen_it() -> None:
    reading = read_task("Replenish the low rows, SKU-10232 is being audited.")
    assert not reading.contract.writes_allowed
    # The model reads it right: everything low but SKU-10232.
    right = ContractAnswer.model_validate(answer(exclude_skus=["SKU-10232"])).to_contract()
    final, blocked = settle(reading, right)
    assert (final.action, final.writes_allowed, blocked) == ("replenish", True, [])
    assert "SKU-10232" in final.exclude_skus
    # The model reads it wrong: only SKU-10232. The meet keeps SKU-10232 out.
    wrong = right.model_copy(update={"skus": ("SKU-10232",), "exclude_skus": ()})
    final, blocked = settle(reading, wrong)
    assert not final.writes_allowed or not final.allows_sku("SKU-10232")
    assert blocked == ["SKU-10232, which the other excludes"]


def test_a_deferral_stays_a_report_whatever_the_model_reads() -> None:
    reading = read_task("List the low SKUs; I will order them myself later.")
    final, blocked = settle(reading, REPLENISH)
    assert (final.action, final.writes_allowed) == ("report", False)
    assert blocked == ["replenish with writes where the other allows none"]


def test_a_model_answer_that_defers_is_a_report() -> None:
    deferred = ContractAnswer.model_validate(answer(deferred=True))
    assert not deferred.to_contract().writes_allowed


def test_without_a_models_reading_the_reader_alone_decides() -> None:
    reading = read_task("Replenish the low rows, SKU-10232 is being audited.")
    assert settle(reading, None) == (reading.contract, [])


def test_a_full_reading_stands_whatever_the_model_reads() -> None:
    reading = read_task("Replenish the low rows except SKU-10232.")
    assert reading.contract.understood
    # The real 1.5B read the excluded SKU as the only one to order.
    only = ContractAnswer.model_validate(answer(skus=["SKU-10232"])).to_contract()
    final, blocked = settle(reading, only)
    assert final == reading.contract
    assert "SKU-10232, which the other excludes" in blocked
    # A narrower reading (a report) does not take the reader's right reading away either.
    final, blocked = settle(reading, REPORT)
    assert (final, blocked) == (reading.contract, [])


def test_a_condition_on_live_on_hand_meets_as_the_lower_and_dropping_it_widens() -> None:
    below_50, below_20 = replenish(on_hand_below=50), replenish(on_hand_below=20)
    assert meet(below_50, below_20).on_hand_below == 20
    assert meet(REPLENISH, below_50).on_hand_below == 50
    assert widenings(REPLENISH, below_50) == ["SKUs with 50 or more on hand"]
    assert widenings(below_50, below_20) == ["SKUs with 20 or more on hand"]
    assert widenings(below_20, below_50) == []


def test_a_reading_not_made_in_full_offers_a_question_and_a_full_one_none() -> None:
    left = read_task("Replenish the low rows, SKU-10232 is quarantined.")
    asked = offer(left, left.contract)
    assert asked is not None and asked.source == "reader"
    assert asked.contract.writes_allowed and asked.contract.exclude_skus == ("SKU-10232",)
    assert "I read this as: replenish every low SKU except SKU-10232" in asked.text

    full = read_task("Which SKUs are low?")
    assert offer(full, full.contract, model=REPLENISH) is None
    deferred = read_task("Replenish the low items next week, blorp")
    assert offer(deferred, deferred.contract, model=REPLENISH) is None


@pytest.mark.parametrize(
    ("task", "asked_for"),
    [
        ("Grab 20 of SKU-10232.", "order 20 units of SKU-10232"),
        ("SKU-10232 x 40", "order 40 units of SKU-10232"),
        ("Bump the low SKUs up to 150.", "a stock level of 150 units each"),
        ("给 SKU-10232 和 SKU-10310 各下 20 个。", "20"),
        ("Handle the low stock in WH-02 please.", "WH-02"),
        ("Drop PO-1001.", "cancel PO-001001"),
        ("Fill SKU-10232 up to 300.", "a stock level of 300"),
        ("I don't want PO-1001 anymore.", "cancel PO-001001"),
        ("PO-1001 不要了。", "cancel PO-001001"),
    ],
)
def test_a_request_whose_act_is_in_words_not_understood_asks_with_the_write_it_sizes(
    task: str, asked_for: str
) -> None:
    reading = read_task(task)
    assert not reading.contract.writes_allowed
    asked = offer(reading, reading.contract)
    assert asked is not None and asked.source == "reader"
    assert asked.contract.writes_allowed
    assert asked_for in asked.text


@pytest.mark.parametrize(
    ("task", "excluded"),
    [
        ("Restock all low items sans SKU-10232.", ("SKU-10232",)),
        ("Replenish the low SKUs bar SKU-10232 and SKU-10310.", ("SKU-10232", "SKU-10310")),
    ],
)
def test_ids_right_after_a_word_not_understood_are_never_written_by_the_question(
    task: str, excluded: tuple[str, ...]
) -> None:
    reading = read_task(task)
    asked = offer(reading, reading.contract)
    assert asked is not None
    assert asked.contract.skus == () and asked.contract.exclude_skus == excluded


def test_a_question_never_offers_a_write_to_ids_the_word_not_understood_may_leave_out() -> None:
    reading = read_task("Restock especially SKU-10232.")
    assert offer(reading, reading.contract) is None


@pytest.mark.parametrize(
    "task",
    [
        "Don't grab 20 of SKU-10232.",
        "If you grabbed 20 of SKU-10232, what would be left?",
        "Which items are low, roughly?",
        "How many units of SKU-10232 are left, approx?",
        "I'll grab 20 of SKU-10232 myself.",
        "Grab 20 of SKU-10232 next week.",
        "Don't drop PO-1001.",
        "Is PO-1001 still open?",
        "Restock all low items. Wait, no — just SKU-10232.",
        "Reorder SKU-10232, no wait, SKU-10310.",
        "Restock everything low. Scratch that, nothing.",
        "补 SKU-10232，不对，补 SKU-10310。",
    ],
)
def test_a_request_that_forbids_defers_or_only_asks_offers_no_write(task: str) -> None:
    reading = read_task(task)
    assert not reading.contract.writes_allowed
    assert offer(reading, reading.contract) is None


def test_a_models_wider_reading_is_offered_as_a_question_never_acted_on() -> None:
    reading = read_task("Please restock the low items, zorbly")
    final, _ = settle(reading, REPLENISH)
    asked = offer(reading, final, model=REPLENISH)
    assert not final.writes_allowed
    assert asked is not None and asked.source == "model" and asked.contract == REPLENISH


def test_a_final_report_covers_what_the_reader_reports_never_what_writes_left_out() -> None:
    reading = read_task("Replenish the low items in WH-02, zorbly SKU-10232")
    final, _ = settle(reading, TaskContract(action="report", writes_allowed=False))
    assert not final.writes_allowed
    assert "SKU-10232" not in final.exclude_skus
    assert final.warehouses == reading.contract.warehouses


def test_no_models_reading_is_offered_where_the_words_not_understood_limit_the_task() -> None:
    # "no packaging" leaves out items the reader cannot name: any reading that writes every
    # low item would be wider, the model's as much as the reader's.
    reading = read_task("Restock the low items, no packaging")
    final, _ = settle(reading, REPLENISH)
    assert offer(reading, final, model=REPLENISH) is None


def test_a_models_reading_that_writes_to_what_the_task_leaves_out_is_never_offered() -> None:
    reading = read_task("Restock the low items except SKU-10232, zorbly")
    final, _ = settle(reading, REPLENISH)
    writes_it = TaskContract(action="replenish", writes_allowed=True, skus=("SKU-10232",))
    asked = offer(reading, final, model=writes_it)
    assert asked is None or asked.source == "reader"
