"""Whether a rung's reading is trusted as text: what the recogniser was unsure of counts, a
none mark read from one stroke does not."""

from pipeline.models import Row, Table
from pipeline.tiers import judge

HEADER = ["SKU", "On hand", "On order"]
ROWS = [Row(sku=f"SKU-1023{k}", on_hand=10 * k + 5, reorder_point=None) for k in range(8)]


def table(on_order: str) -> Table:
    return Table(header=HEADER, cells=[[r.sku or "", str(r.on_hand), on_order] for r in ROWS])


def test_a_column_of_dashes_read_with_low_confidence_leaves_the_reading_trusted() -> None:
    confidences = [[0.99, 0.98, 0.44] for _ in ROWS]
    for dash in ("-", "一", "—"):
        assert judge(table(dash), confidences, ROWS).ok


def test_values_read_with_low_confidence_make_the_reading_unsure() -> None:
    confidences = [[0.99, 0.98, 0.44] for _ in ROWS]
    verdict = judge(table("12"), confidences, ROWS)
    assert not verdict.ok
    assert "8 of 24 cells read with confidence < 0.5" in verdict.reasons


NAMED = [Row(name=f"Shirt {k}", on_hand=k) for k in range(4)]


def test_rows_keyed_by_their_names_are_trusted_where_the_names_are_the_screen_s_key() -> None:
    named = Table(header=["Product name", "Stock"], cells=[[r.name or "", "1"] for r in NAMED])
    confidences = [[0.99, 0.99] for _ in NAMED]
    assert judge(named, confidences, NAMED, keyed_by_name=True).ok
    verdict = judge(named, confidences, NAMED)
    assert "4 rows without a SKU" in verdict.reasons
