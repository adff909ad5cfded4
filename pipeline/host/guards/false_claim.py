"""`false_claim`: a final answer that claims what no tool did.

The failure users of small models report as the worst: the chat says the orders were placed and
the ledger is empty. A final answer (a reply with no tool call) is held to this run's tool
results, read as the host's ledger summary: an order id or approval id no result (and not the
task) named, a count of orders created that is not the count created, and each action it
states as done, read clause by clause (`pipeline.host.guards.claims`: ordered, cancelled,
queued for approval or skipped, with the SKU, warehouse and quantity it names). For a task
that writes, an answer that is no question while the screen shows rows to write without a
warehouse (and the task names none) is bounced: no order can be placed for them, so the run
must ask where they go; a second such answer is replaced by the host's question. For a task
that replenishes, an answer that stops short must name each row in scope the ledger does not
account for (with why it was not ordered); the first that does not is bounced with them, and a
second stands with the host's list of them after it. For a task
that asks for a report, an answer must also name every row that is low: each SKU the run's live
reads show low, and each row the screen shows low that no live read checked (within the task's
scope); "nothing is low" after a read that shows five is bounced with their ids, and so is a
report that ends with a question back to the user instead of the rows, or with nothing at all
once `stall` has nudged. The first such answer is bounced with the facts (all of them: the
claims and the rows left out); a second is replaced by what the host knows (for a report, the
low rows, read live or not checked, and the ledger), marked as written by the host. A run
another guard stops (`left_out_report`) ends with the same report after the stop.
Answers that say what happened, or what was not done and why, pass untouched.
"""

from __future__ import annotations

import re

from pipeline.contract import ids_in, is_cjk, task_in
from pipeline.host.budget import rows_in_scope, uncovered, unplaced
from pipeline.host.guards.base import GuardState, ResponseDecision
from pipeline.host.guards.claims import PROPOSAL_ID, parse_claims, unsupported
from pipeline.host.guards.common import asks_user, guard_count
from pipeline.host.ledger import LedgerEntry, LedgerSummary, summarize
from pipeline.models import ModelResponse
from pipeline.screentext import screens_in
from pipeline.toolfacts import Facts, from_messages, read_facts

__all__ = [
    "HOST_ASKS",
    "HOST_REPORT",
    "HOST_UNDONE",
    "HOST_WRITTEN",
    "false_claim",
    "left_out_report",
]

HOST_WRITTEN = (
    "[Written by the host from the tool results; the model's answer claimed actions no tool took.]"
)
HOST_REPORT = (
    "[Written by the host from the live reads and the screen; the model's answer left out rows "
    "they show low.]"
)

HOST_ASKS = (
    "[Written by the host: the screen shows rows to order without a warehouse, and the model "
    "did not ask which one.]"
)
HOST_UNDONE = "[Host: low rows in the task's scope that this run neither ordered nor said why not:]"
_ORDER_ID = re.compile(r"\bPO-\d{1,12}\b", re.IGNORECASE)
_COUNT = re.compile(
    r"\b(?:placed|created|raised|submitted|made|issued)\s+(\d{1,4})\s+(?:new\s+)?"
    r"(?:replenishment\s+|purchase\s+)?orders?\b"
    r"|\b(\d{1,4})\s+(?:new\s+)?(?:replenishment\s+|purchase\s+)?orders?\s+(?:were|have been|"
    r"has been)\s+(?:placed|created|raised|submitted)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?。！？\n]+")
_EXAMPLE = re.compile(
    r"\b(?:you can|you could|for example|e\.g\.|like|such as|ids look like)\b|例如|比如",
    re.IGNORECASE,
)
"""A sentence that shows what to ask or what an id looks like claims nothing."""


