"""Scores from runs, and the reports: `eval.json`, `eval.md` and a one-screen summary.

A score counts passes per seed (its mean is the headline) and pass^k: the cases that pass in
every one of the k seeds. The ship gate is the core subset on the product track with all guards
on: at least 12 of 14 core cases must pass in every seed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from pipeline.evals.cases import CORE_SIZE, Case, first_calls
from pipeline.evals.runner import CaseRun, TrackRuns

__all__ = [
    "SHIP_GATE",
    "Score",
    "build_report",
    "render_markdown",
    "render_summary",
    "score",
    "write_reports",
]

SHIP_GATE = 12


@dataclass(frozen=True)
class Score:
    cases: int
    core: int
    k: int
    per_seed: list[int]
    core_per_seed: list[int]
    mean: float
    core_mean: float
    pass_k: int
    core_pass_k: int
    failures: dict[str, str]
    """First failing seed's reason, by case id."""
    passes: dict[str, int]
    """Seeds passed, by case id."""


View = Literal["product", "model"]


def _ok(run: CaseRun, view: View) -> bool:
    """A pass in the `product` view (what the user got: an answer the host wrote counts) or
    the `model` view (a host-written answer is the model's failure)."""
    return run.passed if view == "product" else run.model_passed


def score(track: TrackRuns, core_ids: set[str], *, view: View = "product") -> Score:
    seeds = sorted({r.seed for runs in track.runs.values() for r in runs})
    per_seed = [0] * len(seeds)
    core_per_seed = [0] * len(seeds)
    pass_k = core_pass_k = 0
    failures: dict[str, str] = {}
    passes: dict[str, int] = {}
    for case_id, runs in track.runs.items():
        core = case_id in core_ids
        for run in runs:
            if _ok(run, view):
                per_seed[seeds.index(run.seed)] += 1
                if core:
                    core_per_seed[seeds.index(run.seed)] += 1
        passes[case_id] = sum(_ok(r, view) for r in runs)
        if all(_ok(r, view) for r in runs):
            pass_k += 1
            core_pass_k += core
        else:
            failing = next(r for r in runs if not _ok(r, view))
            reason = failing.reason if not failing.passed else "the host wrote the answer"
            ending = f" — the run: {failing.ending}" if failing.ending else ""
            failures[case_id] = f"seed {failing.seed}: {reason}{ending}"
    k = len(seeds) or 1
    return Score(
        cases=len(track.runs),
        core=sum(c in core_ids for c in track.runs),
        k=len(seeds),
        per_seed=per_seed,
        core_per_seed=core_per_seed,
        mean=round(sum(per_seed) / k, 2),
        core_mean=round(sum(core_per_seed) / k, 2),
        pass_k=pass_k,
        core_pass_k=core_pass_k,
        failures=failures,
        passes=passes,
    )


def _tokens(track: TrackRuns) -> int:
    return sum(r.tokens for runs in track.runs.values() for r in runs)


def _steps(track: TrackRuns) -> dict[str, Any]:
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


def _mean_hops(track: TrackRuns) -> float:
    hops = [r.hops for runs in track.runs.values() for r in runs]
    return round(sum(hops) / len(hops), 2) if hops else 0.0


def _requests(track: TrackRuns) -> dict[str, Any]:
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


def _faults(track: TrackRuns) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for runs in track.runs.values():
        for run in runs:
            counts.update(run.faults)
    return dict(sorted(counts.items()))


def _fired(track: TrackRuns) -> dict[str, int]:
    """In how many runs each guard acted (any decision but allow)."""
    counts: Counter[str] = Counter()
    for runs in track.runs.values():
        for run in runs:
            for guard in {key.split(":", 1)[0] for key in run.guard_events}:
                counts[guard] += 1
    return dict(counts)


def _rescued(track: TrackRuns) -> dict[str, Any]:
    """The runs that passed for the user only because the host wrote the answer."""
    runs = [r for rs in track.runs.values() for r in rs if r.rescued]
    return {"runs": len(runs), "cases": sorted({r.case_id for r in runs})}


