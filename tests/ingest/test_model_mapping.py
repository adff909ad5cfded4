"""An unsure column mapping asked of a model: the real OpenAI-compatible adapter over a mock
transport that replays recorded answers (a replay, not a model)."""

import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from pipeline.ingest.model_mapping import ask_columns, ask_each, unsure_fields
from pipeline.models import IngestResult, Table
from pipeline.table.rows import UNSURE, mapping_doubts, to_rows
from tests.ingested import result
from tests.vlm.chat_endpoint import completion, mocked

AT = datetime(2026, 12, 4, 9, 30, tzinfo=UTC)
HEADER = ["Ref.", "Description", "qtyal.", "Reorder pt.", "Depot"]
CELLS = [
    ["SKU-10231", "Hex bolt M8x40", "120", "150", "WH-01"],
    ["SKU-10232", "Hex nut M8", "1,450", "400", "WH-01"],
    ["SKU-10310", "Cable tie 200 mm", "36", "100", "WH-02"],
    ["SKU-10318", "Heat-shrink tube kit", "31", "25", "WH-02"],
]


def typed(header: list[str], cells: list[list[str]]) -> IngestResult:
    """A result as ingest types it: rows, columns and the unsure warning, if any."""
    table = Table(header=header, cells=cells)
    mapped = to_rows(table, [[1.0] * len(header) for _ in cells])
    return result("shot.png", AT, mapped.rows).model_copy(
        update={
            "table": table.model_copy(update={"columns": mapped.columns()}),
            "warnings": mapping_doubts(mapped),
        }
    )


def answers(*contents: str) -> list[httpx.Response | Exception]:
    usage = {"prompt_tokens": 180, "completion_tokens": 12, "total_tokens": 192}
    return [httpx.Response(200, json=completion(c, usage=usage)) for c in contents]


def sent(request: httpx.Request) -> Any:
    return json.loads(request.content)


async def test_an_on_hand_column_the_typing_only_guesses_is_settled_by_the_model_s_answer() -> None:
    unsure = typed(HEADER, CELLS)
    # The one other column of quantities beside the reorder point, under a header that names
    # nothing: a guess, not a mapping to act on unconfirmed.
    guessed = next(c for c in unsure.table.columns if c.header == "qtyal.")
    assert guessed.maps_to == "on_hand" and guessed.source == "typed"
    assert unsure_fields(unsure.table.columns) == ["on_hand"]
    assert any(w.startswith(UNSURE) for w in unsure.warnings)
    model, seen, _ = mocked(answers('{"on_hand": "qtyal."}'))
    done = await ask_columns(model, unsure, model_name="openai:m", budget_s=10)
    assert [r.on_hand for r in done.result.rows] == [120, 1450, 36, 31]
    assert [r.reorder_point for r in done.result.rows] == [150, 400, 100, 25]
    assert done.asked and done.usage.prompt_tokens == 180
    assert not any(w.startswith(UNSURE) for w in done.result.warnings)
    assert any("columns mapped by the model: on_hand=qtyal." in w for w in done.result.warnings)
    assert done.note.startswith("asked openai:m because on_hand is 'qtyal.'")
    column = next(c for c in done.result.table.columns if c.header == "qtyal.")
    assert (column.maps_to, column.source) == ("on_hand", "model")
    # One request: the headers and three sample rows, an enum of the columns it may name.
    (request,) = seen
    body = sent(request)
    user = body["messages"][-1]["content"]
    assert "Ref. | Description | qtyal. | Reorder pt. | Depot" in user
    assert "SKU-10310" in user and "SKU-10318" not in user
    schema = body["response_format"]["json_schema"]["schema"]
    assert list(schema["properties"]) == ["on_hand"]
    # The columns typed surely to other fields are not offered.
    assert schema["properties"]["on_hand"]["enum"] == ["qtyal.", "none"]


async def test_a_mapping_the_typing_is_sure_of_is_not_asked() -> None:
    sure = typed(["SKU", "Name", "On hand", "Min", "Warehouse"], CELLS)
    model, seen, _ = mocked(answers('{"on_hand": "Name"}'))
    done = await ask_columns(model, sure, model_name="openai:m", budget_s=10)
    assert not done.asked and seen == [] and done.result == sure


async def test_an_answer_outside_the_table_leaves_the_typed_mapping_and_says_why() -> None:
    unsure = typed(HEADER, CELLS)
    model, _, _ = mocked(answers('{"on_hand": "Qty available"}'))
    done = await ask_columns(model, unsure, model_name="openai:m", budget_s=10)
    assert done.result.rows == unsure.rows
    assert done.result.warnings[-1].startswith(f"{UNSURE}; openai:m's answer is outside")
    assert "'Qty available' is not a header of the table" in done.result.warnings[-1]


