"""Finding a table's rows and columns in text boxes."""

import numpy as np
import pytest

from pipeline.models import Box
from pipeline.table.column_gaps import headless_regions, split_merged
from pipeline.table.layout import TALL_REACH, find_table


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


LEFTS = (300, 500, 700, 900, 1100)
"""Five columns of a stock table, 120 px wide each, rows 14 px high on a 30 px pitch."""


def filled_lines(top: int, lines: int) -> list[Box]:
    """`lines` lines of the five columns from `top` on, every cell filled."""
    return [(x, top + r * 30, x + 120, top + r * 30 + 14) for r in range(lines) for x in LEFTS]


def stock_table(top: int = 200, rows: int = 12) -> list[Box]:
    """A header line at `top` and `rows` rows under it, every cell filled."""
    return filled_lines(top, rows + 1)


def test_a_navigation_list_beside_the_table_is_not_one_of_its_columns() -> None:
    # A top bar and a title row whose ends line up with the table's outer columns, and a
    # sidebar menu beside them on its own pitch: some items sit level with table rows, others
    # between them.
    bars = [(300, 100, 420, 114), (1100, 100, 1220, 114), (300, 150, 420, 164)]
    bars += [(1100, 150, 1220, 164)]
    menu = [(40, y, 150, y + 14) for y in (100, 150, 185, 215, 245, 260, 290, 320)]
    found = find_table(stock_table() + bars + menu, text_height=12.0)
    assert found is not None
    assert found.columns[0][0] == LEFTS[0]
    assert len(found.columns) == 5
    assert len(found.rows) == 12


def test_a_filter_bar_just_above_the_header_is_not_taken_for_the_header() -> None:
    boxes = stock_table()
    # Two chips and a link straddling the first columns, one row pitch above the header.
    chips = [(300, 168, 470, 184), (480, 168, 560, 184), (580, 168, 640, 184)]
    header = boxes[:5]
    found = find_table(chips + boxes, text_height=12.0)
    assert found is not None
    assert [[boxes_of(chips + boxes, cell) for cell in found.header]] == [[[box] for box in header]]


def boxes_of(boxes: list[Box], cell: list[int]) -> list[Box]:
    return [boxes[i] for i in cell]


def test_two_header_names_read_as_one_box_are_cut_apart_at_their_gap() -> None:
    boxes = stock_table()
    # `On order` and `Status` over the 4th and 5th columns, close enough to be one box.
    merged = (900, 200, 1220, 214)
    boxes[3:5] = [merged]
    mask = np.zeros((700, 1400), dtype=np.uint8)
    for x0, y0, x1, y1 in [*stock_table()]:
        mask[y0:y1, x0:x1] = 255
    mask[200:214, 1020:1100] = 0  # the gap between the two names
    found = find_table(boxes, text_height=12.0)
    assert found is not None
    split = split_merged(boxes, mask, found.grid, found.columns, text_height=12.0)
    assert split is not None
    assert (900, 200, 1020, 214) in split and (1100, 200, 1220, 214) in split
    again = find_table(split, text_height=12.0)
    assert again is not None and all(len(cell) == 1 for cell in again.header)


def test_a_column_without_a_name_is_looked_for_from_its_neighbours_names_to_the_next() -> None:
    boxes = stock_table()
    # The 4th column's values are one digit, right-aligned; its name is too faint to be found.
    for k in range(3, len(boxes), 5):
        _, y0, x1, y1 = boxes[k]
        boxes[k] = (x1 - 10, y0, x1, y1)
    del boxes[3]
    found = find_table(boxes, text_height=12.0)
    assert found is not None and not found.header[3]
    regions = headless_regions(boxes, found.header, found.columns, text_height=12.0)
    # From the 3rd column's end to the 5th column's start, over the header line only.
    assert regions == [(822, 198, 1098, 216)]


def test_a_breadcrumb_set_left_of_a_right_aligned_first_column_is_context() -> None:
    boxes = stock_table()
    # Over the checkbox column, left of the first column's text.
    crumb = (200, 120, 290, 132)
    found = find_table([crumb, *boxes], text_height=12.0)
    assert found is not None
    assert [0] in found.context


