"""Reading a request's words into what it allows, safe side first."""

import pytest

from pipeline.contract import QuantityRule, parse_task

REPORTS = [
    "Which SKUs are low? Do not place any orders, just tell me.",
    "先别下单，看看哪些缺货",
    "Which SKUs on this screen are still low right now? Don't change anything.",
    "看看这张截图上哪些商品现在库存不足，先别动",
    "Check which items on this page need restocking, without ordering anything.",
    "暂不补货，只看一下南方仓截图里哪些还缺货",
    "不要下单，只看哪些低于警戒值",
    "just tell me what is low, no orders",
    "Is SKU-10232 low?",
    "哪些商品库存不足",
]


@pytest.mark.parametrize("task", REPORTS)
def test_a_negated_or_question_only_request_is_a_report_without_writes(task: str) -> None:
    contract = parse_task(task)
    assert (contract.action, contract.writes_allowed, contract.not_understood) == (
        "report",
        False,
        (),
    )


@pytest.mark.parametrize(
    "task",
    [
        "find the SKUs that are low and raise replenishment orders",
        "Please reorder whatever is running low in this export.",
        "Raise orders for what's low; a colleague may already have ordered some of it.",
        "把这张截图里库存不足的商品都补货",
        "看一下这张截图，哪些 SKU 快断货了，顺便把补货申请单建好",
        "按仓库给低库存的商品补货，注意同一个 SKU 可能在不同仓库",
        "帮我把缺货的补上",
        "分别补货",
        "These rows are from WH-01 or WH-02, I'm not sure which. Replenish what is low.",
    ],
)
def test_a_replenishment_request_allows_writes(task: str) -> None:
    contract = parse_task(task)
    assert (contract.action, contract.writes_allowed) == ("replenish", True)


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("replenish the low items in WH-02 only", {"warehouses": ("WH-02",)}),
        ("只给 WH-01 仓库的低库存商品补货", {"warehouses": ("WH-01",)}),
        (
            "Raise orders for the low rows except those in WH-01.",
            {"exclude_warehouses": ("WH-01",)},
        ),
        ("除了 WH-01，其他仓库缺货的都补货", {"exclude_warehouses": ("WH-01",)}),
        (
            "Replenish the low items except SKU-10232 and SKU-10501.",
            {"exclude_skus": ("SKU-10232", "SKU-10501")},
        ),
        ("除了 SKU-10602，其他缺货的都补货", {"exclude_skus": ("SKU-10602",)}),
        (
            "Raise replenishment orders for what's low, but don't order SKU-10318 yet.",
            {"exclude_skus": ("SKU-10318",)},
        ),
        ("SKU-20111 先别补，其他低库存的下单", {"exclude_skus": ("SKU-20111",)}),
        ("只补 SKU-10318 这一个", {"skus": ("SKU-10318",)}),
        ("reorder sku 10232", {"skus": ("SKU-10232",)}),
        ("replenish the low items on ｗｈ－０２", {"warehouses": ("WH-02",)}),
        (
            "replenish everything low in the whole warehouse WH-01, not just the screen",
            {"warehouses": ("WH-01",), "screen_only": False},
        ),
    ],
)
def test_scope_and_exclusions_are_read_from_ids_next_to_their_words(
    task: str, expected: dict[str, object]
) -> None:
    contract = parse_task(task)
    assert contract.action == "replenish"
    assert {k: getattr(contract, k) for k in expected} == expected


@pytest.mark.parametrize(
    ("task", "quantities", "rule"),
    [
        ("Order 10 units of SKU-10232 only", {"SKU-10232": 10}, None),
        (
            "Order 40 units of SKU-10310 and 25 units of SKU-10520.",
            {"SKU-10310": 40, "SKU-10520": 25},
            None,
        ),
        ("Order SKU-10232 x 10 and SKU-10310 x 5", {"SKU-10232": 10, "SKU-10310": 5}, None),
        ("帮我订 10 件 SKU-10232", {"SKU-10232": 10}, None),
        ("SKU-10232 补 12 件", {"SKU-10232": 12}, None),
        ("replenish SKU-10232, 30 units", {"SKU-10232": 30}, None),
    ],
)
def test_a_quantity_belongs_to_the_sku_it_stands_next_to(
    task: str, quantities: dict[str, int], rule: QuantityRule | None
) -> None:
    contract = parse_task(task)
    assert (contract.action, contract.quantities, contract.quantity_rule) == (
        "order",
        quantities,
        rule,
    )


@pytest.mark.parametrize(
    ("task", "rule"),
    [
        (
            "Replenish the low items on this screen, 30 units each.",
            QuantityRule(kind="each", value=30),
        ),
        ("低库存的每个补 50 件", QuantityRule(kind="each", value=50)),
        ("reorder up to twice the reorder point", QuantityRule(kind="up_to", value=2)),
        ("Top up the low items just to their reorder point.", QuantityRule(kind="up_to", value=1)),
        ("把缺货的补到警戒值的两倍", QuantityRule(kind="up_to", value=2)),
        ("replenish to 3x the reorder point", QuantityRule(kind="up_to", value=3)),
    ],
)
def test_a_quantity_for_every_sku_is_a_rule(task: str, rule: QuantityRule) -> None:
    contract = parse_task(task)
    assert (contract.action, contract.quantity_rule, contract.quantities) == ("replenish", rule, {})


@pytest.mark.parametrize(
    ("task", "orders", "skus"),
    [
        ("Cancel order PO-000001", ("PO-000001",), ()),
        ("取消订单 PO-000002", ("PO-000002",), ()),
        ("cancel po-7", ("PO-000007",), ()),
        ("Cancel the open replenishment orders for SKU-10310.", (), ("SKU-10310",)),
        ("把 SKU-10232 的补货单取消", (), ("SKU-10232",)),
    ],
)
def test_a_cancel_names_its_orders_or_skus(
    task: str, orders: tuple[str, ...], skus: tuple[str, ...]
) -> None:
    contract = parse_task(task)
    assert (contract.action, contract.writes_allowed, contract.order_ids, contract.skus) == (
        "cancel",
        True,
        orders,
        skus,
    )


@pytest.mark.parametrize(
    ("task", "why"),
    [
        ("write me a poem", "asks for nothing stockshot does"),
        ("帮我写一首关于仓库的诗", "asks for nothing stockshot does"),
        ("cancel all orders", "names all orders to cancel"),
        ("cancel PO-000001 and reorder SKU-10232", "to cancel and to order at once"),
        ("Order 30 units", "'30 units' does not say which SKU it is for"),
        ("补 30 件", "does not say which SKU it is for"),
        ("Order 0 units of SKU-10232", "a quantity of 0 orders nothing"),
    ],
)
def test_what_it_cannot_understand_becomes_a_report_that_says_why(task: str, why: str) -> None:
    contract = parse_task(task)
    assert (contract.action, contract.writes_allowed) == ("report", False)
    assert any(why in reason for reason in contract.not_understood)


def test_the_negation_that_made_it_a_report_is_noted_for_the_user() -> None:
    contract = parse_task("Which SKUs are low? Do not place any orders, just tell me.")
    assert contract.notes == ("read as a report: the task says 'do not place'",)
