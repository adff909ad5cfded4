"""The fault replay: reproducible for a seed, produces each failure mode, reacts by its policy."""

import json
from collections.abc import Sequence, Set

import pytest

from pipeline.evals.cases import Case
from pipeline.evals.faults import (
    DIALECTS,
    FAULT_KINDS,
    IGNORE_TASK,
    FaultPolicy,
    FaultReplay,
    full_width,
)
from pipeline.evals.scratch import SeededStore
from pipeline.evals.screens import EVAL_CLOCK, Screens
from pipeline.host.attachments import from_ingest
from pipeline.host.groups import ALL_GROUPS
from pipeline.host.guards import CALL_GUARDS, RESPONSE_GUARDS
from pipeline.host.loop import Run, run_task
from pipeline.host.record import RunRecord
from pipeline.host.toolbox import MemoryTarget, Toolbox
from pipeline.models import Message, ModelResponse, ModelSettings, ToolSpec
from pipeline.vlm.base import Model
from pipeline.vlm.rules import RulesModel
from servers.factory import build_server
from store.stores import sqlite_store
from tests.evals.conftest import case_by_id

SETTINGS = ModelSettings(max_tokens=1024)


async def _run(
    model: Model, case: Case, screens: Screens, seeded: SeededStore, *, guards: bool = True
) -> tuple[RunRecord, list[ToolSpec]]:
    path = seeded.scratch(case.id, case.store)
    with sqlite_store(path) as db:
        targets = [
            MemoryTarget(g, build_server(g, db, clock=lambda: EVAL_CLOCK)) for g in ALL_GROUPS
        ]
        async with Toolbox(targets) as toolbox:
            record = await run_task(
                Run(
                    task=case.task,
                    model=model,
                    toolbox=toolbox,
                    groups=ALL_GROUPS,
                    attachments=from_ingest(screens.get(case.images)),
                    response_guards=RESPONSE_GUARDS if guards else {},
                    call_guards=CALL_GUARDS if guards else {},
                    clock=lambda: EVAL_CLOCK,
                )
            )
            tools = list(toolbox.tools)
    seeded.discard(path)
    return record, tools


@pytest.fixture
async def plan(
    cases: list[Case], screens: Screens, seeded: SeededStore
) -> tuple[list[Message], list[ToolSpec]]:
    """The messages of a clean rules run on the demo page, and the tools it had."""
    record, tools = await _run(RulesModel(), case_by_id(cases, "core-light-wh01"), screens, seeded)
    names = [[c.name for c in m.tool_calls] for m in record.messages if m.role == "assistant"]
    assert names[:2] == [["inventory_query_stock"], ["orders_create_replenishment"] * 5]
    return record.messages, tools


def _upto(messages: Sequence[Message], assistant_turns: int) -> list[Message]:
    """The conversation just before the model's reply number `assistant_turns + 1`."""
    seen = 0
    for index, message in enumerate(messages):
        if message.role == "assistant":
            if seen == assistant_turns:
                return list(messages[:index])
            seen += 1
    raise AssertionError("not that many turns")


def _replay(kind: str, seed: int = 0, fix_rate: float = 0.0, vary_rate: float = 0.0) -> FaultReplay:
    policy = FaultPolicy(
        fault_rate=1.0,
        fix_rate=fix_rate,
        vary_rate=vary_rate,
        faults=(kind,),
        ignore_task_rate=0.0,
    )
    return FaultReplay(seed, "t", policy=policy)


def _answer(reply: ModelResponse, *, errors: Set[str] = frozenset()) -> list[Message]:
    out = [Message(role="assistant", content=reply.content, tool_calls=list(reply.tool_calls))]
    for call in reply.tool_calls:
        failed = call.name in errors
        out.append(
            Message(
                role="tool",
                tool_call_id=call.id,
                name=call.name,
                content="refused: check the fields" if failed else json.dumps({"ok": True}),
                is_error=failed,
            )
        )
    return out


async def test_the_replay_is_reproducible_for_a_seed(
    cases: list[Case], screens: Screens, seeded: SeededStore
) -> None:
    traces = []
    for seed in (5, 5, 6):
        runs = []
        for case_id in (
            "core-light-wh01",
            "multi-wh02-morning-afternoon",
            "stale-partial-delivery",
        ):
            case = case_by_id(cases, case_id)
            model = FaultReplay(seed, case.id, language=case.language)
            record, _ = await _run(model, case, screens, seeded)
            runs.append(
                (
                    model.events,
                    [(c.name, c.arguments, c.is_error) for c in record.tool_calls],
                    record.final,
                )
            )
        traces.append(runs)
    assert traces[0] == traces[1]
    assert traces[0] != traces[2]


