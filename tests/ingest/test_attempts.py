"""Between a photo's two readings, the one that reads more fields as values of their kind."""

from pipeline.ingest.attempts import Attempt, boxes_if_fuller
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
