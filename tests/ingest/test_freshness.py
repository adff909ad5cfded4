from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from pipeline.ingest.freshness import (
    age_seconds,
    parse_exif_datetime,
    parse_filename_stamp,
    parse_text_datetime,
    resolve_capture,
)

SHANGHAI = timezone(timedelta(hours=8))
RECEIVED = datetime(2026, 11, 30, 2, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Screenshot 2026-11-27 at 09.14.52.png", datetime(2026, 11, 27, 9, 14, 52)),
        ("Screen Shot 2026-11-27 at 9.14.52 PM.png", datetime(2026, 11, 27, 21, 14, 52)),
        ("Screenshot 2026-11-30 081200.png", datetime(2026, 11, 30, 8, 12, 0)),
        ("Screenshot_20261129-101530.png", datetime(2026, 11, 29, 10, 15, 30)),
        ("Screenshot_2026-11-29-10-15-30-123_com.erp.png", datetime(2026, 11, 29, 10, 15, 30)),
        ("stock_20261128-143005.png", datetime(2026, 11, 28, 14, 30, 5)),
        ("微信截图_20261128143005.png", datetime(2026, 11, 28, 14, 30, 5)),
        ("IMG_20261126_071500.jpg", datetime(2026, 11, 26, 7, 15, 0)),
    ],
)
def test_screenshot_tools_file_name_stamps_are_read_as_local_time(
    name: str, expected: datetime
) -> None:
    assert parse_filename_stamp(name, SHANGHAI) == expected.replace(tzinfo=SHANGHAI)


@pytest.mark.parametrize(
    "name", ["inventory.png", "SKU-10231.png", "report-2026.png", "20261399-999999.png"]
)
def test_names_without_a_valid_stamp_give_nothing(name: str) -> None:
    assert parse_filename_stamp(name, SHANGHAI) is None


def test_exif_stamp_uses_its_own_offset_when_present() -> None:
    at = parse_exif_datetime("2026:11:27 09:14:52", "-05:00", SHANGHAI)
    assert at == datetime(2026, 11, 27, 14, 14, 52, tzinfo=UTC)
    assert parse_exif_datetime("2026:11:27 09:14:52", None, SHANGHAI) == datetime(
        2026, 11, 27, 9, 14, 52, tzinfo=SHANGHAI
    )
    assert parse_exif_datetime("not a date", None, SHANGHAI) is None


@pytest.mark.parametrize(
    "text",
    ["2026-11-28T10:05:00", "Sat, 28 Nov 2026 10:05:00 +0800", "2026:11:28 10:05:00"],
)
def test_png_creation_time_accepts_iso_rfc1123_and_exif_layouts(text: str) -> None:
    assert parse_text_datetime(text, SHANGHAI) == datetime(2026, 11, 28, 10, 5, tzinfo=SHANGHAI)


def test_sources_are_tried_in_order_caller_exif_png_filename_mtime_upload() -> None:
    evidence: dict[str, Any] = {
        "caller": datetime(2026, 11, 30, 1, 0, tzinfo=UTC),
        "exif_datetime": "2026:11:27 09:14:52",
        "png_text": "2026-11-28T10:05:00",
        "filename": "Screenshot_20261129-101530.png",
        "mtime": datetime(2026, 11, 29, 23, 0, tzinfo=UTC),
    }
    seen = []
    while True:
        seen.append(resolve_capture(received=RECEIVED, tz=SHANGHAI, **evidence).source)
        if not evidence:
            break
        del evidence[next(iter(evidence))]
    assert seen == ["caller", "exif", "png-text", "filename", "mtime", "upload"]
    assert resolve_capture(received=RECEIVED, tz=SHANGHAI).at == RECEIVED


def test_unparseable_evidence_falls_through_to_the_next_source() -> None:
    capture = resolve_capture(
        received=RECEIVED, tz=SHANGHAI, exif_datetime="garbage", png_text="??", filename="x.png"
    )
    assert capture.source == "upload"


def test_age_is_seconds_since_capture_and_never_negative() -> None:
    captured = datetime(2026, 11, 30, 1, 0, tzinfo=UTC)
    assert age_seconds(captured, RECEIVED) == 3600.0
    assert age_seconds(RECEIVED + timedelta(minutes=5), RECEIVED) == 0.0
