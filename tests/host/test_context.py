from datetime import UTC, datetime

from pipeline.host.context import PRODUCT_RULES, Attachment, opening_message, system_prompt


def test_system_prompt_is_the_rules_then_every_groups_instructions_in_group_order() -> None:
    prompt = system_prompt(
        {"warehouses": "W rules", "inventory": "I rules", "orders": "O rules"},
        ("inventory", "orders", "warehouses"),
    )
    assert prompt.startswith(PRODUCT_RULES)
    assert prompt.index("I rules") < prompt.index("O rules") < prompt.index("W rules")


def test_instructions_of_groups_not_chosen_are_left_out() -> None:
    prompt = system_prompt({"inventory": "I rules", "orders": "O rules"}, ("inventory",))
    assert "O rules" not in prompt


def test_opening_message_lists_attachments_by_reference_with_capture_time_and_age() -> None:
    captured = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
    message = opening_message(
        "raise orders",
        [Attachment("erp.png", "| sku |\n", "the table read from erp.png", captured, ("data:,",))],
        datetime(2026, 11, 30, 9, 0, tzinfo=UTC),
    )
    assert message.content.splitlines()[0] == "Task: raise orders"
    assert (
        "- @erp.png: the table read from erp.png, captured 2026-11-30T06:00:00+00:00, 3.0 h ago"
        in message.content
    )
    assert "@erp.png:\n| sku |" in message.content
    assert message.images == ["data:,"]
