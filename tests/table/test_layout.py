"""Finding a table's rows and columns in text boxes."""

from pipeline.models import Box
from pipeline.table.layout import find_table


def drifting_table(rows: int, drift: float) -> list[Box]:
    """Four columns of boxes 34 px high on a 51 px pitch, each row rising `drift` px from one
    column to the next (a photo whose plane was found a little off)."""
    lefts = (100, 400, 1000, 1300)
    widths = (120, 260, 80, 60)
    boxes: list[Box] = []
    for r in range(rows + 1):
        for c, (x, w) in enumerate(zip(lefts, widths, strict=True)):
            y = round(200 + r * 51 - c * drift)
            boxes.append((x, y, x + w, y + 34))
    return boxes


def test_a_row_drifting_across_a_photographed_table_stays_one_row() -> None:
    found = find_table(drifting_table(12, 5.0), text_height=20.0)
    assert found is not None
    assert len(found.columns) == 4
    assert len(found.rows) == 12
    assert all(all(cell for cell in row) for row in found.rows)


def test_rows_a_pitch_apart_stay_apart() -> None:
    found = find_table(drifting_table(12, 0.0), text_height=20.0)
    assert found is not None and len(found.rows) == 12
