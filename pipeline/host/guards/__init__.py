"""Host guards: small pure functions between the model and the tools, each with a switch.

Response guards look at a model turn before anything runs, in this order: `truncation` (nothing
from a cut reply runs), `prose_call` (calls left in the text), `false_claim` (a final answer
that claims what no tool did), `stall` (no call, no question).
Call guards look at each proposed call: `arg_repair` reshapes first, so the rest see the
repaired call; then `scope` (the task contract), `give_up`, `repeat_rejected`, `unchanged_field`,
`read_loop`, `freshness`.
"""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.host.guards import base
from pipeline.host.guards.arg_repair import arg_repair
from pipeline.host.guards.base import *  # noqa: F403  (what a guard sees and decides)
from pipeline.host.guards.base import CallGuard, ResponseGuard
from pipeline.host.guards.false_claim import false_claim
from pipeline.host.guards.freshness import freshness
from pipeline.host.guards.give_up import give_up
from pipeline.host.guards.prose_call import prose_call
from pipeline.host.guards.read_loop import read_loop
from pipeline.host.guards.repeat_rejected import repeat_rejected
from pipeline.host.guards.scope import scope
from pipeline.host.guards.stall import stall
from pipeline.host.guards.truncation import truncation
from pipeline.host.guards.unchanged_field import unchanged_field

__all__ = ["CALL_GUARDS", "GUARD_NAMES", "RESPONSE_GUARDS", "switched_on"]
__all__ += base.__all__

RESPONSE_GUARDS: dict[str, ResponseGuard] = {
    "truncation": truncation,
    "prose_call": prose_call,
    "false_claim": false_claim,
    "stall": stall,
}
CALL_GUARDS: dict[str, CallGuard] = {
    "arg_repair": arg_repair,
    "scope": scope,
    "give_up": give_up,
    "repeat_rejected": repeat_rejected,
    "unchanged_field": unchanged_field,
    "read_loop": read_loop,
    "freshness": freshness,
}
GUARD_NAMES = (*RESPONSE_GUARDS, *CALL_GUARDS)


def switched_on(
    switches: Mapping[str, bool],
    response_guards: Mapping[str, ResponseGuard] = RESPONSE_GUARDS,
    call_guards: Mapping[str, CallGuard] = CALL_GUARDS,
) -> tuple[dict[str, ResponseGuard], dict[str, CallGuard]]:
    """The guards whose switch is on (a guard without a switch is on), in registry order."""
    return (
        {n: g for n, g in response_guards.items() if switches.get(n, True)},
        {n: g for n, g in call_guards.items() if switches.get(n, True)},
    )
