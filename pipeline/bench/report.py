"""The bench document as `bench.json` and as the side-by-side Markdown report."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["SECTIONS", "render_markdown", "summary_table", "write_reports"]

from pipeline.bench.document import MODES, BenchDoc
from pipeline.bench.report_accuracy import (
    real_products_section,
    real_screens_section,
    tables_section,
    texts_section,
)
from pipeline.bench.report_cells import md_table, value_cell, verdict_cell
from pipeline.bench.report_speed import (
    batch_section,
    cache_section,
    cold_section,
    host_section,
    ingest_section,
    memory_section,
    tokens_section,
)

SECTIONS = (
    "## Targets",
    "## Ingest per image",
    "## Tables side by side",
    "## Real products' screens",
    "## Text by content",
    "## Cold process start vs warm",
    "## Cache",
    "## Tokens",
    "## Batch",
    "## Host",
    "## Peak memory",
    "## Profiles and next steps",
    "## Method",
)


def summary_table(doc: BenchDoc) -> list[str]:
    """The targets table: what a reader needs first."""
    rows = [
        [
            t["statement"],
            value_cell(t),
            f"{t['op']} {t['threshold']:g} {t['unit']}".replace(" x", "x"),
            verdict_cell(t),
            t["margin"],
            t["detail"],
        ]
        for t in doc["targets"]
    ]
    return md_table(["target", "measured", "threshold", "verdict", "margin", "detail"], rows)


def _profiles(doc: BenchDoc) -> list[str]:
    out = ["## Profiles and next steps", ""]
    if not doc["profiles"]:
        return [*out, "Every measured target was met; nothing to profile."]
    for item in doc["profiles"]:
        out += [f"### {item['target']}", "", f"Finding: {item['finding']}", ""]
        profile = item["profile"]
        if profile:
            if profile["note"]:
                out += [f"Profile: {profile['note']}", ""]
            if profile["top"]:
                out += [
                    f"Profile of {profile['subject']} ({profile['seconds']:.2f} s), own time:",
                    "",
                ]
                out += md_table(
                    ["function", "own s", "share"],
                    [
                        [f"`{where}`", f"{secs:.3f}", f"{secs / profile['seconds']:.0%}"]
                        for where, secs in profile["top"]
                    ],
                )
                out += [
                    "",
                    "<details><summary>call tree</summary>",
                    "",
                    "```",
                    profile["tree"],
                    "```",
                    "",
                    "</details>",
                    "",
                ]
        out += [f"Next step: {item['next_step']}", ""]
    return out


def _method(doc: BenchDoc) -> list[str]:
    return [
        "## Method",
        "",
        "- Every figure comes from this one run: variants run in rounds on the same images, the "
        "variant order rotating each round, after one untimed warm-up per variant.",
        "- Times are medians with (min–max) over the rounds. A ratio is the median of one side "
        "over the median of the other; in brackets the lowest and highest ratio of runs taken in "
        "the same round.",
        "- Cells: the header and every body cell compared with the ground truth, exact string "
        "match.",
        "- The machine is shared: the load average at the start and end is printed at the top; "
        "compare ratios, which move much less than absolute times.",
    ]


def render_markdown(doc: BenchDoc) -> str:
    meta = doc["meta"]
    load0 = ", ".join(f"{x:.2f}" for x in meta["load_avg_start"])
    load1 = ", ".join(f"{x:.2f}" for x in meta.get("load_avg_end", meta["load_avg_start"]))
    versions = ", ".join(f"{k} {v}" for k, v in meta["versions"].items())
    rounds = meta["rounds"]
    lines = [
        "# stockshot bench",
        "",
        f"`{meta['command']}` at {meta['started_at']}, {meta.get('duration_s', 0):.0f} s; "
        f"{meta['cpu_count']} cores, {meta['platform']}, Python {meta['python']}; {versions}.",
        "",
        f"Load average (1, 5, 15 min): **{load0}** at the start, **{load1}** at the end "
        f"(other work shares these cores). {len(meta['images'])} images. A {meta['mode']} run: "
        f"{MODES[meta['mode']]}. Timed rounds after warm-up: every image "
        f"{rounds['images']}, headline image {rounds['headline']}, cache and in-memory host "
        f"{rounds['cheap']}, cold starts {rounds['cold']}, stdio runs {rounds['stdio']}, batch "
        f"{rounds['batch']}, whole commands {rounds['commands']} turns.",
        "",
        "## Targets",
        "",
    ]
    for section in (
        summary_table,
        ingest_section,
        tables_section,
        real_screens_section,
        real_products_section,
        texts_section,
        cold_section,
        cache_section,
        tokens_section,
        batch_section,
        host_section,
        memory_section,
        _profiles,
        _method,
    ):
        lines += [*section(doc), ""]
    return "\n".join(lines)


def write_reports(doc: BenchDoc, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / "bench.md", out / "bench.json"
    md.write_text(render_markdown(doc), encoding="utf-8")
    js.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return md, js