def _claims(
    text: str, ledger: LedgerSummary, named: set[str], before: list[LedgerEntry]
) -> list[str]:
    """What in `text` the ledger does not support, each said as a fact to correct."""
    problems: list[str] = []
    claimed = " ".join(s for s in _SENTENCE.findall(text) if not _EXAMPLE.search(s))
    unknown_orders = sorted({m.upper() for m in _ORDER_ID.findall(claimed)} - named)
    if unknown_orders:
        problems.append(f"no tool result in this run names {', '.join(unknown_orders)}")
    proposals = {e.proposal_id for e in ledger.proposed if e.proposal_id}
    unknown_proposals = sorted({m.upper() for m in PROPOSAL_ID.findall(claimed)} - proposals)
    if unknown_proposals:
        problems.append(f"no write was queued as {', '.join(unknown_proposals)}")
    created = len(ledger.ordered)
    for claim in parse_claims(text):
        if claim.kind != "ordered":
            continue
        for match in _COUNT.finditer(claim.text):
            count = int(match[1] or match[2])
            if count != created:
                problems.append(f"it says {count} orders were created; this run created {created}")
    problems += unsupported(text, ledger, before)
    return list(dict.fromkeys(problems))


def _low_rows(facts: Facts, state: GuardState) -> list[tuple[str, str]]:
    """What a report must name, as (SKU, line): each SKU and warehouse the live reads show
    low, and each row the screen shows low that no live read checked, in scope."""
    contract = state.contract
    if contract is None or contract.action != "report":
        return []
    screens = screens_in(state.messages)
    shown = {r.sku for screen in screens for r in screen.rows if r.sku}
    out: list[tuple[str, str]] = []
    for (sku, warehouse), level in sorted(facts.live.items()):
        if not level.needs_reorder or not contract.allows_sku(sku):
            continue
        if not contract.allows_warehouse(warehouse):
            continue
        if contract.screen_only and not contract.skus and shown and sku not in shown:
            continue
        out.append((sku, f"{sku} in {warehouse}: {level.numbers()}"))
    if not contract.understood:
        return out
    read = {sku for sku, _ in facts.live}
    for screen in screens:
        for row in screen.rows:
            place = screen.warehouse_of(row)
            if not row.low or not row.sku or row.sku in read or not contract.allows_sku(row.sku):
                continue
            if place is not None and not contract.allows_warehouse(place):
                continue
            where = f" in {place}" if place else ""
            numbers = f"on_hand {row.on_hand} < reorder_point {row.reorder_point}"
            line = f"{row.sku}{where}: low on the screen ({numbers}), not checked live"
            if (row.sku, line) not in out:
                out.append((row.sku, line))
    return out


def _undone(text: str, facts: Facts, state: GuardState) -> list[str]:
    """The rows a replenishment may write that this run's ledger does not account for
    (ordered, refused, queued, or read live as needing none) and the answer does not name:
    an answer that stops after some of the work (or after a stall nudge) must say why the
    rest was not done."""
    contract = state.contract
    if contract is None or contract.action != "replenish" or not contract.writes_allowed:
        return []
    # Before any write, an answer that stops is an announcement or a stall: `stall` nudges it.
    wrote = facts.created or facts.refusals or facts.proposed or facts.dry_run
    if not wrote and guard_count(state, "stall", "bounce") == 0:
        return []
    left = uncovered(contract, rows_in_scope(contract, screens_in(state.messages)), facts)
    said = {s.upper() for s in ids_in(text)["S"]}
    return [p.text for p in left or [] if (p.sku or "").upper() not in said]


def _left_out(text: str, low: list[tuple[str, str]]) -> list[str]:
    said = {s.upper() for s in ids_in(text)["S"]}
    return [sku for sku, _ in low if sku.upper() not in said]


def _task_orders(state: GuardState) -> set[str]:
    """The orders the user's task names: an answer may speak of them (what it did not do to
    them, and why) without any tool naming them."""
    return set(ids_in(task_in(state.messages) or "")["O"])


def _unplaced(text: str, facts: Facts, state: GuardState) -> list[str]:
    """The SKUs the task would have ordered that the screen shows without a warehouse (and the
    task names none), when the answer does not ask the user and no write was for them."""
    contract = state.contract
    if contract is None or asks_user(text):
        return []
    written = {sku for sku, _ in (*facts.created, *facts.proposed, *facts.refusals)}
    return [s for s in unplaced(contract, screens_in(state.messages)) if s not in written]