def _families(track: TrackRuns | None, cases: Sequence[Case]) -> dict[str, dict[str, float]]:
    """Passes per case family: mean over seeds and pass^k, with the family's case count."""
    if track is None:
        return {}
    out: dict[str, dict[str, float]] = {}
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


def _splits(track: TrackRuns | None, cases: Sequence[Case]) -> dict[str, dict[str, Any]]:
    """Per split (tuning, sealed): cases, passes (mean over seeds), pass^k, the failed runs
    that wrote what the task did not ask (wrong writes) and those that only did less (safe
    misses), and what the model's reading of the task did."""
    if track is None:
        return {}
    out: dict[str, dict[str, Any]] = {}
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
                "reading": Counter(),
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
        split["reading"].update(e for r in runs for e in r.reading.split("+") if e)
        if wrong:
            split["wrong"].append(case.id)
    for split in out.values():
        split["reading"] = dict(split["reading"])
    return out


def build_report(
    tracks: Sequence[TrackRuns],
    cases: Sequence[Case],
    *,
    k: int,
    guard_names: Sequence[str],
    registered: Sequence[str],
    dry_run: bool,
    clock: str,
    wall_s: float,
    ingest_ms: float,
    screenshots: int,
    fault_policy: Mapping[str, Any] | None,
    reader: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    core_ids = {c.id for c in cases if c.core}
    models: dict[str, list[TrackRuns]] = {}
    for track in tracks:
        models.setdefault(track.model, []).append(track)
    entries = []
    for model, own in models.items():
        kind = own[0].kind
        model_track = next((t for t in own if t.track == "model"), None)
        product = [t for t in own if t.track != "model"]
        all_on = next((t for t in product if t.guard_off is None), None)
        base = score(all_on, core_ids) if all_on else None
        fired = _fired(all_on) if all_on else {}
        ablation = []
        for track in product:
            if track.guard_off is None or base is None:
                continue
            off = score(track, core_ids)
            off_model = score(track, core_ids, view="model")
            lost = sorted(c for c in off.passes if base.passes.get(c) == k and off.passes[c] < k)
            gained = sorted(
                c for c in off.passes if base.passes.get(c, 0) < k and off.passes[c] == k
            )
            ablation.append(
                {
                    "guard": track.guard_off,
                    "registered": track.guard_off in registered,
                    "fired_in_runs": fired.get(track.guard_off, 0),
                    **asdict(off),
                    "model_mean": off_model.mean,
                    "model_pass_k": off_model.pass_k,
                    "rescued_runs": _rescued(track)["runs"],
                    "delta_mean": round(off.mean - base.mean, 2),
                    "delta_pass_k": off.pass_k - base.pass_k,
                    "delta_core_pass_k": off.core_pass_k - base.core_pass_k,
                    "lost": lost,
                    "gained": gained,
                    "mean_hops": _mean_hops(track),
                    "wall_s": round(track.wall_s, 2),
                    "reran": sum(not r.reused for runs in track.runs.values() for r in runs),
                    "runs": sum(len(runs) for runs in track.runs.values()),
                }
            )
        entries.append(
            {
                "model": model,
                "kind": kind,
                "splits": {
                    "model_track": _splits(model_track, cases),
                    "product_all_on": _splits(all_on, cases),
                },
                "families": {
                    "model_track": _families(model_track, cases),
                    "product_all_on": _families(all_on, cases),
                    **{
                        f"{t.guard_off} off": _families(t, cases)
                        for t in product
                        if t.guard_off == "scope"
                    },
                },
                "wall_s": round(sum(t.wall_s for t in own), 2),
                "tokens": {
                    "model_track": _tokens(model_track) if model_track else 0,
                    "product_all_on": _tokens(all_on) if all_on else 0,
                    "all_runs": sum(_tokens(t) for t in own),
                },
                "requests": {
                    "model_track": _requests(model_track) if model_track else {"requests": 0},
                    "product_all_on": _requests(all_on) if all_on else {"requests": 0},
                },
                "steps": {
                    "model_track": _steps(model_track) if model_track else {},
                    "product_all_on": _steps(all_on) if all_on else {},
                },
                "model_track": asdict(score(model_track, core_ids)) if model_track else None,
                "product": asdict(base) if base else None,
                "product_model_view": (
                    asdict(score(all_on, core_ids, view="model")) if all_on else None
                ),
                "rescued": _rescued(all_on) if all_on else None,
                "product_mean_hops": _mean_hops(all_on) if all_on else None,
                "faults_injected": {
                    "model_track": _faults(model_track) if model_track else {},
                    "product_all_on": _faults(all_on) if all_on else {},
                },
                "product_mode": ("dry run" if dry_run else "ledger") if base else None,
                "ablation": ablation,
                "ship_gate": (
                    {
                        "core_pass_k": base.core_pass_k,
                        "core_mean": base.core_mean,
                        "threshold": SHIP_GATE,
                        "core": CORE_SIZE,
                        "passed": base.core_pass_k >= SHIP_GATE,
                    }
                    if base and kind == "model"
                    else None
                ),
            }
        )
    by_category = Counter(c.category for c in cases)
    by_split = Counter(c.split for c in cases)
    return {
        "k": k,
        "seeds": list(range(k)),
        "clock": clock,
        "mode": "dry run" if dry_run else "ledger",
        "wall_s": round(wall_s, 2),
        "ingest": {"screenshots": screenshots, "ms": round(ingest_ms, 1)},
        "cases": {
            "total": len(cases),
            "core": len(core_ids),
            "core_ids": [c.id for c in cases if c.core],
            "by_category": dict(by_category),
            "by_split": dict(by_split),
            "list": [
                {
                    "id": c.id,
                    "category": c.category,
                    "split": c.split,
                    "core": c.core,
                    "language": c.language,
                    "images": [i.file + (" (table crop)" if i.crop else "") for i in c.images],
                    "expect": c.expect.outcome,
                    "orders": len(c.expect.orders),
                    "store_changes": len(c.store),
                    "first_calls": [
                        "ask the user"
                        if f.ask
                        else f"{f.name}({', '.join(f.warehouse_ids or ())})".replace("()", "")
                        for f in first_calls(c)
                    ],
                }
                for c in cases
            ],
        },
        "guards": {"names": list(guard_names), "registered": list(registered)},
        "ship_gate_rule": (
            f"product track, all guards on: at least {SHIP_GATE} of the {CORE_SIZE} core "
            "cases pass in every seed"
        ),
        "fault_policy": dict(fault_policy) if fault_policy else None,
        "reader": dict(reader) if reader else None,
        "models": entries,
        "contributions": _contributions(entries),
    }


def _contributions(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each model's product track (all guards on) minus each baseline's: what the model adds
    over a policy that picks among the same step schema's alternatives without reading."""
    baselines = [e for e in entries if e["kind"] == "baseline" and e["product"]]
    out = []
    for entry in entries:
        if entry["kind"] != "model" or not entry["product"]:
            continue
        own, product = entry["product_model_view"], entry["product"]
        for base in baselines:
            out.append(
                {
                    "model": entry["model"],
                    "baseline": base["model"],
                    "product_mean": round(product["mean"] - base["product"]["mean"], 2),
                    "model_mean": round(own["mean"] - base["product_model_view"]["mean"], 2),
                    "pass_k": product["pass_k"] - base["product"]["pass_k"],
                    "cases": product["cases"],
                }
            )
    return out


def _contribution_rows(report: Mapping[str, Any]) -> list[list[str]]:
    return [
        [
            c["model"],
            c["baseline"],
            _delta(c["product_mean"]),
            _delta(c["model_mean"]),
            _delta(c["pass_k"]),
        ]
        for c in report.get("contributions") or ()
    ]


_CONTRIBUTION_HEADER = (
    "model",
    "minus baseline",
    "passes (mean), product",
    "passes (mean), model's own",
    "pass^k",
)


# ---- rendering


def _frac(value: float, total: int) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{text}/{total}"


def _delta(value: float) -> str:
    if value == 0:
        return "±0"
    text = f"{value:+.2f}".rstrip("0").rstrip(".")
    return text


def _summary_header(k: int) -> list[str]:
    """The summary's columns: both views of every row (what the user got; what the model did
    itself, a host-written answer counting as its failure) and the runs the host rescued."""
    return [
        "model",
        "track",
        f"passes (mean of {k})",
        "model's own (mean)",
        "rescued by the host (runs)",
        f"pass^{k}",
        f"model's own pass^{k}",
        f"core pass^{k}",
        "Δ vs all on",
    ]


def _rows(report: Mapping[str, Any]) -> list[list[str]]:
    k = report["k"]
    rows: list[list[str]] = []
    for entry in report["models"]:
        model = entry["model"]
        track = entry["model_track"]
        if track:
            rows.append(
                [
                    model,
                    "model track (first call)",
                    _frac(track["mean"], track["cases"]),
                    _frac(track["mean"], track["cases"]),
                    "0",
                    f"{track['pass_k']}/{track['cases']}",
                    f"{track['pass_k']}/{track['cases']}",
                    f"{track['core_pass_k']}/{track['core']}",
                    "",
                ]
            )
            model = ""
        base = entry["product"]
        if base:
            gate = entry["ship_gate"]
            own = entry.get("product_model_view") or base
            rescued = (entry.get("rescued") or {}).get("runs", 0)
            mode = "dry run" if entry["product_mode"] == "dry run" else "product"
            rows.append(
                [
                    model,
                    f"{mode}, all guards on",
                    _frac(base["mean"], base["cases"]),
                    _frac(own["mean"], own["cases"]),
                    str(rescued),
                    f"{base['pass_k']}/{base['cases']}",
                    f"{own['pass_k']}/{own['cases']}",
                    f"{base['core_pass_k']}/{base['core']}",
                    _gate_cell(gate, entry),
                ]
            )
            for row in entry["ablation"]:
                name = row["guard"] + ("" if row["registered"] else " (not registered)")
                lost = f", lost {len(row['lost'])}" if row["lost"] else ""
                rows.append(
                    [
                        "",
                        f"  {name} off",
                        _frac(row["mean"], row["cases"]),
                        _frac(row.get("model_mean", row["mean"]), row["cases"]),
                        str(row.get("rescued_runs", 0)),
                        f"{row['pass_k']}/{row['cases']}",
                        f"{row.get('model_pass_k', row['pass_k'])}/{row['cases']}",
                        f"{row['core_pass_k']}/{row['core']}",
                        f"{_delta(row['delta_mean'])} mean, "
                        f"{_delta(row['delta_pass_k'])} pass^{k}{lost}",
                    ]
                )
    return rows


def _gate_cell(gate: Mapping[str, Any] | None, entry: Mapping[str, Any]) -> str:
    if gate is None:
        return f"not gated ({entry.get('kind', 'model')})"
    return f"ship gate {'PASS' if gate['passed'] else 'FAIL'}"


_SPLIT_HEADER = (
    "model",
    "track",
    "split",
    "passes (mean)",
    "model's own (mean)",
    "rescued by the host (runs)",
    "pass^k",
    "wrong writes (runs)",
    "safe misses (runs)",
    "model reading",
)


def _split_rows(report: Mapping[str, Any]) -> list[list[str]]:
    """The tuning and the sealed set side by side, per model and track."""
    rows: list[list[str]] = []
    for entry in report["models"]:
        for key, label in (("model_track", "model track"), ("product_all_on", "product")):
            for split, figures in (entry.get("splits", {}).get(key) or {}).items():
                reading = ", ".join(f"{n} {e}" for e, n in sorted(figures["reading"].items()))
                rows.append(
                    [
                        entry["model"],
                        label,
                        split,
                        _frac(figures["mean"], figures["cases"]),
                        _frac(figures.get("model_mean", figures["mean"]), figures["cases"]),
                        str(figures.get("rescued", 0)),
                        f"{figures['pass_k']}/{figures['cases']}",
                        f"{figures['wrong_writes']}/{figures['runs']}"
                        + (f" ({', '.join(figures['wrong'])})" if figures["wrong"] else ""),
                        f"{figures['safe_misses']}/{figures['runs']}",
                        reading or "-",
                    ]
                )
    return rows


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(v)) for v in col) for col in zip(header, *rows, strict=False)]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(header, widths, strict=False)).rstrip()]
    lines += [
        "  ".join(str(v).ljust(w) for v, w in zip(r, widths, strict=False)).rstrip() for r in rows
    ]
    return lines


