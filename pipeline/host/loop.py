"""The reasoning loop: model turn, guards, tool calls, results, until an answer or a limit.

Every run ends with a `RunRecord` and a status (`done`, `limit`, `error`), never a hang: each
model request and tool call is bounded by what is left of the wall-clock budget.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pipeline.contract import ContractReading, TaskContract, read_task
from pipeline.errors import StockshotError, ToolServerError, VlmError
from pipeline.host.approvals import ProposalQueue, drafts_for, queued_outcome
from pipeline.host.context import Attachment, Picture, opening_message, system_prompt
from pipeline.host.groups import choose_groups, offered_tools
from pipeline.host.guards.base import (
    CallDecision,
    CallGuard,
    GuardState,
    ResponseDecision,
    ResponseGuard,
    ScreenEvidence,
)
from pipeline.host.reading import settle_task
from pipeline.host.record import (
    AttachmentInfo,
    GuardEvent,
    ProposalRecord,
    RunRecord,
    ToolCallRecord,
    executed_facts,
)
from pipeline.host.references import ReferenceError_, substitute
from pipeline.host.screenview import UNAVAILABLE, VIEW_TOOL, look, view_spec, viewable
from pipeline.host.toolbox import Toolbox, ToolOutcome
from pipeline.ledger import summarize
from pipeline.models import Message, ModelResponse, ModelSettings, ToolCall
from pipeline.toolfacts import DRY_RUN, from_messages, read_facts
from pipeline.vlm.base import Model

__all__ = ["HostLimits", "Run", "run_task"]

log = logging.getLogger(__name__)

EventSink = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class HostLimits:
    max_hops: int = 12
    max_tokens: int = 1024
    max_tokens_ceiling: int = 8192
    wall_clock_s: float = 300.0
    freshness_limit_s: float = 900.0
    read_loop_limit: int = 2
    view_max_pixels: int = 1920 * 1080
    """Most pixels of an image `screen_view` attaches (larger ones are scaled down)."""


@dataclass
class Run:
    """Inputs of one run; the I/O objects (model, toolbox, clock) come from the caller."""

    task: str
    model: Model
    toolbox: Toolbox
    groups: Sequence[str] | None = None
    """Default: the groups the contract's action needs."""
    attachments: Sequence[Attachment] = ()
    limits: HostLimits = field(default_factory=HostLimits)
    dry_run: bool = False
    response_guards: Mapping[str, ResponseGuard] = field(default_factory=dict)
    call_guards: Mapping[str, CallGuard] = field(default_factory=dict)
    clock: Callable[[], datetime] = field(default_factory=lambda: _utc_now)
    run_id: str = field(default_factory=lambda: f"run-{uuid.uuid4().hex[:12]}")
    on_event: EventSink | None = None
    contract: TaskContract | None = None
    """Default: the task read by the reader with the store's warehouse names, met with the
    model's own reading when the model can give one (`pipeline.host.reading`)."""
    approvals: ProposalQueue | None = None
    """Manual approval: every write call becomes proposals in this queue instead of running."""
    sees_images: bool = False
    """The model endpoint reads image parts: the host then offers `screen_view` for the
    attachments sent as text (see `pipeline.host.screenview`)."""
    model_reads_task: bool = False
    """Ask a model that can answer under a JSON Schema how it reads the task, before the
    run; the final contract is its meet with the reader's (see `pipeline.host.reading`)."""


def _utc_now() -> datetime:
    from datetime import UTC

    return datetime.now(UTC)


class _Clock:
    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.model = 0.0
        self.tools = 0.0

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


