"""One run in progress, hop by hop: ask the model, let the response guards judge the turn,
then each tool call, guarded one at a time, and record and announce every step.

A hop is three steps (`Turns.hop`): `ask` (the request, bounded by the time left), `judge`
(the response guards: end, bounce, repair or allow) and `act` (each call through the call
guards, then run, proposed, skipped or shown). Each step says whether the run has ended; the
loop in `pipeline.host.loop` only counts hops and closes the record.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pipeline.contract import TaskContract
from pipeline.host.calls import Emit, execute, held_items, runs_for_real, view
from pipeline.host.context import Picture
from pipeline.host.guards.base import GuardState, ScreenEvidence, check_call, check_response
from pipeline.host.guards.false_claim import left_out_report
from pipeline.host.record import GuardAction, GuardEvent, RunRecord, RunStatus, ToolCallRecord
from pipeline.host.run import Run
from pipeline.host.screenview import VIEW_TOOL
from pipeline.host.toolbox import ToolOutcome
from pipeline.models import Message, ModelResponse, ModelSettings, RunEvent, ToolCall, ToolSpec

__all__ = ["Clock", "Turns", "emitter", "finish"]

log = logging.getLogger(__name__)

Judged = Literal["end", "next", "act"]


class Clock:
    """Wall-clock time of the run, and how much of it the model and the tools took."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.model = 0.0
        self.tools = 0.0

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


