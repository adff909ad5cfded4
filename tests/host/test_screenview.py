"""`screen_view`: the host shows the model a screenshot its tier sent as text, or a region of it."""

import base64
import io
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import httpx
from PIL import Image

from pipeline.host.attachments import MERGED_NAME, from_ingest
from pipeline.host.context import Attachment
from pipeline.host.guards import CALL_GUARDS, RESPONSE_GUARDS
from pipeline.host.screenview import UNAVAILABLE, VIEW_TOOL, look, view_spec, viewable
from pipeline.host.toolbox import MemoryTarget
from pipeline.models import (
    JsonObject,
    JsonValue,
    Message,
    ModelResponse,
    ModelSettings,
    Row,
    ToolSpec,
)
from pipeline.screentext import screens_in
from pipeline.tiers import image_tokens
from pipeline.vlm.endpoint import ChatEndpoint
from pipeline.vlm.openai import OpenAIModel
from pipeline.vlm.scripted import ScriptedModel
from store.sql import SqlStore
from tests.host.conftest import call, open_orders, run_host
from tests.ingested import result

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
TAKEN = datetime(2026, 11, 30, 8, 30, tzinfo=UTC)
GROUPS = ("inventory", "orders", "warehouses")
TASK = "find the SKUs that are low and raise replenishment orders"
SCREEN = """Screenshot captured at 2026-11-30T08:30:00+00:00 (a past view).
| sku | name | on_hand | reorder_point | warehouse_id | low |
|---|---|---|---|---|---|
| SKU-10232 | Hex nut M8 (box of 200) | 38 | 120 | WH-01 | yes |"""
WIDTH, HEIGHT = 1200, 800
RED, BLUE = (220, 30, 30), (30, 30, 220)