async def test_an_answer_giving_one_column_two_fields_is_refused() -> None:
    header = ["Ref.", "Description", "qtyal.", "Lvl", "Depot"]
    unsure = typed(header, CELLS)
    assert unsure_fields(unsure.table.columns) == ["on_hand", "reorder_point"]
    model, _, _ = mocked(answers('{"on_hand": "qtyal.", "reorder_point": "qtyal."}'))
    done = await ask_columns(model, unsure, model_name="openai:m", budget_s=10)
    assert done.result.rows == unsure.rows
    assert "the column 'qtyal.' is given two fields" in done.result.warnings[-1]


async def test_a_model_endpoint_that_fails_leaves_the_typed_mapping_with_the_reason() -> None:
    unsure = typed(HEADER, CELLS)
    model, seen, _ = mocked([httpx.Response(500, text="overloaded")], retries=0)
    done = await ask_columns(model, unsure, model_name="openai:m", budget_s=10)
    assert len(seen) == 1 and done.result.rows == unsure.rows
    assert done.result.warnings[-1].startswith(f"{UNSURE}; asking openai:m failed: ")
    assert "500" in done.result.warnings[-1]


async def test_each_screenshot_is_asked_only_when_its_mapping_is_unsure() -> None:
    sure = typed(["SKU", "Name", "On hand", "Min", "Warehouse"], CELLS)
    unsure = typed(HEADER, CELLS)
    model, seen, _ = mocked(answers('{"on_hand": "qtyal."}'))
    done, notes, usage = await ask_each(model, [sure, unsure], model_name="openai:m", budget_s=10)
    assert len(seen) == 1 and done[0] == sure
    assert [r.on_hand for r in done[1].rows] == [120, 1450, 36, 31]
    assert len(notes) == 1 and notes[0].startswith("columns of shot.png: asked openai:m")
    assert usage.completion_tokens == 12


GERMAN = [
    ["A-1001", "Sechskantschraube M8", "120", "150", "WH-01"],
    ["A-1002", "Mutter M8", "1.450", "400", "WH-01"],
    ["A-1003", "Kabelbinder 200 mm", "36", "100", "WH-02"],
]
"""A stock table in German; its counts are given below under headers the vocabulary does not
know."""
COUNTS_ANSWER = {"on_hand": "Zählung", "reorder_point": "Schwelle"}


@pytest.mark.parametrize("code_header", ["Kennung", "Art.-Nr."])
async def test_counts_under_headers_the_typing_does_not_know_are_asked_about_the_rows_kept(
    code_header: str,
) -> None:
    # The codes are the rows' key by their values (whatever their header), the words beside
    # them the name and `Lager` the warehouse; the two columns of counts sit under headers
    # that name nothing the vocabulary knows: the rows are kept without counts, unsure.
    header = [code_header, "Bezeichnung", "Zählung", "Schwelle", "Lager"]
    grid = typed(header, GERMAN)
    assert [(r.sku, r.name, r.on_hand, r.warehouse_id) for r in grid.rows] == [
        ("A-1001", "Sechskantschraube M8", None, "WH-01"),
        ("A-1002", "Mutter M8", None, "WH-01"),
        ("A-1003", "Kabelbinder 200 mm", None, "WH-02"),
    ]
    (warning,) = grid.warnings
    assert warning.startswith(UNSURE) and "no column holds on hand" in warning
    model, seen, _ = mocked(answers(json.dumps(COUNTS_ANSWER)))
    done = await ask_columns(model, grid, model_name="openai:m", budget_s=10)
    (request,) = seen
    # Only what is unsure is asked, among the columns not surely typed to something else.
    schema = sent(request)["response_format"]["json_schema"]["schema"]
    assert list(schema["properties"]) == ["on_hand", "reorder_point"]
    assert schema["properties"]["on_hand"]["enum"] == ["Zählung", "Schwelle", "none"]
    assert [(r.sku, r.on_hand, r.reorder_point) for r in done.result.rows] == [
        ("A-1001", 120, 150), ("A-1002", 1450, 400), ("A-1003", 36, 100)
    ]  # fmt: skip
    assert done.note.startswith("asked openai:m because no column holds on hand")


async def test_a_field_given_a_column_whose_values_are_not_of_its_kind_is_refused() -> None:
    header = ["Produkt-ID", "Produkt", "Verfügbar", "Mindestmenge"]
    cells = [
        ["DE-9001", "Akkuschrauber 18 V", "7", "10"],
        ["DE-9002", "Bohrer-Set 10-teilig", "42", "15"],
        ["DE-9003", "Schutzbrille klar", "120", "60"],
    ]
    unsure = typed(header, cells)
    answer = {"on_hand": "Verfügbar", "warehouse_id": "Mindestmenge", "name": "Produkt"}
    model, _, _ = mocked(answers(json.dumps({**answer, "reorder_point": "none"})))
    done = await ask_columns(model, unsure, model_name="openai:m", budget_s=10)
    assert [(r.on_hand, r.warehouse_id) for r in done.result.rows] == [
        (7, None), (42, None), (120, None)
    ]  # fmt: skip
    assert "refused warehouse_id=Mindestmenge (values are numbers, not warehouses)" in done.note
