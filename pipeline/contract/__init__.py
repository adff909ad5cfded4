"""The task contract: what a request allows, read from its words before anything runs.

`parse_task` turns the user's task (English or simplified Chinese) into a `TaskContract`:
the action, whether writes are allowed, the scope (warehouses, SKUs, exclusions, the screen),
explicit quantities or a quantity rule, and what it could not understand. The host enforces the
contract (tool list, `scope` guard); the model reads it in its opening message, rendered by
`render_contract`, and the embedded planner reads it back with `read_contract`. Pure: no I/O.

Reading rules, safe side first:
- a negated write ("don't order", "do not place any orders", "without ordering", "just tell
  me", "先别下单", "不要", "只看", "暂不") is a `report`, unless the negation names ids: then
  those ids are excluded ("don't order SKU-10402", "SKU-10402 先别补");
- `cancel` needs named orders (`PO-000042`) or SKUs whose open orders go;
- explicit quantities belong to the SKU they stand next to ("10 units of SKU-10232",
  "SKU-10232 x 10", "SKU-10232 补 10 件"), or to every SKU ("30 each", "每个 30"); a quantity
  that belongs to nothing, a request for two actions at once, or no request at all is not
  understood, and a contract that did not understand something is a `report` with no writes.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.contract.reading import parse_task
from pipeline.contract.terms import (
    ACTIONS,
    HELP,
    Action,
    QuantityRule,
    TaskContract,
    read_contract,
    render_contract,
)
from pipeline.models import Message

__all__ = [
    "ACTIONS",
    "HELP",
    "Action",
    "QuantityRule",
    "TaskContract",
    "contract_in",
    "parse_task",
    "read_contract",
    "render_contract",
]


def contract_in(messages: Sequence[Message]) -> TaskContract:
    """The contract the host wrote into a conversation's opening message, or (without one) a
    reading of its `Task:` line, as a model would make it."""
    for message in messages:
        if message.role != "user":
            continue
        found = read_contract(message.content)
        if found is not None:
            return found
        for line in message.content.splitlines():
            if line.startswith("Task: "):
                return parse_task(line[len("Task: ") :])
    return parse_task("")
