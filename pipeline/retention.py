"""Retention: what is kept only for a while is pruned by every long-lived process, whether or
not it is the one that uses it.

- kept screenshots (`pipeline.shelf`): unread for `STOCKSHOT_SCREENSHOT_RETENTION_DAYS`, or
  the least recently read past `STOCKSHOT_SCREENSHOT_MAX_MB`; never one a pending proposal
  still shows (the screenshots of the run that proposed it);
- webhook events and their delivery log: older than `STOCKSHOT_WEBHOOK_RETENTION_DAYS`.

`tidy` is one pass; `serve`, `stockshot worker` and `stockshot watch` make one as they start,
and the long-running `serve` and workers again every `TIDY_EVERY` (`tidying`).

Which screenshots a pending proposal shows is read from the runs' records (`RunScreens`).
When that cannot be told for every pending proposal (its run is still running, or is not
found, or there are more pending proposals than one look reads), no screenshot is removed in
that pass: it says why and waits for a later one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from pipeline.bootstrap import screen_shelf
from pipeline.host import read_run_log
from pipeline.settings import Settings
from pipeline.shelf import Pruned
from store.models import ProposalQuery
from store.protocol import Store

__all__ = [
    "PENDING_LOOK",
    "TIDY_EVERY",
    "RunScreens",
    "Tidied",
    "either",
    "logged_screens",
    "needed_screens",
    "tidy",
    "tidying",
]

log = logging.getLogger(__name__)

TIDY_EVERY = timedelta(hours=1)
"""How often a long-running process prunes again."""

PENDING_LOOK = 10_000
"""How many pending proposals one pass reads; with more, it removes no screenshot."""

RunScreens = Callable[[Collection[str]], Mapping[str, Sequence[str]]]
"""The screenshots (ingest ids) each of these runs read, for the runs it finds."""


@dataclass(frozen=True)
class Tidied:
    """What one pass did: the screenshots it removed (None: it removed none, `held` says
    why) and how many webhook events went."""

    screens: Pruned | None
    events: int
    held: str | None = None


def logged_screens(run_log: Path) -> RunScreens:
    """The runs of the run log (`stockshot run`, the watch folder, `serve` on SQLite)."""

    def screens(run_ids: Collection[str]) -> dict[str, list[str]]:
        wanted = set(run_ids)
        if not wanted:
            return {}
        return {
            record.id: [a.sha256 for a in record.attachments if a.sha256]
            for record in read_run_log(run_log)
            if record.id in wanted
        }

    return screens


def either(*lookups: RunScreens) -> RunScreens:
    """Each run from the first lookup that finds it."""

    def screens(run_ids: Collection[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for lookup in lookups:
            missing = [r for r in run_ids if r not in found]
            if not missing:
                break
            found.update({k: list(v) for k, v in lookup(missing).items()})
        return found

    return screens


def needed_screens(store: Store, runs: RunScreens) -> tuple[set[str], str | None]:
    """The screenshots pending proposals show, and why that cannot be told (None: it can)."""
    with store.reading() as tx:
        pending = tx.proposals(ProposalQuery(status="pending", limit=PENDING_LOOK))
    if len(pending) >= PENDING_LOOK:
        return set(), f"{len(pending):,} or more proposals are pending"
    run_ids = {p.run_id for p in pending if p.run_id is not None}
    found = runs(run_ids)
    unknown = sorted(run_ids - set(found))
    if unknown:
        return set(), (
            f"the runs {', '.join(unknown[:3])}{'…' if len(unknown) > 3 else ''} of pending "
            "proposals are not found, so the screenshots they show cannot be told"
        )
    return {sha for screens in found.values() for sha in screens}, None


def tidy(settings: Settings, store: Store, runs: RunScreens, *, now: datetime) -> Tidied:
    """One pass of pruning (see the module)."""
    with store.writing() as tx:
        events = tx.prune_events(before=now - timedelta(days=settings.webhook_retention_days))
    needed, held = needed_screens(store, runs)
    if held is not None:
        log.warning("kept screenshots are not pruned this time: %s", held)
        return Tidied(None, events, held)
    cap = settings.screenshot_max_mb
    pruned = screen_shelf(settings).prune(
        now=now,
        max_age=timedelta(days=settings.screenshot_retention_days),
        max_bytes=None if cap is None else int(cap * 1024 * 1024),
        needed=needed,
    )
    if pruned.removed or events:
        log.info(
            "pruned %d kept screenshots (%.1f MiB) and %d webhook events; kept %d that "
            "pending proposals show",
            len(pruned.removed), pruned.freed_bytes / 1024 / 1024, events, len(pruned.spared),
        )  # fmt: skip
    return Tidied(pruned, events)


@contextlib.asynccontextmanager
async def tidying(
    settings: Settings,
    store: Store,
    runs: RunScreens,
    *,
    clock: Callable[[], datetime],
    every: timedelta = TIDY_EVERY,
) -> AsyncIterator[None]:
    """A pass before the block starts, then one every `every` until it ends; a failing pass
    is logged and the next one runs."""

    async def once() -> None:
        try:
            await asyncio.to_thread(tidy, settings, store, runs, now=clock())
        except Exception:  # a store busy or closing: the next pass tries again
            log.exception("pruning kept screenshots and webhook events failed")

    async def passes() -> None:
        while True:
            await asyncio.sleep(every.total_seconds())
            await once()

    await once()

    task = asyncio.create_task(passes())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
