"""The task contract: what a request allows, read from its words before anything runs.

`read_task` turns the user's task (English or simplified Chinese) into a `TaskReading`: the
contract the reader alone allows, the fallback of its understood clauses, and the words it
did not understand; `parse_task` is its contract. The reader is total
(`pipeline.contract.reading`): every word is accounted for by the closed vocabulary of
`pipeline.contract.lexicon`, and what is left over can only narrow. A model's reading of the
same task meets the reader's (`pipeline.contract.meet`): it may narrow, never widen. The host
enforces the final contract (tool list, `scope` guard); the model reads it in its opening
message, rendered by `render_contract`, and the embedded planner reads it back with
`read_contract`. Pure: no I/O.

Reading rules, safe side first:
- a negated write ("don't order", "do not place any orders", "without ordering", "just tell
  me", "先别下单", "不要", "只看", "暂不") is a `report`, unless the negation names ids: then
  those ids are excluded ("don't order SKU-10402", "SKU-10402 先别补"); a negation of the one
  action the task does not ask for forbids only that one ("cancel PO-000042 and don't reorder
  it" is the cancel, with no order);
- a deferral, self-action or hypothetical ("later", "I will order", "what would you", "下周再",
  "我自己", "如果") is a `report`;
- an id in a clause that was not understood is excluded, and any word not understood makes
  the reader's contract a `report` that says what it did not understand;
- `cancel` needs named orders (`PO-000042`) or SKUs whose open orders go;
- explicit quantities belong to the SKU they stand next to ("10 units of SKU-10232",
  "SKU-10232 x 10", "SKU-10232 补 10 件"), or to every SKU ("30 each", "每个 30"), or cap the
  server's policy ("at most 20 each"); a quantity that belongs to nothing, a request for two
  actions at once, or no request at all is not understood;
- a condition on the live on-hand ("under 50 on hand", "with at most 20 left", "库存不超过20")
  only ever narrows what is written: one left out ("everything but what's under 50 on hand")
  is not understood, and a count held that no condition reads ("more than 50 on hand") is
  never an order's size, a cap or a level;
- a warehouse named by its name ("North hub", "北方仓", "the north warehouse") is a scope when
  the store's `warehouses_list` answers to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.contract import terms
from pipeline.contract.marking import is_cjk
from pipeline.contract.meet import meet, offer, settle, widenings
from pipeline.contract.reading import ids_in, parse_task, read_task
from pipeline.contract.terms import *  # noqa: F403  (every term is the package's too)
from pipeline.contract.terms import TaskContract, read_contract
from pipeline.models import Message

__all__ = [
    "TASK_LINE",
    "contract_in",
    "ids_in",
    "is_cjk",
    "meet",
    "offer",
    "parse_task",
    "read_task",
    "settle",
    "task_in",
    "widenings",
]
__all__ += terms.__all__


TASK_LINE = "Task: "
"""How the opening message states the user's task, on a line of its own."""


def task_in(messages: Sequence[Message]) -> str | None:
    """The user's task as a conversation's opening message states it (its `Task:` line)."""
    for message in messages:
        if message.role != "user":
            continue
        for line in message.content.splitlines():
            if line.startswith(TASK_LINE):
                return line[len(TASK_LINE) :]
    return None


def contract_in(messages: Sequence[Message]) -> TaskContract:
    """The contract the host wrote into a conversation's opening message, or (without one) a
    reading of its `Task:` line, as a model would make it."""
    for message in messages:
        if message.role != "user":
            continue
        found = read_contract(message.content)
        if found is not None:
            return found
        task = task_in([message])
        if task is not None:
            return parse_task(task)
    return parse_task("")
