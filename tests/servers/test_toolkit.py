from __future__ import annotations

from mcp.types import TextContent

from servers.errors import InvalidArgument
from servers.models import NotFound
from servers.toolkit import group_meta, refused, run_meta, success


def test_the_run_id_travels_under_the_io_stockshot_run_id_meta_key() -> None:
    assert run_meta("run-42") == {"io.stockshot/run_id": "run-42"}


def test_group_membership_uses_the_grouping_meta_key() -> None:
    assert group_meta("orders") == {"io.modelcontextprotocol/groups": ["orders"]}


def test_a_success_carries_the_model_as_structured_content_and_as_json_text() -> None:
    result = success(NotFound(sku="SKU-1", message="gone"))
    assert not result.is_error
    assert result.structured_content == {"sku": "SKU-1", "message": "gone"}
    assert isinstance(result.content[0], TextContent)
    assert result.content[0].text == '{"sku":"SKU-1","message":"gone"}'


def test_a_refused_write_says_refused_and_carries_the_details() -> None:
    error = InvalidArgument("bad id", code="unknown_sku", field="sku", details={"suggestions": []})
    result = refused(error, write=True)
    assert result.is_error
    assert isinstance(result.content[0], TextContent)
    assert result.content[0].text == "refused: bad id"
    assert result.structured_content == {
        "error": "unknown_sku",
        "field": "sku",
        "message": "bad id",
        "suggestions": [],
    }
    read = refused(error)
    assert isinstance(read.content[0], TextContent)
    assert read.content[0].text == "bad id"
