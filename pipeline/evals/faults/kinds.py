"""The failure modes the fault replay injects, how often each is picked, and the policy that
decides when (see `pipeline.evals.faults`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ARGUMENT_FAULTS",
    "FAULT_KINDS",
    "FIELD_NAME",
    "IGNORE_TASK",
    "NUMBER_FORMAT",
    "OBSERVED_WEIGHTS",
    "PLAIN_TASK",
    "PROSE",
    "QUERY",
    "READ_LOOP",
    "SKIP_READ",
    "STALL",
    "SWAP",
    "TRUNCATION",
    "WRITE",
    "FaultEvent",
    "FaultPolicy",
]

STALL = "stall"
PROSE = "prose_call"
TRUNCATION = "truncation"
FIELD_NAME = "field_name"
SWAP = "swap"
NUMBER_FORMAT = "number_format"
READ_LOOP = "read_loop"
SKIP_READ = "skip_read"
FAULT_KINDS: tuple[str, ...] = (
    STALL,
    PROSE,
    TRUNCATION,
    FIELD_NAME,
    SWAP,
    NUMBER_FORMAT,
    READ_LOOP,
    SKIP_READ,
)
IGNORE_TASK = "ignore_task"
PLAIN_TASK = "replenish the low items on this screen"
"""What a model that ignores the request does anyway."""
ARGUMENT_FAULTS = (FIELD_NAME, SWAP, NUMBER_FORMAT)
WRITE = "orders_create_replenishment"
QUERY = "inventory_query_stock"


OBSERVED_WEIGHTS: dict[str, float] = {
    PROSE: 14,
    TRUNCATION: 9,
    STALL: 3,
    SKIP_READ: 3,
    READ_LOOP: 4,
    FIELD_NAME: 1,
    SWAP: 1,
    NUMBER_FORMAT: 1,
}
"""The mix of failure kinds, from what real small models did through this host: in how many
runs of the 14 core cases each showed, over two runs of them. Qwen2.5-Coder-0.5B with native
tools (2026-11-30, reports/eval-local.md): calls written as fenced JSON in all 14
(`prose_call`), replies cut at the token limit in 9 (`truncation`), prose that calls nothing in
3 (`stall`), writes before the live read in 3 (`freshness` blocked them), the same read again
in 2; with schema steps (2026-12-01) the same read again in 2 more. Argument faults (a wrong
field name, swapped ids, numbers as strings) were not seen in those runs; they keep a weight of
1 each, as the field reports describe them, so that the argument guards still meet them."""


@dataclass(frozen=True)
class FaultPolicy:
    fault_rate: float = 0.4
    """Chance that a step meets a failure mode the first time it comes up."""
    fix_rate: float = 0.6
    """Chance of a clean correction after feedback; otherwise the replay repeats itself."""
    vary_rate: float = 0.5
    """When it repeats a call refused for its arguments: chance that it changes an unrelated
    field (and leaves the named one as it was) instead of resending it identically."""
    faults: tuple[str, ...] = FAULT_KINDS
    weights: tuple[tuple[str, float], ...] = tuple(OBSERVED_WEIGHTS.items())
    """How often each kind is picked among those that fit a step (see `OBSERVED_WEIGHTS`)."""
    ignore_task_rate: float = 0.3
    """Chance that the replay ignores the task for the run (see `ignore_task`)."""
    truncation_need: tuple[float, float] = (1.3, 2.5)
    """A truncated reply needs this many times the budget it met (uniform between)."""


@dataclass(frozen=True)
class FaultEvent:
    """What the replay did at one request: `inject` (with the fault and its variant),
    `resend`, `repeat`, `fix` or `continue` (a read loop going on)."""

    request: int
    action: str
    kind: str
    detail: str = ""
