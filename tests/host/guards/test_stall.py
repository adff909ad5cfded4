from dataclasses import replace

import pytest

from pipeline.host.guards.stall import NUDGE, stall
from pipeline.models import Message
from pipeline.toolfacts import VIEW_TOOL
from tests.host.guards.states import call, event, reply, state


@pytest.mark.parametrize(
    "content",
    [
        "I will register the replenishment orders now.",
        "Let me check the stock.",
        "好的，我将为这些 SKU 创建补货单。",
        "",
    ],
)
def test_a_turn_that_calls_nothing_and_asks_nothing_is_bounced_with_a_nudge(content: str) -> None:
    decision = stall(reply(content), state())
    assert (decision.action, decision.message) == ("bounce", NUDGE)


def test_the_nudge_never_names_a_tool_to_call() -> None:
    assert "warehouses_list" not in NUDGE and "inventory" not in NUDGE and "orders" not in NUDGE


def test_an_announcement_after_tool_results_is_still_a_stall() -> None:
    assert stall(reply("Now I'll create the orders."), state(tool_results=2)).action == "bounce"


def test_an_empty_reply_after_tool_results_is_a_stall_not_a_summary() -> None:
    assert stall(reply(""), state(tool_results=2)).action == "bounce"
    ended = stall(reply("  "), state(tool_results=2, events=[event("stall", "bounce")]))
    assert (ended.action, ended.message) == ("end", "Stopped: the model stalled twice.")


@pytest.mark.parametrize(
    ("content", "tool_results"),
    [
        ("Which warehouse is this screen for?", 0),
        ("这个截图是哪个仓库的？", 0),
        ("I can't place orders without knowing the warehouse.", 0),
        ("Ordered 2, skipped 1: SKU-10402 is not low any more.", 3),
    ],
)
def test_legitimate_endings_are_left_alone(content: str, tool_results: int) -> None:
    assert stall(reply(content), state(tool_results=tool_results)).action == "allow"


def test_a_turn_with_a_call_is_not_a_stall() -> None:
    assert stall(reply("", call("warehouses_list")), state()).action == "allow"


def test_a_second_stall_ends_the_turn_with_what_the_model_said() -> None:
    decision = stall(reply("I will do it."), state(events=[event("stall", "bounce")]))
    assert (decision.action, decision.message) == ("end", "I will do it.")


def test_a_look_at_the_screenshot_is_no_tool_result_that_justifies_a_summary() -> None:
    looked = state()
    looked = replace(
        looked,
        messages=[
            *looked.messages,
            Message(role="tool", content="attached image erp.png", name=VIEW_TOOL),
        ],
    )
    assert stall(reply("SKU-10232 looks low."), looked).action == "bounce"
    assert stall(reply("SKU-10232 looks low."), state(tool_results=1)).action == "allow"