async def run_task(run: Run) -> RunRecord:
    """Drive the model over the toolbox until it answers or a limit is reached."""
    clock = _Clock()
    if run.contract is not None:
        contract = run.contract
        readings = [ContractReading(source="final", contract=contract, note="given by the caller")]
        reading_usage = None
    else:
        try:
            settled = await settle_task(
                run.task,
                run.model if run.model_reads_task else None,
                run.toolbox,
                run_id=run.run_id,
                budget_s=run.limits.wall_clock_s / 4,
            )
        except VlmError as exc:
            return _unreachable(run, exc)
        contract, readings, reading_usage = settled.contract, settled.readings, settled.usage
        clock.model += clock.elapsed()
    groups = list(run.groups) if run.groups is not None else list(choose_groups(contract))
    tools = offered_tools(run.toolbox.tools, groups, contract)
    pictures = viewable(run.attachments)
    if pictures and run.sees_images:
        tools.append(view_spec(pictures))
    by_name = {t.name: t for t in tools}
    record = RunRecord(
        id=run.run_id,
        task=run.task,
        model=run.model.name,
        groups=groups,
        task_contract=contract,
        contract_readings=readings,
        approval="manual" if run.approvals is not None and not run.dry_run else "auto",
        dry_run=run.dry_run,
        started_at=run.clock(),
        attachments=[
            AttachmentInfo(
                name=a.name, description=a.description, captured_at=a.captured_at, sha256=a.sha256
            )
            for a in run.attachments
        ],
    )
    messages: list[Message] = [
        Message(role="system", content=system_prompt(run.toolbox.instructions, groups)),
        opening_message(run.task, run.attachments, record.started_at, contract),
    ]
    record.messages = messages
    if reading_usage is not None:
        record.tokens["prompt"] += reading_usage.prompt_tokens
        record.tokens["completion"] += reading_usage.completion_tokens
    contents = {a.name: a.content for a in run.attachments}
    screens = [ScreenEvidence(a.name, a.captured_at, a.skus) for a in run.attachments]
    max_tokens = run.limits.max_tokens
    emit = _emitter(run, record)
    emit(
        "run_started",
        {
            "groups": groups,
            "tools": [t.name for t in tools],
            "task_contract": contract.model_dump(mode="json"),
            "contract_readings": [r.model_dump(mode="json") for r in readings],
        },
    )
    try:
        for hop in range(1, run.limits.max_hops + 1):
            record.hops = hop
            remaining = run.limits.wall_clock_s - clock.elapsed()
            if remaining <= 0:
                _finish(
                    record, "limit", f"stopped: the {run.limits.wall_clock_s:g} s budget ran out"
                )
                break
            settings = ModelSettings(max_tokens=max_tokens)
            started = time.perf_counter()
            try:
                response = await asyncio.wait_for(
                    run.model.request(messages, tools, settings), timeout=remaining
                )
            except TimeoutError:
                _finish(
                    record, "limit", f"stopped: the {run.limits.wall_clock_s:g} s budget ran out"
                )
                break
            finally:
                clock.model += time.perf_counter() - started
            record.tokens["prompt"] += response.usage.prompt_tokens
            record.tokens["completion"] += response.usage.completion_tokens
            record.tokens["cached"] = record.tokens.get("cached", 0) + response.usage.cached_tokens
            if response.steps is not None:
                record.steps[response.steps] = record.steps.get(response.steps, 0) + 1
            if response.schema_valid is False:
                record.steps["schema_invalid"] = record.steps.get("schema_invalid", 0) + 1
            if response.note:
                record.notes.append(f"hop {hop}: {response.note}")
            emit(
                "model_response",
                {
                    "hop": hop,
                    "content": response.content,
                    "tool_calls": [c.model_dump() for c in response.tool_calls],
                    "finish_reason": response.finish_reason,
                    "steps": response.steps,
                    "schema_valid": response.schema_valid,
                    "note": response.note,
                },
            )

            state = _state(run, contract, hop, messages, record, by_name, screens, max_tokens)
            decision, guard = _check_response(run.response_guards, response, state)
            if guard:
                _event(record, emit, hop, guard, decision.action, decision.message)
            if decision.action == "end":
                messages.append(Message(role="assistant", content=response.content))
                own = not decision.message or decision.message == response.content
                _finish(record, "done", decision.message or response.content, by_model=own)
                break
            if decision.action == "bounce":
                # Calls of a bounced turn never ran, so they are not replayed to the model.
                messages.append(Message(role="assistant", content=response.content))
                messages.append(Message(role="user", content=decision.message))
                if decision.max_tokens:
                    max_tokens = min(decision.max_tokens, run.limits.max_tokens_ceiling)
                continue
            repaired = decision.action == "repair" and decision.response is not None
            if repaired and decision.response is not None:
                response = decision.response

            messages.append(_assistant(response))
            if not response.tool_calls:
                _finish(record, "done", response.content, by_model=not repaired)
                break

            ended = False
            # Images `screen_view` attached (with their estimated tokens) join the
            # conversation after the turn's tool results, so every result follows its call.
            images: list[tuple[Message, int]] = []
            for call in response.tool_calls:
                state = _state(
                    run,
                    contract,
                    hop,
                    messages,
                    record,
                    by_name,
                    screens,
                    max_tokens,
                    turn_calls=response.tool_calls,
                )
                verdict, guard = _check_call(run.call_guards, call, state)
                if guard:
                    _event(record, emit, hop, guard, verdict.action, verdict.message)
                if verdict.action == "end":
                    _skip_call(messages, record, emit, hop, call, verdict.message)
                    _finish(record, "done", verdict.message)
                    ended = True
                    break
                if verdict.action == "block":
                    _skip_call(messages, record, emit, hop, call, verdict.message)
                    continue
                if verdict.action == "repair" and verdict.call is not None:
                    call = verdict.call
                remaining = run.limits.wall_clock_s - clock.elapsed()
                started = time.perf_counter()
                try:
                    if call.name == VIEW_TOOL:
                        outcome = await _view(run, call, by_name, pictures, images)
                    else:
                        outcome = await _execute(
                            run, record, emit, hop, call, by_name, contents, max(0.1, remaining)
                        )
                finally:
                    clock.tools += time.perf_counter() - started
                _tool_result(
                    messages,
                    record,
                    emit,
                    hop,
                    call,
                    outcome,
                    executed=not (
                        (run.dry_run or run.approvals is not None)
                        and not by_name.get(call.name, _WRITE).read_only
                    ),
                    duration=time.perf_counter() - started,
                )
            if ended:
                break
            for image, tokens in images:
                messages.append(image)
                record.tokens["images"] = record.tokens.get("images", 0) + tokens
        else:
            _finish(record, "limit", f"stopped after {run.limits.max_hops} hops without an answer")
    except VlmError as exc:
        _finish(record, "error", f"the model endpoint failed: {exc}")
        record.error = str(exc)
    except ToolServerError as exc:
        _finish(record, "error", str(exc))
        record.error = str(exc)
    except StockshotError as exc:
        _finish(record, "error", str(exc))
        record.error = str(exc)
    except Exception as exc:  # a defect in an adapter or a guard still ends in a record
        log.exception("run %s failed", record.id)
        message = f"the run failed: {type(exc).__name__}: {exc}"
        _finish(record, "error", message)
        record.error = message
    record.ledger_summary = summarize(read_facts(from_messages(record.messages)))
    total = clock.elapsed()
    record.timings_ms = {
        "total": round(total * 1000, 2),
        "model": round(clock.model * 1000, 2),
        "tools": round(clock.tools * 1000, 2),
        "host": round((total - clock.model - clock.tools) * 1000, 2),
    }
    record.ended_at = run.clock()
    emit(
        "run_finished",
        {
            "status": record.status,
            "final": record.final,
            "final_by": record.final_by,
            "ledger": record.ledger_summary.text,
        },
    )
    return record


