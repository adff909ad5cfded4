"""The screen text a model reads: rendered and parsed by one module, both ways the same."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from pipeline.screentext import (
    ScreenRow,
    ScreenText,
    TextBox,
    parse_screens,
    placement_problem,
    render_screen,
)

CAPTURED = datetime(2026, 11, 28, 10, 5, tzinfo=timezone(timedelta(hours=8)))
ROWS = (
    ScreenRow(sku="SKU-10232", name="Hex nut M8", on_hand=38, reorder_point=120, low=True),
    ScreenRow(sku="SKU-10233", name="Flat washer", on_hand=1204, reorder_point=300),
)
SCREENS = [
    ScreenText(
        captured_at=CAPTURED,
        context=("Stock levels", "WH-02"),
        omitted=("Status", "Last updated"),
        columns=("sku", "name", "on_hand", "reorder_point", "warehouse_id"),
        rows=ROWS,
    ),
    ScreenText(
        captured_at=CAPTURED,
        columns=("sku", "on_hand"),
        rows=(ROWS[0].model_copy(update={"name": None, "reorder_point": None}),),
    ),
    ScreenText(
        captured_at=CAPTURED,
        image_attached=True,
        unsure=True,
        context=("Inventory",),
        columns=("sku", "name", "on_hand", "reorder_point", "warehouse_id"),
        rows=ROWS,
    ),
    ScreenText(captured_at=CAPTURED, image_attached=True, context=("A photo",)),
    ScreenText(
        captured_at=datetime(2026, 11, 30, 1, 0, tzinfo=UTC),
        columns=("Date", "Visitors"),
        grid=(("2026-11-27", "120"), ("2026-11-28", "98")),
    ),
    ScreenText(
        captured_at=CAPTURED,
        columns=("sku", "name", "on_hand", "reorder_point", "warehouse_id"),
        rows=ROWS,
        boxes=(
            TextBox(box=(10, 20, 110, 40), text="SKU-10232"),
            TextBox(box=(5, 5, 60, 15), text="Stock"),
        ),
    ),
    ScreenText(
        captured_at=CAPTURED,
        lines=("Reports", "Nothing to show  Last run 2026-11-28", "| not a table"),
    ),
    ScreenText(
        captured_at=CAPTURED,
        image_attached=True,
        unsure=True,
        columns=("sku", "on_hand"),
        rows=(ROWS[1].model_copy(update={"name": None, "reorder_point": None}),),
        lines=("Stock levels", "SKU-10233  1,204"),
    ),
    ScreenText(
        captured_at=CAPTURED,
        merged=(CAPTURED - timedelta(hours=6), CAPTURED),
        columns=("sku", "name", "on_hand", "reorder_point", "warehouse_id"),
        rows=(
            ROWS[0].model_copy(
                update={"seen_at": CAPTURED, "change": "on_hand 150 -> 38", "warehouse_id": "WH-02"}
            ),
            ROWS[1].model_copy(
                update={"seen_at": CAPTURED - timedelta(hours=6), "warehouse_id": "WH-02"}
            ),
        ),
    ),
]


@pytest.mark.parametrize("screen", SCREENS, ids=range(len(SCREENS)))
def test_a_rendered_screen_parses_back_to_the_same_screen(screen: ScreenText) -> None:
    assert parse_screens(render_screen(screen)) == [screen]


def test_the_text_is_the_documented_compact_table() -> None:
    assert render_screen(SCREENS[0]).splitlines() == [
        "Screenshot captured at 2026-11-28T10:05:00+08:00 (a past view).",
        "Page: Stock levels · WH-02",
        "Other columns on screen (left out): Status, Last updated",
        "| sku | name | on_hand | reorder_point | warehouse_id | low |",
        "|---|---|---|---|---|---|",
        "| SKU-10232 | Hex nut M8 | 38 | 120 |  | yes |",
        "| SKU-10233 | Flat washer | 1204 | 300 |  | no |",
    ]


def test_several_screens_in_one_message_are_read_in_order_and_other_text_is_ignored() -> None:
    message = "\n".join(
        [
            "Task: replenish",
            "",
            "@a.png:",
            render_screen(SCREENS[0]),
            "",
            "@b.png:",
            render_screen(SCREENS[4]),
            "",
            "| not | a screen |",
        ]
    )
    assert parse_screens(message) == [SCREENS[0], SCREENS[4]]


def test_the_page_names_the_warehouse_of_rows_without_one() -> None:
    (screen,) = parse_screens(render_screen(SCREENS[0]))
    assert screen.page_warehouse == "WH-02"
    assert screen.warehouse_of(screen.rows[0]) == "WH-02"
    two = SCREENS[0].model_copy(update={"context": ("Transfers", "WH-01 → WH-02")})
    assert two.page_warehouse is None


def test_a_pipe_in_a_cell_cannot_break_the_table() -> None:
    row = ROWS[0].model_copy(update={"name": "Nut | bolt kit"})
    screen = SCREENS[0].model_copy(update={"rows": (row,)})
    (parsed,) = parse_screens(render_screen(screen))
    assert parsed.rows[0].name == "Nut / bolt kit"
    assert parsed.rows[0].on_hand == 38


def test_a_screen_without_a_table_carries_its_ocr_lines_in_order() -> None:
    text = render_screen(SCREENS[6])
    assert text.splitlines()[1:] == [
        "Text on the screen (OCR lines, top to bottom):",
        "> Reports",
        "> Nothing to show  Last run 2026-11-28",
        "> | not a table",
    ]
    (screen,) = parse_screens(text)
    assert screen.rows == () and screen.grid == ()


def test_a_merged_view_gives_each_row_its_own_capture_time_and_change() -> None:
    text = render_screen(SCREENS[8])
    assert (
        "Merged view of 2 screenshots (2026-11-28T04:05:00+08:00, 2026-11-28T10:05:00+08:00)"
        in text
    )
    assert (
        "| sku | name | on_hand | reorder_point | warehouse_id | low | seen_at | change |" in text
    )
    (screen,) = parse_screens(text)
    older = screen.rows[1]
    assert screen.captured_at_of(older) == CAPTURED - timedelta(hours=6)
    assert screen.captured_at_of(screen.rows[0]) == CAPTURED
    assert screen.rows[0].change == "on_hand 150 -> 38"


HOMELESS = ScreenText(
    captured_at=CAPTURED,
    columns=("sku", "on_hand", "reorder_point"),
    rows=(ScreenRow(sku="SKU-10232", on_hand=38, reorder_point=120, low=True),),
)


def test_an_order_goes_to_the_warehouse_the_screen_shows_the_sku_in() -> None:
    assert placement_problem("SKU-10232", "WH-02", [SCREENS[0]]) is None
    assert placement_problem("SKU-10232", "WH-01", [SCREENS[0]]) == (
        "the screenshot shows SKU-10232 in WH-02, not in WH-01."
    )
    assert placement_problem("SKU-10232", "WH-01", [SCREENS[0]], ("WH-01",), False) is None


def test_a_row_without_a_warehouse_is_a_question_unless_the_task_names_one() -> None:
    problem = placement_problem("SKU-10232", "WH-02", [HOMELESS])
    assert problem is not None and "ask the user which warehouse" in problem
    assert placement_problem("SKU-10232", "WH-02", [HOMELESS], ("WH-02",)) is None
    two = placement_problem("SKU-10232", "WH-02", [HOMELESS], ("WH-01", "WH-02"))
    assert two is not None and "names WH-01, WH-02: ask the user which one" in two


def test_a_sku_no_screen_shows_is_not_judged_by_the_screens() -> None:
    assert placement_problem("SKU-99999", "WH-01", [SCREENS[0], HOMELESS]) is None
