from pipeline.host.guards.truncation import truncation
from tests.host.guards.states import call, event, reply, state


def test_a_cut_reply_is_bounced_with_a_doubled_budget_and_its_calls_never_run() -> None:
    cut = reply("", call("orders_create_replenishment", sku="SKU-1"), finish="length")
    decision = truncation(cut, state(max_tokens=512))
    assert decision.action == "bounce"
    assert decision.max_tokens == 1024
    assert "cut off at the 512-token limit" in decision.message


def test_a_complete_reply_is_left_alone() -> None:
    assert truncation(reply("done"), state()).action == "allow"


def test_after_two_raises_a_third_cut_reply_ends_the_run() -> None:
    events = [event("truncation", "bounce"), event("truncation", "bounce")]
    assert truncation(reply("", finish="length"), state(events=events)).action == "end"