def _unreachable(run: Run, exc: VlmError) -> RunRecord:
    """The record of a run whose model endpoint failed before the first hop (reading the
    task): nothing ran."""
    contract = read_task(run.task).contract
    now = run.clock()
    message = f"the model endpoint failed: {exc}"
    record = RunRecord(
        id=run.run_id,
        task=run.task,
        model=run.model.name,
        groups=list(run.groups) if run.groups is not None else list(choose_groups(contract)),
        task_contract=contract,
        contract_readings=[ContractReading(source="model", note=message)],
        status="error",
        final=message,
        final_by="host",
        error=str(exc),
        dry_run=run.dry_run,
        started_at=now,
        ended_at=now,
    )
    record.ledger_summary = summarize(read_facts([]))
    emitter = _emitter(run, record)
    emitter(
        "run_finished",
        {"status": record.status, "final": record.final, "final_by": "host", "ledger": ""},
    )
    return record


class _Write:
    read_only = False


_WRITE = _Write()


async def _view(
    run: Run,
    call: ToolCall,
    by_name: Mapping[str, Any],
    pictures: Mapping[str, Picture],
    images: list[tuple[Message, int]],
) -> ToolOutcome:
    """The host answers `screen_view` itself: the picture and its estimated tokens go to
    `images`, for the next request and the run's token report."""
    if VIEW_TOOL not in by_name:
        if not run.sees_images:
            return ToolOutcome(True, UNAVAILABLE)
        known = ", ".join(sorted(by_name))
        return ToolOutcome(
            True,
            f"{VIEW_TOOL} is not offered in this run: it has no screenshot sent as text to "
            f"show; the tools of this run are: {known}",
        )
    view = await asyncio.to_thread(
        look, call.arguments, pictures, run.attachments, max_pixels=run.limits.view_max_pixels
    )
    if view.message is not None:
        images.append((view.message, view.tokens))
    return view.outcome


