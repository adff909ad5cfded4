"""`eval.md`: the report as Markdown, with a section per model (ablations, guard events,
what each guard contributed), the task reader's figures, the case families and the cases."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.evals.document import TRACKS, ModelEntry, ModelReadings, ReaderDoc, Report
from pipeline.evals.summary import (
    CONTRIBUTION_HEADER,
    SPLIT_HEADER,
    contribution_rows,
    delta,
    frac,
    rows_of,
    split_rows_of,
    summary_header,
)

__all__ = ["render_markdown", "render_readings"]


def render_markdown(report: Report) -> str:
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
    out += _markdown_table(summary_header(k), rows_of(report))
    out += [
        "",
        "Two views of each row: **passes** is what the user got (an answer the host wrote "
        "counts); **model's own** counts a run whose answer the host wrote (a guard ended it, "
        "`false_claim` wrote the report in its place) as the model's failure; **rescued by the "
        "host** is the runs between the two. A run that ended stopped or failed (a model that "
        "cannot be reached) passes nothing. Rows marked replay or baseline are not models and "
        "are never held to the ship gate.",
    ]
    contributions = contribution_rows(report)
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
        out += _markdown_table(list(CONTRIBUTION_HEADER), contributions)
    split_rows = split_rows_of(report)
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
            + (
                f"The smoke set ({by_split['smoke']} cases, `pipeline/evals/smoke/`) is the "
                "real-model check: hand-written tasks on screenshots no core case uses. "
                if by_split.get("smoke")
                else ""
            )
            + "Model reading: in how many runs the model's own reading of the task recovered what "
            "the reader alone left undone (`recovered`), was kept by the meet from widening "
            "the reader's reading (`blocked`), read a request the reader fully understood "
            "otherwise and was overruled by it (`stood`), or could not be had (`failed`).",
            "",
        ]
        out += _markdown_table(list(SPLIT_HEADER), split_rows)
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


def _model_section(entry: ModelEntry, k: int, sealed: frozenset[str] = frozenset()) -> list[str]:
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
    for key, label in TRACKS:
        figures = entry["requests"][key]
        if figures["requests"]:
            out.append(
                f"Per model request, {label} ({figures['requests']} requests; each run's model "
                f"time over its requests): median {figures.get('median_ms', 0):g} ms, p95 "
                f"{figures.get('p95_ms', 0):g} ms, max {figures.get('max_ms', 0):g} ms; median "
                f"{figures.get('median_tokens', 0)} tokens a request (prompt and completion)."
            )
    if entry["product_mean_hops"] is not None:
        out.append(
            f"Mean hops per run, product track with all guards on: {entry['product_mean_hops']:g}."
        )
    for key, label in TRACKS:
        steps = entry["steps"][key]
        if steps.get("native") or steps.get("schema"):
            out.append(
                f"Turns, {label}: {steps['native']} native, {steps['schema']} schema steps "
                f"({steps['schema_invalid']} replies did not meet the step schema, counted, not "
                f"hidden; {steps['runs_switched']} runs switched from native to schema); "
                f"{steps['prompt_tokens']} prompt tokens ({steps['cached_share']:.0%} cached by "
                f"the server where it says so), {steps['completion_tokens']} generated."
            )
    injected = entry["faults_injected"]
    for key, label in TRACKS:
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
                frac(r["mean"], r["cases"]),
                f"{r['pass_k']}/{r['cases']}",
                delta(r["delta_mean"]),
                delta(r["delta_pass_k"]),
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
                    f"Removing {r['guard']} raised the score ({delta(r['delta_mean'])} mean, "
                    f"{delta(r['delta_pass_k'])} pass^{k}): runs it stopped would have "
                    f"recovered later. Mean hops {r['mean_hops']:g} with it off, {hops:g} "
                    "with all guards on.",
                ]
    wrong = {
        case for figures in entry["splits"]["product_all_on"].values() for case in figures["wrong"]
    }
    for label, track in (
        ("Model track", entry["model_track"]),
        ("Product track, all guards on", entry["product"]),
    ):
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


def _reader_section(reader: ReaderDoc | None) -> list[str]:
    """The task reader alone: tuning and sealed requests, and the metamorphic rewrites."""
    if not reader:
        return []
    out = ["", "## The task reader alone", ""]
    out.append(
        "Requests read by `pipeline.contract.read_task` with the store's warehouse names, "
        "scored against what they mean (written by hand): `right` (what may be written is "
        "exactly what the request means), `safe miss` (less, or nothing), `wider` (a write "
        "the request does not mean: must be 0). The tuning requests "
        "(`pipeline/evals/phrasings.json`) are what the reader was built on; the sealed sets "
        "(`pipeline/evals/sealed/readings*.json`, each by its file's name) were written before "
        "it by another hand and are reported only as counts."
    )
    out.append("")
    rows = []
    sets = [("tuning", reader["tuning_requests"])]
    sets += [(f"sealed: {stem}", figures) for stem, figures in reader["sealed_requests"].items()]
    for label, figures in sets:
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
    for stem, figures in reader["sealed_requests"].items():
        kinds = figures["by_kind"]
        if not kinds:
            continue
        out += ["", f"Sealed requests ({stem}) by the kind of phrasing:", ""]
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


def _families_section(report: Report) -> list[str]:
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
                f"{frac(cell['mean'], int(cell['cases']))} ({int(cell['pass_k'])})"
                + (f", own {own:g}" if own != cell["mean"] else "")
                if cell
                else ""
            )
        rows.append(row)
    out += _markdown_table(header, rows)
    return out


def _cases_section(report: Report) -> list[str]:
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


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {verdict}" for verdict, n in counts.items() if n) or "none"


def render_readings(judged: dict[str, dict[str, ModelReadings]]) -> str:
    """`eval-readings.md`: each model's kept readings judged with today's reader, a table a
    set of requests (ids only: a sealed set's words stay out)."""
    out: list[str] = []
    for model, sets in judged.items():
        header = ["set", "requests", "read by the model", "reader alone", "model alone",
                  "final (run acts on)", "right readings lost"]  # fmt: skip
        rows = [
            [
                name,
                str(f["requests"]),
                str(f["requests"] - len(f["unread"])),
                _counts(f["counts"]["reader"]),
                _counts(f["counts"]["model"]),
                _counts(f["counts"]["final"]),
                f"**{len(f['lost'])}**" + (f" ({', '.join(f['lost'])})" if f["lost"] else ""),
            ]
            for name, f in sets.items()
        ]
        out += [f"### {model}", "", *_markdown_table(header, rows), ""]
        header = ["set", "not read in full", "the model's suggestion", "what the run does"]
        rows = [
            [
                name,
                str(f["not_full"]),
                _counts(f["counts"]["suggested"]),
                _counts(f["counts"]["asked"]),
            ]
            for name, f in sets.items()
        ]
        out += [
            "Requests the reader did not account for in full (and no words that defer): the "
            "model's reading is the suggestion a person may confirm. What the run does: *acts* "
            "on the final contract when it writes (the meet of the reader's fallback and the "
            "model's reading, never wider than the fallback), else *asks* a person about a "
            "reading (the model's, or what the reader's understood clauses allow; a yes runs "
            "exactly it, nothing runs without one), else only *reports*. Each judged against "
            "the request's meaning.",
            "",
            *_markdown_table(header, rows),
            "",
        ]
    return "\n".join(out)