def render_summary(report: Mapping[str, Any]) -> str:
    k = report["k"]
    cases = report["cases"]
    header = _summary_header(k)
    lines = [
        f"stockshot eval: {cases['total']} cases ({cases['core']} core), k={k} seeds, "
        f"{report['mode']} scoring, {report['wall_s']:.0f} s",
        *_table(header, _rows(report)),
    ]
    contributions = _contribution_rows(report)
    if contributions:
        lines += ["", "each model minus the baselines that pick without reading (product track):"]
        lines += _table(_CONTRIBUTION_HEADER, contributions)
    split_rows = _split_rows(report)
    if split_rows:
        lines += ["", "tuning set (tests may quote it) and sealed set (nothing quotes it):"]
        lines += _table(_SPLIT_HEADER, split_rows)
    missing = [g for g in report["guards"]["names"] if g not in report["guards"]["registered"]]
    if missing:
        lines.append(f"guards not registered (their rows measure nothing): {', '.join(missing)}")
    for entry in report["models"]:
        idle = [
            r["guard"]
            for r in entry["ablation"]
            if r["registered"] and not r["lost"] and not r["gained"] and r["delta_mean"] == 0
        ]
        if idle:
            lines.append(f"{entry['model']}: removing {', '.join(idle)} changed nothing")
        costly = [r["guard"] for r in entry["ablation"] if r["delta_mean"] > 0]
        if costly:
            lines.append(f"{entry['model']}: removing {', '.join(costly)} raised the score")
    return "\n".join(lines)