async def _execute(
    run: Run,
    record: RunRecord,
    emit: Callable[[str, dict[str, Any]], None],
    hop: int,
    call: ToolCall,
    by_name: Mapping[str, Any],
    contents: Mapping[str, str],
    budget_s: float,
) -> ToolOutcome:
    spec = by_name.get(call.name)
    if spec is None:
        known = ", ".join(sorted(by_name))
        return ToolOutcome(True, f"unknown tool {call.name!r}; the tools of this run are: {known}")
    if call.raw_arguments is not None and not call.arguments:
        return ToolOutcome(
            True,
            f"the arguments of {call.name} are not a JSON object: {call.raw_arguments[:200]!r}; "
            "send them as JSON",
        )
    try:
        arguments = substitute(call.arguments, contents)
    except ReferenceError_ as exc:
        return ToolOutcome(True, str(exc))
    if run.dry_run and not spec.read_only:
        shown = json.dumps(call.arguments, ensure_ascii=False)
        return ToolOutcome(False, f"{DRY_RUN}{call.name} was not executed (arguments {shown})")
    if run.approvals is not None and not spec.read_only:
        return await _propose(run, record, emit, hop, call.name, arguments)
    try:
        return await asyncio.wait_for(
            run.toolbox.call(call.name, arguments, run_id=run.run_id), timeout=budget_s
        )
    except TimeoutError:
        raise ToolServerError(
            f"{call.name} did not answer before the run's time budget ran out"
        ) from None


async def _propose(
    run: Run,
    record: RunRecord,
    emit: Callable[[str, dict[str, Any]], None],
    hop: int,
    tool: str,
    arguments: dict[str, Any],
) -> ToolOutcome:
    """Queue each order the write would make for a person; the write itself does not run."""
    assert run.approvals is not None
    drafts = drafts_for(
        record.id,
        tool,
        arguments,
        attachments=run.attachments,
        facts=executed_facts(record.tool_calls),
    )
    tickets = [await run.approvals.propose(draft) for draft in drafts]
    for ticket in tickets:
        entry = ProposalRecord(
            id=ticket.id,
            tool=ticket.tool,
            arguments=ticket.arguments,
            expires_at=ticket.expires_at,
            hop=hop,
        )
        record.proposals.append(entry)
        emit("proposal", entry.model_dump(mode="json"))
    text, structured = queued_outcome(tickets)
    return ToolOutcome(False, text, structured)