async def test_stall_announces_in_prose_and_calls_nothing(
    plan: tuple[list[Message], list[ToolSpec]],
) -> None:
    messages, tools = plan
    reply = await _replay("stall").request(_upto(messages, 1), tools, SETTINGS)
    assert not reply.tool_calls
    assert reply.content == "I will now raise the replenishment orders for the low SKUs."


async def test_prose_calls_come_in_every_dialect(
    plan: tuple[list[Message], list[ToolSpec]],
) -> None:
    messages, tools = plan
    markers = {
        "hermes": "<tool_call>\n{",
        "gemma": '<|tool_call|>call:inventory_query_stock{warehouse_id:<|"|>WH-01<|"|>',
        "mistral": '[TOOL_CALLS][{"name": "inventory_query_stock"',
        "llama": '<function=inventory_query_stock>{"warehouse_id": "WH-01"',
        "fenced_json": "```json\n{",
    }
    seen: set[str] = set()
    for seed in range(40):
        replay = _replay("prose_call", seed)
        reply = await replay.request(_upto(messages, 0), tools, SETTINGS)
        dialect = replay.events[-1].detail
        assert not reply.tool_calls
        assert markers[dialect] in reply.content
        seen.add(dialect)
    assert seen == set(DIALECTS)


async def test_a_truncated_reply_is_cut_mid_json_and_arrives_whole_once_the_budget_fits(
    plan: tuple[list[Message], list[ToolSpec]],
) -> None:
    messages, tools = plan
    variants = set()
    for seed in range(12):
        replay = _replay("truncation", seed)
        reply = await replay.request(_upto(messages, 1), tools, SETTINGS)
        assert reply.finish_reason == "length"
        if reply.tool_calls:
            raw = reply.tool_calls[0].raw_arguments
            assert raw is not None and not reply.tool_calls[0].arguments
            with pytest.raises(json.JSONDecodeError):
                json.loads(raw)
            variants.add("native")
        else:
            assert "<tool_call>" in reply.content and not reply.content.rstrip().endswith("}")
            variants.add("text")
        nudged = [*_upto(messages, 1), *_answer(reply), Message(role="user", content="cut off")]
        again = await replay.request(nudged, tools, SETTINGS)
        assert again.finish_reason == "length"
        bigger = await replay.request(nudged, tools, ModelSettings(max_tokens=4096))
        assert [c.name for c in bigger.tool_calls] == ["orders_create_replenishment"] * 5
    assert variants == {"native", "text"}


async def test_argument_faults_rename_drop_swap_and_reformat(
    plan: tuple[list[Message], list[ToolSpec]],
    cases: list[Case],
    screens: Screens,
    seeded: SeededStore,
) -> None:
    # The demo plan leaves quantities to the server; a task with explicit quantities plans them.
    record, qty_tools = await _run(RulesModel(), case_by_id(cases, "qty-each"), screens, seeded)
    found: set[str] = set()
    for messages, tools in (plan, (record.messages, qty_tools)):
        for kind in ("field_name", "swap", "number_format"):
            for seed in range(30):
                replay = _replay(kind, seed)
                reply = await replay.request(_upto(messages, 1), tools, SETTINGS)
                found.add(replay.events[-1].detail.split(":")[0])
                arguments = [c.arguments for c in reply.tool_calls]
                clean = [
                    c.arguments
                    for c in (
                        await RulesModel().request(_upto(messages, 1), tools, SETTINGS)
                    ).tool_calls
                ]
                changed = [a for a in arguments if a not in clean]
                assert len(changed) == 1, (kind, seed)
    assert found >= {
        "warehouse_id->warehouse",
        "drop warehouse_id",
        "sku->sku_id",
        "sku<->warehouse_id",
        "quantity as a string",
        "quantity in full-width digits",
        "warehouse_id with a full-width hyphen",
        "observed_at with full-width punctuation",
    }
    assert full_width("20.09") == "２０．０９"


async def test_a_read_loop_repeats_the_read_until_a_result_objects(
    plan: tuple[list[Message], list[ToolSpec]],
) -> None:
    messages, tools = plan
    replay = _replay("read_loop", fix_rate=1.0)
    conversation = _upto(messages, 1)
    previous = [m for m in conversation if m.role == "assistant"][-1].tool_calls
    reply = await replay.request(conversation, tools, SETTINGS)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        (c.name, c.arguments) for c in previous
    ]
    conversation += _answer(reply)
    again = await replay.request(conversation, tools, SETTINGS)
    assert [(c.name, c.arguments) for c in again.tool_calls] == [
        (c.name, c.arguments) for c in previous
    ]
    conversation += _answer(again, errors={"inventory_query_stock"})
    fixed = await replay.request(conversation, tools, SETTINGS)
    assert [c.name for c in fixed.tool_calls] == ["orders_create_replenishment"] * 5


