"""The reading ladder climbs its rungs in one loop: a reading that passes ends the climb, each
rung passed is recorded with its reasons, a grid of no inventory rows waits for the cards
rung, a photo's sure first reading is not read again, and an unsure one is weighed against
the engine's detection. The readers are replays: each gives the reading it was handed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from pipeline.imaging.normalising import Normalised
from pipeline.imaging.rectify import Quad
from pipeline.ingest.attempts import Attempt, Page
from pipeline.ingest.ladder import climb, make_steps
from pipeline.models import Row, Table
from pipeline.table.rows import MappedRows
from pipeline.tiers import LADDERS, Method, Rung

HEADER = ["SKU", "Name", "On hand", "Reorder point"]
MAPPING = {"sku": 0, "name": 1, "on_hand": 2, "reorder_point": 3}


def page(*, photo: bool = False) -> Page:
    gray = np.full((40, 60), 255, dtype=np.uint8)
    corners = ((0.0, 0.0), (60.0, 0.0), (60.0, 40.0), (0.0, 40.0))
    return Page(
        Normalised(
            rgb=np.dstack([gray] * 3),
            gray=gray,
            scale=1.0,
            dark=False,
            skew_deg=0.0,
            clean=not photo,
            quad=Quad(points=corners, kind="screen") if photo else None,
        )
    )


def stock(k: int) -> Row:
    return Row(
        sku=f"SKU-1023{k}",
        name="Flat washer M8",
        on_hand=10 * k + 5,
        reorder_point=40,
        warehouse_id="WH-01",
    )


def reading(method: Method, rows: list[Row], *, confidence: float = 0.98, weak: int = 0) -> Attempt:
    """A grid read into `rows`, every cell read with `confidence`, the first `weak` rows'
    quantities read with 0.7."""
    cells = [[r.sku or "", r.name or "", str(r.on_hand), str(r.reorder_point)] for r in rows]
    confidences = [[confidence] * 4 for _ in rows]
    for k in range(weak):
        confidences[k][2] = 0.7
    mapped = MappedRows(rows=rows, mapping=dict(MAPPING), sources=list(range(len(rows))))
    return Attempt(
        Rung("table_ocr", method),
        table=Table(header=HEADER, cells=cells),
        confidences=confidences,
        mapped=mapped,
    )


def nothing(method: Method, why: str) -> Attempt:
    return Attempt(Rung("table_ocr", method), reasons=(why,))


class Replay:
    """Gives each rung the reading it was handed, and notes which rungs read."""

    def __init__(self, readings: dict[Method, Attempt]) -> None:
        self.readings = readings
        self.read: list[Method] = []

    def __call__(self, rung: Rung, page: Page) -> Attempt:
        self.read.append(rung.method)
        if rung.method == "image":
            return Attempt(rung)
        return self.readings[rung.method]


@contextmanager
def untimed(rung: Rung) -> Iterator[None]:
    yield


def climbed(ladder: str, replay: Replay, *, photo: bool = False) -> tuple[Attempt, list[str]]:
    on = page(photo=photo)
    taken, done = climb(make_steps(LADDERS[ladder], replay, photo=photo), on, timer=untimed)
    note = done.note()
    return taken, [*done.record, *([note] if note else [])]


ROWS = [stock(k) for k in range(6)]


def test_a_first_reading_that_passes_every_check_ends_the_climb() -> None:
    lines = reading("lines", ROWS)
    replay = Replay({"lines": lines})
    taken, record = climbed("auto", replay)
    assert taken is lines
    assert replay.read == ["lines"]
    assert record == ["table_ocr/lines taken: passed every check"]


def test_each_rung_passed_is_recorded_with_why_and_the_one_taken_says_so() -> None:
    structure = reading("structure", ROWS)
    replay = Replay(
        {
            "lines": nothing("lines", "no table found"),
            "cards": nothing("cards", "no records in cards or a list"),
            "structure": structure,
        }
    )
    taken, record = climbed("auto", replay)
    assert taken is structure
    assert replay.read == ["lines", "cards", "structure"]
    assert record == [
        "table_ocr/lines passed: no table found",
        "table_ocr/cards passed: no records in cards or a list",
        "table_ocr/structure taken: passed every check",
        "taken: table_ocr/structure (passed every check)",
    ]


def test_a_grid_without_inventory_rows_waits_for_the_cards_rung_and_is_taken_without_cards() -> (
    None
):
    grid = Attempt(
        Rung("table_ocr", "lines"),
        table=Table(header=["Methods", "FPS"], cells=[["SegLink", "8.9"], ["PixelLink", "7.3"]]),
        confidences=[[0.99, 0.99], [0.99, 0.99]],
    )
    replay = Replay({"lines": grid, "cards": nothing("cards", "no records in cards or a list")})
    taken, record = climbed("auto", replay)
    assert taken is grid
    assert replay.read == ["lines", "cards"]
    assert record[-1] == (
        "taken: table_ocr/lines (no records in blocks either: the grid held is taken)"
    )


def test_with_no_reading_passing_the_picture_goes_with_the_best_reading_beside_it() -> None:
    unsure = reading("lines", ROWS, confidence=0.6)
    replay = Replay(
        {
            "lines": unsure,
            "cards": nothing("cards", "no records in cards or a list"),
            "structure": nothing("structure", "no table found"),
            "detect": nothing("detect", "no table among the detected text"),
        }
    )
    taken, _ = climbed("auto", replay)
    assert taken.rung == Rung("full_page", "image")
    assert taken.mapped.rows == unsure.mapped.rows
    assert replay.read == ["lines", "cards", "structure", "detect", "image"]


def test_a_photos_sure_first_reading_is_not_read_again() -> None:
    lines = reading("lines", ROWS)
    replay = Replay({"lines": lines, "detect": reading("detect", ROWS, confidence=0.99)})
    taken, record = climbed("auto_photo", replay, photo=True)
    assert taken is lines
    assert replay.read == ["lines"]
    assert record == ["table_ocr/lines taken: passed every check"]


def test_a_photos_first_reading_that_found_no_warehouse_is_read_again() -> None:
    # The title naming the page's warehouse can lie outside what the text boxes took in.
    lines = reading("lines", [r.model_copy(update={"warehouse_id": None}) for r in ROWS])
    detection = reading("detect", ROWS, confidence=0.99)
    replay = Replay({"lines": lines, "detect": detection})
    taken, _ = climbed("auto_photo", replay, photo=True)
    assert replay.read == ["lines", "detect"]
    assert taken is detection


def test_a_photos_unsure_first_reading_is_weighed_against_the_detection() -> None:
    # Two quantities read with 0.7: every check passes (few weak cells), but not surely.
    lines = reading("lines", ROWS, weak=2)
    detection = reading("detect", ROWS, confidence=0.99)
    replay = Replay({"lines": lines, "detect": detection})
    taken, record = climbed("auto_photo", replay, photo=True)
    assert replay.read == ["lines", "detect"]
    assert taken is detection
    assert record[0] == (
        "table_ocr/lines held: passed, not sure: the detection reads the photo again"
    )
    assert record[-1] == (
        "taken: table_ocr/detect (a photo's two readings weighed: the detection's reads more)"
    )


def test_a_photos_first_reading_stays_when_the_detection_finds_no_table() -> None:
    lines = reading("lines", ROWS, weak=1)
    replay = Replay({"lines": lines, "detect": nothing("detect", "no text detected")})
    taken, _ = climbed("auto_photo", replay, photo=True)
    assert taken is lines
    assert replay.read == ["lines", "detect"]
