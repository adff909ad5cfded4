"""When no reading of a page passes and the full page goes to the model, the result carries the
best reading as that reading found it."""

from pipeline.ingest.attempts import Attempt
from pipeline.ingest.results import escalated
from pipeline.models import Row, Table, TextLine
from pipeline.table.rows import MappedRows
from pipeline.tiers import Rung

IMAGE = Rung("full_page", "image")


def cards_reading() -> Attempt:
    row = Row(sku="BX-310-K", name="Kraft mailer box", on_hand=12, reorder_point=40)
    return Attempt(
        Rung("table_ocr", "cards"),
        table=Table(headers=["SKU", "Name"], cells=[["BX-310-K", "Kraft mailer box"]]),
        mapped=MappedRows(rows=[row]),
        annotations=[
            TextLine(text="* counted this morning", box=(10, 400, 200, 420), confidence=0.9)
        ],
        layout="cards",
        reasons=("2 of 3 fields missing",),
    )


def test_the_full_page_result_keeps_the_best_readings_rows_layout_and_fine_print() -> None:
    best = cards_reading()
    result = escalated(Attempt(IMAGE), best)
    assert result.rung == IMAGE
    assert result.mapped.rows == best.mapped.rows
    assert result.layout == "cards"
    assert [a.text for a in result.annotations] == ["* counted this morning"]
    assert result.reasons == best.reasons


def test_with_no_earlier_reading_the_full_page_stands_alone() -> None:
    alone = Attempt(IMAGE)
    assert escalated(alone, None) is alone
