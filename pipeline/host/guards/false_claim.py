"""`false_claim`: a final answer that claims what no tool did.

The failure users of small models report as the worst: the chat says the orders were placed and
the ledger is empty. A final answer (a reply with no tool call) is held to this run's tool
results, read as the host's ledger summary: an order id or approval id no result named, a
claim to have ordered or cancelled when no tool did, or a count of orders created that is not
the count created; and, for a task that asks for a report, an answer that leaves out a SKU the
run's live reads show low (within the task's scope), such as "no SKU is low" after a read that
shows five. The first such answer is bounced with the facts; a second is replaced by the ledger
summary (for a report, the list of what the live reads show low), marked as written by the
host. Answers that say what happened, or that nothing was ordered, pass untouched.
"""

from __future__ import annotations

import re

from pipeline.host.guards.base import GuardState, ResponseDecision
from pipeline.host.guards.common import guard_count
from pipeline.ledger import LedgerSummary, summarize
from pipeline.models import ModelResponse
from pipeline.screentext import screens_in
from pipeline.toolfacts import Facts, from_messages, read_facts

__all__ = ["HOST_REPORT", "HOST_WRITTEN", "false_claim"]

HOST_WRITTEN = (
    "[Written by the host from the tool results; the model's answer claimed actions no tool took.]"
)
HOST_REPORT = (
    "[Written by the host from the live reads; the model's answer left out what they show low.]"
)

_ORDER_ID = re.compile(r"\bPO-\d{1,12}\b", re.IGNORECASE)
_PROPOSAL_ID = re.compile(r"\bAP-\d{1,12}\b", re.IGNORECASE)
_NEGATION = re.compile(
    r"\b(?:no|not|never|none|nothing|without|n't|cannot|could not|did not|didn't|wasn't|weren't|"
    r"unable|failed|refused|skipped|blocked|would|will|can|should|could|might|waiting|pending)\b"
    r"|没有|未|不|无法|待|等待",
    re.IGNORECASE,
)
_ORDERED = re.compile(
    r"\b(?:i|we)(?:'ve| have)?\s+(?:successfully\s+)?(?:placed|created|raised|submitted|made|"
    r"ordered|issued|cancel+ed)\b"
    r"|\b(?:orders?|replenishments?|purchase orders?)\s+(?:has|have|was|were)\s+(?:been\s+)?"
    r"(?:successfully\s+)?(?:placed|created|raised|submitted|made|issued|cancel+ed)\b"
    r"|\b(?:successfully|all)\s+(?:placed|created|raised|submitted|ordered|cancel+ed)\b"
    r"|已(?:经)?(?:下单|补货|创建|提交|取消)|下单成功|补货成功|创建了.{0,8}(?:补货单|订单)",
    re.IGNORECASE,
)
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


def _claims(text: str, ledger: LedgerSummary, named: set[str]) -> list[str]:
    """What in `text` the ledger does not support, each said as a fact to correct."""
    problems: list[str] = []
    claimed = " ".join(s for s in _SENTENCE.findall(text) if not _EXAMPLE.search(s))
    unknown_orders = sorted({m.upper() for m in _ORDER_ID.findall(claimed)} - named)
    if unknown_orders:
        problems.append(f"no tool result in this run names {', '.join(unknown_orders)}")
    proposals = {e.proposal_id for e in ledger.proposed if e.proposal_id}
    unknown_proposals = sorted({m.upper() for m in _PROPOSAL_ID.findall(claimed)} - proposals)
    if unknown_proposals:
        problems.append(f"no write was queued as {', '.join(unknown_proposals)}")
    created = len(ledger.ordered)
    for sentence in _SENTENCE.findall(text):
        if _NEGATION.search(sentence):
            continue
        for match in _COUNT.finditer(sentence):
            count = int(match[1] or match[2])
            if count != created:
                problems.append(f"it says {count} orders were created; this run created {created}")
        if not ledger.wrote and _ORDERED.search(sentence):
            problems.append(
                "no order was created or cancelled in this run"
                + (" (the writes wait for approval)" if ledger.proposed else "")
            )
    return list(dict.fromkeys(problems))


def _low_live(facts: Facts, state: GuardState) -> list[str]:
    """What a report must name: each SKU and warehouse the live reads show low, in scope."""
    contract = state.contract
    if contract is None or contract.action != "report":
        return []
    shown = {r.sku for screen in screens_in(state.messages) for r in screen.rows if r.sku}
    out = []
    for (sku, warehouse), level in sorted(facts.live.items()):
        if not level.needs_reorder or not contract.allows_sku(sku):
            continue
        if not contract.allows_warehouse(warehouse):
            continue
        if contract.screen_only and not contract.skus and shown and sku not in shown:
            continue
        out.append(f"{sku} in {warehouse}: {level.numbers()}")
    return out


def _left_out(text: str, low: list[str]) -> list[str]:
    said = {m.upper() for m in re.findall(r"[A-Za-z]{2,6}-\d{2,12}", text)}
    return [line for line in low if line.split(" ", 1)[0] not in said]


def false_claim(response: ModelResponse, state: GuardState) -> ResponseDecision:
    if response.tool_calls or response.truncated or not response.content.strip():
        return ResponseDecision()
    facts = read_facts(from_messages(state.messages))
    ledger = summarize(facts)
    named = set(facts.orders) | {e.order_id for e in ledger.proposed if e.order_id}
    problems = _claims(response.content, ledger, named)
    low = [] if response.asks else _low_live(facts, state)  # a question reports nothing yet
    left_out = _left_out(response.content, low)
    if left_out and not problems:
        report = "Low now, by this run's live reads:\n" + "\n".join(f"- {line}" for line in low)
        if guard_count(state, "false_claim", "bounce") == 0:
            return ResponseDecision(
                "bounce",
                message="Your answer leaves out SKUs this run's live reads show low: "
                + "; ".join(left_out)
                + ". Answer again naming each of them with its numbers.",
            )
        return ResponseDecision("end", message=f"{HOST_REPORT}\n{report}")
    if not problems:
        return ResponseDecision()
    if guard_count(state, "false_claim", "bounce") == 0:
        return ResponseDecision(
            "bounce",
            message="Your answer does not match this run's tool results: "
            + "; ".join(problems)
            + f".\n{ledger.text}\nAnswer again with only what the tool results show.",
        )
    return ResponseDecision("end", message=f"{HOST_WRITTEN}\n{ledger.text}")
