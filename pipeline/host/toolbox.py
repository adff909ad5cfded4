"""MCP connections for a run: one client per tool group, a registry from `tools/list`, calls.

Targets are passed in (stdio subprocesses, streamable HTTP URLs, or in-memory servers in tests);
MCP exceptions become `ToolServerError` here, once.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, cast

from mcp import Client, MCPError, StdioServerParameters, stdio_client
from mcp.server.mcpserver import MCPServer
from mcp.types import CONNECTION_CLOSED, CallToolResult, RequestParamsMeta, Tool

from pipeline.errors import ToolServerError
from pipeline.models import JsonObject, ToolSpec

__all__ = [
    "GROUPS_META_KEY",
    "PROPOSAL_META_KEY",
    "RUN_ID_META_KEY",
    "HttpTarget",
    "MemoryTarget",
    "StdioTarget",
    "Target",
    "ToolOutcome",
    "Toolbox",
    "stdio_targets",
]

log = logging.getLogger(__name__)

GROUPS_META_KEY = "io.modelcontextprotocol/groups"
RUN_ID_META_KEY = "io.stockshot/run_id"
PROPOSAL_META_KEY = "io.stockshot/proposal_id"
ACTOR_META_KEY = "io.stockshot/actor"
"""The approved proposal a write executes (the orders server's `servers.approvals`)."""


@dataclass(frozen=True)
class StdioTarget:
    """A server subprocess; its stderr goes to `errlog` (appended) or to ours."""

    group: str
    command: str
    args: tuple[str, ...]
    env: dict[str, str] | None = None
    errlog: Path | None = None


@dataclass(frozen=True)
class HttpTarget:
    group: str
    url: str
    token: str | None = None


@dataclass(frozen=True)
class MemoryTarget:
    group: str
    server: MCPServer


Target = StdioTarget | HttpTarget | MemoryTarget


def stdio_targets(
    groups: Sequence[str], env: dict[str, str] | None = None, errlog: Path | None = None
) -> list[StdioTarget]:
    """One `python -m servers GROUP` subprocess per group, with this interpreter."""
    return [
        StdioTarget(g, sys.executable, ("-m", "servers", g, "--transport", "stdio"), env, errlog)
        for g in groups
    ]


@dataclass(frozen=True)
class ToolOutcome:
    is_error: bool
    text: str
    structured: JsonObject | None = None


@dataclass
class _Connection:
    target: Target
    client: Client
    instructions: str
    tools: list[Tool] = field(default_factory=list)


def _group_of(tool: Tool, default: str) -> str:
    meta = tool.meta or {}
    groups = meta.get(GROUPS_META_KEY)
    if isinstance(groups, list) and groups:
        return str(groups[0])
    prefix = tool.name.split("_", 1)[0]
    return prefix or default


def _spec(tool: Tool, group: str) -> ToolSpec:
    annotations = tool.annotations
    read_only = bool(annotations and annotations.read_only_hint)
    return ToolSpec(
        name=tool.name,
        description=tool.description or "",
        input_schema=dict(tool.input_schema or {"type": "object"}),
        group=group,
        read_only=read_only,
    )


class Toolbox:
    """The tools of the selected groups, in a stable order, and the servers behind them."""

    def __init__(self, targets: Sequence[Target], *, actor: str | None = None) -> None:
        self._targets = list(targets)
        # Who the calls act for (who started the run), for the servers' proposals and audit.
        self._actor = actor
        self._stack = AsyncExitStack()
        self._connections: list[_Connection] = []
        self._route: dict[str, _Connection] = {}
        self.tools: list[ToolSpec] = []
        self.instructions: dict[str, str] = {}

    async def __aenter__(self) -> Toolbox:
        try:
            for target in self._targets:
                client = await self._stack.enter_async_context(self._client(target))
                connection = _Connection(target, client, client.instructions or "")
                cursor: str | None = None
                while True:
                    page = await client.list_tools(cursor=cursor)
                    connection.tools += page.tools
                    cursor = page.next_cursor
                    if cursor is None:
                        break
                self._connections.append(connection)
        except Exception as exc:
            await self._stack.aclose()
            raise ToolServerError(
                f"cannot connect to the {target.group} tool server: {_why(exc)}"
            ) from exc
        for connection in self._connections:
            group = connection.target.group
            self.instructions[group] = connection.instructions
            for tool in connection.tools:
                tool_group = _group_of(tool, group)
                self.tools.append(_spec(tool, tool_group))
                self._route[tool.name] = connection
        self.tools.sort(key=lambda t: (t.group, t.name))
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.aclose()

    def _client(self, target: Target) -> Client:
        if isinstance(target, MemoryTarget):
            return Client(target.server)
        if isinstance(target, StdioTarget):
            parameters = StdioServerParameters(
                command=target.command, args=list(target.args), env=target.env
            )
            return Client(stdio_client(parameters, errlog=self._errlog(target.errlog)))
        if target.token:
            import httpx2
            from mcp.client.streamable_http import streamable_http_client

            http = httpx2.AsyncClient(
                headers={"Authorization": f"Bearer {target.token}"},
                timeout=httpx2.Timeout(30, read=300),
            )
            self._stack.push_async_callback(http.aclose)
            return Client(streamable_http_client(target.url, http_client=http))
        return Client(target.url)

    def _errlog(self, path: Path | None) -> TextIO:
        """A real file for the subprocess's stderr (a captured `sys.stderr` has no fd)."""
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            return self._stack.enter_context(path.open("a", encoding="utf-8"))
        try:
            sys.stderr.fileno()
        except (AttributeError, OSError, ValueError):
            return self._stack.enter_context(open(os.devnull, "w", encoding="utf-8"))  # noqa: PTH123
        return sys.stderr

    def spec(self, name: str) -> ToolSpec | None:
        return next((t for t in self.tools if t.name == name), None)

    async def call(
        self,
        name: str,
        arguments: JsonObject,
        *,
        run_id: str,
        proposal_id: str | None = None,
        actor: str | None = None,
    ) -> ToolOutcome:
        """Call a tool tagged with the run's id and who it acts for (`actor`, else the
        toolbox's); `proposal_id` names the approved proposal a write executes (the orders
        server checks it)."""
        connection = self._route.get(name)
        if connection is None:
            known = ", ".join(t.name for t in self.tools)
            return ToolOutcome(True, f"unknown tool {name!r}; tools available: {known}")
        try:
            tags: dict[str, str] = {RUN_ID_META_KEY: run_id}
            if proposal_id is not None:
                tags[PROPOSAL_META_KEY] = proposal_id
            if (actor or self._actor) is not None:
                tags[ACTOR_META_KEY] = str(actor or self._actor)
            meta = cast(RequestParamsMeta, tags)
            result = await connection.client.call_tool(name, arguments, meta=meta)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                # The process died or the connection dropped: no answer will come, and the
                # model must not read it as the tool refusing the call.
                raise ToolServerError(
                    f"the {connection.target.group} tool server closed the connection during "
                    f"{name} (it stopped or crashed); the call may not have run"
                ) from exc
            return ToolOutcome(True, f"{name} failed: {exc.message}")
        except Exception as exc:
            raise ToolServerError(
                f"the {connection.target.group} tool server failed during {name}: {_why(exc)}"
            ) from exc
        return _outcome(result)


def _outcome(result: CallToolResult) -> ToolOutcome:
    texts = [getattr(block, "text", "") for block in result.content]
    text = "\n".join(t for t in texts if t)
    structured = result.structured_content if isinstance(result.structured_content, dict) else None
    if not text and structured is not None:
        text = json.dumps(structured, ensure_ascii=False)
    return ToolOutcome(bool(result.is_error), text, structured)


def _why(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
