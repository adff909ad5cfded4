"""`stall`: a turn with no tool call and no question to the user, before any tool result justifies
a summary (or one that only announces what it will do, or says nothing at all). Bounced once
with a short nudge; a second stall ends the turn. It never says which tool to call: forcing a
"canonical next call" makes a model invent argument values where it should have asked."""

from __future__ import annotations

import re

from pipeline.host.guards.base import GuardState, ResponseDecision
from pipeline.host.guards.common import asks_user, guard_count, tool_results_so_far
from pipeline.models import ModelResponse

__all__ = ["NUDGE", "stall"]

NUDGE = (
    "You answered without a tool call and without a question. If you mean to act, make the "
    "tool call now; if you need something from the user, ask it."
)
_ANNOUNCES = re.compile(
    r"\b(I will|I'll|I am going to|I'm going to|let me|next,? I|now I|I shall|going to)\b|"
    r"我将|我会|接下来|下面我|让我|现在我|马上",
    re.IGNORECASE,
)
_REFUSES = re.compile(
    r"\b(I can(?:no|')t|I am unable|I'm unable|not able to|I won't|I will not)\b|无法|不能|做不到",
    re.IGNORECASE,
)


def stall(response: ModelResponse, state: GuardState) -> ResponseDecision:
    if response.tool_calls or response.truncated:
        return ResponseDecision()
    text = response.content.strip()
    if (response.asks and text) or asks_user(text) or _REFUSES.search(text):
        return ResponseDecision()
    announces = bool(_ANNOUNCES.search(text))
    if tool_results_so_far(state) and text and not announces:
        return ResponseDecision()
    if guard_count(state, "stall", "bounce"):
        return ResponseDecision("end", message=text or "Stopped: the model stalled twice.")
    return ResponseDecision("bounce", message=NUDGE)