def _where(skus: list[str], state: GuardState) -> str:
    """The host's question about rows without a warehouse, in the task's language."""
    listed = ", ".join(skus)
    if any(is_cjk(char) for char in task_in(state.messages) or ""):
        return (
            f"截图中的 {'、'.join(skus)} 没有标明仓库，任务也没有说，所以没有下单。要补到哪个仓库？"
        )
    return (
        f"The screenshot shows {listed} without a warehouse, and the task does not name one, "
        "so no order was placed. Which warehouse should I order them in?"
    )


def _report(low: list[tuple[str, str]]) -> str:
    return "Low, by this run's live reads and the screen:\n" + "\n".join(
        f"- {line}" for _, line in low
    )


def left_out_report(text: str, state: GuardState) -> str:
    """The host's report of the low rows when `text` ends a report task without naming each
    of them (a guard's stop: a reply cut three times, a call given up), marked as the host's;
    empty when it names them all or the task is no report."""
    low = _low_rows(read_facts(from_messages(state.messages)), state)
    if not _left_out(text, low):
        return ""
    return f"{HOST_REPORT}\n{_report(low)}"


def _bounce(
    problems: list[str],
    ledger: LedgerSummary,
    left: list[str],
    undone: list[str],
    unplaced: list[str],
) -> str:
    parts = []
    if problems:
        parts.append(
            "Your answer does not match this run's tool results: "
            + "; ".join(problems)
            + f".\n{ledger.text}\nAnswer again with only what the tool results show."
        )
    if left:
        parts.append(
            "Your answer leaves out rows that are low: "
            + "; ".join(left)
            + ". Answer again naming each of them with its numbers (say which you did not "
            "check live)."
        )
    if undone:
        parts.append(
            "Rows in the task's scope are low and this run neither ordered them nor said why: "
            + "; ".join(undone)
            + ". Order them, or name each of them with why it is not ordered."
        )
    if unplaced:
        parts.append(
            "The screenshot shows "
            + ", ".join(unplaced)
            + " without a warehouse and the task names none, so no order can be placed for "
            "them. Ask the user which warehouse they are for (a question); do not pick one."
        )
    return "\n".join(parts)


def false_claim(response: ModelResponse, state: GuardState) -> ResponseDecision:
    if response.tool_calls or response.truncated:
        return ResponseDecision()
    text = response.content.strip()
    if not text and guard_count(state, "stall", "bounce") == 0:
        return ResponseDecision()  # `stall` nudges first; a second empty answer reports nothing
    facts = read_facts(from_messages(state.messages))
    ledger = summarize(facts)
    named = set(facts.orders) | {e.order_id for e in ledger.proposed if e.order_id}
    named |= _task_orders(state)  # "I did not cancel PO-5, which the task names, because…"
    before = [
        LedgerEntry(sku=o.sku, warehouse_id=o.warehouse_id, quantity=o.quantity, order_id=o.id)
        for o in facts.orders.values()
    ]
    problems = _claims(text, ledger, named, before)
    # A question ends the run as much as an answer does: a report that asks back instead of
    # naming the low rows leaves them out like any other.
    low = _low_rows(facts, state)
    left_out = _left_out(text, low)
    undone = _undone(text, facts, state)
    where = _unplaced(text, facts, state)
    if not problems and not left_out and not undone and not where:
        return ResponseDecision()
    if guard_count(state, "false_claim", "bounce") == 0:
        left = [line for sku, line in low if sku in left_out]
        return ResponseDecision("bounce", message=_bounce(problems, ledger, left, undone, where))
    if where:
        # Nothing can be ordered before the user says where: the run ends with the question.
        return ResponseDecision(
            "end", message=f"{HOST_ASKS}\n{ledger.text}\n{_where(where, state)}"
        )
    if not problems and not left_out:
        # A true answer that stops short, a second time: it stands, and the user is told
        # which rows were left without an order or a reason.
        return ResponseDecision("end", message=f"{text}\n\n{HOST_UNDONE} {'; '.join(undone)}")
    if not low:
        return ResponseDecision("end", message=f"{HOST_WRITTEN}\n{ledger.text}")
    marker = HOST_REPORT if left_out else HOST_WRITTEN
    return ResponseDecision("end", message=f"{marker}\n{_report(low)}\n{ledger.text}")
