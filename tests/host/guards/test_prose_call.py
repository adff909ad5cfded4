import pytest

from pipeline.host.guards.prose_call import ASK_AGAIN, ONE_STEP, extract_calls, prose_call
from tests.host.guards.states import TOOLS, call, event, reply, state

EXPECTED = {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}}\n</tool_call>',
        '<|tool_call|>call:inventory_query_stock{"warehouse_id": "WH-01", "skus": ["SKU-10232"]}<tool_call|>',
        '<|tool_call>call:inventory_query_stock{warehouse_id:<|"|>WH-01<|"|>,skus:[<|"|>SKU-10232<|"|>]}<tool_call|>',
        '[TOOL_CALLS][{"name": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}}]',
        '[TOOL_CALLS]inventory_query_stock[ARGS]{"warehouse_id": "WH-01", "skus": ["SKU-10232"]}',
        '<function=inventory_query_stock>{"warehouse_id": "WH-01", "skus": ["SKU-10232"]}</function>',
        '<function=inventory_query_stock>\n<parameter=warehouse_id>\nWH-01\n</parameter>\n<parameter=skus>\n["SKU-10232"]\n</parameter>\n</function>',
        '<|python_tag|>{"name": "inventory_query_stock", "parameters": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}}',
        'Checking live stock first.\n```json\n{"name": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}}\n```',
        '{"name": "inventory_query_stock", "arguments": "{\\"warehouse_id\\": \\"WH-01\\", \\"skus\\": [\\"SKU-10232\\"]}"}',
        '{"function": {"name": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}}}',
    ],
    ids=[
        "hermes",
        "gemma",
        "gemma-quotes",
        "mistral-list",
        "mistral-args",
        "llama",
        "xml-params",
        "python-tag",
        "fenced",
        "string-args",
        "function-wrapper",
    ],
)
def test_calls_left_in_prose_are_recovered_in_every_dialect(text: str) -> None:
    decision = prose_call(reply(text), state())
    assert decision.action == "repair"
    assert decision.response is not None
    (recovered,) = decision.response.tool_calls
    assert (recovered.name, recovered.arguments) == ("inventory_query_stock", EXPECTED)


@pytest.mark.parametrize(
    ("text", "field", "expected"),
    [
        pytest.param(
            '<tool_call>{"name": "orders_create_replenishment", "arguments": {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": 5}}</tool_call>\n'
            '<tool_call>{"name": "orders_create_replenishment", "arguments": {"sku": "SKU-2", "warehouse_id": "WH-01", "quantity": 7}}</tool_call>\n'
            '<tool_call>{"name": "orders_create_replenishment", "arguments": {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": 5}}</tool_call>',
            "sku",
            ["SKU-1", "SKU-2"],
            id="tagged-with-a-repeat",
        ),
        pytest.param(
            "```json\n"
            '{"name": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}}\n'
            '{"name": "inventory_query_stock", "arguments": {"warehouse_id": "WH-02", "skus": ["SKU-10602"]}}\n'
            "```",
            "warehouse_id",
            ["WH-01", "WH-02"],
            id="json-objects-in-a-row",
        ),
    ],
)
def test_several_calls_in_one_reply_are_all_recovered_once_each(
    text: str, field: str, expected: list[str]
) -> None:
    calls = extract_calls(text, TOOLS)
    assert calls is not None
    assert [c.arguments[field] for c in calls] == expected


def test_a_name_that_is_not_a_tool_of_this_run_is_not_run() -> None:
    text = '<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>'
    assert prose_call(reply(text), state()).action == "bounce"


def test_unreadable_markup_gets_one_request_for_a_proper_call() -> None:
    text = (
        '<tool_call>{"name": "inventory_query_stock", "arguments": {warehouse_id WH-01</tool_call>'
    )
    decision = prose_call(reply(text), state())
    assert (decision.action, decision.message) == ("bounce", ASK_AGAIN)
    again = prose_call(reply(text), state(events=[event("prose_call", "bounce")]))
    assert again.action == "allow"


@pytest.mark.parametrize(
    "text",
    [
        "Which warehouse is this for?",
        "Ordered 2 SKUs: SKU-10232 and SKU-10318.",
        "The name field is required.",
    ],
)
def test_plain_prose_is_left_alone(text: str) -> None:
    assert prose_call(reply(text), state()).action == "allow"


def test_a_reply_with_native_calls_is_left_alone() -> None:
    assert (
        prose_call(
            reply('<tool_call>{"name": "warehouses_list"}</tool_call>', call("warehouses_list")),
            state(),
        ).action
        == "allow"
    )


CATALOGUE = "\n".join(
    [
        '{"name": "warehouses_list", "arguments": {}}',
        '{"name": "inventory_query_stock", "arguments": {"warehouse_id": "WH-01"}}',
        '{"name": "orders_create_replenishment", "arguments": {"sku": "SKU-1", "warehouse_id": "WH-01", "quantity": 50}}',
        '{"name": "orders_list", "arguments": {"status": "open"}}',
    ]
)


def test_a_reply_that_writes_out_most_tools_at_once_is_asked_for_one_step() -> None:
    decision = prose_call(reply(CATALOGUE), state())
    assert (decision.action, decision.message) == ("bounce", ONE_STEP)


def test_a_repeated_tool_list_runs_only_its_read_only_calls() -> None:
    decision = prose_call(reply(CATALOGUE), state(events=[event("prose_call", "bounce")]))
    assert decision.action == "repair" and decision.response is not None
    assert [c.name for c in decision.response.tool_calls] == [
        "warehouses_list",
        "inventory_query_stock",
        "orders_list",
    ]
