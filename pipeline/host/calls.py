"""What the host does with one tool call that its guards let through: answer `screen_view`
itself, refuse an unknown tool or arguments that are no JSON object, resolve screenshot
references, refuse item arguments the screen rows' resolutions do not allow
(`pipeline.host.items`), queue a write as proposals (manual approval), skip it (dry run), or
run it on the toolbox within what is left of the run's time."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping

from pipeline.errors import ToolServerError
from pipeline.host.context import Picture
from pipeline.host.held_writes import ProposalTicket, drafts_for, queued_outcome
from pipeline.host.items import argument_problem
from pipeline.host.record import ProposalRecord, RunRecord, executed_facts
from pipeline.host.references import ReferenceError_, substitute
from pipeline.host.run import Run
from pipeline.host.screenview import UNAVAILABLE, VIEW_TOOL, look
from pipeline.host.toolbox import ToolOutcome
from pipeline.models import JsonObject, Message, ToolCall, ToolSpec
from pipeline.toolfacts import DRY_RUN

__all__ = ["Emit", "execute", "held_items", "runs_for_real", "view"]

Emit = Callable[[str, JsonObject], None]


def runs_for_real(run: Run, by_name: Mapping[str, ToolSpec], name: str) -> bool:
    """Whether a call of `name` is executed: every read, and a write unless the run is a dry
    run or queues writes for approval (an unknown tool counts as a write)."""
    spec = by_name.get(name)
    return not ((run.dry_run or run.approvals is not None) and not (spec and spec.read_only))


async def view(
    run: Run,
    call: ToolCall,
    by_name: Mapping[str, ToolSpec],
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


def held_items(
    record: RunRecord, arguments: JsonObject, spec: ToolSpec | None
) -> ToolOutcome | None:
    """The host's refusal of a call whose item or warehouse arguments the screen rows'
    resolutions do not allow (`pipeline.host.items`), or None."""
    named = record.task_contract.skus if record.task_contract is not None else ()
    write = spec is None or not spec.read_only
    problem = argument_problem(arguments, record.resolutions, write=write, named=named)
    if problem is None:
        return None
    return ToolOutcome(True, f"refused by the host: {problem.message}", problem.as_dict())


async def execute(
    run: Run,
    record: RunRecord,
    emit: Emit,
    hop: int,
    call: ToolCall,
    by_name: Mapping[str, ToolSpec],
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
    refusal = held_items(record, arguments, spec)
    if refusal is not None:
        return refusal
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
    emit: Emit,
    hop: int,
    tool: str,
    arguments: JsonObject,
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
    answers = [await run.approvals.propose(draft) for draft in drafts]
    for ticket in answers:
        if not isinstance(ticket, ProposalTicket):
            continue
        entry = ProposalRecord(
            id=ticket.id,
            tool=ticket.tool,
            arguments=ticket.arguments,
            expires_at=ticket.expires_at,
            hop=hop,
        )
        record.proposals.append(entry)
        emit("proposal", entry.model_dump(mode="json"))
    is_error, text, structured = queued_outcome(answers)
    return ToolOutcome(is_error, text, structured)
