"""Boxes into columns: a header name away from its column's values heads a column of its own."""

from pipeline.models import Box
from pipeline.table.spans import names_apart


def test_chips_read_beside_the_codes_go_to_the_status_column_their_header_names() -> None:
    # `Article` over the codes, `Status` 150 px to the right over the chips; the grid put each
    # row's chip (its outline and its word) into the codes' cell.
    boxes: list[Box] = [(991, 172, 1029, 184), (1201, 172, 1238, 184)]
    grid = [[[0, 1]]]
    for r in range(1, 4):
        y = 172 + r * 27
        boxes += [(991, y, 1054, y + 11), (1201, y - 4, 1228, y + 18), (1209, y, 1221, y + 11)]
        grid.append([[len(boxes) - 3, len(boxes) - 2, len(boxes) - 1]])
    found, columns = names_apart(boxes, grid, [(991, 1054)], text_height=9.0)
    assert columns == [(991, 1054), (1201, 1238)]
    assert found[0] == [[0], [1]]
    assert [[len(cell) for cell in row] for row in found[1:]] == [[1, 2]] * 3


def test_a_name_over_values_a_photo_lost_heads_an_empty_column() -> None:
    boxes: list[Box] = [(991, 172, 1029, 184), (1201, 172, 1238, 184)]
    grid = [[[0, 1]]]
    for r in range(1, 4):
        y = 172 + r * 27
        boxes.append((991, y, 1054, y + 11))
        grid.append([[len(boxes) - 1]])
    found, columns = names_apart(boxes, grid, [(991, 1054)], text_height=9.0)
    assert len(columns) == 2
    assert [row[1] for row in found[1:]] == [[], [], []]
