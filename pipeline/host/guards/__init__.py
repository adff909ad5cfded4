"""Host guards: small pure functions between the model and the tools, each with a switch."""

from __future__ import annotations

from pipeline.host.guards.base import (
    CallDecision,
    CallGuard,
    GuardState,
    ResponseDecision,
    ResponseGuard,
    ScreenEvidence,
)

__all__ = [
    "CALL_GUARDS",
    "RESPONSE_GUARDS",
    "CallDecision",
    "CallGuard",
    "GuardState",
    "ResponseDecision",
    "ResponseGuard",
    "ScreenEvidence",
]

RESPONSE_GUARDS: dict[str, ResponseGuard] = {}
CALL_GUARDS: dict[str, CallGuard] = {}
