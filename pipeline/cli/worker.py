"""`stockshot worker`: take ingest and run jobs from the PostgreSQL queue.

Take jobs that `stockshot serve` instances queue when STOCKSHOT_DATABASE_URL is a postgresql://
URL: ingest jobs (OCR, on this process's cores) and run jobs (the agent over the tool servers on
the same database). Start as many as the machines have cores for; SIGINT or SIGTERM finishes the
jobs in hand and stops. A worker that dies mid-job is noticed by the others after three
heartbeats (STOCKSHOT_WORKER_HEARTBEAT_S) and its jobs are retried.
"""

from __future__ import annotations

import argparse
import asyncio
import logging

from pipeline.cli import Commands, command
from pipeline.errors import InputError
from pipeline.jobs.tasks import QUEUES
from pipeline.settings import Settings

__all__ = ["register"]


def register(sub: Commands) -> None:
    parser = command(sub, "worker", __doc__)
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="jobs at a time in this process (default 1; OCR of one process runs one image "
        "at a time, so add processes for more OCR and concurrency for more runs)",
    )
    parser.add_argument(
        "--queues",
        default=",".join(QUEUES),
        help=f"comma-separated queues to take (default {','.join(QUEUES)})",
    )
    parser.set_defaults(handler=_worker)


def _worker(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.jobs.worker import serve_worker

    if args.concurrency < 1:
        raise InputError("--concurrency: at least 1")
    queues = [q.strip() for q in str(args.queues).split(",") if q.strip()]
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("procrastinate").setLevel(logging.WARNING)
    asyncio.run(serve_worker(settings, concurrency=args.concurrency, queues=queues))
    return 0
