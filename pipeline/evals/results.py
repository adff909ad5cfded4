"""What an evaluation run leaves: one `CaseRun` per case, seed and track configuration (its
verdict, whether the model earned it, which guards acted, how the run ended), gathered into
`TrackRuns`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from pipeline.contract import TaskContract, only_unclear
from pipeline.evals.cases import Case
from pipeline.evals.scoring import Verdict
from pipeline.host import RunRecord

__all__ = ["CaseRun", "ModelKind", "TrackRuns", "case_run", "reading_effect"]

ModelKind = Literal["model", "baseline", "replay"]


@dataclass
class CaseRun:
    """One case, one seed, one track configuration."""

    case_id: str
    seed: int
    passed: bool
    reason: str
    status: str = ""
    hops: int = 0
    tokens: int = 0
    wall_ms: float = 0.0
    model_ms: float = 0.0
    """Time spent waiting on the model, over `hops` requests."""
    guard_events: dict[str, int] = field(default_factory=dict)
    faults: dict[str, int] = field(default_factory=dict)
    """What a fault replay did in the run (`inject:stall`, `fix:stall`, ...), counted."""
    ending: str = ""
    """How the run ended, for a failure's explanation: status, hops, guards that acted, and
    the start of the final answer."""
    reused: bool = False
    """Not run again: the all-on run, whose trajectory this configuration cannot change."""
    wrong_write: bool = False
    """It wrote what the task did not ask (see `Verdict.wrong_write`)."""
    final_by: str = ""
    """Who wrote the run's answer: `model`, `host` (a guard's ending, the report `false_claim`
    writes in the model's place, a stopped or failed run), or empty (no run)."""
    reading: str = ""
    """What the model's reading of the task did: `recovered` (the reader alone wrote nothing
    for words it did not understand, the meet allows what the task asks), `blocked` (the
    meet kept the model from widening the reader's reading), `stood` (the reader's full
    reading stood over a model's that read it otherwise), a combination, `failed` (the model
    gave no reading), or empty (no model reading)."""
    usage: dict[str, int] = field(default_factory=dict)
    """prompt, completion and cached prompt tokens over the run."""
    steps: dict[str, int] = field(default_factory=dict)
    """Model turns by how they were asked (native, schema) and schema_invalid replies."""
    notes: list[str] = field(default_factory=list)

    def acted(self, guard: str) -> bool:
        return any(key.startswith(f"{guard}:") for key in self.guard_events)

    @property
    def model_passed(self) -> bool:
        """The model's own pass: the product's pass with an answer the model wrote; a run the
        host had to end in the model's place is the model's failure."""
        return self.passed and self.final_by == "model"

    @property
    def rescued(self) -> bool:
        """Passed for the user only because the host wrote the answer."""
        return self.passed and self.final_by != "model"


@dataclass
class TrackRuns:
    """The runs of one model on one track configuration, by case, one per seed."""

    model: str
    track: str
    config: str
    guard_off: str | None
    runs: dict[str, list[CaseRun]] = field(default_factory=dict)
    wall_s: float = 0.0
    kind: ModelKind = "model"

    def add(self, run: CaseRun) -> None:
        self.runs.setdefault(run.case_id, []).append(run)


def reading_effect(record: RunRecord) -> str:
    """What a model's reading did in `record` (see `CaseRun.reading`)."""
    by_source = {r.source: r for r in record.contract_readings}
    model, final, reader = by_source.get("model"), by_source.get("final"), by_source.get("reader")
    if model is None:
        return ""
    if model.contract is None:
        return "failed"
    effects = []
    alone: TaskContract | None = reader.contract if reader else None
    if (
        alone is not None
        and only_unclear(alone)
        and final is not None
        and final.contract is not None
        and final.contract.writes_allowed
    ):
        effects.append("recovered")
    if final is not None and "blocked" in final.note:
        effects.append("blocked")
    if final is not None and "full reading stands" in final.note:
        effects.append("stood")
    return "+".join(effects)


def case_run(case: Case, seed: int, verdict: Verdict, record: RunRecord, wall: float) -> CaseRun:
    return CaseRun(
        case.id,
        seed,
        verdict.passed,
        verdict.reason,
        wrong_write=verdict.wrong_write,
        final_by=record.final_by or "",
        reading=reading_effect(record),
        status=record.status,
        hops=record.hops,
        tokens=record.tokens.get("prompt", 0) + record.tokens.get("completion", 0),
        usage=dict(record.tokens),
        steps=dict(record.steps),
        notes=list(record.notes),
        wall_ms=wall * 1000,
        model_ms=record.timings_ms.get("model", 0.0),
        guard_events=dict(Counter(f"{e.guard}:{e.action}" for e in record.guard_events)),
        ending=_ending(record),
    )


def _ending(record: RunRecord) -> str:
    acted = Counter(f"{e.guard} {e.action}" for e in record.guard_events)
    guards = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in acted.items())
    final = " ".join(record.final.split())
    final = final if len(final) <= 160 else final[:157] + "..."
    writes = sum(c.name == "orders_create_replenishment" and c.executed for c in record.tool_calls)
    return (
        f"{record.status} after {record.hops} hops, {len(record.tool_calls)} tool calls "
        f"({writes} order calls); guards: {guards or 'none acted'}; final: {final!r}"
    )