def png(width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """Red on the left half, blue on the right, so a crop shows where it was cut."""
    image = Image.new("RGB", (width, height), RED)
    image.paste(BLUE, (width // 2, 0, width, height))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def shot(name: str = "erp.png", data: bytes | None = None, **update: Any) -> Any:
    rows = [Row(sku="SKU-10232", on_hand=38, reorder_point=120, warehouse_id="WH-01")]
    fields = {"text": SCREEN, "size": (WIDTH, HEIGHT), **update}
    ingested = result(name, TAKEN, rows).model_copy(update=fields)
    return ingested.with_source(png() if data is None else data)


def decoded(url: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


def view(arguments: dict[str, Any], id_: str = "v1") -> dict[str, Any]:
    return call(VIEW_TOOL, arguments, id_)


class Offered(ScriptedModel):
    """A scripted model that keeps the tool names of each request."""

    def __init__(self, turns: list[dict[str, Any]]) -> None:
        super().__init__(turns)
        self.offered: list[list[str]] = []

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        self.offered.append([t.name for t in tools])
        return await super().request(messages, tools, settings)


async def run_with(
    targets: list[MemoryTarget], model: Any, attachments: list[Attachment], **options: Any
) -> Any:
    return await run_host(targets, model, attachments=attachments, **options)


# ---- the tool itself


def test_only_attachments_sent_as_text_with_a_picture_can_be_viewed() -> None:
    image = shot("photo.png", strategy="full_page", image="data:image/png;base64,AA==")
    text, sent = from_ingest([shot("erp.png"), image], "never")
    assert sent.images and sent.pictures
    (unread,) = from_ingest([result("lost.png", TAKEN, [])])
    assert not unread.pictures
    assert list(viewable([text, sent, unread])) == ["erp.png"]


def test_the_offered_tool_names_each_screenshot_with_its_size_and_is_a_read() -> None:
    spec = view_spec(viewable(from_ingest([shot("erp.png")])))
    assert spec.name == VIEW_TOOL and spec.read_only and spec.group == "host"
    properties: Any = spec.input_schema["properties"]
    assert properties["image"]["enum"] == ["erp.png"]
    assert "erp.png (1200 x 800 pixels)" in spec.description


def test_a_region_comes_back_cut_to_its_size_from_the_right_place() -> None:
    attachments = from_ingest([shot()])
    region: JsonObject = {"x": 500, "y": 100, "width": 200, "height": 50}
    answer = look(
        {"image": "@erp.png", "region": region},
        viewable(attachments),
        attachments,
        max_pixels=1920 * 1080,
    )
    assert not answer.outcome.is_error
    assert answer.message is not None and answer.message.role == "user"
    (url,) = answer.message.images
    picture = decoded(url)
    assert picture.size == (200, 50)
    assert picture.convert("RGB").getpixel((10, 25)) == RED
    assert picture.convert("RGB").getpixel((190, 25)) == BLUE
    assert answer.tokens == image_tokens(200, 50)
    assert answer.outcome.structured == {
        "image": "erp.png",
        "region": region,
        "width": 200,
        "height": 50,
        "tokens": answer.tokens,
    }


def test_a_picture_over_the_pixel_budget_is_scaled_down_and_says_so() -> None:
    attachments = from_ingest([shot()])
    answer = look({"image": "erp.png"}, viewable(attachments), attachments, max_pixels=120_000)
    assert answer.message is not None
    picture = decoded(answer.message.images[0])
    assert picture.width * picture.height <= 120_000
    assert abs(picture.width / picture.height - WIDTH / HEIGHT) < 0.02
    assert f"scaled from {WIDTH} x {HEIGHT}" in answer.outcome.text
    assert answer.tokens == image_tokens(picture.width, picture.height)


def test_an_unknown_name_is_refused_with_the_names_that_can_be_viewed() -> None:
    attachments = from_ingest([shot("erp.png"), shot("wh2.png")], "never")
    answer = look({"image": "stock.png"}, viewable(attachments), attachments, max_pixels=10**6)
    assert answer.outcome.is_error and answer.message is None
    assert "no screenshot named 'stock.png'" in answer.outcome.text
    assert answer.outcome.text.endswith("can show: erp.png, wh2.png")


def test_a_merged_table_is_viewed_through_the_screenshots_it_was_merged_from() -> None:
    attachments = from_ingest([shot("am.png"), shot("pm.png")])
    assert [a.name for a in attachments] == [MERGED_NAME]
    answer = look({"image": MERGED_NAME}, viewable(attachments), attachments, max_pixels=10**6)
    assert answer.outcome.is_error
    assert "merged from several screenshots" in answer.outcome.text
    assert answer.outcome.text.endswith("can show: am.png, pm.png")
    assert not look(
        {"image": "pm.png"}, viewable(attachments), attachments, max_pixels=10**6
    ).outcome.is_error


def test_a_region_outside_the_screenshot_says_the_bounds_to_keep() -> None:
    attachments = from_ingest([shot()])
    region: JsonObject = {"x": 1100, "y": 0, "width": 200, "height": 100}
    answer = look(
        {"image": "erp.png", "region": region}, viewable(attachments), attachments, max_pixels=10**6
    )
    assert answer.outcome.is_error and answer.message is None
    assert "not inside erp.png, which is 1200 x 800 pixels" in answer.outcome.text
    assert "x + width at most 1200" in answer.outcome.text


def test_a_region_of_another_shape_is_refused_with_an_example() -> None:
    attachments = from_ingest([shot()])
    shapes: tuple[JsonValue, ...] = (
        [0, 0, 10, 10],
        {"x": 0, "y": 0, "w": 10, "h": 10},
        {"x": "0", "y": 0, "width": 1, "height": 1},
    )
    for region in shapes:
        answer = look(
            {"image": "erp.png", "region": region},
            viewable(attachments),
            attachments,
            max_pixels=10**6,
        )
        assert answer.outcome.is_error
        assert answer.outcome.text.startswith('region must be an object {"x", "y", "width"')


# ---- through the host, over the real tool servers


async def test_the_host_attaches_the_crop_as_an_image_part_on_the_next_request(
    targets: list[MemoryTarget],
) -> None:
    region = {"x": 0, "y": 0, "width": 640, "height": 200}
    model = ScriptedModel([view({"image": "erp.png", "region": region}), {"content": "Seen."}])
    events: list[dict[str, Any]] = []
    record = await run_with(
        targets, model, from_ingest([shot()]), sees_images=True, on_event=events.append
    )
    assert record.status == "done"
    first, second = model.requests
    assert not any(m.images for m in first)
    shown = second[-1]
    assert shown.role == "user" and len(shown.images) == 1
    assert decoded(shown.images[0]).size == (640, 200)
    assert second[-2].role == "tool" and second[-2].name == VIEW_TOOL
    (call,) = record.tool_calls
    assert call.name == VIEW_TOOL and call.arguments == {"image": "erp.png", "region": region}
    assert call.executed and not call.is_error
    assert call.result.startswith("attached image erp.png, region x=0 y=0 width=640 height=200")
    assert "(640 x 200)" in call.result
    (event,) = [e for e in events if e["type"] == "tool_call"]
    assert event["name"] == VIEW_TOOL and event["result"] == call.result


async def test_the_tokens_report_grows_by_the_estimate_of_each_image_attached(
    targets: list[MemoryTarget],
) -> None:
    region = {"x": 0, "y": 0, "width": 300, "height": 300}
    model = ScriptedModel(
        [
            view({"image": "erp.png"}),
            view({"image": "erp.png", "region": region}, "v2"),
            {"content": "Seen."},
        ]
    )
    record = await run_with(targets, model, from_ingest([shot()]), sees_images=True)
    assert record.tokens["images"] == image_tokens(WIDTH, HEIGHT) + image_tokens(300, 300)
    without = await run_with(
        targets, ScriptedModel([{"content": "Seen."}]), from_ingest([shot()]), sees_images=True
    )
    assert "images" not in without.tokens


async def test_a_mistaken_view_gets_a_clear_error_and_the_run_goes_on(
    targets: list[MemoryTarget],
) -> None:
    model = ScriptedModel(
        [
            view({"image": "stock.png"}),
            view(
                {"image": "erp.png", "region": {"x": 0, "y": 700, "width": 10, "height": 200}}, "v2"
            ),
            view({"image": "erp.png"}, "v3"),
            {"content": "Seen."},
        ]
    )
    record = await run_with(targets, model, from_ingest([shot()]), sees_images=True)
    assert record.status == "done" and record.final == "Seen."
    unknown, outside, fine = record.tool_calls
    assert unknown.is_error and "erp.png" in unknown.result
    assert outside.is_error and "y + height at most 800" in outside.result
    assert not fine.is_error
    assert [len(m.images) for m in record.messages if m.role == "user"] == [0, 1]


async def test_an_image_follows_every_result_of_its_turn(targets: list[MemoryTarget]) -> None:
    turn = view({"image": "erp.png"})
    turn["tool_calls"].append(
        {
            "id": "q1",
            "type": "function",
            "function": {
                "name": "inventory_query_stock",
                "arguments": json.dumps({"warehouse_id": "WH-01", "skus": ["SKU-10232"]}),
            },
        }
    )
    model = ScriptedModel([turn, {"content": "Seen."}])
    await run_with(targets, model, from_ingest([shot()]), sees_images=True)
    tail = model.requests[1][-3:]
    assert [(m.role, m.name) for m in tail] == [
        ("tool", VIEW_TOOL),
        ("tool", "inventory_query_stock"),
        ("user", None),
    ]
    assert tail[-1].images


async def test_a_text_only_endpoint_is_not_offered_the_tool_and_is_told_it_is_unavailable(
    targets: list[MemoryTarget],
) -> None:
    model = Offered([view({"image": "erp.png"}), {"content": "Read the text."}])
    record = await run_with(targets, model, from_ingest([shot()]), sees_images=False)
    assert len(model.offered) == 2 and all(VIEW_TOOL not in names for names in model.offered)
    (call,) = record.tool_calls
    assert call.is_error and call.result == UNAVAILABLE
    assert not any(m.images for m in record.messages)
    assert "images" not in record.tokens


async def test_an_endpoint_that_takes_images_is_offered_the_tool_for_a_text_screenshot(
    targets: list[MemoryTarget],
) -> None:
    model = Offered([{"content": "Seen."}])
    await run_with(targets, model, from_ingest([shot()]), sees_images=True)
    assert model.offered[0][-1] == VIEW_TOOL


async def test_a_screenshot_sent_as_an_image_needs_no_view(targets: list[MemoryTarget]) -> None:
    (sent,) = from_ingest([shot(strategy="full_page", image="data:image/png;base64,AA==")])
    assert sent.images
    model = Offered([{"content": "Seen."}])
    await run_with(targets, model, [sent], sees_images=True)
    assert model.offered[0] and VIEW_TOOL not in model.offered[0]


async def test_the_guards_treat_a_view_as_a_read_and_the_replenishment_goes_on(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    read = {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}
    order = {"sku": "SKU-10232", "warehouse_id": "WH-01"}
    model = ScriptedModel(
        [
            view({"image": "erp.png", "region": {"x": 0, "y": 0, "width": 600, "height": 400}}),
            call("inventory_query_stock", read, "q1"),
            call("orders_create_replenishment", order, "o1"),
            {"content": "Ordered SKU-10232 in WH-01."},
        ]
    )
    record = await run_with(
        targets,
        model,
        from_ingest([shot()]),
        sees_images=True,
        response_guards=RESPONSE_GUARDS,
        call_guards=CALL_GUARDS,
    )
    assert record.status == "done", record.guard_events
    assert [c.name for c in record.tool_calls] == [
        VIEW_TOOL,
        "inventory_query_stock",
        "orders_create_replenishment",
    ]
    assert not any(c.is_error for c in record.tool_calls)
    assert record.guard_events == []
    assert ("SKU-10232", "WH-01") in open_orders(store)


async def test_a_view_in_a_report_task_is_not_held_by_the_task_contract(
    targets: list[MemoryTarget],
) -> None:
    model = ScriptedModel([view({"image": "erp.png"}), {"content": "Which warehouse?"}])
    record = await run_with(
        targets,
        model,
        from_ingest([shot()]),
        task="which SKUs look low on this screenshot? do not order anything",
        sees_images=True,
        response_guards=RESPONSE_GUARDS,
        call_guards=CALL_GUARDS,
    )
    assert record.task_contract.action == "report"
    (looked,) = record.tool_calls
    assert looked.executed and not looked.is_error
    assert not [e for e in record.guard_events if e.action == "block"]


async def test_a_dry_run_still_shows_the_screenshot(targets: list[MemoryTarget]) -> None:
    model = ScriptedModel([view({"image": "erp.png"}), {"content": "Seen."}])
    record = await run_with(targets, model, from_ingest([shot()]), sees_images=True, dry_run=True)
    (looked,) = record.tool_calls
    assert looked.executed and not looked.dry_run and record.tokens["images"] > 0


async def test_the_schema_step_offers_the_view_only_when_the_host_does(
    targets: list[MemoryTarget],
) -> None:
    schemas: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        payload = json.loads(request.content)
        schemas.append(payload["response_format"]["json_schema"]["schema"])
        body = {"choices": [{"message": {"content": '{"final": "Seen."}'}}]}
        return httpx.Response(200, json=body)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        for sees in (True, False):
            model = OpenAIModel(
                "m", ChatEndpoint(client=client, base_url="http://127.0.0.1:1/v1"), steps="schema"
            )
            await run_with(targets, model, from_ingest([shot()]), sees_images=sees)
    offered, text_only = (
        {o["properties"].get("tool", {}).get("const") for o in s["oneOf"]} for s in schemas
    )
    assert VIEW_TOOL in offered and VIEW_TOOL not in text_only
    (choice,) = [
        o for o in schemas[0]["oneOf"] if o["properties"].get("tool", {}).get("const") == VIEW_TOOL
    ]
    assert choice["properties"]["arguments"]["properties"]["image"]["enum"] == ["erp.png"]


def test_a_view_message_is_no_screen_the_planner_would_read() -> None:
    attachments = from_ingest([shot()])
    answer = look({"image": "erp.png"}, viewable(attachments), attachments, max_pixels=10**6)
    assert answer.message is not None
    assert screens_in([Message(role="user", content=SCREEN), answer.message]) == screens_in(
        [Message(role="user", content=SCREEN)]
    )


async def test_a_view_with_nothing_to_show_says_so_and_names_the_tools(
    targets: list[MemoryTarget],
) -> None:
    (sent,) = from_ingest([shot(strategy="full_page", image="data:image/png;base64,AA==")])
    model = ScriptedModel([view({"image": "erp.png"}), {"content": "Seen."}])
    record = await run_with(targets, model, [sent], sees_images=True)
    (looked,) = record.tool_calls
    assert looked.is_error
    assert looked.result.startswith("screen_view is not offered in this run: it has no screenshot")
    assert "inventory_query_stock" in looked.result
