"""The bench document as `bench.json` and as the side-by-side Markdown report."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.bench.peers import HELD_OUT, breakdown

__all__ = ["SECTIONS", "render_markdown", "summary_table", "write_reports"]

Doc = dict[str, Any]
SECTIONS = (
    "## Targets",
    "## Ingest per image",
    "## Tables side by side",
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


def _s(summary: Mapping[str, Any] | None, unit: str = "ms", digits: int = 0) -> str:
    if not summary or not summary.get("n"):
        return "–"
    median, low, high = summary["median"], summary["min"], summary["max"]
    if summary["n"] == 1:
        return f"{median:.{digits}f} {unit}"
    return f"{median:.{digits}f} {unit} ({low:.{digits}f}–{high:.{digits}f})"


def _r(found: Mapping[str, Any] | None, digits: int = 1) -> str:
    if not found:
        return "–"
    value, low, high = found["value"], found["min"], found["max"]
    if abs(low - high) < 10 ** (-digits):
        return f"**{value:.{digits}f}x**"
    return f"**{value:.{digits}f}x** ({low:.{digits}f}–{high:.{digits}f})"


def _acc(pair: Sequence[int] | None) -> str:
    if not pair or not pair[1]:
        return "–"
    return f"{pair[0]}/{pair[1]} ({pair[0] / pair[1]:.1%})"


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


def _verdict(target: Mapping[str, Any]) -> str:
    if target["met"] is None:
        return "not measured"
    return "met" if target["met"] else "**MISSED**"


def _value(target: Mapping[str, Any]) -> str:
    value = target["value"]
    if value is None:
        return "–"
    unit = target["unit"]
    digits = 2 if unit in ("x", "ms") and value < 10 else 1 if unit != "ms" else 0
    return f"{value:.{digits}f} {unit}".replace(" x", "x")


def summary_table(doc: Doc) -> list[str]:
    """The targets table: what a reader needs first."""
    rows = [
        [
            t["statement"],
            _value(t),
            f"{t['op']} {t['threshold']:g} {t['unit']}".replace(" x", "x"),
            _verdict(t),
            t["margin"],
            t["detail"],
        ]
        for t in doc["targets"]
    ]
    return _table(["target", "measured", "threshold", "verdict", "margin", "detail"], rows)


def _ingest(doc: Doc) -> list[str]:
    ingest = doc["ingest"]
    labels = {v["key"]: v["label"] for v in ingest["variants"]}
    head = next(i for i in ingest["images"] if i["headline"])
    out = [
        "## Ingest per image",
        "",
        f"### {head['name']} ({head['size']}), {ingest['headline_rounds']} rounds after a warm-up",
        "",
    ]
    rows = []
    for key, label in labels.items():
        if key not in head["summary"]:
            continue
        versus = "1x (baseline)" if key == ingest["baseline"] else _r(head["vs_baseline"].get(key))
        rows.append([label, _s(head["summary"][key]), versus, _acc(head["accuracy"].get(key))])
    out += _table(
        ["variant", "median (min–max)", "faster than baseline", "cells exactly right"], rows
    )
    everywhere = [v["key"] for v in ingest["variants"] if not v["headline_only"]]
    out += ["", f"### Every image, {ingest['rounds']} rounds (headline: see above)", ""]
    header = ["image", "size"]
    for key in everywhere:
        header.append(key)
    header += [f"{key} vs baseline" for key in everywhere if key != ingest["baseline"]]
    header += [f"cells {key}" for key in everywhere]
    rows = []
    for image in ingest["images"]:
        row: list[object] = [image["name"], image["size"]]
        row += [_s(image["summary"].get(k)) for k in everywhere]
        row += [_r(image["vs_baseline"].get(k)) for k in everywhere if k != ingest["baseline"]]
        row += [_acc(image["accuracy"].get(k)) for k in everywhere]
        rows.append(row)
    out += _table(header, rows)
    overall = ingest["accuracy_overall"]
    if overall:
        out += ["", "Cells exactly right over every image with ground truth: "]
        out[-1] += "; ".join(f"{k} {_acc(v)}" for k, v in overall.items()) + "."
    for engine, reason in ingest["skipped_engines"].items():
        out.append(f"\n- engine `{engine}` not measured: {reason}")
    for key, error in ingest["errors"].items():
        out.append(f"\n- `{key}` failed: {error}")
    out += [
        "",
        "The baseline is what a user would write first; it is timed on the image file as is:",
        "",
        "```python",
        ingest["baseline_code"],
        "```",
        "",
        "Its cells are scored after rebuilding a grid from its line boxes with "
        "`pipeline.table.layout.find_table`, the way the pipeline does for detected text.",
    ]
    return out


def _cold(doc: Doc) -> list[str]:
    cold = doc["cold_start"]
    out = ["## Cold process start vs warm", ""]
    out += _table(
        ["", "median (min–max)"],
        [
            ["cold: a new process, one ingest", _s(cold["summary"]["cold"])],
            ["warm: the same ingest in a running process", _s(cold["summary"]["warm"])],
            ["cold / warm", _r(cold["cold_vs_warm"])],
        ],
    )
    out += ["", f"Cold command: `{cold['command']}` ({cold['image']})."]
    inside = [x for x in cold["ingest_ms_inside_cold"] if x is not None]
    if inside:
        out[-1] += f" The ingest itself took {', '.join(f'{x:.0f}' for x in inside)} ms inside it."
    for error in cold["errors"]:
        out.append(f"\n- a cold run failed: {error}")
    return out


def _cache(doc: Doc) -> list[str]:
    cache = doc["cache"]
    out = ["## Cache", ""]
    if "error" in cache:
        return [*out, f"Not measured: {cache['error']}"]
    out += _table(
        ["path", "median (min–max)", "faster than the miss"],
        [
            ["miss (full ingest, then stored)", _s(cache["summary"]["miss"]), "1x"],
            [
                "hit from memory",
                _s(cache["summary"]["memory"], digits=3),
                _r(cache["miss_vs_memory"], 0),
            ],
            [
                "hit from disk (fresh process cache)",
                _s(cache["summary"]["disk"], digits=3),
                _r(cache["miss_vs_disk"], 0),
            ],
        ],
    )
    out += ["", f"Image {cache['image']}; the states seen were {sorted(set(cache['states']))}."]
    return out


def _tokens(doc: Doc) -> list[str]:
    tokens = doc["tokens"]
    out = ["## Tokens", "", f"Full-page estimate: {tokens['formula']}", ""]
    rows = []
    for t in tokens["images"]:
        cells: list[object] = [t["image"], t["full_page_image"]]
        for tier in ("table_ocr", "ui_crop", "full_page"):
            got = t["strategy"][tier]
            note = "" if got == tier else f", became {got}"
            cells.append(f"{t['sent'][tier]} ({t['share'][tier]:.0%}{note})")
        cells.append("yes" if t["table_screen"] else "no")
        rows.append(cells)
    out += _table(
        [
            "image",
            "full-page estimate",
            "table_ocr sent",
            "ui_crop sent",
            "full_page sent",
            "table screen",
        ],
        rows,
    )
    out += [
        "",
        "`ui_crop` sends the table region as an image plus the text with box coordinates; "
        "`full_page` sends the normalised page (scaled to the vision limit) plus a note.",
    ]
    return out


def _batch(doc: Doc) -> list[str]:
    batch = doc["batch"]
    out = [
        "## Batch",
        "",
        f"Every image once per round ({batch['images_per_round']} images, strategy "
        f"`{batch['strategy']}`, no cache), longest first; rounds alternate between the "
        "configurations, each worker warmed up first.",
        "",
    ]
    rows = []
    for c in batch["configs"]:
        busy = sum(c["busy_ms"]) / max(1, sum(c["wall_ms"])) if c["wall_ms"] else 0.0
        rows.append(
            [
                c["label"],
                _s(c["summary"], "img/min", 1),
                f"{busy:.2f}",
                ", ".join(f"{x:.0f}" for x in c["peak_rss_mb"]) or "–",
                c["error"] or "",
            ]
        )
    out += _table(
        [
            "configuration",
            "images per minute",
            "worker busy / wall",
            "peak RSS per worker (MB)",
            "error",
        ],
        rows,
    )
    bound = batch.get("one_thread_bound")
    out += [
        "",
        f"Pool vs one process on all cores: {_r(batch['pool_vs_single_all_cores'], 2)}; "
        f"pool vs one process with one thread: {_r(batch['pool_vs_single_one_thread'], 2)}.",
        "",
        "ONNX Runtime threads: each pool worker gets 1 intra-op thread (and OpenCV 1 thread), so "
        "the pool never runs more threads than cores; the single process gets one per core. "
        "Bound: a pool of N one-thread workers can reach at most N x the one-thread rate = "
        + (f"{bound:.2f}x the all-cores process." if bound else "not measured."),
    ]
    stages = sorted({k for c in batch["configs"] for k in c["stage_ms_per_image"]})
    if stages:
        out += [
            "",
            "Milliseconds per image by stage, sampled inside the workers (5 ms pyinstrument "
            "sampling in every worker alike):",
            "",
        ]
        out += _table(
            ["stage", *(c["label"] for c in batch["configs"])],
            [
                [stage, *(f"{c['stage_ms_per_image'].get(stage, 0):.0f}" for c in batch["configs"])]
                for stage in stages
            ],
        )
    probes = batch.get("cpu_scaling", [])
    if probes:
        out += [
            "",
            "What the machine itself gave at the time: "
            + " and ".join(
                f"{p['scaling']:.2f}x ({p['alone_s']:.2f} s alone, {p['together_s']:.2f} s each "
                "at once)"
                for p in probes
            )
            + " for one plain Python loop per core at once against one alone, before and after "
            "the batch rounds (2.00x on idle, independent cores).",
        ]
    return out


def _host(doc: Doc) -> list[str]:
    host = doc["host"]
    memory, stdio = host["memory"], host["stdio"]
    out = ["## Host", "", f'Task: "{host["task"]}", `rules` model, guards on.', ""]
    out += _table(
        ["figure", "median (min–max)", "runs"],
        [
            [
                "host overhead per hop (in-memory servers)",
                _s(memory["summary"]["per_hop_ms"], digits=2),
                len(memory["per_hop_ms"]),
            ],
            [
                "host time per run (in-memory)",
                _s(memory["summary"]["host_ms"], digits=1),
                len(memory["host_ms"]),
            ],
            [
                "whole run (in-memory)",
                _s(memory["summary"]["total_ms"], digits=1),
                len(memory["total_ms"]),
            ],
            [
                "stdio: spawn the servers + run + stop",
                _s(stdio["summary"]["spawn_and_run_ms"]),
                len(stdio["spawn_and_run_ms"]),
            ],
            ["stdio: the run alone", _s(stdio["summary"]["run_ms"]), len(stdio["run_ms"])],
            ["stdio: spawn + run / run alone", _r(stdio["spawn_and_run_vs_run"]), ""],
        ],
    )
    out += [
        "",
        f"Hops per run {sorted(set(memory['hops']))}, "
        f"tool calls {sorted(set(memory['tool_calls']))}, "
        f"status {sorted(set(memory['statuses'] + stdio['statuses']))}. Host time is the run's "
        "wall time minus model time minus tool time (`RunRecord.timings_ms`), divided by hops.",
    ]
    if stdio.get("error"):
        out.append(f"\n- the stdio run failed: {stdio['error']}")
    return out


def _memory(doc: Doc) -> list[str]:
    memory = doc["memory"]
    api = memory["api"]
    out = ["## Peak memory", ""]
    ingest = memory["ingest_process_peak_rss_mb"]
    rows: list[list[object]] = [
        [
            "ingest process (`stockshot ingest`, one image, cold)",
            "not measured" if ingest is None else f"{ingest:.0f} MB",
        ]
    ]
    for key, values in memory["batch_worker_peak_rss_mb"].items():
        rows.append([f"batch worker ({key})", ", ".join(f"{v:.0f} MB" for v in values) or "–"])
    if api["measured"]:
        rows.append(
            ["API process (`stockshot serve`) when ready", f"{api['after_ready_mb']:.0f} MB"]
        )
        rows.append(["API process after one /v1/ingest", f"{api['after_ingest_mb']:.0f} MB"])
    else:
        rows.append(["API process (`stockshot serve`)", api["note"]])
    out += _table(["process", "peak RSS"], rows)
    out += [
        "",
        "Peak RSS is the kernel's high-water mark: `ru_maxrss` of the ingest process started by "
        "a small launcher (a child forked from the bench itself would count the bench's pages), "
        "VmHWM of the batch workers and of the API process.",
    ]
    return out


def _profiles(doc: Doc) -> list[str]:
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
                out += _table(
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


def _method(doc: Doc) -> list[str]:
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


_TOOL_LABELS = {
    "stockshot": "this pipeline (`table_ocr`, ladder with the structure rung)",
    "rapidocr+rows": "full-page `RapidOCR()` (its defaults), lines grouped into rows",
    "rapidocr+rows@threads": "the same with only our thread settings (no spinning)",
    "rapid_table": "RapidTable (SLANet-plus) alone, on the whole page with RapidOCR's lines",
    "rapid_table@our-crop": "RapidTable on the region this pipeline cropped (the page where "
    "it cropped none)",
    "rapid_table@truth-box": "RapidTable on the truth's table box (renders only)",
    "img2table": "img2table (OpenCV) with the same RapidOCR engine",
}


def _teds(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _tables(doc: Doc) -> list[str]:
    tables = doc.get("tables")
    out = ["## Tables side by side", ""]
    if not tables:
        return [*out, "Not measured."]
    tools = tables["tools"]
    out += [
        f"Every tool on every image set, {tables['rounds']} timed reads per image after one "
        "warm-up read per tool; accuracy from the last read. Cells: exact match with the "
        "truth's header and cells. Fields: the tool's grid mapped onto the inventory schema by "
        "the same code, against the truth rows. TEDS: tree-edit-distance similarity of the "
        "table HTML with the truth's (its merged cells where it has them), mean per image. "
        "Times: median over the set of each image's median.",
        "",
        "Tools: " + "; ".join(f"`{k}`: {_TOOL_LABELS.get(k, k)}" for k in tools) + ".",
        "",
    ]
    rows: list[list[object]] = []
    for table_set in tables["sets"]:
        label = f"{table_set['label']} ({len(table_set['images'])} images)"
        for key in tools:
            total = table_set["totals"].get(key, {})
            if not total.get("images"):
                continue
            rows.append(
                [
                    label,
                    key,
                    total["images"],
                    _acc(total.get("cells")),
                    _acc(total.get("fields")),
                    _teds(total.get("teds")),
                    _s({"median": total["median_ms"], "min": 0, "max": 0, "n": 1})
                    if total.get("median_ms") is not None
                    else "–",
                ]
            )
            label = ""
    out += _table(["set", "tool", "images read", "cells", "fields", "TEDS", "ms"], rows)
    out += [
        "",
        "Where this pipeline's time goes, per rung of its ladder (from the last read of each "
        "image; a rung that ran but was not kept is the cost of its doubt):",
        "",
    ]
    rung_rows = []
    for table_set in tables["sets"]:
        for rung, cost in table_set["totals"].get("rungs", {}).items():
            rung_rows.append(
                [
                    table_set["label"],
                    rung,
                    cost["ran"],
                    cost["kept"]
                    if rung in ("lines", "cards", "structure", "detect", "image")
                    else "",
                    f"{cost['median_ms']:.0f} ms",
                ]
            )
    out += _table(["set", "step", "ran on", "kept on", "median"], rung_rows)
    for table_set in tables["sets"]:
        if not table_set["key"].startswith("uikits"):
            continue
        parts = breakdown(table_set)
        empty = (
            str(len(parts["no_rows"]))
            if table_set["key"] in HELD_OUT
            else ", ".join(parts["no_rows"]) or "none"
        )
        out += [
            "",
            f"{table_set['label']}: inventory fields right (this pipeline) by kit and by layout; "
            f"screens with no row read: {empty}.",
            "",
        ]
        out += _table(
            ["kit or layout", "fields"],
            [
                [name, _acc(pair)]
                for name, pair in [*parts["by_kit"].items(), *sorted(parts["by_layout"].items())]
            ],
        )
    for table_set in tables["sets"]:
        out += ["", f"### {table_set['label']}", ""]
        if table_set["key"] in HELD_OUT:
            out.append(
                f"{len(table_set['images'])} images; per-image figures of a held-out split are "
                "not listed (the totals and the per-kit table above are)."
            )
            continue
        header = ["image", "size"]
        for key in tools:
            header += [f"{key} cells", f"{key} TEDS", f"{key} ms"]
        rows = []
        for image in table_set["images"]:
            row = [image["name"], image["size"]]
            for key in tools:
                found = image["tools"].get(key, {})
                ms = found.get("median_ms")
                row += [
                    _acc(found.get("cells")),
                    _teds(found.get("teds")),
                    "–" if ms is None else f"{ms:.0f}",
                ]
            rows.append(row)
        out += _table(header, rows)
    for key, error in tables["errors"].items():
        out.append(f"\n- `{key}`: {error}")
    return out


def _texts(doc: Doc) -> list[str]:
    texts = doc.get("texts") or {}
    out = ["## Text by content", ""]
    if not texts.get("images"):
        return [*out, texts.get("error", "Not measured.")]
    out += [
        "Images of known text (large CJK and Latin lettering on transparent PNGs in white and "
        "black, after RapidOCR's own test files; half-transparent text; a banner on a dark "
        "background; a line of small text), drawn here with the Debian fonts. Each is read by "
        "this pipeline (`auto`, the page's text lines) and by plain `RapidOCR()`; CER is the "
        "edit distance over the characters drawn, whitespace aside. RapidOCR's original "
        "files are not on this machine, so these are look-alikes, not those images.",
        "",
    ]
    rows = [
        [
            image["name"],
            image["text"],
            image["tools"]["stockshot"]["read"],
            f"{image['tools']['stockshot']['cer']:.3f}",
            image["tools"]["rapidocr"]["read"],
            f"{image['tools']['rapidocr']['cer']:.3f}",
        ]
        for image in texts["images"]
    ]
    out += _table(["image", "drawn", "stockshot read", "CER", "`RapidOCR()` read", "CER"], rows)
    return out


def render_markdown(doc: Doc) -> str:
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
        f"(other work shares these cores). {len(meta['images'])} images"
        f"{', --quick' if meta['quick'] else ''}. Timed rounds after warm-up: every image "
        f"{rounds['images']}, headline image {rounds['headline']}, cache and in-memory host "
        f"{rounds['cheap']}, cold starts {rounds['cold']}, stdio runs {rounds['stdio']}, batch "
        f"{rounds['batch']}.",
        "",
        "## Targets",
        "",
        *summary_table(doc),
        "",
        *_ingest(doc),
        "",
        *_tables(doc),
        "",
        *_texts(doc),
        "",
        *_cold(doc),
        "",
        *_cache(doc),
        "",
        *_tokens(doc),
        "",
        *_batch(doc),
        "",
        *_host(doc),
        "",
        *_memory(doc),
        "",
        *_profiles(doc),
        "",
        *_method(doc),
        "",
    ]
    return "\n".join(lines)


def write_reports(doc: Doc, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / "bench.md", out / "bench.json"
    md.write_text(render_markdown(doc), encoding="utf-8")
    js.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return md, js
