"""A photo's faint text found at a lower contrast than the page's ink."""

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from pipeline.imaging.text import TextBoxes
from pipeline.ingest.faded_text import faint_cells, faint_fragments_joined
from pipeline.models import Box
from pipeline.table.layout import TableLayout

ROWS = 8


def code_table(faint: bool) -> tuple[TextBoxes, TableLayout, NDArray[np.uint8]]:
    """A `Ref.` column whose codes left two runs of darker glyphs (x 100-130 and 160-200) on a
    washed-out photo, then a name column; with `faint`, light grey ink of the rest of each code
    runs between the two runs, else the page's white."""
    gray = np.full((60 + ROWS * 40, 600), 235, dtype=np.uint8)
    boxes: list[Box] = [(100, 20, 140, 34), (300, 20, 360, 34)]
    rows = []
    for r in range(ROWS):
        y = 60 + r * 40
        if faint:
            gray[y + 2 : y + 12, 100:200] = 205
        gray[y : y + 14, 100:130] = 90
        gray[y : y + 14, 160:200] = 90
        gray[y : y + 14, 300:420] = 90
        k = len(boxes)
        boxes += [(100, y, 130, y + 14), (160, y, 200, y + 14), (300, y, 420, y + 14)]
        rows.append([[k], [k + 1], [k + 2]])
    found = TextBoxes(boxes=boxes, text_height=14.0, mask=np.zeros_like(gray))
    layout = TableLayout(
        box=(100, 20, 420, 60 + ROWS * 40),
        columns=[(100, 130), (160, 200), (300, 420)],
        header=[[0], [], [1]],
        rows=rows,
        context=[],
    )
    return found, layout, gray


def test_two_runs_of_a_faint_code_under_one_header_are_read_as_one_column() -> None:
    found, layout, gray = code_table(faint=True)
    joined = faint_fragments_joined(found, layout, gray)
    assert joined.columns == [(100, 200), (300, 420)]
    assert joined.header == [[0], [1]]
    assert all(len(row[0]) == 2 for row in joined.rows)


def test_a_column_without_a_name_set_apart_by_the_pages_background_stays_apart() -> None:
    found, layout, gray = code_table(faint=False)
    assert faint_fragments_joined(found, layout, gray) == layout


def two_columns(
    names: list[Box], header: list[list[int]], left: tuple[int, int], right: tuple[int, int]
) -> tuple[TextBoxes, TableLayout, NDArray[np.uint8]]:
    """Dark boxes at the sideways extents `left` and `right` on every row, on the page's white,
    under the header name boxes `names`; `header` says which of them each column took."""
    gray = np.full((60 + ROWS * 40, 600), 235, dtype=np.uint8)
    boxes: list[Box] = list(names)
    rows = []
    for r in range(ROWS):
        y = 60 + r * 40
        for x0, x1 in (left, right):
            gray[y : y + 14, x0:x1] = 90
            boxes.append((x0, y, x1, y + 14))
        rows.append([[len(boxes) - 2], [len(boxes) - 1]])
    found = TextBoxes(boxes=boxes, text_height=14.0, mask=np.zeros_like(gray))
    x0 = min(left[0], *(name[0] for name in names))
    layout = TableLayout(
        box=(x0, 20, right[1], 60 + ROWS * 40),
        columns=[left, right],
        header=header,
        rows=rows,
        context=[],
    )
    return found, layout, gray


def test_a_quantity_set_close_to_a_name_without_its_own_header_box_stays_apart() -> None:
    # `In stock` right-aligned against `Name`, their header read as one box over the first.
    found, layout, gray = two_columns([(200, 20, 330, 34)], [[0], []], (250, 290), (300, 420))
    assert faint_fragments_joined(found, layout, gray) == layout


def named_code_table(left_header: Box) -> tuple[TextBoxes, TableLayout, NDArray[np.uint8]]:
    """`On order` | `Article` over a faint code that left two runs (x 200-215 and 222-260) a
    word's gap apart; the `Article` name stands over both runs; `left_header` is the box the
    left run took for its name."""
    return two_columns([left_header, (198, 20, 250, 34)], [[0], [1]], (200, 215), (222, 260))


def test_two_runs_of_a_faint_code_under_one_name_are_one_column_under_that_name() -> None:
    found, layout, gray = named_code_table(left_header=(120, 20, 180, 34))
    joined = faint_fragments_joined(found, layout, gray)
    assert joined.columns == [(200, 260)]
    assert joined.header == [[1]]
    assert all(len(row[0]) == 2 for row in joined.rows)


def test_two_close_columns_each_under_its_own_name_stay_apart() -> None:
    found, layout, gray = named_code_table(left_header=(195, 20, 216, 34))
    assert faint_fragments_joined(found, layout, gray) == layout


def glare_table(faded: dict[int, int]) -> tuple[TextBoxes, TableLayout, NDArray[np.uint8]]:
    """A name column and a `Min` column of numbers on a white page; the numbers of the rows
    in `faded` are drawn in that light grey (a glare's wash) and have no box, the others
    dark with their box."""
    canvas = Image.new("L", (500, 60 + ROWS * 40), 240)
    draw = ImageDraw.Draw(canvas)
    font = ImageFont.load_default(size=18)
    boxes: list[Box] = [(40, 20, 120, 34), (300, 20, 340, 34)]
    rows = []
    for r in range(ROWS):
        y = 60 + r * 40
        draw.text((40, y), f"Cable tie {r}", fill=40, font=font)
        draw.text((300, y), f"{120 + r}", fill=faded.get(r, 40), font=font)
        k = len(boxes)
        boxes.append((40, y + 4, 140, y + 18))
        if r in faded:
            rows.append([[k], []])
        else:
            boxes.append((300, y + 4, 334, y + 18))
            rows.append([[k], [k + 1]])
    found = TextBoxes(boxes=boxes, text_height=14.0, mask=np.zeros((60 + ROWS * 40, 500), np.uint8))
    layout = TableLayout(
        box=(40, 20, 340, 60 + ROWS * 40),
        columns=[(40, 140), (300, 334)],
        header=[[0], [1]],
        rows=rows,
        context=[],
    )
    return found, layout, np.asarray(canvas, dtype=np.uint8)


def test_values_a_glare_faded_out_of_a_named_column_are_found_in_their_cells() -> None:
    found, layout, gray = glare_table({2: 218, 5: 214})
    more, again = faint_cells(found, layout, gray)
    for r in (2, 5):
        (i,) = again.rows[r][1]
        x0, y0, x1, y1 = more.boxes[i]
        assert x0 >= 296 and x1 <= 340 and 60 + r * 40 <= y0 and y1 <= 60 + r * 40 + 22
        assert more.mask[(y0 + y1) // 2, (x0 + x1) // 2] == 255
    assert [row[1] for r, row in enumerate(again.rows) if r not in (2, 5)] == [
        row[1] for r, row in enumerate(layout.rows) if r not in (2, 5)
    ]


def test_a_cell_left_empty_on_the_page_stays_empty() -> None:
    found, layout, gray = glare_table({2: 240})
    assert faint_cells(found, layout, gray) == (found, layout)


def test_a_column_without_a_name_is_not_searched() -> None:
    found, layout, gray = glare_table({2: 218})
    nameless = replace(layout, header=[[0], []])
    assert faint_cells(found, nameless, gray) == (found, nameless)
