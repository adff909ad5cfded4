"""What a track's runs add up to beyond passes: tokens, schema steps, hops, request times, the
faults the replay injected, the guards that fired and the runs they rescued, and the scores by
case family and by split (open and sealed)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pipeline.evals.cases import Case
from pipeline.evals.document import Family, Requests, Rescued, Split, Steps
from pipeline.evals.results import TrackRuns

__all__ = [
    "families_of",
    "faults_of",
    "fired_of",
    "mean_hops_of",
    "requests_of",
    "rescued_of",
    "splits_of",
    "steps_of",
    "tokens_of",
]


def tokens_of(track: TrackRuns) -> int:
    return sum(r.tokens for runs in track.runs.values() for r in runs)


def steps_of(track: TrackRuns) -> Steps:
    """How the model turns were asked, how many schema replies broke the schema, and the
    tokens: prompt, generated, and the share of the prompt the server had cached."""
    runs = [r for runs in track.runs.values() for r in runs if not r.reused]
    counts: Counter[str] = Counter()
    usage: Counter[str] = Counter()
    switched = 0
    for run in runs:
        counts.update(run.steps)
        usage.update(run.usage)
        switched += any("switched to schema steps" in n for n in run.notes)
    prompt = usage.get("prompt", 0)
    return {
        "native": counts.get("native", 0),
        "schema": counts.get("schema", 0),
        "schema_invalid": counts.get("schema_invalid", 0),
        "runs_switched": switched,
        "prompt_tokens": prompt,
        "completion_tokens": usage.get("completion", 0),
        "cached_share": round(usage.get("cached", 0) / prompt, 3) if prompt else 0.0,
    }


def mean_hops_of(track: TrackRuns) -> float:
    hops = [r.hops for runs in track.runs.values() for r in runs]
    return round(sum(hops) / len(hops), 2) if hops else 0.0


def requests_of(track: TrackRuns) -> Requests:
    """What one model request costs: each run's model time spread over its requests."""
    runs = [r for runs in track.runs.values() for r in runs if r.hops and not r.reused]
    per_request = sorted(r.model_ms / r.hops for r in runs)
    tokens = sorted(r.tokens / r.hops for r in runs)
    if not runs:
        return {"requests": 0}
    return {
        "requests": sum(r.hops for r in runs),
        "median_ms": round(_quantile(per_request, 0.5), 1),
        "p95_ms": round(_quantile(per_request, 0.95), 1),
        "max_ms": round(per_request[-1], 1),
        "median_tokens": round(_quantile(tokens, 0.5)),
    }


def _quantile(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def faults_of(track: TrackRuns) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for runs in track.runs.values():
        for run in runs:
            counts.update(run.faults)
    return dict(sorted(counts.items()))


def fired_of(track: TrackRuns) -> dict[str, int]:
    """In how many runs each guard acted (any decision but allow)."""
    counts: Counter[str] = Counter()
    for runs in track.runs.values():
        for run in runs:
            for guard in {key.split(":", 1)[0] for key in run.guard_events}:
                counts[guard] += 1
    return dict(counts)


def rescued_of(track: TrackRuns) -> Rescued:
    """The runs that passed for the user only because the host wrote the answer."""
    runs = [r for rs in track.runs.values() for r in rs if r.rescued]
    return {"runs": len(runs), "cases": sorted({r.case_id for r in runs})}


def families_of(track: TrackRuns | None, cases: Sequence[Case]) -> dict[str, Family]:
    """Passes per case family: mean over seeds and pass^k, with the family's case count."""
    if track is None:
        return {}
    out: dict[str, Family] = {}
    for case in cases:
        runs = track.runs.get(case.id)
        if not runs:
            continue
        family = out.setdefault(
            case.category, {"cases": 0, "mean": 0.0, "model_mean": 0.0, "pass_k": 0}
        )
        family["cases"] += 1
        family["mean"] = round(family["mean"] + sum(r.passed for r in runs) / len(runs), 2)
        family["model_mean"] = round(
            family["model_mean"] + sum(r.model_passed for r in runs) / len(runs), 2
        )
        family["pass_k"] += all(r.passed for r in runs)
    return out


def splits_of(track: TrackRuns | None, cases: Sequence[Case]) -> dict[str, Split]:
    """Per split (tuning, sealed): cases, passes (mean over seeds), pass^k, the failed runs
    that wrote what the task did not ask (wrong writes) and those that only did less (safe
    misses), and what the model's reading of the task did."""
    if track is None:
        return {}
    out: dict[str, Split] = {}
    readings: dict[str, Counter[str]] = {}
    for case in cases:
        runs = track.runs.get(case.id)
        if not runs:
            continue
        split = out.setdefault(
            case.split,
            {
                "cases": 0,
                "runs": 0,
                "mean": 0.0,
                "pass_k": 0,
                "model_mean": 0.0,
                "rescued": 0,
                "wrong_writes": 0,
                "safe_misses": 0,
                "reading": {},
                "wrong": [],
            },
        )
        split["cases"] += 1
        split["runs"] += len(runs)
        split["mean"] = round(split["mean"] + sum(r.passed for r in runs) / len(runs), 2)
        split["pass_k"] += all(r.passed for r in runs)
        split["model_mean"] = round(
            split["model_mean"] + sum(r.model_passed for r in runs) / len(runs), 2
        )
        split["rescued"] += sum(r.rescued for r in runs)
        wrong = [r for r in runs if not r.passed and r.wrong_write]
        split["wrong_writes"] += len(wrong)
        split["safe_misses"] += sum(not r.passed and not r.wrong_write for r in runs)
        readings.setdefault(case.split, Counter()).update(
            e for r in runs for e in r.reading.split("+") if e
        )
        if wrong:
            split["wrong"].append(case.id)
    for name, split in out.items():
        split["reading"] = dict(readings[name])
    return out