def render_markdown(report: Mapping[str, Any]) -> str:
    k = report["k"]
    cases = report["cases"]
    out = [
        "# stockshot evaluation",
        "",
        f"{cases['total']} cases ({cases['core']} core), k = {k} seeds "
        f"({', '.join(map(str, report['seeds']))}), evaluation clock {report['clock']}, "
        f"{report['mode']} scoring on the product track; {report['ingest']['screenshots']} "
        f"screenshots ingested once ({report['ingest']['ms'] / 1000:.1f} s); "
        f"wall time {report['wall_s']:.1f} s.",
        "",
        "- **Model track**: one model request per case with the run's opening messages and "
        "tools; only the first tool call is scored.",
        "- **Product track**: the whole host loop with guards against the MCP servers on a "
        "scratch copy of the store; scored on the ledger afterwards (which orders exist, with "
        "what quantities), or in a dry run on the write calls it recorded.",
        f"- **pass^{k}**: cases that pass in all {k} seeds. **Ship gate**: "
        f"{report['ship_gate_rule']}.",
        "",
        "## Summary",
        "",
    ]
    out += _markdown_table(_summary_header(k), _rows(report))
    out += [
        "",
        "Two views of each row: **passes** is what the user got (an answer the host wrote "
        "counts); **model's own** counts a run whose answer the host wrote (a guard ended it, "
        "`false_claim` wrote the report in its place) as the model's failure; **rescued by the "
        "host** is the runs between the two. A run that ended stopped or failed (a model that "
        "cannot be reached) passes nothing. Rows marked replay or baseline are not models and "
        "are never held to the ship gate.",
    ]
    contributions = _contribution_rows(report)
    if contributions:
        out += [
            "",
            "## What the model adds over not reading",
            "",
            "Under schema steps the host offers a small model only fixed alternatives (ids read "
            "live, low, in scope; quantities from the task or the server's policy), so a "
            "policy that never reads the conversation may do as well. The baselines pick "
            "among the same alternatives without reading (`first-option`: always the first; "
            "`random-option`: a seeded draw; both answer `Done.`). The model's contribution is "
            "its product-track row minus theirs:",
            "",
        ]
        out += _markdown_table(list(_CONTRIBUTION_HEADER), contributions)
    split_rows = _split_rows(report)
    if split_rows:
        by_split = report["cases"].get("by_split", {})
        out += [
            "",
            "## Tuning set and sealed set",
            "",
            f"The tuning set ({by_split.get('tuning', 0)} cases, `pipeline/evals/cases/`) is "
            "what tests may quote and what the reader was built on; the sealed set "
            f"({by_split.get('sealed', 0)} cases, `pipeline/evals/sealed/`) was written "
            "before the reader that reads it, and no test or tuning loop quotes it. A wrong "
            "write is a failed run that wrote what the task did not ask (an unexpected order or "
            "cancel, another quantity); a safe miss is a failed run that only did less. "
            "Model reading: in how many runs the model's own reading of the task recovered what "
            "the reader alone left undone (`recovered`), was kept by the meet from widening "
            "the reader's reading (`blocked`), or could not be had (`failed`).",
            "",
        ]
        out += _markdown_table(list(_SPLIT_HEADER), split_rows)
    missing = [g for g in report["guards"]["names"] if g not in report["guards"]["registered"]]
    if missing:
        out += ["", f"Guards not registered when this ran: {', '.join(missing)}."]
    out += _reader_section(report.get("reader"))
    out += _families_section(report)
    sealed = frozenset(c["id"] for c in report["cases"]["list"] if c.get("split") == "sealed")
    for entry in report["models"]:
        out += _model_section(entry, k, sealed)
    out += _cases_section(report)
    policy = report.get("fault_policy")
    if policy:
        out += ["", "## Fault replay policy", ""]
        out += [f"- `{key}`: {value}" for key, value in policy.items()]
    return "\n".join(out) + "\n"


