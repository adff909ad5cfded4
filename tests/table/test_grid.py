"""A header's icons: what is drawn beside a column's name is no part of it."""

import pytest

from pipeline.table.grid import strip_icons


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Qty o", "Qty"),
        ("Artikelnummer▲", "Artikelnummer"),
        ("▼ Name", "Name"),
        ("On hand ⇅", "On hand"),
    ],
)
def test_sort_arrows_beside_or_glued_to_a_header_are_stripped(header: str, expected: str) -> None:
    assert strip_icons(header) == expected