async def test_skip_read_writes_from_the_screen_before_any_live_read(
    plan: tuple[list[Message], list[ToolSpec]],
) -> None:
    messages, tools = plan
    reply = await _replay("skip_read").request(_upto(messages, 0), tools, SETTINGS)
    orders = {c.arguments["sku"]: c.arguments["quantity"] for c in reply.tool_calls}
    assert {c.name for c in reply.tool_calls} == {"orders_create_replenishment"}
    # every row the screen shows low, with quantities from the screen's numbers
    assert orders == {
        "SKU-10232": 202,
        "SKU-10310": 125,
        "SKU-10318": 48,
        "SKU-10402": 340,
        "SKU-10403": 305,
        "SKU-10501": 101,
        "SKU-10520": 17,
    }


async def test_after_a_refusal_it_resends_varies_an_unrelated_field_or_fixes_by_its_draws(
    plan: tuple[list[Message], list[ToolSpec]],
) -> None:
    messages, tools = plan
    conversation = _upto(messages, 1)
    stubborn = _replay("swap", fix_rate=0.0)
    reply = await stubborn.request(conversation, tools, SETTINGS)
    swapped = next(c for c in reply.tool_calls if str(c.arguments["sku"]).startswith("WH-"))
    answered = conversation + _answer(reply, errors={"orders_create_replenishment"})
    resend = await stubborn.request(answered, tools, SETTINGS)
    assert [(c.name, c.arguments) for c in resend.tool_calls] == [(swapped.name, swapped.arguments)]
    assert resend.tool_calls[0].id != swapped.id
    assert stubborn.events[-1].action == "resend"

    varying = _replay("swap", vary_rate=1.0)
    reply = await varying.request(conversation, tools, SETTINGS)
    swapped = next(c for c in reply.tool_calls if str(c.arguments["sku"]).startswith("WH-"))
    answered = conversation + _answer(reply, errors={"orders_create_replenishment"})
    (retry,) = (await varying.request(answered, tools, SETTINGS)).tool_calls
    assert retry.arguments["sku"] == swapped.arguments["sku"]
    assert retry.arguments["idempotency_key"] == f"{swapped.arguments['idempotency_key']}-retry"
    assert varying.events[-1].action == "vary"

    willing = _replay("swap", fix_rate=1.0)
    reply = await willing.request(conversation, tools, SETTINGS)
    answered = conversation + _answer(reply, errors={"orders_create_replenishment"})
    fixed = await willing.request(answered, tools, SETTINGS)
    assert all(str(c.arguments["sku"]).startswith("SKU-") for c in fixed.tool_calls)
    assert willing.events[-1].action == "fix"


async def test_ignoring_the_task_plans_the_plain_replenishment_until_the_contract_blocks_it(
    cases: list[Case], screens: Screens, seeded: SeededStore
) -> None:
    case = case_by_id(cases, "scope-multi-wh02")
    policy = FaultPolicy(fault_rate=0.0, fix_rate=1.0, ignore_task_rate=1.0)

    stubborn, _ = await _run(FaultReplay(0, case.id, policy=policy), case, screens, seeded)
    unguarded, _ = await _run(
        FaultReplay(0, case.id, policy=policy), case, screens, seeded, guards=False
    )

    blocked = [c for c in stubborn.tool_calls if "task contract" in c.result]
    assert blocked and all(c.arguments["warehouse_id"] == "WH-01" for c in blocked)
    written = {
        (c.arguments["sku"], c.arguments["warehouse_id"])
        for c in stubborn.tool_calls
        if c.name == "orders_create_replenishment" and not c.is_error
    }
    assert written == {("SKU-10231", "WH-02"), ("SKU-10402", "WH-02")}
    assert any(
        c.arguments.get("warehouse_id") == "WH-01" and not c.is_error
        for c in unguarded.tool_calls
        if c.name == "orders_create_replenishment"
    )


def test_every_failure_mode_is_documented() -> None:
    import pipeline.evals.faults as module

    assert module.__doc__ is not None
    for kind in (*FAULT_KINDS, IGNORE_TASK):
        assert f"`{kind}`" in module.__doc__
