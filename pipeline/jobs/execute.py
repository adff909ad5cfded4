"""One way to execute a run, whichever process does it: the API's (SQLite) or a worker's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pipeline.bootstrap import proposal_queue, run_agent
from pipeline.host.record import RunRecord
from pipeline.host.toolbox import Target
from pipeline.jobs.spec import EventSink, Runner, RunSpec
from pipeline.settings import Settings
from servers.store import Store

__all__ = ["runner"]


def runner(
    settings: Settings,
    *,
    store: Store,
    targets: Callable[[bool], Sequence[Target]],
    run: Callable[..., Any] = run_agent,
    log_run: bool = True,
) -> Runner:
    """Execute runs over `targets(manual)` (the tool servers on `store`, holding every write
    for approval when `manual`); a manual run queues its writes as proposals in `store`.
    `run` is `run_agent` or one with its keywords."""

    async def execute(spec: RunSpec, sink: EventSink) -> RunRecord:
        record: RunRecord = await run(
            settings,
            task=spec.task,
            results=spec.results,
            model_spec=spec.model,
            dry_run=spec.dry_run,
            guard_overrides=spec.guards,
            targets=targets(spec.manual),
            on_event=sink,
            proposals=proposal_queue(settings, store, requested_by=spec.requested_by)
            if spec.manual
            else None,
            run_id=spec.id,
            **({} if log_run else {"log_run": False}),
            **({"requested_by": spec.requested_by} if spec.requested_by else {}),
        )
        return record

    return execute