@dataclass
class Turns:
    """What every step of a run reads and writes."""

    run: Run
    contract: TaskContract
    record: RunRecord
    messages: list[Message]
    by_name: Mapping[str, ToolSpec]
    tools: list[ToolSpec]
    pictures: Mapping[str, Picture]
    clock: Clock
    emit: Emit
    max_tokens: int
    contents: Mapping[str, str] = field(default_factory=dict)
    screens: Sequence[ScreenEvidence] = ()

    async def hop(self, hop: int) -> bool:
        """One hop; True when the run has ended."""
        response = await self.ask(hop)
        if response is None:
            return True
        judged, response = self.judge(hop, response)
        if judged != "act":
            return judged == "end"
        return await self.act(hop, response)

    def state(self, hop: int, turn_calls: Sequence[ToolCall] = ()) -> GuardState:
        run = self.run
        return GuardState(
            hop=hop,
            now=run.clock(),
            messages=tuple(self.messages),
            calls=tuple(self.record.tool_calls),
            events=tuple(self.record.guard_events),
            tools=self.by_name,
            screens=tuple(self.screens),
            max_tokens=self.max_tokens,
            freshness_limit_s=run.limits.freshness_limit_s,
            read_loop_limit=run.limits.read_loop_limit,
            turn_calls=tuple(turn_calls),
            contract=self.contract,
        )

    async def ask(self, hop: int) -> ModelResponse | None:
        """The model's turn, or None when the time budget ran out before or during it."""
        limits = self.run.limits
        out_of_time = f"stopped: the {limits.wall_clock_s:g} s budget ran out"
        remaining = limits.wall_clock_s - self.clock.elapsed()
        if remaining <= 0:
            finish(self.record, "limit", out_of_time)
            return None
        settings = ModelSettings(max_tokens=self.max_tokens)
        started = time.perf_counter()
        try:
            response = await asyncio.wait_for(
                self.run.model.request(self.messages, self.tools, settings), timeout=remaining
            )
        except TimeoutError:
            finish(self.record, "limit", out_of_time)
            return None
        finally:
            self.clock.model += time.perf_counter() - started
        self._account(hop, response)
        return response

    def _account(self, hop: int, response: ModelResponse) -> None:
        record = self.record
        record.tokens["prompt"] += response.usage.prompt_tokens
        record.tokens["completion"] += response.usage.completion_tokens
        record.tokens["cached"] = record.tokens.get("cached", 0) + response.usage.cached_tokens
        if response.steps is not None:
            record.steps[response.steps] = record.steps.get(response.steps, 0) + 1
        if response.schema_valid is False:
            record.steps["schema_invalid"] = record.steps.get("schema_invalid", 0) + 1
        if response.note:
            record.notes.append(f"hop {hop}: {response.note}")
        self.emit(
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

    def judge(self, hop: int, response: ModelResponse) -> tuple[Judged, ModelResponse]:
        """The response guards' verdict on the turn: the run ends (an answer), the turn is
        bounced with a nudge (next hop), or its calls are acted on (as repaired)."""
        decision, guard = check_response(self.run.response_guards, response, self.state(hop))
        if guard:
            self._event(hop, guard, decision.action, decision.message)
        if decision.action == "end":
            self.messages.append(Message(role="assistant", content=response.content))
            final = decision.message or response.content
            report = self._left_out(hop, final) if guard != "false_claim" else ""
            own = not report and (not decision.message or decision.message == response.content)
            finish(self.record, "done", f"{final}\n{report}" if report else final, by_model=own)
            return "end", response
        if decision.action == "bounce":
            # Calls of a bounced turn never ran, so they are not replayed to the model.
            self.messages.append(Message(role="assistant", content=response.content))
            self.messages.append(Message(role="user", content=decision.message))
            if decision.max_tokens:
                self.max_tokens = min(decision.max_tokens, self.run.limits.max_tokens_ceiling)
            return "next", response
        repaired = decision.action == "repair" and decision.response is not None
        if repaired and decision.response is not None:
            response = decision.response
        self.messages.append(
            Message(
                role="assistant", content=response.content, tool_calls=list(response.tool_calls)
            )
        )
        if not response.tool_calls:
            finish(self.record, "done", response.content, by_model=not repaired)
            return "end", response
        return "act", response

    async def act(self, hop: int, response: ModelResponse) -> bool:
        """Each call of the turn through the call guards and on; True when a guard ended the
        run. Images `screen_view` attached (with their estimated tokens) join the conversation
        after the turn's tool results, so every result follows its call."""
        images: list[tuple[Message, int]] = []
        for call in response.tool_calls:
            if await self._call(hop, call, response.tool_calls, images):
                return True
        for image, tokens in images:
            self.messages.append(image)
            self.record.tokens["images"] = self.record.tokens.get("images", 0) + tokens
        return False

    async def _call(
        self,
        hop: int,
        call: ToolCall,
        turn_calls: Sequence[ToolCall],
        images: list[tuple[Message, int]],
    ) -> bool:
        run = self.run
        # Held before the guards too, so that its reason is the one the model reads; the
        # call as the guards repair it is held again before it runs.
        held = held_items(self.record, call.arguments, self.by_name.get(call.name))
        if held is not None:
            self._result(hop, call, held, executed=runs_for_real(run, self.by_name, call.name))
            return False
        verdict, guard = check_call(run.call_guards, call, self.state(hop, turn_calls))
        if guard:
            self._event(hop, guard, verdict.action, verdict.message)
        if verdict.action in ("end", "block"):
            self._result(hop, call, ToolOutcome(True, verdict.message), executed=False)
            if verdict.action == "end":
                report = self._left_out(hop, verdict.message)
                finish(self.record, "done", f"{verdict.message}\n{report}".strip())
            return verdict.action == "end"
        if verdict.action == "repair" and verdict.call is not None:
            call = verdict.call
        remaining = run.limits.wall_clock_s - self.clock.elapsed()
        started = time.perf_counter()
        try:
            if call.name == VIEW_TOOL:
                outcome = await view(run, call, self.by_name, self.pictures, images)
            else:
                outcome = await execute(
                    run,
                    self.record,
                    self.emit,
                    hop,
                    call,
                    self.by_name,
                    self.contents,
                    max(0.1, remaining),
                )
        finally:
            self.clock.tools += time.perf_counter() - started
        self._result(
            hop,
            call,
            outcome,
            executed=runs_for_real(run, self.by_name, call.name),
            duration=time.perf_counter() - started,
        )
        return False

    def _result(
        self,
        hop: int,
        call: ToolCall,
        outcome: ToolOutcome,
        *,
        executed: bool,
        duration: float = 0.0,
    ) -> None:
        self.messages.append(
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
            dry_run=self.record.dry_run and not executed,
            duration_ms=round(duration * 1000, 2),
        )
        self.record.tool_calls.append(entry)
        self.emit("tool_call", entry.model_dump(mode="json"))

    def _left_out(self, hop: int, final: str) -> str:
        """The host's report of the low rows a guard's stop leaves out of a report task (see
        `false_claim`), while that guard is on; empty otherwise."""
        if "false_claim" not in self.run.response_guards:
            return ""
        return left_out_report(final, self.state(hop))

    def _event(self, hop: int, guard: str, action: GuardAction, message: str) -> None:
        event = GuardEvent(hop=hop, guard=guard, action=action, message=message)
        self.record.guard_events.append(event)
        self.emit("guard", event.model_dump(mode="json"))


def finish(record: RunRecord, status: RunStatus, final: str, *, by_model: bool = False) -> None:
    """End the run with `final`, written by the model's own reply (`by_model`) or the host."""
    record.status = status
    record.final = final
    record.final_by = "model" if by_model else "host"


def emitter(run: Run, record: RunRecord) -> Emit:
    """The run's event sink, stamped with the run's id; a listener never breaks a run."""

    def emit(kind: str, data: RunEvent) -> None:
        if run.on_event is None:
            return
        try:
            run.on_event({"run_id": record.id, "type": kind, **data})
        except Exception:  # a listener must never break a run
            log.exception("run event listener failed")

    return emit
