"""Between a photo's two readings, the one that reads more fields as values of their kind."""

from pipeline.ingest.attempts import Attempt, boxes_if_fuller, kind_and_sureness
from pipeline.models import Row
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
