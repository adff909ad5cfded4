import pytest

from pipeline.contract import parse_task
from pipeline.host.groups import choose_groups, offered_tools
from pipeline.models import ToolSpec

TOOLS = [
    ToolSpec(name="inventory_query_stock", group="inventory", read_only=True),
    ToolSpec(name="orders_cancel", group="orders"),
    ToolSpec(name="orders_create_replenishment", group="orders"),
    ToolSpec(name="orders_list", group="orders", read_only=True),
    ToolSpec(name="warehouses_list", group="warehouses", read_only=True),
]


@pytest.mark.parametrize(
    ("task", "groups"),
    [
        (
            "find the SKUs that are low and raise replenishment orders",
            ("inventory", "orders", "warehouses"),
        ),
        ("看看哪些 SKU 快断货了顺便把补货申请单建好", ("inventory", "orders", "warehouses")),
        ("Order 10 units of SKU-10232 only", ("inventory", "orders", "warehouses")),
        ("cancel order PO-000003", ("orders",)),
        ("which SKUs are low on this screen?", ("inventory", "warehouses")),
        ("哪些商品库存不足", ("inventory", "warehouses")),
        ("hello", ("inventory", "warehouses")),
    ],
)
def test_groups_follow_the_contracts_action(task: str, groups: tuple[str, ...]) -> None:
    assert choose_groups(parse_task(task)) == groups


@pytest.mark.parametrize(
    ("task", "offered"),
    [
        (
            "Which SKUs are low? Do not place any orders, just tell me.",
            ["inventory_query_stock", "orders_list", "warehouses_list"],
        ),
        (
            "replenish the low items",
            [
                "inventory_query_stock",
                "orders_create_replenishment",
                "orders_list",
                "warehouses_list",
            ],
        ),
        (
            "cancel order PO-000003",
            ["inventory_query_stock", "orders_cancel", "orders_list", "warehouses_list"],
        ),
        ("write me a poem", ["inventory_query_stock", "orders_list", "warehouses_list"]),
    ],
)
def test_only_the_writes_the_action_needs_are_offered(task: str, offered: list[str]) -> None:
    everything = ("inventory", "orders", "warehouses")
    assert [t.name for t in offered_tools(TOOLS, everything, parse_task(task))] == offered


def test_a_negated_order_never_gets_the_write_tools_even_with_order_words() -> None:
    contract = parse_task("先别下单，看看哪些缺货")
    assert "orders" not in choose_groups(contract)
    assert all(t.read_only for t in offered_tools(TOOLS, ("orders",), contract))