def _model_section(
    entry: Mapping[str, Any], k: int, sealed: frozenset[str] = frozenset()
) -> list[str]:
    out = ["", f"## {entry['model']}", ""]
    tokens = entry["tokens"]
    out.append(
        f"Wall time {entry['wall_s']:.1f} s; tokens as the model reports them (`rules` reports "
        "none; the fault replay estimates four characters a token): model track "
        f"{tokens['model_track']}, product track with all guards on {tokens['product_all_on']}, "
        f"all runs {tokens['all_runs']}."
    )
    gate = entry["ship_gate"]
    if gate:
        out.append(
            f"Ship gate: core {gate['core_pass_k']}/{gate['core']} in every seed "
            f"(mean {gate['core_mean']}), threshold {gate['threshold']}: "
            f"**{'PASS' if gate['passed'] else 'FAIL'}**."
        )
    for label, key in (
        ("model track", "model_track"),
        ("product track, all guards on", "product_all_on"),
    ):
        figures = entry.get("requests", {}).get(key, {})
        if figures.get("requests"):
            out.append(
                f"Per model request, {label} ({figures['requests']} requests; each run's model "
                f"time over its requests): median {figures['median_ms']:g} ms, p95 "
                f"{figures['p95_ms']:g} ms, max {figures['max_ms']:g} ms; median "
                f"{figures['median_tokens']} tokens a request (prompt and completion)."
            )
    if entry["product_mean_hops"] is not None:
        out.append(
            f"Mean hops per run, product track with all guards on: {entry['product_mean_hops']:g}."
        )
    for label, key in (
        ("model track", "model_track"),
        ("product track, all guards on", "product_all_on"),
    ):
        steps = entry.get("steps", {}).get(key) or {}
        if steps.get("native") or steps.get("schema"):
            out.append(
                f"Turns, {label}: {steps['native']} native, {steps['schema']} schema steps "
                f"({steps['schema_invalid']} replies did not meet the step schema, counted, not "
                f"hidden; {steps['runs_switched']} runs switched from native to schema); "
                f"{steps['prompt_tokens']} prompt tokens ({steps['cached_share']:.0%} cached by "
                f"the server where it says so), {steps['completion_tokens']} generated."
            )
    injected = entry["faults_injected"]
    for label, key in (
        ("model track", "model_track"),
        ("product track, all guards on", "product_all_on"),
    ):
        if injected[key]:
            shown = ", ".join(f"{name} {count}" for name, count in injected[key].items())
            out.append(f"What the fault replay did ({label}, all seeds): {shown}.")
    if entry["ablation"]:
        out += ["", "### What each guard earns", ""]
        header = [
            "guard",
            "registered",
            "acted in runs (all on)",
            f"passes off (mean of {k})",
            f"pass^{k} off",
            "Δ mean",
            f"Δ pass^{k}",
            "mean hops off",
            "runs rerun",
            "cases lost with it off",
            "cases gained with it off",
        ]
        rows = [
            [
                r["guard"],
                "yes" if r["registered"] else "no",
                str(r["fired_in_runs"]),
                _frac(r["mean"], r["cases"]),
                f"{r['pass_k']}/{r['cases']}",
                _delta(r["delta_mean"]),
                _delta(r["delta_pass_k"]),
                f"{r['mean_hops']:g}",
                f"{r['reran']}/{r['runs']}",
                ", ".join(r["lost"]) or "none",
                ", ".join(r["gained"]) or "none",
            ]
            for r in entry["ablation"]
        ]
        out += _markdown_table(header, rows)
        if any(r["reran"] < r["runs"] for r in entry["ablation"]):
            out += [
                "",
                "Runs not rerun: the model is deterministic (the same conversation gets the same "
                "reply) and the guard never acted in that case's all-on run, so with it off the "
                "run would repeat the all-on run exactly; its all-on result is counted.",
            ]
        idle = [
            r["guard"]
            for r in entry["ablation"]
            if r["delta_mean"] == 0 and not r["lost"] and not r["gained"]
        ]
        if idle:
            out += [
                "",
                f"Removing {', '.join(idle)} changed no case's outcome for this model: on these "
                "cases they earn nothing.",
            ]
        hops = entry["product_mean_hops"]
        for r in entry["ablation"]:
            if r["delta_mean"] > 0:
                out += [
                    "",
                    f"Removing {r['guard']} raised the score ({_delta(r['delta_mean'])} mean, "
                    f"{_delta(r['delta_pass_k'])} pass^{k}): runs it stopped would have "
                    f"recovered later. Mean hops {r['mean_hops']:g} with it off, {hops:g} "
                    "with all guards on.",
                ]
    wrong = {
        case
        for figures in (entry.get("splits", {}).get("product_all_on") or {}).values()
        for case in figures["wrong"]
    }
    for label, key in (("Model track", "model_track"), ("Product track, all guards on", "product")):
        track = entry[key]
        if track and track["failures"]:
            out += ["", f"### {label}: failures", ""]
            if any(case in sealed for case in track["failures"]):
                out += [
                    "Sealed cases are listed without their reasons (which quote the task): "
                    "only whether the run wrote what the task did not ask.",
                    "",
                ]
            out += _markdown_table(
                ["case", f"seeds passed of {k}", "first failure"],
                [
                    [
                        case,
                        str(track["passes"][case]),
                        (
                            "sealed: " + ("wrong write" if case in wrong else "safe miss")
                            if case in sealed
                            else reason.replace("|", "\\|")
                        ),
                    ]
                    for case, reason in track["failures"].items()
                ],
            )
    return out


