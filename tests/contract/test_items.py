"""Items named by what they are: resolved against the screen's items, one item is that SKU,
several are never a scope to write to, none is words not understood."""

import pytest

from pipeline.contract import read_task

SCREEN = {
    "SKU-1": "Hex bolt M8x40 (box of 100)",
    "SKU-2": "Hex nut M8 (box of 200)",
    "SKU-3": "Flat washer M8 (box of 500)",
    "SKU-4": "Cable tie 200 mm (bag of 100)",
    "SKU-5": "Cable tie 300 mm (bag of 100)",
    "SKU-6": "Bubble wrap roll 1 m x 50 m",
}
ZH_SCREEN = {"SKU-7": "不锈钢螺丝 M4", "SKU-8": "不锈钢螺母 M4", "SKU-9": "弹簧垫圈 M6"}


@pytest.mark.parametrize(
    ("task", "screen", "summary"),
    [
        (
            "Replenish the low items except the hex nuts",
            SCREEN,
            "replenish · except SKU-2 · writes allowed",
        ),
        ("Order 40 hex nuts", SCREEN, "order · only SKU-2 · SKU-2 x40 · writes allowed"),
        ("Reorder the flat washers only", SCREEN, "replenish · only SKU-3 · writes allowed"),
        (
            "order 10 of the 300 mm cable ties",
            SCREEN,
            "order · only SKU-5 · SKU-5 x10 · writes allowed",
        ),
        (
            "restock everything low but not the M8 stuff",
            SCREEN,
            "replenish · except SKU-1, SKU-2, SKU-3 · writes allowed",
        ),
        ("弹簧垫圈先别补，其他低的都补上", ZH_SCREEN, "replenish · except SKU-9 · writes allowed"),
        ("只补不锈钢螺母 M4", ZH_SCREEN, "replenish · only SKU-8 · writes allowed"),
    ],
)
def test_an_item_named_by_what_it_is_reads_as_its_sku(
    task: str, screen: dict[str, str], summary: str
) -> None:
    contract = read_task(task, catalogue=screen).contract
    assert contract.summary() == summary


def test_the_reading_says_which_item_a_name_was_read_as() -> None:
    contract = read_task("Order 40 hex nuts", catalogue=SCREEN).contract
    assert "read 'hex nuts' as SKU-2 (Hex nut M8 (box of 200))" in contract.notes


@pytest.mark.parametrize(
    "task", ["Order 10 cable ties", "只补不锈钢的", "Restock the M8 parts only"]
)
def test_a_name_that_fits_several_items_writes_to_none_of_them_and_says_which(task: str) -> None:
    screen = {**SCREEN, **ZH_SCREEN}
    contract = read_task(task, catalogue=screen).contract
    assert not contract.writes_allowed
    assert any("fits several items" in reason for reason in contract.not_understood)


@pytest.mark.parametrize(
    "task", ["Order 40 hex washers", "Replenish the low items except the blue widgets"]
)
def test_a_name_that_fits_no_item_is_words_not_understood(task: str) -> None:
    reading = read_task(task, catalogue=SCREEN)
    assert not reading.contract.writes_allowed
    assert reading.not_understood


def test_without_the_screens_items_a_name_is_not_understood() -> None:
    assert not read_task("Order 40 hex nuts").contract.writes_allowed


def test_an_order_quantity_is_never_read_as_part_of_a_name() -> None:
    contract = read_task("Order 200 of the 300 mm cable ties", catalogue=SCREEN).contract
    assert contract.quantities == {"SKU-5": 200}


def test_a_letter_after_a_word_of_a_name_tells_the_items_apart() -> None:
    screen = {
        "SKU-10402": "Safety gloves size L (pair)",
        "SKU-10403": "Safety gloves size M (pair)",
    }
    contract = read_task("Restock the size L gloves.", catalogue=screen).contract
    assert (contract.writes_allowed, contract.skus) == (True, ("SKU-10402",))
    both = read_task("Restock the gloves.", catalogue=screen).contract
    assert not both.writes_allowed
