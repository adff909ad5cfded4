"""The `stockshot` command line: one module per command group, and one output module.

Each module's `register(commands)` adds its subcommands with a handler; a handler reads its
arguments, builds the I/O (`pipeline.bootstrap`) and calls the domain modules, which never
parse arguments themselves:

- `ingest`, `run`: a screenshot's rows; the agent on a task over screenshots;
- `demo`: the main job on a bundled sample, against a fresh demo store;
- `approvals`, `profiles`, `webhooks`: the approvals inbox, the saved column profiles and the
  webhook delivery log at a terminal;
- `serve`, `worker`, `watch`: the API and dashboard, the queue workers, the watched folder;
- `eval`, `bench`, `models`: the evaluation, the benchmark, the offline OCR models;
- `store`, `orders`, `servers`: registered by `servers.cli` (the servers stand alone and
  never import the pipeline).

`output` prints what the commands show. `main` is the entry point: it parses, reads the
settings and dispatches; a `StockshotError` is exit status 2 with its message.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TypeAlias

from rich_argparse import RichHelpFormatter

from pipeline import __version__
from pipeline.cli.output import print_error
from pipeline.errors import StockshotError
from pipeline.settings import Settings
from servers.errors import ServersError
from store.errors import StoreError

__all__ = [
    "COMMANDS",
    "Commands",
    "build_parser",
    "command",
    "main",
    "positive",
    "servers_option",
    "with_servers",
]

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What a command module's `register` adds its parsers to."""
Handler = Callable[[argparse.Namespace, Settings], int]
Register = Callable[[Commands], None]

# The module that registers each command, in the order `stockshot --help` lists them. A
# command line imports only its command's module, so `stockshot ingest` loads no MCP client
# and no evaluation.
COMMANDS: dict[str, str] = {
    "ingest": "pipeline.cli.ingest",
    "run": "pipeline.cli.run",
    "demo": "pipeline.cli.demo",
    "models": "pipeline.cli.models",
    "store": "servers.cli",
    "orders": "servers.cli",
    "servers": "servers.cli",
    "approvals": "pipeline.cli.approvals",
    "profiles": "pipeline.cli.profiles",
    "webhooks": "pipeline.cli.webhooks",
    "serve": "pipeline.cli.serve",
    "worker": "pipeline.cli.worker",
    "watch": "pipeline.cli.watch",
    "eval": "pipeline.cli.evaluation",
    "bench": "pipeline.cli.bench",
}


def command(commands: Commands, name: str, doc: str | None) -> argparse.ArgumentParser:
    """The parser of `stockshot NAME`, with the command module's docstring (`doc`) as its
    help: the first line after its "`stockshot ...`: " is the one-line help, the second
    paragraph the description. Further paragraphs are for readers of the code."""
    paragraphs = [" ".join(p.split()) for p in (doc or "").strip().split("\n\n")]
    summary = paragraphs[0].split("`: ", 1)[-1].removesuffix(".")
    description = paragraphs[1] if len(paragraphs) > 1 else None
    return commands.add_parser(name, help=summary, description=description)


def positive(text: str) -> int:
    """An argument's whole number of 1 or more (an argparse `type`)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 1 or more")
    return value


def servers_option(parser: argparse.ArgumentParser) -> None:
    """`--servers memory|stdio`: how a command that runs the agent reaches the tool servers."""
    parser.add_argument(
        "--servers",
        choices=("memory", "stdio"),
        default=None,
        help="memory: the tool servers run in this process over MCP's in-memory transport "
        "(default; STOCKSHOT_SERVERS); stdio: one server subprocess per group",
    )


def with_servers(args: argparse.Namespace, settings: Settings) -> Settings:
    """The settings with `--servers` laid over `STOCKSHOT_SERVERS` when it was given."""
    if args.servers is None:
        return settings
    return settings.model_copy(update={"servers": args.servers})


class _Parser(argparse.ArgumentParser):
    """Every parser of the command line, with rich help (subcommands inherit the class)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", RichHelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


def build_parser(command: str | None = None, *, listing: bool = True) -> argparse.ArgumentParser:
    """The command line: every command, or only `command`'s module when it names one (none
    when there is no command and no help to `list`)."""
    parser = _Parser(
        prog="stockshot",
        description="Inventory screenshots in, verified and audited tool actions out.",
    )
    parser.add_argument("--version", action="version", version=f"stockshot {__version__}")
    commands: Commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)  # type: ignore[assignment]  # its parsers are `_Parser`s, which are ArgumentParsers
    if command in COMMANDS:
        modules = [COMMANDS[command]]
    elif command is None and not listing:
        modules = []  # `--version`, or no command: nothing to register
    else:
        modules = list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        register: Register = importlib.import_module(name).register
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in arguments if not a.startswith("-")), None)
    listing = command is not None or any(a in ("-h", "--help") for a in arguments)
    args = build_parser(command, listing=listing).parse_args(arguments)
    handler: Handler = args.handler
    try:
        return handler(args, Settings())
    except (StockshotError, ServersError, StoreError) as exc:
        print_error(exc)
        return 2
    except KeyboardInterrupt:
        return 130