def test_a_breadcrumb_over_a_wide_filter_bar_and_a_toolbar_is_still_context() -> None:
    boxes = stock_table()
    # Top to bottom: a breadcrumb; a filter bar of labels, fields and buttons (eight phrases);
    # a card title with three buttons at its right.
    crumb = [(300, 40, 600, 54)]
    filters = [(300 + k * 115, 90, 380 + k * 115, 104) for k in range(8)]
    toolbar = [(300, 140, 360, 154)] + [
        (1000 + k * 100, 140, 1060 + k * 100, 154) for k in range(3)
    ]
    above = crumb + filters + toolbar
    found = find_table(above + boxes, text_height=12.0)
    assert found is not None
    kept = [above[i] for p in found.context for i in p]
    assert kept == above


@pytest.mark.parametrize(
    "menu_tops",
    [
        pytest.param(range(120, 500, 40), id="a sidebar going on down beside the rows"),
        pytest.param(range(40, 200, 32), id="a short sidebar that ends above the table"),
    ],
)
def test_a_card_title_far_left_of_the_table_is_context_and_a_sidebars_items_are_not(
    menu_tops: range,
) -> None:
    boxes = stock_table()
    # The card's title at its edge, 200 px left of the first column (right-aligned numbers);
    # a sidebar's items further left.
    title = (100, 150, 190, 164)
    sidebar = [(10, y, 70, y + 14) for y in menu_tops]
    found = find_table([title, *sidebar, *boxes], text_height=12.0)
    assert found is not None
    kept = {i for p in found.context for i in p}
    assert 0 in kept
    assert not kept & set(range(1, 1 + len(sidebar)))


def test_rules_between_a_breadcrumb_and_the_table_do_not_push_the_breadcrumb_out() -> None:
    boxes = stock_table()
    # A breadcrumb; a filter bar of six phrases; two buttons; a card title with three
    # buttons; a card's top and bottom borders read as boxes a few pixels high.
    crumb = [(300, 20, 600, 34)]
    filters = [(300 + k * 130, 60, 400 + k * 130, 74) for k in range(6)]
    buttons = [(300, 100, 360, 114), (380, 100, 440, 114)]
    rules = [(900, 125, 980, 129), (900, 170, 980, 174)]
    toolbar = [(300, 140, 360, 154)] + [
        (1000 + k * 100, 140, 1060 + k * 100, 154) for k in range(3)
    ]
    above = crumb + filters + buttons + rules + toolbar
    found = find_table(above + boxes, text_height=12.0)
    assert found is not None
    assert [0] in found.context


def test_a_sidebar_the_grid_took_as_a_column_does_not_push_the_breadcrumb_out() -> None:
    boxes = stock_table()
    # A sidebar menu on the table's pitch: four items level with rows, two above the table on
    # lines of their own between a breadcrumb, a filter bar of nine phrases and a toolbar.
    menu = [(40, 200 + r * 30, 110, 214 + r * 30) for r in range(1, 5)]
    menu += [(40, 60, 110, 74), (40, 120, 110, 134)]
    crumb = [(300, 20, 600, 34)]
    filters = [(300 + k * 100, 90, 370 + k * 100, 104) for k in range(9)]
    toolbar = [(300, 150, 360, 164), (400, 150, 460, 164)]
    found = find_table(crumb + filters + toolbar + menu + boxes, text_height=12.0)
    assert found is not None
    assert [0] in found.context


def test_a_header_name_over_a_column_of_unread_values_heads_a_column_of_its_own() -> None:
    # `STATUS` stands over the gap left of the stock's values (its coloured chips lost on a
    # photo), `CURRENT STOCK` over the values: two columns, the status one empty.
    header = [(100, 200, 260, 214), (520, 200, 580, 214), (700, 200, 820, 214)]
    header += [(1000, 200, 1080, 214)]
    body = [
        box
        for r in range(1, 13)
        for box in (
            (100, 200 + r * 30, 300, 214 + r * 30),
            (760, 200 + r * 30, 820, 214 + r * 30),
            (1000, 200 + r * 30, 1080, 214 + r * 30),
        )
    ]
    found = find_table(header + body, text_height=12.0)
    assert found is not None
    assert len(found.columns) == 4
    assert [len(cell) for cell in found.header] == [1, 1, 1, 1]
    assert all(row[1] == [] and row[2] for row in found.rows)


