"""Runs: how a task is read, starting one, the history, a record, its events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import JSONResponse
from fastapi.sse import EventSourceResponse, ServerSentEvent

from pipeline.api.deps import AppServices, Services, caller, needs, or_404
from pipeline.api.openapi import ERRORS, MISDIRECTED, RUN_BODY, as_json
from pipeline.api.plain import proposal_quantity, step_words
from pipeline.api.requests import ingest_uploads, read_run_request
from pipeline.api.schemas import (
    Confirmation,
    ContractOut,
    Declined,
    ErrorBody,
    RunDetail,
    RunsResponse,
    RunStarted,
    RunSummary,
    StepOut,
)
from pipeline.api.screens import screens_of
from pipeline.api.service import check_guard_switches, check_model, warehouse_names
from pipeline.bootstrap import approval_policy, enabled_guards, utc_now
from pipeline.contract import HELP, parse_task, read_task
from pipeline.errors import InputError
from pipeline.host import RunRecord, ToolCallRecord, choose_groups
from pipeline.jobs import RunSpec
from pipeline.jobs.runbook import Numbered
from store.models import ProposalQuery

__all__ = ["router"]

router = APIRouter(tags=["runs"])


@router.get(
    "/contract", **needs("viewer"), summary="How a task is read", response_model=ContractOut
)
async def task_contract(
    task: Annotated[str, Query(min_length=1, max_length=4000, description="the task")],
    services: Services,
) -> ContractOut:
    """The contract the host would hold a run of this task to, before anything runs: the
    action, whether writes are allowed, the scope, quantities, and what it did not
    understand. Warehouse names and aliases are the store's. With a model that reads tasks, a
    reading that accounts for every word stands; otherwise the run meets its `fallback` with
    the model's own reading (what the model may recover)."""
    reading = read_task(task, warehouse_names(services))
    contract = reading.contract
    return ContractOut(
        task=task,
        task_contract=contract,
        fallback=reading.fallback,
        not_understood_words=list(reading.not_understood),
        summary=contract.summary(),
        groups=list(choose_groups(contract)),
        help=HELP,
    )


@router.post(
    "/runs",
    **needs("operator", RUN_BODY),
    summary="Start a run",
    status_code=202,
    response_model=RunStarted,
)
async def start_run(request: Request, services: Services) -> JSONResponse:
    """Start the agent on a task over screenshots; it goes on in the background.

    Follow it with `GET /v1/runs/{id}/events` (server-sent events) or poll `GET
    /v1/runs/{id}`.
    """
    settings = services.settings
    ask = await read_run_request(request, settings)
    run = ask.run
    model = check_model(run.model or settings.model, settings)
    check_guard_switches(run.guards, settings)
    enabled_guards(settings, run.guards)
    contract = parse_task(run.task, warehouse_names(services))
    if contract.reads_screens and not run.ingest_ids and not ask.files:
        raise InputError(
            f"no screenshot: the task ({contract.summary()}) works from the table on a "
            "screenshot; upload images in 'file', or give ingest_ids from POST /v1/ingest"
        )
    queue = services.job_queue()
    earlier = await queue.recent(run.ingest_ids)
    uploaded = await ingest_uploads(
        services, ask.files, captured_at=ask.captured_at, strategy=ask.strategy
    )
    manual = approval_policy("serve", settings) == "manual" and not run.dry_run
    spec = RunSpec(
        task=run.task,
        model=model,
        dry_run=run.dry_run,
        guards=run.guards,
        manual=manual,
        results=[*earlier, *uploaded],
        started_at=utc_now(),
        requested_by=caller(request),
    )
    run_id, status = await queue.start_run(spec)
    return JSONResponse(
        RunStarted(id=run_id, status=status, task_contract=contract).model_dump(mode="json"),
        status_code=202,
        headers={"Location": f"/v1/runs/{run_id}"},
    )


@router.post(
    "/runs/{run_id}/confirm",
    **needs("operator"),
    summary="Answer a run's question",
    status_code=202,
    response_model=RunStarted,
    responses={
        200: {"model": Declined, "description": "a no: nothing runs"},
        404: {"model": ErrorBody},
        409: {"model": ErrorBody, "description": "the run asks nothing"},
    },
)
async def confirm_run(
    run_id: str, answer: Confirmation, request: Request, services: Services
) -> JSONResponse:
    """A run that ended with status `ask` showed the reading it would act on; a yes starts a
    run that acts on exactly that reading (over the same screenshots), a no ends it there."""
    queue = services.job_queue()
    record = or_404(await queue.record(run_id), f"no run with id {run_id!r}")
    question = record.question
    if record.status != "ask" or question is None:
        return JSONResponse(
            {
                "error": "not_asking",
                "message": f"run {run_id} asks nothing (status {record.status}); only a run "
                "with status ask can be answered",
            },
            status_code=409,
        )
    if not answer.go_ahead:
        declined = Declined(
            run=run_id, message=f"nothing runs: the reading of {run_id} was declined"
        )
        return JSONResponse(declined.model_dump(mode="json"), status_code=200)
    settings = services.settings
    shown = [a.sha256 for a in record.attachments if a.sha256]
    spec = RunSpec(
        task=record.task,
        model=record.model,
        dry_run=record.dry_run,
        manual=approval_policy("serve", settings) == "manual" and not record.dry_run,
        results=await queue.recent(shown),
        started_at=utc_now(),
        requested_by=caller(request),
        confirmed=question,
        confirms=run_id,
    )
    started, status = await queue.start_run(spec)
    return JSONResponse(
        RunStarted(id=started, status=status, task_contract=question.contract).model_dump(
            mode="json"
        ),
        status_code=202,
        headers={"Location": f"/v1/runs/{started}"},
    )


