"""The contract's text: what the model reads below the task reads back as the same contract."""

import pytest

from pipeline.contract import QuantityRule, TaskContract, parse_task, read_contract, render_contract


@pytest.mark.parametrize(
    "task",
    [
        "replenish the low items in WH-01 except SKU-10232, 30 each",
        "Order 40 units of SKU-10310 and 25 units of SKU-10520.",
        "cancel the open orders of SKU-10232 in WH-02",
        "把缺货的补到警戒值的两倍",
        "write me a poem",
        "replenish everything low in the whole warehouse WH-01",
        "Which SKUs are low? Do not place any orders, just tell me.",
    ],
)
def test_the_rendered_contract_reads_back_as_the_same_contract(task: str) -> None:
    contract = parse_task(task)
    text = f"Task: {task}\n\n{render_contract(contract)}\n\nAttachments: ..."
    assert read_contract(text) == contract


def test_text_without_a_contract_block_has_none() -> None:
    assert read_contract("Task: replenish\n\nno block here") is None


def test_the_summary_is_one_line_a_person_reads() -> None:
    contract = parse_task("replenish the low items in WH-01 except SKU-10402, 30 each")
    assert contract.summary() == (
        "replenish · WH-01 · except SKU-10402 · 30 units each · writes allowed"
    )
    assert isinstance(contract, TaskContract)


def test_a_stock_level_and_an_on_hand_condition_read_back_and_are_said() -> None:
    contract = parse_task("replenish the low items").model_copy(
        update={"quantity_rule": QuantityRule(kind="level", value=200), "on_hand_below": 50}
    )
    assert read_contract(render_contract(contract)) == contract
    assert "on hand below 50 · up to a stock level of 200 units each" in contract.summary()
