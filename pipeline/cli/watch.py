"""`stockshot watch DIR`: read screenshots dropped into a folder.

Watch DIR/inbox: each screenshot moves to processing/, then to done/ with a result JSON beside
it, or to failed/ with the reason. Restart-safe and idempotent by content hash. With --task,
each screenshot also runs the agent; its writes wait in the approvals inbox (stockshot
approvals, the dashboard) unless --apply lets them run at once.

At a terminal, a progress bar (rich) where there is one and a line per file anywhere else.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TaskID, TextColumn

from pipeline.cli import Commands, command
from pipeline.errors import StockshotError
from pipeline.host import RunRecord
from pipeline.models import IngestResult
from pipeline.settings import Settings
from pipeline.watch import Outcome, Summary, Watcher

if TYPE_CHECKING:
    from store.protocol import Store

__all__ = ["FileProgress", "register"]


class FileProgress:
    """A progress bar on a terminal; one line per file anywhere else (logs, pipes)."""

    def __init__(self, stream: TextIO, *, width: int = 24) -> None:
        self._stream = stream
        self._console = Console(file=stream, width=120)
        self._width = width
        self._bar: Bar | None = None
        self._task: TaskID | None = None
        self._total = 0
        self._count = 0

    def start(self, total: int) -> None:
        self._total, self._count = total, 0
        if not self._console.is_terminal:
            return
        self._bar = Bar(
            MofNCompleteColumn(),
            BarColumn(bar_width=self._width),
            TextColumn("{task.description}"),
            console=self._console,
            auto_refresh=False,
        )
        self._task = self._bar.add_task("", total=total)
        self._bar.start()

    def advance(self, outcome: Outcome) -> None:
        self._count += 1
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, advance=1, description=f"{outcome.status}: {outcome.name}")
            self._bar.refresh()
            if self._count >= self._total:
                self._bar.stop()
                self._bar = None
            return
        shown = f"{self._count}/{self._total}"
        self._stream.write(f"[{shown}] {outcome.status}: {outcome.name} ({outcome.detail})\n")
        self._stream.flush()


def register(sub: Commands) -> None:
    parser = command(sub, "watch", __doc__)
    parser.add_argument("dir", type=Path, metavar="DIR")
    parser.add_argument("--task", default=None, help="run the agent on each screenshot")
    parser.add_argument(
        "--apply",
        action="store_true",
        help="let the runs write at once (default: their writes wait for approval)",
    )
    parser.add_argument("--once", action="store_true", help="process the backlog, then exit")
    parser.set_defaults(handler=_watch)


def _watch(args: argparse.Namespace, settings: Settings) -> int:
    import asyncio

    from pipeline.bootstrap import (
        approval_policy,
        build_ingestor,
        open_store,
        proposal_queue,
        run_agent,
        server_targets,
    )
    from servers.factory import GROUPS

    if args.apply and args.task is None:
        print("stockshot watch: --apply needs --task", file=sys.stderr)
        return 2
    ingestor = build_ingestor(settings)
    summary = Summary()
    with asyncio.Runner() as loop:
        store = open_store(settings) if args.task is not None else None
        try:
            _tidy(settings, store)
            policy = approval_policy("watch", settings, "auto" if args.apply else None)
            targets = (
                server_targets(settings, list(GROUPS), approval=policy, store=store)
                if store is not None
                else []
            )

            queue = (
                proposal_queue(settings, store, requested_by=f"watch:{args.dir.name}")
                if store is not None and policy == "manual"
                else None
            )

            def runner(task: str, results: Sequence[IngestResult]) -> RunRecord:
                return loop.run(
                    run_agent(
                        settings,
                        task=task,
                        results=results,
                        targets=targets,
                        proposals=queue,
                        requested_by=f"watch:{args.dir.name}",
                    )
                )

            watcher = Watcher(
                args.dir,
                ingestor=ingestor,
                clock=time.time,
                settle_s=settings.watch_settle_s,
                runner=runner if args.task is not None else None,
                task=args.task,
                progress=FileProgress(sys.stderr),
            )
            print(
                f"stockshot watch: {watcher.inbox} "
                f"({'backlog only' if args.once else 'Ctrl+C to stop'})",
                file=sys.stderr,
                flush=True,
            )
            watcher.run(
                once=args.once,
                interval_s=settings.watch_interval_s,
                wait=time.sleep,
                summary=summary,
            )
        except KeyboardInterrupt:
            pass
        finally:
            print(summary.line(), file=sys.stderr, flush=True)
            if store is not None:
                store.close()
            if ingestor.cache is not None:
                ingestor.cache.close()
    return 1 if summary.failed else 0


def _tidy(settings: Settings, store: Store | None) -> None:
    """Prune the kept screenshots and webhook events once, as the watch starts (a store is
    opened for it when the watch has none); a failure is said and the watch goes on."""
    from pipeline.bootstrap import open_store, utc_now
    from pipeline.retention import logged_screens, tidy
    from store.errors import StoreError

    runs = logged_screens(settings.resolved_run_log())
    try:
        if store is not None:
            tidy(settings, store, runs, now=utc_now())
        else:
            with open_store(settings) as opened:
                tidy(settings, opened, runs, now=utc_now())
    except (StockshotError, StoreError) as exc:
        print(f"stockshot watch: pruning kept screenshots failed: {exc}", file=sys.stderr)
