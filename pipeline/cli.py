"""The `stockshot` command line. Entry point: reads settings, builds I/O, dispatches."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from pipeline import __version__
from pipeline.errors import StockshotError
from pipeline.settings import Settings

__all__ = ["main"]

Handler = Callable[[argparse.Namespace, Settings], int]
Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def _registrars() -> list[Register]:
    # Each command group lives in its own module and registers its subcommands here.
    from servers import cli as servers_cli

    return [servers_cli.register]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stockshot",
        description="Inventory screenshots in, verified and audited tool actions out.",
    )
    parser.add_argument("--version", action="version", version=f"stockshot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in _registrars():
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, Settings())
    except StockshotError as exc:
        print(f"stockshot: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