def test_a_header_name_over_its_values_and_a_neighbour_close_by_stay_one_cell() -> None:
    # `Qty` a little left of its right-aligned numbers, `on hand` over them: one name.
    header = [(100, 200, 260, 214), (700, 200, 736, 214), (742, 200, 820, 214)]
    body = [
        box
        for r in range(1, 13)
        for box in ((100, 200 + r * 30, 300, 214 + r * 30), (780, 200 + r * 30, 820, 214 + r * 30))
    ]
    found = find_table(header + body, text_height=12.0)
    assert found is not None
    assert len(found.columns) == 2
    assert len(found.header[1]) == 2


def test_a_header_written_on_two_lines_is_one_header_of_both_lines() -> None:
    # `Auf` over `Lager` over the third column, the other names on the lower line; rows on a
    # 30 px pitch, the header's two lines 12 px apart.
    body = filled_lines(230, 8)
    header = [(x, 200, x + 100, 212) for x in LEFTS] + [(LEFTS[2], 188, LEFTS[2] + 40, 200)]
    found = find_table(body + header, text_height=8.0)
    assert found is not None
    assert len(found.rows) == 8
    assert sorted(len(cell) for cell in found.header) == [1, 1, 1, 1, 2]


def test_a_line_just_above_the_header_over_no_name_of_it_is_not_part_of_the_header() -> None:
    # A sidebar's entry (`Transfers`) 12 px above the header, over the first column, whose
    # header cell is empty (a column of check boxes): a caption, not the first line of a name.
    body = filled_lines(230, 8)
    header = [(x, 200, x + 100, 212) for x in LEFTS[1:]] + [(LEFTS[0], 188, LEFTS[0] + 90, 200)]
    found = find_table(body + header, text_height=8.0)
    assert found is not None
    assert len(found.rows) == 8
    assert sorted(len(cell) for cell in found.header) == [0, 1, 1, 1, 1]


def test_names_set_between_a_wrapped_names_two_lines_are_one_header_with_both() -> None:
    # `Auf` / `Lager` over the third column, the other names centred between its lines.
    body = filled_lines(230, 8)
    header = [(x, 194, x + 100, 206) for x in LEFTS if x != LEFTS[2]] + [
        (LEFTS[2], 186, LEFTS[2] + 40, 198),
        (LEFTS[2], 200, LEFTS[2] + 60, 212),
    ]
    found = find_table(body + header, text_height=8.0)
    assert found is not None
    assert len(found.rows) == 8
    assert sorted(len(cell) for cell in found.header) == [1, 1, 1, 1, 2]


def test_a_second_table_under_the_first_is_not_read_into_its_rows() -> None:
    # Another table's rows start under the first's, on columns of their own; one stack (a
    # select box's column) reaches into both.
    first = stock_table(top=200, rows=10)
    others = (20, 260, 640, 1020)
    second = [(x, 560 + r * 30, x + 90, 574 + r * 30) for r in range(5) for x in others]
    bridge = [(700, 560 + r * 30, 820, 574 + r * 30) for r in range(5)]
    found = find_table(first + second + bridge, text_height=10.0)
    assert found is not None
    assert len(found.columns) == 5
    assert len(found.rows) == 10


def test_rows_as_tall_as_their_thumbnails_are_a_table_only_where_columns_may_stand_further_apart() -> (
    None
):
    # A header and two rows 130 px apart (a thumbnail in each), text 14 px high.
    boxes = [(x, 200 + r * 130, x + 120, 214 + r * 130) for r in range(3) for x in LEFTS]
    assert find_table(boxes, text_height=10.0) is None
    tall = find_table(boxes, text_height=10.0, reach=TALL_REACH)
    assert tall is not None
    assert (len(tall.columns), len(tall.rows)) == (5, 2)


def test_a_name_wrapped_onto_a_second_line_stays_in_its_row() -> None:
    # Rows on a 30 px pitch; the third row's name (second column) goes on 12 px below it.
    wrapped = (LEFTS[1], 290 + 12, LEFTS[1] + 60, 290 + 26)
    boxes = [*stock_table(rows=6), wrapped]
    found = find_table(boxes, text_height=10.0)
    assert found is not None and len(found.rows) == 6
    assert len(boxes) - 1 in found.rows[2][1]


def test_a_line_under_several_columns_between_rows_is_no_wrapped_name() -> None:
    table = stock_table(rows=6)
    between = [(x, 290 + 12, x + 60, 290 + 26) for x in LEFTS[1:3]]
    found = find_table([*table, *between], text_height=10.0)
    assert found is not None
    placed = {i for row in found.rows for cell in row for i in cell}
    assert not placed & {len(table), len(table) + 1}
