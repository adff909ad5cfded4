"""Scores from runs, and the report they make (`eval.json`, `eval.md`; the rendering is
`pipeline.evals.markdown` and `pipeline.evals.summary`, the tallies `pipeline.evals.tallies`).

A score counts passes per seed (its mean is the headline) and pass^k: the cases that pass in
every one of the k seeds. The ship gate is the core subset on the product track with all guards
on: at least 12 of 14 core cases must pass in every seed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pipeline.evals.cases import CORE_SIZE, Case, first_calls
from pipeline.evals.document import (
    Ablation,
    CaseLine,
    Contribution,
    FaultPolicy,
    ModelEntry,
    ReaderDoc,
    Report,
    Score,
)
from pipeline.evals.markdown import render_markdown
from pipeline.evals.results import CaseRun, TrackRuns
from pipeline.evals.tallies import (
    families_of,
    faults_of,
    fired_of,
    mean_hops_of,
    requests_of,
    rescued_of,
    splits_of,
    steps_of,
    tokens_of,
)

__all__ = [
    "SHIP_GATE",
    "Score",
    "build_report",
    "score",
    "write_reports",
]


SHIP_GATE = 12


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
    return {
        "cases": len(track.runs),
        "core": sum(c in core_ids for c in track.runs),
        "k": len(seeds),
        "per_seed": per_seed,
        "core_per_seed": core_per_seed,
        "mean": round(sum(per_seed) / k, 2),
        "core_mean": round(sum(core_per_seed) / k, 2),
        "pass_k": pass_k,
        "core_pass_k": core_pass_k,
        "failures": failures,
        "passes": passes,
    }


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
    fault_policy: FaultPolicy | None,
    reader: ReaderDoc | None = None,
) -> Report:
    core_ids = {c.id for c in cases if c.core}
    models: dict[str, list[TrackRuns]] = {}
    for track in tracks:
        models.setdefault(track.model, []).append(track)
    entries: list[ModelEntry] = []
    for model, own in models.items():
        kind = own[0].kind
        model_track = next((t for t in own if t.track == "model"), None)
        product = [t for t in own if t.track != "model"]
        all_on = next((t for t in product if t.guard_off is None), None)
        base = score(all_on, core_ids) if all_on else None
        fired = fired_of(all_on) if all_on else {}
        ablation: list[Ablation] = []
        for track in product:
            if track.guard_off is None or base is None:
                continue
            off = score(track, core_ids)
            off_model = score(track, core_ids, view="model")
            passes, before = off["passes"], base["passes"]
            lost = sorted(c for c in passes if before.get(c) == k and passes[c] < k)
            gained = sorted(c for c in passes if before.get(c, 0) < k and passes[c] == k)
            ablation.append(
                {
                    "guard": track.guard_off,
                    "registered": track.guard_off in registered,
                    "fired_in_runs": fired.get(track.guard_off, 0),
                    **off,
                    "model_mean": off_model["mean"],
                    "model_pass_k": off_model["pass_k"],
                    "rescued_runs": rescued_of(track)["runs"],
                    "delta_mean": round(off["mean"] - base["mean"], 2),
                    "delta_pass_k": off["pass_k"] - base["pass_k"],
                    "delta_core_pass_k": off["core_pass_k"] - base["core_pass_k"],
                    "lost": lost,
                    "gained": gained,
                    "mean_hops": mean_hops_of(track),
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
                    "model_track": splits_of(model_track, cases),
                    "product_all_on": splits_of(all_on, cases),
                },
                "families": {
                    "model_track": families_of(model_track, cases),
                    "product_all_on": families_of(all_on, cases),
                    **{
                        f"{t.guard_off} off": families_of(t, cases)
                        for t in product
                        if t.guard_off == "scope"
                    },
                },
                "wall_s": round(sum(t.wall_s for t in own), 2),
                "tokens": {
                    "model_track": tokens_of(model_track) if model_track else 0,
                    "product_all_on": tokens_of(all_on) if all_on else 0,
                    "all_runs": sum(tokens_of(t) for t in own),
                },
                "requests": {
                    "model_track": requests_of(model_track) if model_track else {"requests": 0},
                    "product_all_on": requests_of(all_on) if all_on else {"requests": 0},
                },
                "steps": {
                    "model_track": steps_of(model_track) if model_track else {},
                    "product_all_on": steps_of(all_on) if all_on else {},
                },
                "model_track": score(model_track, core_ids) if model_track else None,
                "product": base,
                "product_model_view": (score(all_on, core_ids, view="model") if all_on else None),
                "rescued": rescued_of(all_on) if all_on else None,
                "product_mean_hops": mean_hops_of(all_on) if all_on else None,
                "faults_injected": {
                    "model_track": faults_of(model_track) if model_track else {},
                    "product_all_on": faults_of(all_on) if all_on else {},
                },
                "product_mode": ("dry run" if dry_run else "ledger") if base else None,
                "ablation": ablation,
                "ship_gate": (
                    {
                        "core_pass_k": base["core_pass_k"],
                        "core_mean": base["core_mean"],
                        "threshold": SHIP_GATE,
                        "core": CORE_SIZE,
                        "passed": base["core_pass_k"] >= SHIP_GATE,
                    }
                    if base and kind == "model" and core_ids
                    else None
                ),
            }
        )
    by_category: Counter[str] = Counter(c.category for c in cases)
    by_split: Counter[str] = Counter(c.split for c in cases)
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
            "list": [_case_line(c) for c in cases],
        },
        "guards": {"names": list(guard_names), "registered": list(registered)},
        "ship_gate_rule": (
            f"product track, all guards on: at least {SHIP_GATE} of the {CORE_SIZE} core "
            "cases pass in every seed"
        ),
        "fault_policy": fault_policy,
        "reader": reader,
        "models": entries,
        "contributions": _contributions(entries),
    }


def _case_line(c: Case) -> CaseLine:
    return {
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


def _contributions(entries: Sequence[ModelEntry]) -> list[Contribution]:
    """Each model's product track (all guards on) minus each baseline's: what the model adds
    over a policy that picks among the same step schema's alternatives without reading."""
    baselines = [
        (e["model"], product, own)
        for e in entries
        if e["kind"] == "baseline"
        and (product := e["product"])
        and (own := e["product_model_view"])
    ]
    out: list[Contribution] = []
    for entry in entries:
        product, own = entry["product"], entry["product_model_view"]
        if entry["kind"] != "model" or not product or not own:
            continue
        for name, base, base_own in baselines:
            out.append(
                {
                    "model": entry["model"],
                    "baseline": name,
                    "product_mean": round(product["mean"] - base["mean"], 2),
                    "model_mean": round(own["mean"] - base_own["mean"], 2),
                    "pass_k": product["pass_k"] - base["pass_k"],
                    "cases": product["cases"],
                }
            )
    return out


def write_reports(report: Report, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / "eval.json", out / "eval.md"
    json_path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(render_markdown(report), encoding="utf-8")
    return json_path, md_path
