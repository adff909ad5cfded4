"""The host's MCP connections over streamable HTTP, with and without the bearer token, and
what a server that dies mid-run becomes."""

import sys
from pathlib import Path

import pytest

from pipeline.errors import ToolServerError
from pipeline.host.toolbox import HttpTarget, StdioTarget, Toolbox
from store.sql import SqlStore
from tests.servers.test_http_app import http_server

GROUPS = ("inventory", "orders", "warehouses")


@pytest.mark.subprocess
async def test_the_toolbox_lists_and_calls_tools_over_http_with_the_token(
    store: SqlStore,
) -> None:
    with http_server("all", Path(store.where), token="s3cret") as base:
        targets = [HttpTarget(g, f"{base}/{g}/mcp", "s3cret") for g in GROUPS]
        async with Toolbox(targets) as toolbox:
            names = [t.name for t in toolbox.tools]
            outcome = await toolbox.call("warehouses_list", {}, run_id="run-http")
    assert "orders_create_replenishment" in names
    assert names == sorted(
        names, key=lambda n: ({t: i for i, t in enumerate(GROUPS)}[n.split("_")[0]], n)
    )
    assert not outcome.is_error and "WH-01" in outcome.text
    assert set(toolbox.instructions) == set(GROUPS)


@pytest.mark.subprocess
async def test_a_wrong_token_is_a_clear_connection_error(store: SqlStore) -> None:
    with (
        http_server("all", Path(store.where), token="s3cret") as base,
        pytest.raises(ToolServerError, match="cannot connect to the inventory tool server"),
    ):
        async with Toolbox([HttpTarget("inventory", f"{base}/inventory/mcp", "wrong")]):
            pass


# A stdio server whose only tool kills its own process, as a crash or a kill -9 would.
DYING_SERVER = """
import os
from mcp.server.mcpserver import MCPServer

server = MCPServer("dying")


@server.tool()
def dying_exit() -> str:
    os._exit(1)


server.run()
"""


@pytest.mark.subprocess
async def test_a_server_that_dies_during_a_call_is_a_tool_server_error_naming_it() -> None:
    target = StdioTarget("dying", sys.executable, ("-c", DYING_SERVER))
    async with Toolbox([target]) as toolbox:
        with pytest.raises(ToolServerError, match=r"the dying tool server .* during dying_exit"):
            await toolbox.call("dying_exit", {}, run_id="run-dies")