def _reader_section(reader: Mapping[str, Any] | None) -> list[str]:
    """The task reader alone: tuning and sealed requests, and the metamorphic rewrites."""
    if not reader:
        return []
    out = ["", "## The task reader alone", ""]
    out.append(
        "Requests read by `pipeline.contract.read_task` with the store's warehouse names, "
        "scored against what they mean (written by hand): `right` (what may be written is "
        "exactly what the request means), `safe miss` (less, or nothing), `wider` (a write "
        "the request does not mean: must be 0). The tuning requests "
        "(`pipeline/evals/phrasings.json`) are what the reader was built on; the sealed ones "
        "(`pipeline/evals/sealed/readings.json`) were written before it by another hand and "
        "are reported only as counts."
    )
    out.append("")
    rows = []
    for key, label in (("tuning_requests", "tuning"), ("sealed_requests", "sealed")):
        figures = reader[key]
        counts = figures["counts"]
        by_lang = "; ".join(
            f"{lang} {c.get('right', 0)}/{sum(c.values())}"
            for lang, c in figures["by_lang"].items()
        )
        rows.append(
            [
                label,
                str(figures["total"]),
                str(counts["right"]),
                str(counts["safe miss"]),
                str(counts["wider"])
                + (f" ({', '.join(figures['wider'])})" if figures["wider"] else ""),
                by_lang,
            ]
        )
    out += _markdown_table(
        ["requests", "total", "right", "safe miss", "wider", "right by language"], rows
    )
    kinds = reader["sealed_requests"]["by_kind"]
    if kinds:
        out += ["", "Sealed requests by the kind of phrasing (right / safe miss / wider):", ""]
        out += _markdown_table(
            ["kind", "right", "safe miss", "wider"],
            [
                [k, str(v.get("right", 0)), str(v.get("safe miss", 0)), str(v.get("wider", 0))]
                for k, v in kinds.items()
            ],
        )
    out += [
        "",
        f"Metamorphic rewrites of the {reader['rewrite_bases']} tuning tasks that allow writes "
        "(`pipeline.evals.rewrites`: each rewrite's meaning follows from the original's "
        "reading; `wider than the original` must be 0 for every kind):",
        "",
    ]
    out += _markdown_table(
        ["rewrite", "right", "safe miss", "wider", "wider than the original"],
        [
            [k, *(str(v[c]) for c in ("right", "safe miss", "wider", "wider than the original"))]
            for k, v in reader["rewrites"].items()
        ],
    )
    return out


