"""Several screenshots of one page merged into one view per SKU and warehouse."""

from datetime import datetime, timedelta, timezone

from pipeline.models import Row
from pipeline.screentext import parse_screens
from pipeline.table.merge import merge_results
from tests.ingested import result

SHANGHAI = timezone(timedelta(hours=8))
MORNING = datetime(2026, 11, 30, 9, 0, tzinfo=SHANGHAI)
AFTERNOON = datetime(2026, 11, 30, 15, 30, tzinfo=SHANGHAI)


def row(sku: str, on_hand: int, warehouse: str = "WH-02", reorder: int = 100) -> Row:
    return Row(
        sku=sku, name=f"item {sku}", on_hand=on_hand, reorder_point=reorder, warehouse_id=warehouse
    )


def test_the_newer_capture_wins_and_the_change_is_kept_with_each_rows_own_time() -> None:
    morning = result("am.png", MORNING, [row("SKU-1", 150), row("SKU-2", 20)])
    afternoon = result("pm.png", AFTERNOON, [row("SKU-1", 60), row("SKU-2", 20)])
    view = merge_results([afternoon, morning])
    assert [c.file for c in view.captures] == ["am.png", "pm.png"]
    first, second = view.rows
    assert (first.sku, first.on_hand, first.captured_at, first.file) == (
        "SKU-1",
        60,
        AFTERNOON,
        "pm.png",
    )
    assert [(c.field, c.before, c.after, c.before_at) for c in first.changes] == [
        ("on_hand", 150, 60, MORNING)
    ]
    assert second.changes == [] and second.seen == 2


def test_pages_of_one_list_are_joined_and_each_row_keeps_the_capture_it_came_from() -> None:
    page1 = result("p1.png", MORNING, [row("SKU-1", 5), row("SKU-2", 500)])
    page2 = result("p2.png", MORNING + timedelta(minutes=1), [row("SKU-3", 7)])
    view = merge_results([page1, page2])
    assert [(r.sku, r.file, r.seen) for r in view.rows] == [
        ("SKU-1", "p1.png", 1),
        ("SKU-2", "p1.png", 1),
        ("SKU-3", "p2.png", 1),
    ]


def test_the_same_sku_in_two_warehouses_stays_two_rows() -> None:
    view = merge_results(
        [result("a.png", MORNING, [row("SKU-1", 5, "WH-01"), row("SKU-1", 50, "WH-02")])]
    )
    assert [(r.sku, r.warehouse_id, r.on_hand) for r in view.rows] == [
        ("SKU-1", "WH-01", 5),
        ("SKU-1", "WH-02", 50),
    ]


def test_the_model_reads_one_merged_table_that_parses_back_with_row_times() -> None:
    morning = result("am.png", MORNING, [row("SKU-1", 150), row("SKU-2", 20)], sent=300)
    afternoon = result("pm.png", AFTERNOON, [row("SKU-1", 60)], sent=250)
    view = merge_results([morning, afternoon])
    (screen,) = parse_screens(view.text)
    assert screen.captured_at == AFTERNOON
    assert screen.merged == (MORNING, AFTERNOON)
    by_sku = {r.sku: r for r in screen.rows}
    assert by_sku["SKU-1"].on_hand == 60 and by_sku["SKU-1"].low
    assert by_sku["SKU-1"].change == "on_hand 150 -> 60"
    assert screen.captured_at_of(by_sku["SKU-2"]) == MORNING
    assert view.tokens_sent < view.tokens_separate


def test_an_image_without_rows_is_named_in_the_warnings() -> None:
    view = merge_results(
        [result("a.png", MORNING, [row("SKU-1", 5)]), result("b.png", AFTERNOON, [])]
    )
    assert view.warnings == ["b.png: no inventory rows to merge"]
    assert len(view.rows) == 1
