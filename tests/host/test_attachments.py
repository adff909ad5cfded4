"""Screenshots become what the model reads: one attachment each, or one merged table."""

import io
from datetime import datetime, timedelta, timezone

from PIL import Image

from pipeline.host.attachments import MERGED_NAME, from_ingest
from pipeline.models import Row
from pipeline.screentext import parse_screens
from tests.ingested import result as shot

SHANGHAI = timezone(timedelta(hours=8))
MORNING = datetime(2026, 11, 30, 9, 0, tzinfo=SHANGHAI)
AFTERNOON = datetime(2026, 11, 30, 15, 30, tzinfo=SHANGHAI)


def row(sku: str, on_hand: int, warehouse: str | None = "WH-02") -> Row:
    return Row(sku=sku, name=sku, on_hand=on_hand, reorder_point=100, warehouse_id=warehouse)


def test_two_captures_of_one_page_reach_the_model_as_one_table_where_the_newer_wins() -> None:
    morning = shot("am.png", MORNING, [row("SKU-1", 150), row("SKU-2", 20)])
    afternoon = shot("pm.png", AFTERNOON, [row("SKU-1", 60)])
    (merged,) = from_ingest([morning, afternoon])
    assert merged.name == MERGED_NAME
    assert "am.png, pm.png" in merged.description
    (screen,) = parse_screens(merged.content)
    by_sku = {r.sku: r for r in screen.rows}
    assert by_sku["SKU-1"].on_hand == 60 and by_sku["SKU-1"].low
    assert screen.captured_at_of(by_sku["SKU-2"]) == MORNING
    assert merged.skus == {"SKU-1", "SKU-2"}


def test_the_merged_table_is_as_old_as_its_oldest_capture_for_the_freshness_check() -> None:
    (merged,) = from_ingest(
        [shot("pm.png", AFTERNOON, [row("SKU-1", 60)]), shot("am.png", MORNING, [row("SKU-2", 9)])]
    )
    assert merged.captured_at == MORNING


def test_rows_without_a_warehouse_are_not_merged_unless_asked() -> None:
    left = shot("a.png", MORNING, [row("SKU-1", 5, None)])
    right = shot("b.png", AFTERNOON, [row("SKU-1", 50, None)])
    assert [a.name for a in from_ingest([left, right])] == ["a.png", "b.png"]
    assert [a.name for a in from_ingest([left, right], "always")] == [MERGED_NAME]


def test_merging_can_be_turned_off_and_a_screen_without_rows_stays_its_own_attachment() -> None:
    morning = shot("am.png", MORNING, [row("SKU-1", 150)])
    afternoon = shot("pm.png", AFTERNOON, [row("SKU-1", 60)])
    sign = shot("sign.png", AFTERNOON, [])
    assert [a.name for a in from_ingest([morning, afternoon], "never")] == ["am.png", "pm.png"]
    assert [a.name for a in from_ingest([morning, sign, afternoon])] == [MERGED_NAME, "sign.png"]


def test_each_attachment_keeps_the_screenshot_it_was_read_from_for_a_later_look() -> None:
    data = png_bytes(40, 30)
    (one,) = from_ingest([shot("erp.png", MORNING, [row("SKU-1", 5)]).with_source(data)])
    (picture,) = one.pictures
    assert (picture.name, picture.size) == ("erp.png", (1920, 1080))
    assert picture.load().size == (40, 30) and picture.load() is picture.load()


def test_a_merged_table_keeps_the_screenshots_it_was_merged_from() -> None:
    morning = shot("shots/am.png", MORNING, [row("SKU-1", 150)]).with_source(png_bytes(4, 4))
    afternoon = shot("pm.png", AFTERNOON, [row("SKU-1", 60)]).with_source(png_bytes(4, 4))
    (merged,) = from_ingest([morning, afternoon])
    assert [p.name for p in merged.pictures] == ["am.png", "pm.png"]


def test_a_result_without_its_bytes_gives_no_picture() -> None:
    (one,) = from_ingest([shot("erp.png", MORNING, [row("SKU-1", 5)])])
    assert one.pictures == ()


def png_bytes(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(buffer, format="PNG")
    return buffer.getvalue()