def _proposed_units(services: AppServices, run_id: str) -> dict[str, int | None]:
    """The units each proposal of the run orders, by proposal id."""
    with services.slot.reading() as tx:
        found = tx.proposals(ProposalQuery(run_id=run_id, limit=1000))
    return {p.id: proposal_quantity(p)[0] for p in found}


@router.get(
    "/runs/{run_id}",
    **needs("viewer"),
    response_model=RunDetail,
    responses={404: {"model": ErrorBody}},
)
async def get_run(run_id: str, services: Services) -> RunDetail:
    """The run record: the finished one, or what happened so far while it runs; with its
    tool calls in plain words (`said`) and the screenshots it read (`screens`: each one's
    picture id while the server keeps it, its size and the table's box on it)."""
    record = or_404(await services.job_queue().record(run_id), f"no run with id {run_id!r}")
    units = await asyncio.to_thread(_proposed_units, services, run_id)
    said = [
        StepOut(
            tool=call.name,
            words=step_words(call, units),
            refused=call.is_error,
            dry_run=call.dry_run,
        )
        for call in record.tool_calls
    ]
    return RunDetail(
        **dict(record),
        said=said,
        screens=await screens_of(services, record.attachments),
    )


@router.get("/runs", **needs("viewer"), response_model=RunsResponse)
async def list_runs(
    services: Services, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> RunsResponse:
    """The latest runs, newest first: running and queued ones as they stand, finished ones
    as recorded (those of an earlier process too)."""
    records = await services.job_queue().history(limit=limit)
    return RunsResponse(runs=[run_summary(r) for r in records])


_SUMMED_UP = {"contract", "ledger", "proposals", "tool_calls"}
"""The fields of a `RunSummary` worked out from the record; the others are the record's own."""


def run_summary(record: RunRecord) -> RunSummary:
    contract = record.task_contract
    return RunSummary(
        **record.model_dump(include=RunSummary.model_fields.keys() - _SUMMED_UP),
        contract=None if contract is None else contract.summary(),
        ledger=None if record.ledger_summary is None else record.ledger_summary.text,
        proposals=[p.id for p in record.proposals],
        tool_calls=len(record.tool_calls),
    )


def sse_event(numbered: Numbered) -> ServerSentEvent:
    """One event on the wire: its number as `id`, its type as `event`, its JSON (one line)
    as `data`; a tool call carries its plain `words` too."""
    index, event = numbered
    if event.get("type") == "tool_call":
        event = {**event, "words": step_words(ToolCallRecord.model_validate(event))}
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return ServerSentEvent(raw_data=data, event=str(event.get("type", "message")), id=str(index))


async def run_stream(
    run_id: str, services: Services, last_event_id: Annotated[str | None, Header()] = None
) -> AsyncIterator[Numbered]:
    """The run's events after `Last-Event-ID`; an unknown run is refused before the stream
    opens."""
    try:
        after = int(last_event_id) if last_event_id is not None else -1
    except ValueError:
        after = -1
    stream = await services.job_queue().events(run_id, after=after)
    return or_404(stream, f"no run with id {run_id!r}")


@router.get(
    "/runs/{run_id}/events",
    **needs("viewer"),
    response_class=EventSourceResponse,
    responses={
        200: {
            "content": {
                "text/event-stream": {
                    "example": 'event: run_started\ndata: {"run_id":"run-3f1a9c0b2d4e",'
                    '"type":"run_started","groups":["inventory","orders","warehouses"]}\nid: 0\n\n'
                }
            },
            "description": "the events so far, then live ones until run_finished",
        },
        **as_json({**MISDIRECTED, **ERRORS, 404: {"description": "no run with that id"}}),
    },
)
async def run_events(
    stream: Annotated[AsyncIterator[Numbered], Depends(run_stream)],
) -> AsyncIterator[ServerSentEvent]:
    """Server-sent events: what already happened, then live events until `run_finished`.

    Each event's `id` is its number; send `Last-Event-ID` to resume after it. A comment
    line (`: ping`) keeps an idle stream open.
    """
    async for numbered in stream:
        yield sse_event(numbered)
