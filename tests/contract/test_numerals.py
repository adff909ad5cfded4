"""Quantities written in words are read as the numbers they are."""

import pytest

from pipeline.contract import parse_task, read_task
from pipeline.contract.numerals import digits_for_words


@pytest.mark.parametrize(
    ("words", "digits"),
    [
        ("twenty units each", "20 units each"),
        ("twenty-five units of SKU-1", "25 units of SKU-1"),
        ("a hundred of SKU-2", "100 of SKU-2"),
        ("one hundred and twenty pieces", "120 pieces"),
        ("a dozen boxes", "12 boxes"),
        ("每个补三十件", "每个补30件"),
        ("补两百箱", "补200箱"),
        ("一千二百件", "1200件"),
        ("补十件", "补10件"),
    ],
)
def test_a_quantity_in_words_becomes_digits(words: str, digits: str) -> None:
    assert digits_for_words(words) == digits


@pytest.mark.parametrize(
    "text",
    ["only this one", "one of them", "只补 SKU-10318 这一个", "两个仓库的低库存都补货", "each one"],
)
def test_words_that_are_not_a_quantity_stay_words(text: str) -> None:
    assert digits_for_words(text) == text


def test_twenty_each_in_words_is_the_quantity_of_every_order() -> None:
    contract = parse_task("Replenish the low items on this screen, twenty units each.")
    assert contract.action == "replenish"
    assert contract.quantity_rule is not None and contract.quantity_rule.value == 20


def test_chinese_numerals_make_a_replenishment_with_that_quantity() -> None:
    contract = parse_task("低库存的每个补三十件")
    assert contract.action == "replenish" and contract.writes_allowed
    assert contract.quantity_rule is not None and contract.quantity_rule.value == 30


def test_quantities_in_words_per_sku_are_kept_per_sku() -> None:
    contract = parse_task("Order twenty-five units of SKU-10310 and a hundred of SKU-10520")
    assert contract.action == "order"
    assert dict(contract.quantities) == {"SKU-10310": 25, "SKU-10520": 100}


@pytest.mark.parametrize(
    ("task", "units"),
    [
        ("Order 1,000 of SKU-10232.", 1000),
        ("Order 12,500 units of SKU-10232.", 12500),
        ("Order 5 dozen of SKU-10232.", 60),
        ("Order SKU-10232 — 1k units.", 1000),
        ("Order 1.5k of SKU-10232.", 1500),
    ],
)
def test_numbers_written_as_people_write_them_are_the_order_size(task: str, units: int) -> None:
    contract = read_task(task).contract
    assert contract.quantities == {"SKU-10232": units}
