"""The rows both renderings of an eval report share (the summary table, the guards'
contributions, the splits) and the one-screen text summary."""

from __future__ import annotations

from pipeline.evals.document import Gate, ModelEntry, Report
from servers.terminal import table_lines

__all__ = [
    "CONTRIBUTION_HEADER",
    "SPLIT_HEADER",
    "contribution_rows",
    "delta",
    "frac",
    "render_summary",
    "rows_of",
    "split_rows_of",
    "summary_header",
]


def contribution_rows(report: Report) -> list[list[str]]:
    return [
        [
            c["model"],
            c["baseline"],
            delta(c["product_mean"]),
            delta(c["model_mean"]),
            delta(c["pass_k"]),
        ]
        for c in report.get("contributions") or ()
    ]


CONTRIBUTION_HEADER = (
    "model",
    "minus baseline",
    "passes (mean), product",
    "passes (mean), model's own",
    "pass^k",
)


# ---- rendering


def frac(value: float, total: int) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{text}/{total}"


def delta(value: float) -> str:
    if value == 0:
        return "±0"
    text = f"{value:+.2f}".rstrip("0").rstrip(".")
    return text


def summary_header(k: int) -> list[str]:
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


def rows_of(report: Report) -> list[list[str]]:
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
                    frac(track["mean"], track["cases"]),
                    frac(track["mean"], track["cases"]),
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
            own = entry["product_model_view"] or base
            rescued = entry["rescued"]["runs"] if entry["rescued"] else 0
            mode = "dry run" if entry["product_mode"] == "dry run" else "product"
            rows.append(
                [
                    model,
                    f"{mode}, all guards on",
                    frac(base["mean"], base["cases"]),
                    frac(own["mean"], own["cases"]),
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
                        frac(row["mean"], row["cases"]),
                        frac(row.get("model_mean", row["mean"]), row["cases"]),
                        str(row.get("rescued_runs", 0)),
                        f"{row['pass_k']}/{row['cases']}",
                        f"{row.get('model_pass_k', row['pass_k'])}/{row['cases']}",
                        f"{row['core_pass_k']}/{row['core']}",
                        f"{delta(row['delta_mean'])} mean, "
                        f"{delta(row['delta_pass_k'])} pass^{k}{lost}",
                    ]
                )
    return rows


def _gate_cell(gate: Gate | None, entry: ModelEntry) -> str:
    if gate is None:
        kind = entry.get("kind", "model")
        return f"not gated ({'no core cases' if kind == 'model' else kind})"
    return f"ship gate {'PASS' if gate['passed'] else 'FAIL'}"


SPLIT_HEADER = (
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


def split_rows_of(report: Report) -> list[list[str]]:
    """The tuning and the sealed set side by side, per model and track."""
    rows: list[list[str]] = []
    for entry in report["models"]:
        for label, splits in (
            ("model track", entry["splits"]["model_track"]),
            ("product", entry["splits"]["product_all_on"]),
        ):
            for split, figures in splits.items():
                reading = ", ".join(f"{n} {e}" for e, n in sorted(figures["reading"].items()))
                rows.append(
                    [
                        entry["model"],
                        label,
                        split,
                        frac(figures["mean"], figures["cases"]),
                        frac(figures.get("model_mean", figures["mean"]), figures["cases"]),
                        str(figures.get("rescued", 0)),
                        f"{figures['pass_k']}/{figures['cases']}",
                        f"{figures['wrong_writes']}/{figures['runs']}"
                        + (f" ({', '.join(figures['wrong'])})" if figures["wrong"] else ""),
                        f"{figures['safe_misses']}/{figures['runs']}",
                        reading or "-",
                    ]
                )
    return rows


def render_summary(report: Report) -> str:
    k = report["k"]
    cases = report["cases"]
    header = summary_header(k)
    lines = [
        f"stockshot eval: {cases['total']} cases ({cases['core']} core), k={k} seeds, "
        f"{report['mode']} scoring, {report['wall_s']:.0f} s",
        *table_lines(header, rows_of(report)),
    ]
    contributions = contribution_rows(report)
    if contributions:
        lines += ["", "each model minus the baselines that pick without reading (product track):"]
        lines += table_lines(CONTRIBUTION_HEADER, contributions)
    split_rows = split_rows_of(report)
    if split_rows:
        lines += ["", "tuning set (tests may quote it) and sealed set (nothing quotes it):"]
        lines += table_lines(SPLIT_HEADER, split_rows)
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