def _families_section(report: Mapping[str, Any]) -> list[str]:
    """Per case family and model: the model track, the product track with all guards on, and
    with `scope` off where that ran."""
    k = report["k"]
    out = ["", "## Per family", ""]
    out.append(
        f"Passes (mean of {k} seeds) / cases, and pass^{k} in brackets; `own`: the model's own "
        "passes where the host wrote some answers. The task families "
        "(report, scope, one_sku, exclusion, quantity, cancel, unsupported, nothing_low) test "
        "whether the request is understood; each has English and Chinese tasks."
    )
    out.append("")
    header = ["family", "cases"]
    columns: list[tuple[str, str]] = []
    for entry in report["models"]:
        for key, label in (
            ("model_track", "model track"),
            ("product_all_on", "product, all on"),
            ("scope off", "product, scope off"),
        ):
            if entry["families"].get(key):
                columns.append((entry["model"], key))
                header.append(f"{entry['model']}: {label}")
    order = list(report["cases"]["by_category"])
    rows = []
    for family in order:
        row = [family, str(report["cases"]["by_category"][family])]
        for model, key in columns:
            entry = next(e for e in report["models"] if e["model"] == model)
            cell = entry["families"][key].get(family)
            own = cell.get("model_mean", cell["mean"]) if cell else 0.0
            row.append(
                f"{_frac(cell['mean'], int(cell['cases']))} ({int(cell['pass_k'])})"
                + (f", own {own:g}" if own != cell["mean"] else "")
                if cell
                else ""
            )
        rows.append(row)
    out += _markdown_table(header, rows)
    return out


def _cases_section(report: Mapping[str, Any]) -> list[str]:
    out = ["", "## Cases", ""]
    rows = [
        [
            c["id"],
            c["category"],
            c.get("split", "tuning"),
            "yes" if c["core"] else "",
            c["language"],
            ", ".join(c["images"]),
            c["expect"] + (f" ({c['orders']})" if c["orders"] else ""),
        ]
        for c in report["cases"]["list"]
    ]
    out += _markdown_table(
        ["case", "category", "split", "core", "task", "screenshots", "expect"], rows
    )
    return out


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    return lines


def write_reports(report: Mapping[str, Any], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / "eval.json", out / "eval.md"
    json_path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(render_markdown(report), encoding="utf-8")
    return json_path, md_path
