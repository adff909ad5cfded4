"""One way to execute a run, whichever process does it: the API's (SQLite) or a worker's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from pipeline.bootstrap import proposal_queue, run_agent, utc_now
from pipeline.host import RunRecord, Target
from pipeline.jobs.spec import EventSink, Runner, RunSpec
from pipeline.models import JsonObject
from pipeline.settings import Settings
from store.errors import StoreError
from store.protocol import Store

__all__ = ["RUN_FINISHED", "announce_finished", "runner"]

RUN_FINISHED = "run.finished"

log = logging.getLogger(__name__)


def announce_finished(store: Store, record: RunRecord, requested_by: str | None) -> None:
    """The `run.finished` event (for webhooks): the run's outcome and what it proposed."""
    body: JsonObject = {
        "run": {
            "id": record.id,
            "task": record.task,
            "status": record.status,
            "final": record.final,
            "final_by": record.final_by,
            "approval": record.approval,
            "dry_run": record.dry_run,
            "requested_by": requested_by,
            "proposals": [p.id for p in record.proposals],
            "summary": None if record.ledger_summary is None else record.ledger_summary.text,
        }
    }
    try:
        with store.writing() as tx:
            tx.append_event(RUN_FINISHED, body, now=utc_now())
    except StoreError as exc:  # the run is done and recorded; only its announcement is lost
        log.warning(
            "run %s finished, but its run.finished event was not stored: %s", record.id, exc
        )


def runner(
    settings: Settings,
    *,
    store: Store,
    targets: Callable[[bool], Sequence[Target]],
    run: Callable[..., Awaitable[RunRecord]] = run_agent,
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
            **(
                {"confirmed": spec.confirmed, "confirms": spec.confirms}
                if spec.confirmed is not None
                else {}
            ),
            **({"requested_by": spec.requested_by} if spec.requested_by else {}),
        )
        await asyncio.to_thread(announce_finished, store, record, spec.requested_by)
        return record

    return execute
