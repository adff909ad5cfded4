"""The tool groups and tools a task gets, chosen once from its contract at the start of a run.

Changing the tool list between hops rewrites the prompt prefix and throws away a runtime's
prefix cache, so the choice is made before the first hop and kept for the whole run. The
contract decides, not keywords: a `report` gets only read tools, a `cancel` the order tools
without the one that creates orders, a replenishment or an order everything but the cancel.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.contract import TaskContract
from pipeline.models import ToolSpec
from pipeline.toolfacts import CANCEL_TOOL, CREATE_TOOL

__all__ = ["ALL_GROUPS", "choose_groups", "offered_tools"]

ALL_GROUPS = ("inventory", "orders", "warehouses")

_GROUPS: dict[str, tuple[str, ...]] = {
    "report": ("inventory", "warehouses"),
    "replenish": ALL_GROUPS,
    "order": ALL_GROUPS,
    "cancel": ("orders",),
}
_WRITES: dict[str, frozenset[str]] = {
    "replenish": frozenset({CREATE_TOOL}),
    "order": frozenset({CREATE_TOOL}),
    "cancel": frozenset({CANCEL_TOOL}),
}


def choose_groups(contract: TaskContract) -> tuple[str, ...]:
    """The groups the contract's action needs, in a fixed order."""
    return _GROUPS[contract.action]


def offered_tools(
    tools: Sequence[ToolSpec], groups: Sequence[str], contract: TaskContract
) -> list[ToolSpec]:
    """The tools of `groups` the contract allows: every read, and only the writes its action
    needs (none when writes are not allowed)."""
    writes = _WRITES.get(contract.action, frozenset()) if contract.writes_allowed else frozenset()
    return [t for t in tools if t.group in groups and (t.read_only or t.name in writes)]
