"""The reasoning loop: model turn, guards, tool calls, results, until an answer or a limit.

Every run ends with a `RunRecord` and a status (`done`, `limit`, `error`), never a hang: each
model request and tool call is bounded by what is left of the wall-clock budget. Here the run is
opened (the task read, the tools chosen, the first messages written), its hops counted and its
record closed; a hop's steps are `pipeline.host.turns`, a call's handling `pipeline.host.calls`.
"""

from __future__ import annotations

import logging

from pipeline.contract import ContractReading, Question, TaskContract, read_task
from pipeline.errors import StockshotError, ToolServerError, VlmError
from pipeline.host.budget import HopBudget, hop_budget, rows_in_scope, uncovered
from pipeline.host.context import opening_message, system_prompt
from pipeline.host.groups import choose_groups, offered_tools
from pipeline.host.guards.base import ScreenEvidence
from pipeline.host.items import (
    resolve_rows,
    resolved_skus,
    shown_as,
    told_to_model,
    unresolved_report,
)
from pipeline.host.ledger import summarize
from pipeline.host.reading import screen_items, settle_task
from pipeline.host.record import AttachmentInfo, ItemResolution, RunRecord
from pipeline.host.run import HostLimits, Run
from pipeline.host.screenview import view_spec, viewable
from pipeline.host.turns import Clock, Turns, emitter, finish
from pipeline.models import Message, Usage
from pipeline.screentext import screens_in
from pipeline.toolfacts import from_messages, read_facts

__all__ = ["HOST_COMPLETE", "HostLimits", "Run", "run_task"]

HOST_COMPLETE = (
    "[Written by the host from the ledger: the model gave no answer within the hop budget, "
    "and the ledger accounts for every row the task allows writing.]"
)

log = logging.getLogger(__name__)


async def run_task(run: Run) -> RunRecord:
    """Drive the model over the toolbox until it answers or a limit is reached."""
    clock = Clock()
    said = ""
    question: Question | None = None
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
                catalogue=screen_items([a.content for a in run.attachments]),
            )
        except VlmError as exc:
            return _unreachable(run, exc)
        contract, readings, reading_usage = settled.contract, settled.readings, settled.usage
        said = settled.said
        clock.model += clock.elapsed()
        question = settled.question
    looked_up = clock.elapsed()
    try:
        resolutions = await resolve_rows(run.toolbox, run.attachments, run_id=run.run_id)
    finally:
        clock.tools += clock.elapsed() - looked_up
    turns = _open(run, clock, contract, readings, reading_usage, resolutions)
    record = turns.record
    budget = hop_budget(
        contract,
        screens_in(turns.messages),
        floor=run.limits.max_hops,
        ceiling=run.limits.max_hops_ceiling,
    )
    record.hop_budget = budget
    record.confirms = run.confirms
    try:
        for hop in range(1, budget.hops + 1):
            record.hops = hop
            if await turns.hop(hop):
                break
        else:
            _out_of_hops(turns, budget)
    except VlmError as exc:
        finish(record, "error", f"the model endpoint failed: {exc}")
        record.error = str(exc)
    except (ToolServerError, StockshotError) as exc:
        finish(record, "error", str(exc))
        record.error = str(exc)
    except Exception as exc:  # a defect in an adapter or a guard still ends in a record
        log.exception("run %s failed", record.id)
        message = f"the run failed: {type(exc).__name__}: {exc}"
        finish(record, "error", message)
        record.error = message
    if said and record.status != "error":
        record.final = f"{record.final}\n{said}" if record.final else said
    if question is not None and record.status == "done":
        # Not every word was understood and a reading would write: the run answered what
        # its contract allows (no writes), and asks about that reading instead of guessing.
        record.question = question
        by_model = record.final_by == "model"
        finish(record, "ask", f"{record.final}\n\n{question.text}".strip(), by_model=by_model)
    return _close(turns)


def _open(
    run: Run,
    clock: Clock,
    contract: TaskContract,
    readings: list[ContractReading],
    reading_usage: Usage | None,
    resolutions: list[ItemResolution] | None,
) -> Turns:
    """The run's record, tools and first messages, announced as `run_started`. With the rows'
    `resolutions`, a screen shows the SKUs its rows resolved to (the scope guard's evidence)
    and the model is told the rows whose key is not their SKU."""
    groups = list(run.groups) if run.groups is not None else list(choose_groups(contract))
    tools = offered_tools(run.toolbox.tools, groups, contract)
    pictures = viewable(run.attachments)
    if pictures and run.sees_images:
        tools.append(view_spec(pictures))
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
        resolutions=resolutions or [],
    )
    messages: list[Message] = [
        Message(role="system", content=system_prompt(run.toolbox.instructions, groups)),
        opening_message(
            run.task,
            run.attachments,
            record.started_at,
            contract,
            items=told_to_model(resolutions or []),
        ),
    ]
    record.messages = messages
    if reading_usage is not None:
        record.tokens["prompt"] += reading_usage.prompt_tokens
        record.tokens["completion"] += reading_usage.completion_tokens
    emit = emitter(run, record)
    emit(
        "run_started",
        {
            "groups": [*groups],
            "tools": [t.name for t in tools],
            "task_contract": contract.model_dump(mode="json"),
            "contract_readings": [r.model_dump(mode="json") for r in readings],
            "resolutions": [r.model_dump(mode="json") for r in record.resolutions],
        },
    )
    return Turns(
        run=run,
        contract=contract,
        record=record,
        messages=messages,
        by_name={t.name: t for t in tools},
        tools=tools,
        pictures=pictures,
        clock=clock,
        emit=emit,
        max_tokens=run.limits.max_tokens,
        contents={a.name: a.content for a in run.attachments},
        screens=[
            ScreenEvidence(a.name, a.captured_at, a.skus)
            if resolutions is None
            else ScreenEvidence(
                a.name,
                a.captured_at,
                resolved_skus(resolutions, a.name),
                shown_as(resolutions, a.name),
            )
            for a in run.attachments
        ],
    )


def _out_of_hops(turns: Turns, budget: HopBudget) -> None:
    """The end of a run that used its budget without an answer: `done` with the ledger when
    it accounts for every row the run may write, else `limit`, naming what is left."""
    record, contract = turns.record, turns.contract
    facts = read_facts(from_messages(turns.messages))
    left = uncovered(contract, rows_in_scope(contract, screens_in(turns.messages)), facts)
    if left == []:
        finish(record, "done", f"{HOST_COMPLETE}\n{summarize(facts).text}")
        return
    stopped = f"stopped after {budget.hops} hops without an answer ({budget.describe()})"
    not_done = ", ".join(p.text for p in left or [])
    finish(record, "limit", stopped + (f"; not done: {not_done}" if not_done else ""))


def _close(turns: Turns) -> RunRecord:
    """The record's ledger summary and timings, announced as `run_finished`."""
    record, clock = turns.record, turns.clock
    record.ledger_summary = summarize(read_facts(from_messages(record.messages)))
    left = unresolved_report(record.resolutions)
    if left:
        text = record.ledger_summary.text
        record.ledger_summary.text = f"{text}\n{left}" if text else left
    total = clock.elapsed()
    record.timings_ms = {
        "total": round(total * 1000, 2),
        "model": round(clock.model * 1000, 2),
        "tools": round(clock.tools * 1000, 2),
        "host": round((total - clock.model - clock.tools) * 1000, 2),
    }
    record.ended_at = turns.run.clock()
    turns.emit(
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
    emitter(run, record)(
        "run_finished",
        {"status": record.status, "final": record.final, "final_by": "host", "ledger": ""},
    )
    return record