def _state(
    run: Run,
    contract: TaskContract,
    hop: int,
    messages: Sequence[Message],
    record: RunRecord,
    tools: Mapping[str, Any],
    screens: Sequence[ScreenEvidence],
    max_tokens: int,
    turn_calls: Sequence[ToolCall] = (),
) -> GuardState:
    return GuardState(
        hop=hop,
        now=run.clock(),
        messages=tuple(messages),
        calls=tuple(record.tool_calls),
        events=tuple(record.guard_events),
        tools=tools,
        screens=tuple(screens),
        max_tokens=max_tokens,
        freshness_limit_s=run.limits.freshness_limit_s,
        read_loop_limit=run.limits.read_loop_limit,
        turn_calls=tuple(turn_calls),
        contract=contract,
    )


def _check_response(
    guards: Mapping[str, ResponseGuard], response: ModelResponse, state: GuardState
) -> tuple[ResponseDecision, str | None]:
    for name, guard in guards.items():
        decision = guard(response, state)
        if decision.action != "allow":
            return decision, name
    return ResponseDecision(), None


def _check_call(
    guards: Mapping[str, CallGuard], call: ToolCall, state: GuardState
) -> tuple[CallDecision, str | None]:
    current = call
    repaired: tuple[CallDecision, str] | None = None
    for name, guard in guards.items():
        decision = guard(current, state)
        if decision.action == "repair" and decision.call is not None:
            current = decision.call
            repaired = (decision, name)
            continue
        if decision.action != "allow":
            return decision, name
    if repaired is not None:
        return CallDecision("repair", current, repaired[0].message), repaired[1]
    return CallDecision(), None


def _assistant(response: ModelResponse) -> Message:
    return Message(role="assistant", content=response.content, tool_calls=list(response.tool_calls))


def _skip_call(
    messages: list[Message],
    record: RunRecord,
    emit: Callable[[str, dict[str, Any]], None],
    hop: int,
    call: ToolCall,
    reason: str,
) -> None:
    _tool_result(
        messages, record, emit, hop, call, ToolOutcome(True, reason), executed=False, duration=0.0
    )


def _tool_result(
    messages: list[Message],
    record: RunRecord,
    emit: Callable[[str, dict[str, Any]], None],
    hop: int,
    call: ToolCall,
    outcome: ToolOutcome,
    *,
    executed: bool,
    duration: float,
) -> None:
    messages.append(
        Message(
            role="tool",
            content=outcome.text,
            tool_call_id=call.id,
            name=call.name,
            is_error=outcome.is_error,
        )
    )
    entry = ToolCallRecord(
        hop=hop,
        id=call.id,
        name=call.name,
        arguments=call.arguments,
        is_error=outcome.is_error,
        result=outcome.text,
        structured=outcome.structured,
        executed=executed,
        dry_run=record.dry_run and not executed,
        duration_ms=round(duration * 1000, 2),
    )
    record.tool_calls.append(entry)
    emit("tool_call", entry.model_dump(mode="json"))


def _event(
    record: RunRecord,
    emit: Callable[[str, dict[str, Any]], None],
    hop: int,
    guard: str,
    action: Any,
    message: str,
) -> None:
    event = GuardEvent(hop=hop, guard=guard, action=action, message=message)
    record.guard_events.append(event)
    emit("guard", event.model_dump(mode="json"))


def _finish(record: RunRecord, status: Any, final: str, *, by_model: bool = False) -> None:
    """End the run with `final`, written by the model's own reply (`by_model`) or the host."""
    record.status = status
    record.final = final
    record.final_by = "model" if by_model else "host"


def _emitter(run: Run, record: RunRecord) -> Callable[[str, dict[str, Any]], None]:
    def emit(kind: str, data: dict[str, Any]) -> None:
        if run.on_event is None:
            return
        try:
            run.on_event({"run_id": record.id, "type": kind, **data})
        except Exception:  # a listener must never break a run
            log.exception("run event listener failed")

    return emit
