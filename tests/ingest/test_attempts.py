"""Between a photo's two readings, the one that reads more fields as values of their kind; a
grid with no inventory rows is no better reading than one that found them; and what one
reading of a page lacks that another read (its warehouse in a title)."""

from pipeline.ingest.attempts import (
    Attempt,
    boxes_if_fuller,
    clearly_fuller,
    detection_if_better,
    kind_and_sureness,
    rowless_after_rows,
    warehouse_of_others,
)
from pipeline.models import Row, Table
from pipeline.table.rows import MappedRows
from pipeline.tiers import Method, Rung


def reading(method: Method, rows: list[Row]) -> Attempt:
    return Attempt(Rung("table_ocr", method), mapped=MappedRows(rows=rows))


def stock(on_hand: int | None, name: str = "Flat washer M8") -> Row:
    return Row(sku="SKU-10233", name=name, on_hand=on_hand, reorder_point=300, warehouse_id="WH-01")


def test_the_boxes_reading_with_a_misread_quantity_beats_a_detection_that_lost_the_column() -> None:
    boxes = reading("lines", [stock(1204), stock(None), stock(520)])
    merged = "1,204 boxes Flat washer M8"
    detection = reading("detect", [stock(None, merged), stock(None, merged), stock(None, merged)])
    assert boxes_if_fuller(detection, [boxes, detection]) is boxes


def test_the_detection_stays_when_it_reads_as_much() -> None:
    boxes = reading("lines", [stock(1204), stock(None), stock(520)])
    detection = reading("detect", [stock(1204), stock(260), stock(520)])
    assert boxes_if_fuller(detection, [boxes, detection]) is detection


def confident(method: Method, rows: list[Row], confidence: float) -> Attempt:
    mapped = MappedRows(
        rows=rows, mapping={"sku": 0, "name": 1, "on_hand": 2}, sources=list(range(len(rows)))
    )
    return Attempt(
        Rung("table_ocr", method), mapped=mapped, confidences=[[confidence] * 5 for _ in rows]
    )


def test_of_two_readings_the_one_with_more_values_of_their_kind_ranks_first() -> None:
    whole = confident("lines", [stock(1204), stock(260)], 0.7)
    cut = confident("detect", [stock(1204), stock(None)], 0.99)
    assert max([cut, whole], key=kind_and_sureness) is whole


def test_of_two_readings_with_as_many_values_the_surer_ranks_first() -> None:
    unsure = confident("lines", [stock(1204), stock(260)], 0.7)
    sure = confident("detect", [stock(1204), stock(260)], 0.95)
    assert max([unsure, sure], key=kind_and_sureness) is sure


def test_of_two_readings_of_a_table_of_no_inventory_the_one_that_reads_more_ranks_first() -> None:
    def grid(method: Method, cells: list[list[str]]) -> Attempt:
        table = Table(header=["Methods", "R", "P", "F", "FPS"], cells=cells)
        return Attempt(
            Rung("table_ocr", method), table=table, confidences=[[0.95] * 5 for _ in cells]
        )

    joined = grid("lines", [["SegLink [26]", "8.9", "", "", ""], ["PixelLink [4]", "", "", "", ""]])
    apart = grid(
        "detect",
        [
            ["SegLink [26]", "70.0", "86.0", "77.0", "8.9"],
            ["PixelLink [4]", "73.2", "83.0", "77.8", ""],
        ],
    )
    assert max([joined, apart], key=kind_and_sureness) is apart


def placed(method: Method, context: list[str], *, column: bool = False) -> Attempt:
    rows = [stock(412).model_copy(update={"warehouse_id": "WH-02" if column else None})]
    mapping = {"sku": 0, "warehouse_id": 4} if column else {"sku": 0}
    return Attempt(
        Rung("table_ocr", method),
        mapped=MappedRows(rows=rows, mapping=mapping, sources=[0]),
        context=context,
    )


def test_rows_take_the_warehouse_another_reading_of_the_page_found_in_its_title() -> None:
    structure = placed("structure", ["全部", "物料编码", "请输入"])
    lines = placed("lines", ["现存量查询·WH-03", "仓库 全部", "物料编码"])
    found = warehouse_of_others(structure, [lines, structure])
    assert [r.warehouse_id for r in found.mapped.rows] == ["WH-03"]
    assert found.context[0] == "现存量查询·WH-03"


