"""Runs started over the API: each runs in the background and keeps its events for followers.

A `RunBook` starts a run as an asyncio task, records every event the host emits (numbered
from 0), and wakes whoever follows the run. Followers get what already happened, then what
happens next, until `run_finished`; a run that ends without that event (its tool servers
could not be reached, or it failed outright) gets one synthesised from its record, so every
stream ends. Finished runs are kept in memory up to a bound; older ones are read back from
the run log.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pipeline.contract import TaskContract
from pipeline.errors import StockshotError, ToolServerError
from pipeline.host import GuardEvent, RunRecord, ToolCallRecord, read_run_log
from pipeline.jsonread import items
from pipeline.models import EventSink, JsonValue, RunEvent

__all__ = ["Numbered", "RunBook", "RunStarter", "RunState", "finished_event"]

log = logging.getLogger(__name__)

RunStarter = Callable[[EventSink], Awaitable[RunRecord]]
"""Starts one run, sending its events to the sink, and returns its record."""

FINISHED = "run_finished"


def finished_event(run_id: str, record: RunRecord) -> RunEvent:
    """The `run_finished` event of a run that ended with `record`: its status, final answer
    and who gave it, and the ledger summary."""
    return {
        "run_id": run_id,
        "type": FINISHED,
        "status": record.status,
        "final": record.final,
        "final_by": record.final_by,
        "ledger": record.ledger_summary.text if record.ledger_summary else None,
    }


Numbered = tuple[int, RunEvent]
"""An event with its number in the run (0, 1, …), which a follower resumes after."""


def _int(value: JsonValue) -> int:
    return value if isinstance(value, int) else 0


@dataclass
class RunState:
    task: str
    model: str
    dry_run: bool
    started_at: datetime
    id: str | None = None
    events: list[RunEvent] = field(default_factory=list)
    record: RunRecord | None = None
    job: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def finished(self) -> bool:
        return any(e.get("type") == FINISHED for e in self.events[-1:])

    def add(self, event: RunEvent) -> None:
        if self.id is None and event.get("run_id"):
            self.id = str(event["run_id"])
        self.events.append(event)
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def view(self) -> RunRecord:
        """The finished record, or one built from the events so far while it runs."""
        if self.record is not None:
            return self.record
        started = next((e for e in self.events if e.get("type") == "run_started"), {})
        contract = started.get("task_contract")
        return RunRecord(
            id=self.id or "",
            task=self.task,
            model=self.model,
            groups=[str(g) for g in items(started.get("groups"))],
            task_contract=TaskContract.model_validate(contract) if contract else None,
            status="running",
            dry_run=self.dry_run,
            hops=max((_int(e.get("hop")) for e in self.events), default=0),
            tool_calls=[
                ToolCallRecord.model_validate(e) for e in self.events if e["type"] == "tool_call"
            ],
            guard_events=[
                GuardEvent.model_validate(e) for e in self.events if e["type"] == "guard"
            ],
            started_at=self.started_at,
        )

    async def follow(self, *, after: int = -1) -> AsyncIterator[Numbered]:
        """Events numbered above `after`, then live ones as they come, until the end."""
        index = after + 1
        while True:
            changed = self._changed
            while index < len(self.events):
                yield index, self.events[index]
                index += 1
            if self.finished:
                return
            await changed.wait()


class RunBook:
    """The runs of this process: start, look up, follow; finished ones kept up to `keep`."""

    def __init__(self, run_log: Path, *, keep: int = 200, start_timeout_s: float = 30.0) -> None:
        self._run_log = run_log
        self._keep = keep
        self._start_timeout_s = start_timeout_s
        self._runs: OrderedDict[str, RunState] = OrderedDict()
        self._jobs: set[asyncio.Task[None]] = set()

    async def start(self, state: RunState, starter: RunStarter) -> RunState:
        """Start a run; return once it has its id (it has started, or already ended)."""
        started = asyncio.Event()

        def sink(event: RunEvent) -> None:
            # `run_finished` is published once the record is kept, so that whoever sees it
            # can read the finished record right away.
            if event.get("type") != FINISHED:
                state.add(event)
            elif state.id is None:
                state.id = str(event.get("run_id") or "") or None
            started.set()

        async def job() -> None:
            try:
                record = await starter(sink)
            except asyncio.CancelledError:
                self._end(state, "error", "the run was stopped: the server shut down")
                raise
            except StockshotError as exc:
                self._end(state, "error", str(exc))
            except Exception as exc:
                log.exception("run failed")
                self._end(state, "error", f"the run failed: {type(exc).__name__}: {exc}")
            else:
                state.id = state.id or record.id
                state.record = record
                state.add(finished_event(state.id, record))
            finally:
                started.set()

        task = asyncio.create_task(job())
        state.job = task
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)
        try:
            await asyncio.wait_for(started.wait(), timeout=self._start_timeout_s)
        except TimeoutError:
            task.cancel()
            raise ToolServerError(
                f"the run did not start within {self._start_timeout_s:g} s; "
                "the tool servers or the model are not answering"
            ) from None
        assert state.id is not None
        self._remember(state)
        return state

    def _end(self, state: RunState, status: str, message: str) -> None:
        if state.id is None:
            state.id = f"run-failed-{id(state):x}"
        state.record = state.view().model_copy(
            update={"status": status, "final": message, "final_by": "host", "error": message}
        )
        if not state.finished:
            state.add(
                {
                    "run_id": state.id,
                    "type": FINISHED,
                    "status": status,
                    "final": message,
                    "final_by": "host",
                }
            )

    def _remember(self, state: RunState) -> None:
        assert state.id is not None
        self._runs[state.id] = state
        finished = [k for k, s in self._runs.items() if s.record is not None]
        for key in finished[: max(0, len(finished) - self._keep)]:
            del self._runs[key]

    def get(self, run_id: str) -> RunState | None:
        return self._runs.get(run_id)

    def recent(self, limit: int) -> list[RunRecord]:
        """The latest runs, newest first: this process's (as they stand) and the run log's."""
        records = {state.id: state.view() for state in self._runs.values() if state.id}
        for record in reversed(read_run_log(self._run_log)):
            if len(records) >= limit * 2:
                break
            records.setdefault(record.id, record)
        return sorted(records.values(), key=lambda r: r.started_at, reverse=True)[:limit]

    def screens(self, run_ids: Collection[str]) -> dict[str, list[str]]:
        """The screenshots (ingest ids) each of these runs of this process read, for those
        that finished (a running run's record does not name them yet; the run log answers
        for the runs of earlier processes)."""
        found = {}
        for run_id in run_ids:
            state = self._runs.get(run_id)
            if state is not None and state.record is not None:
                found[run_id] = [a.sha256 for a in state.record.attachments if a.sha256]
        return found

    def logged(self, run_id: str) -> RunRecord | None:
        """A run of an earlier process, from the run log."""
        for record in reversed(read_run_log(self._run_log)):
            if record.id == run_id:
                return record
        return None

    async def close(self) -> None:
        jobs = list(self._jobs)
        for job in jobs:
            job.cancel()
        if jobs:
            await asyncio.gather(*jobs, return_exceptions=True)
