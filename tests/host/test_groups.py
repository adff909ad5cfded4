import pytest

from pipeline.host.groups import choose_groups


@pytest.mark.parametrize(
    ("task", "groups"),
    [
        (
            "find the SKUs that are low and raise replenishment orders",
            ("inventory", "orders", "warehouses"),
        ),
        ("看看哪些 SKU 快断货了顺便把补货申请单建好", ("inventory", "orders", "warehouses")),
        ("cancel order PO-000003", ("inventory", "orders", "warehouses")),
        ("which SKUs are low on this screen?", ("inventory", "warehouses")),
        ("哪些商品库存不足", ("inventory", "warehouses")),
        ("list the warehouses", ("warehouses",)),
        ("hello", ("inventory", "warehouses")),
    ],
)
def test_groups_follow_the_intent_of_the_task(task: str, groups: tuple[str, ...]) -> None:
    assert choose_groups(task) == groups


def test_a_read_only_task_never_gets_the_write_tools() -> None:
    assert "orders" not in choose_groups("show me stock levels for WH-02")
