"""`stockshot run`: run the agent on a task over screenshots.

Ingest the screenshots, then let the model act through the tool servers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pipeline.cli import Commands, command, servers_option, with_servers
from pipeline.cli.ingest import ingest_all
from pipeline.cli.output import print_run
from pipeline.errors import InputError
from pipeline.host import MERGE_MODES, RunRecord
from pipeline.ingest import REQUESTABLE
from pipeline.settings import Settings

if TYPE_CHECKING:
    from pipeline.contract import Question
    from store.protocol import Store

__all__ = ["register"]


def _guard_switch(text: str) -> tuple[str, bool]:
    name, _, value = text.partition("=")
    value = value.strip().lower()
    if value not in ("on", "off", "true", "false"):
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME=off or NAME=on")
    return name.strip(), value in ("on", "true")


def register(commands: Commands) -> None:
    parser = command(commands, "run", __doc__)
    parser.add_argument("--task", required=True, help='e.g. "raise orders for low SKUs"')
    parser.add_argument("--image", nargs="*", type=Path, default=[], metavar="IMG")
    parser.add_argument("--model", default=None, help="rules | openai:NAME | scripted:PATH")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint")
    parser.add_argument("--strategy", choices=REQUESTABLE, default=None)
    parser.add_argument(
        "--merge",
        choices=MERGE_MODES,
        default="auto",
        help="several inventory screenshots as one merged table, newest capture per SKU and "
        "warehouse (auto: when every row names its warehouse)",
    )
    parser.add_argument("--dry-run", action="store_true", help="record write calls, run none")
    approval = parser.add_mutually_exclusive_group()
    approval.add_argument(
        "--yes",
        action="store_true",
        help="go ahead without asking: the writes run at once (as --approval auto), and a "
        "task not read in full is acted on as the reading made of the words the reader "
        "understood (a model's reading always waits for a person)",
    )
    approval.add_argument(
        "--approval",
        choices=("manual", "auto"),
        default=None,
        help="auto: the writes run at once; manual (the default): they become proposals, "
        "asked at a terminal, else left for `stockshot approvals`",
    )
    approval.add_argument(
        "--approve",
        action="store_true",
        help="queue the writes as proposals for `stockshot approvals` (or the dashboard) "
        "without asking",
    )
    approval.add_argument(
        "--ask",
        action="store_true",
        help="ask y/N at this terminal for each write, after the run (the default at a terminal)",
    )
    parser.add_argument(
        "--guard", action="append", type=_guard_switch, default=[], metavar="NAME=off"
    )
    parser.add_argument("--json", action="store_true", help="print the run record as JSON")
    servers_option(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace, settings: Settings) -> int:
    import asyncio

    from pipeline.approval_desk import cli_decider
    from pipeline.bootstrap import approval_policy, open_store, proposal_queue, run_agent

    if args.ask and not sys.stdin.isatty():
        raise InputError(
            "--ask needs a terminal to ask at; use --approve and `stockshot approvals` instead"
        )
    settings = with_servers(args, settings)
    by = cli_decider()
    flag = _approval_flag(args)
    manual = approval_policy("run", settings, flag) == "manual" and not args.dry_run
    results = ingest_all(settings, args.image, args.strategy)
    store = open_store(settings) if manual else None

    def show(record: RunRecord) -> None:
        if args.json:
            print(record.model_dump_json())
        else:
            print_run(record, results, sys.stdout)
            print(f"(run {record.id} appended to {settings.resolved_run_log()})")

    def once(**confirmation: Any) -> RunRecord:
        return asyncio.run(
            run_agent(
                settings,
                task=args.task,
                results=results,
                model_spec=args.model,
                base_url=args.base_url,
                dry_run=args.dry_run,
                guard_overrides=dict(args.guard),
                proposals=proposal_queue(settings, store, requested_by=by)
                if store is not None
                else None,
                merge=args.merge,
                requested_by=by,
                **confirmation,
            )
        )

    try:
        record = once()
        show(record)
        if record.question is not None and _go_ahead(args, record.question):
            record = once(confirmed=record.question, confirms=record.id)
            show(record)
        if store is not None and record.proposals:
            _after_proposals(args, settings, store, record)
    finally:
        if store is not None:
            store.close()
    return 0 if record.status == "done" else 1


def _go_ahead(args: argparse.Namespace, question: Question) -> bool:
    """A yes to the run's question: `--yes` for a reading made of the words the reader
    understood, or a person's answer at a terminal (anything else is no). A model's reading is
    never confirmed by a flag: a person reads it first (here, the dashboard or the API)."""
    if args.yes and question.source == "reader":
        return True
    if args.json or not sys.stdin.isatty():
        if args.yes:
            print(
                "--yes confirms only the reader's own reading; this one is the model's: answer "
                "it at a terminal, in the dashboard or with POST /v1/runs/{id}/confirm",
                file=sys.stderr,
            )
        return False
    answer = input(f"{question.text} [y/N] ").strip().lower()
    return answer in ("y", "yes")


def _approval_flag(args: argparse.Namespace) -> Literal["manual", "auto"] | None:
    """What the command line says about approval: `--yes` or `--approval auto` writes at once;
    `--approve`, `--ask` or `--approval manual` holds the writes; nothing leaves it to
    `STOCKSHOT_APPROVAL`, else the surface's default (manual)."""
    if args.yes:
        return "auto"
    if args.approve or args.ask:
        return "manual"
    approval: Literal["manual", "auto"] | None = args.approval
    return approval


def _asks(args: argparse.Namespace) -> bool:
    """Whether held writes are asked about at this terminal after the run: with `--ask`, or
    by default when stdin is a terminal and stdout is not taken by `--json`."""
    return bool(args.ask) or (not args.approve and not args.json and sys.stdin.isatty())


def _after_proposals(
    args: argparse.Namespace, settings: Settings, store: Store, record: RunRecord
) -> None:
    import asyncio

    from pipeline.bootstrap import approval_desk
    from pipeline.cli.approvals import ask_each

    ids = list(dict.fromkeys(p.id for p in record.proposals))
    if not _asks(args):
        print(
            f"{len(ids)} write(s) wait for approval, nothing was written: stockshot approvals "
            f"approve {' '.join(ids)}  (or deny, or the dashboard's approvals inbox); "
            "run with --yes to write at once",
            file=sys.stderr if args.json else sys.stdout,
        )
        return
    asyncio.run(ask_each(approval_desk(settings, store), ids, read=sys.stdin, out=sys.stdout))
