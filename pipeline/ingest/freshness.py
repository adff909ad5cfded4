"""When was the screen captured? Pure functions over the evidence an image carries.

Sources, first that applies: a caller's value, EXIF `DateTimeOriginal`, the PNG `Creation Time`
text chunk, a stamp in the file name, the file's mtime, the time it was received. Naive stamps
(EXIF without an offset, file names) are local times in the zone passed in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from email.utils import parsedate_to_datetime

from pipeline.models import CaptureSource

__all__ = [
    "Capture",
    "age_seconds",
    "parse_exif_datetime",
    "parse_filename_stamp",
    "parse_text_datetime",
    "resolve_capture",
]


@dataclass(frozen=True)
class Capture:
    at: datetime
    source: CaptureSource


# Date, a separator (space, _, -, T, "at", "um", ...), then time; each part may use . : - _.
_FILENAME_STAMP = re.compile(
    r"(?<!\d)(?P<y>20\d{2})[-_.]?(?P<mo>[01]\d)[-_.]?(?P<d>[0-3]\d)"
    r"(?:[ _T-]+|\s*(?:at|um|à|a las|alle|às|в)\s*|\s*)"
    r"(?P<h>[0-2]?\d)[.:_-]?(?P<mi>[0-5]\d)[.:_-]?(?P<s>[0-5]\d)(?!\d)"
    r"(?:\s*(?P<ampm>[AaPp][Mm])\b)?"
)
_EXIF_FORMAT = "%Y:%m:%d %H:%M:%S"
_OFFSET = re.compile(r"^([+-])(\d{2}):?(\d{2})$")


def parse_filename_stamp(name: str, tz: tzinfo) -> datetime | None:
    """The capture time a screenshot tool wrote into a file name, e.g. macOS
    `Screenshot 2026-11-27 at 09.14.52`, Windows `Screenshot 2026-11-30 081200`,
    Android `Screenshot_20261129-101530`, or `stock_20261128-143005`."""
    for match in _FILENAME_STAMP.finditer(name):
        hour = int(match["h"])
        ampm = (match["ampm"] or "").lower()
        if ampm == "pm" and hour < 12:
            hour += 12
        elif ampm == "am" and hour == 12:
            hour = 0
        try:
            naive = datetime(
                int(match["y"]),
                int(match["mo"]),
                int(match["d"]),
                hour,
                int(match["mi"]),
                int(match["s"]),
            )
        except ValueError:
            continue
        return naive.replace(tzinfo=tz)
    return None


def parse_exif_datetime(value: str, offset: str | None, tz: tzinfo) -> datetime | None:
    """EXIF `DateTimeOriginal` (`2026:11:27 09:14:52`), with `OffsetTimeOriginal` if present."""
    try:
        naive = datetime.strptime(value.strip(), _EXIF_FORMAT)
    except ValueError:
        return None
    zone = _parse_offset(offset) if offset else None
    return naive.replace(tzinfo=zone or tz)


def parse_text_datetime(value: str, tz: tzinfo) -> datetime | None:
    """A PNG `Creation Time` text: ISO 8601, RFC 1123/2822, or the EXIF layout."""
    text = value.strip()
    if not text:
        return None
    parsed: datetime | None = None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            parsed = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            try:
                parsed = datetime.strptime(text, _EXIF_FORMAT)
            except ValueError:
                return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)


def resolve_capture(
    *,
    received: datetime,
    tz: tzinfo,
    caller: datetime | None = None,
    exif_datetime: str | None = None,
    exif_offset: str | None = None,
    png_text: str | None = None,
    filename: str | None = None,
    mtime: datetime | None = None,
) -> Capture:
    """The first source that yields a time; `received` always does."""
    if caller is not None:
        return Capture(caller if caller.tzinfo else caller.replace(tzinfo=tz), "caller")
    if exif_datetime and (at := parse_exif_datetime(exif_datetime, exif_offset, tz)):
        return Capture(at, "exif")
    if png_text and (at := parse_text_datetime(png_text, tz)):
        return Capture(at, "png-text")
    if filename and (at := parse_filename_stamp(filename, tz)):
        return Capture(at, "filename")
    if mtime is not None:
        return Capture(mtime, "mtime")
    return Capture(received, "upload")


def age_seconds(captured_at: datetime, now: datetime) -> float:
    """Seconds between capture and `now`; never negative (a clock skew is not a future view)."""
    return max(0.0, (now - captured_at).total_seconds())


def _parse_offset(text: str) -> tzinfo | None:
    match = _OFFSET.match(text.strip())
    if not match:
        return None
    sign = -1 if match[1] == "-" else 1
    return timezone(sign * timedelta(hours=int(match[2]), minutes=int(match[3])))
