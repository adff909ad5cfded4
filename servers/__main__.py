"""`python -m servers GROUP [--transport stdio|http] [--port N]`: run one MCP tool server.

The agent host spawns servers this way; `STOCKSHOT_*` variables (such as `STOCKSHOT_DB`)
are read from the environment.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from servers.cli import add_serve_arguments, run, serve


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m servers", description="Run the stockshot MCP server of a tool group."
    )
    add_serve_arguments(parser)
    return run(serve, parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