def test_readings_that_disagree_or_a_warehouse_column_leave_the_rows_as_read() -> None:
    structure = placed("structure", ["Stock"])
    one, other = placed("lines", ["Stock · WH-01"]), placed("detect", ["Stock · WH-02"])
    assert warehouse_of_others(structure, [one, other, structure]) is structure
    column = placed("structure", ["Stock"], column=True)
    assert warehouse_of_others(column, [one, column]) is column


def test_a_grid_with_no_inventory_rows_does_not_end_the_climb_after_a_reading_that_had_rows() -> (
    None
):
    unsure = reading("lines", [stock(412), stock(38)])
    grid = reading("structure", [])
    assert rowless_after_rows(grid, [unsure, grid])
    assert not rowless_after_rows(grid, [reading("lines", []), grid])
    assert not rowless_after_rows(unsure, [unsure])


def test_a_reading_that_missed_the_pages_title_is_weighed_with_the_warehouse_the_page_names() -> (
    None
):
    # The boxes read every reorder point but not the title; the detection read the title
    # (`WH-02`, which its rows took) but lost the reorder points under an unread header.
    def unplaced(method: Method, reorder: int | None, context: list[str]) -> Attempt:
        titled = "WH-02" if "WH-02" in context[0] else None
        rows = [
            stock(412).model_copy(update={"warehouse_id": titled, "reorder_point": reorder})
            for _ in range(3)
        ]
        mapped = MappedRows(rows=rows, mapping={"sku": 0}, sources=[0, 1, 2])
        return Attempt(
            Rung("table_ocr", method),
            mapped=mapped,
            context=context,
            confidences=[[0.97] * 5 for _ in rows],
        )

    boxes = unplaced("lines", 300, ["Stock levels"])
    boxes.mapped.rows[1] = boxes.mapped.rows[1].model_copy(update={"on_hand": None})  # `240 roils`
    detection = unplaced("detect", None, ["Inventory / WH-02 / Stock levels"])
    readings = [boxes, detection]
    assert max(readings, key=lambda a: kind_and_sureness(a, readings)) is boxes
    assert boxes_if_fuller(detection, readings) is boxes
    # Weighed alone, the title the detection read tips it.
    assert max(readings, key=kind_and_sureness) is detection


def test_a_detection_in_doubt_that_reads_clearly_more_replaces_boxes_that_cut_a_column() -> None:
    # The boxes cut the code column through its words (`SKU-` | `10231`): no row has a SKU.
    def cut() -> Row:
        return Row(sku="10231", name="Flat washer M8", on_hand=96, reorder_point=150)

    boxes = confident("lines", [cut(), cut(), cut()], 0.99)
    detection = confident("detect", [stock(96), stock(205), stock(130)], 0.9)
    assert detection_if_better(boxes, detection, [boxes, detection], passed=False) is detection


def test_a_detection_in_doubt_that_reads_about_as_much_leaves_the_boxes_reading() -> None:
    boxes = confident("lines", [stock(96), stock(None), stock(130)], 0.9)
    detection = confident("detect", [stock(96), stock(205), stock(130)], 0.99)
    assert detection_if_better(boxes, detection, [boxes, detection], passed=False) is boxes
    assert detection_if_better(boxes, detection, [boxes, detection], passed=True) is detection


def test_a_reading_that_passed_on_half_the_rows_gives_way_to_one_that_read_them_all() -> None:
    half = confident("structure", [stock(96), stock(205)], 0.95)
    whole = confident("lines", [stock(96), stock(205), stock(130), stock(31)], 0.8)
    assert clearly_fuller(half, [whole, half]) is whole


def test_a_reading_that_passed_stays_when_no_other_reads_clearly_more() -> None:
    passed = confident("structure", [stock(96), stock(205), stock(130)], 0.95)
    other = confident("lines", [stock(96), stock(205), stock(130), stock(None)], 0.8)
    assert clearly_fuller(passed, [other, passed]) is passed
