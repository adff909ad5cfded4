"""`truncation`: a reply cut at the token limit. Nothing in it runs (half a call is worse than no
call); the model is told, and the budget for its next reply is doubled."""

from __future__ import annotations

from pipeline.host.guards.base import GuardState, ResponseDecision
from pipeline.host.guards.common import guard_count
from pipeline.models import ModelResponse

__all__ = ["MAX_RETRIES", "truncation"]

MAX_RETRIES = 2


def truncation(response: ModelResponse, state: GuardState) -> ResponseDecision:
    if not response.truncated:
        return ResponseDecision()
    if guard_count(state, "truncation", "bounce") >= MAX_RETRIES:
        return ResponseDecision(
            "end",
            message=f"Stopped: the model's reply was cut at the token limit {MAX_RETRIES + 1} "
            "times; nothing from those replies was run.",
        )
    raised = state.max_tokens * 2
    return ResponseDecision(
        "bounce",
        message=f"Your reply was cut off at the {state.max_tokens}-token limit, so nothing in it "
        f"was run. The limit for your next reply is {raised} tokens: send it again, complete "
        "and shorter if you can.",
        max_tokens=raised,
    )
