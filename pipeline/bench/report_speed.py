"""The bench report's sections on time and resources: ingest per image, the cold start, the
cache, tokens, the batch, the host and peak memory."""

from __future__ import annotations

from pipeline.bench.commands import PLAIN
from pipeline.bench.document import BenchDoc
from pipeline.bench.report_cells import fraction, md_table, median_cell, ratio_cell

__all__ = [
    "batch_section",
    "cache_section",
    "cold_section",
    "host_section",
    "ingest_section",
    "memory_section",
    "tokens_section",
]


def ingest_section(doc: BenchDoc) -> list[str]:
    ingest = doc["ingest"]
    labels = {v["key"]: v["label"] for v in ingest["variants"]}
    head = next(i for i in ingest["images"] if i["headline"])
    out = [
        "## Ingest per image",
        "",
        f"### {head['name']} ({head['size']}), {ingest['headline_rounds']} rounds after a warm-up",
        "",
    ]
    rows: list[list[object]] = []
    for key, label in labels.items():
        if key not in head["summary"]:
            continue
        versus = (
            "1x (baseline)"
            if key == ingest["baseline"]
            else ratio_cell(head["vs_baseline"].get(key))
        )
        rows.append(
            [label, median_cell(head["summary"][key]), versus, fraction(head["accuracy"].get(key))]
        )
    out += md_table(
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
        row += [median_cell(image["summary"].get(k)) for k in everywhere]
        row += [
            ratio_cell(image["vs_baseline"].get(k)) for k in everywhere if k != ingest["baseline"]
        ]
        row += [fraction(image["accuracy"].get(k)) for k in everywhere]
        rows.append(row)
    out += md_table(header, rows)
    overall = ingest["accuracy_overall"]
    if overall:
        out += ["", "Cells exactly right over every image with ground truth: "]
        out[-1] += "; ".join(f"{k} {fraction(v)}" for k, v in overall.items()) + "."
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


def cold_section(doc: BenchDoc) -> list[str]:
    cold = doc["cold_start"]
    out = ["## Cold process start vs warm", ""]
    out += md_table(
        ["", "median (min–max)"],
        [
            ["cold: a new process, one ingest", median_cell(cold["summary"]["cold"])],
            ["warm: the same ingest in a running process", median_cell(cold["summary"]["warm"])],
            ["cold / warm", ratio_cell(cold["cold_vs_warm"])],
        ],
    )
    out += ["", f"Cold command: `{cold['command']}` ({cold['image']})."]
    inside = [x for x in cold["ingest_ms_inside_cold"] if x is not None]
    if inside:
        out[-1] += f" The ingest itself took {', '.join(f'{x:.0f}' for x in inside)} ms inside it."
    for error in cold["errors"]:
        out.append(f"\n- a cold run failed: {error}")
    return [*out, "", *_commands(doc)]


def _commands(doc: BenchDoc) -> list[str]:
    """Whole commands as a person waits for them, beside a plain RapidOCR process."""
    commands = doc["commands"]
    out = [
        f"### Whole commands on {commands['image']}, best of {commands['turns']} turns",
        "",
        "One process each, taking turns with a plain `RapidOCR()` process reading the same "
        'image (`python -c "from rapidocr import RapidOCR; ..."`); `hit` is `stockshot '
        "ingest` of the image already in the cache, `run` is `stockshot run` of the demo task "
        "with `rules` on it against the seeded demo catalogue.",
        "",
    ]
    rows = [
        [
            f"`{name}`",
            f"{best:.2f} s",
            ", ".join(f"{x:.2f}" for x in commands["samples_s"].get(name, [])),
            "1x (peer)" if name == PLAIN else f"**{commands['vs_plain'].get(name, 0):.2f}x**",
        ]
        for name, best in commands["best_s"].items()
    ]
    out += md_table(["command", "best", "every turn (s)", "vs plain RapidOCR"], rows)
    for name, error in commands["errors"].items():
        out.append(f"\n- `{name}` failed: {error}")
    return out


def cache_section(doc: BenchDoc) -> list[str]:
    cache = doc["cache"]
    out = ["## Cache", ""]
    if "error" in cache:
        return [*out, f"Not measured: {cache['error']}"]
    out += md_table(
        ["path", "median (min–max)", "faster than the miss"],
        [
            ["miss (full ingest, then stored)", median_cell(cache["summary"]["miss"]), "1x"],
            [
                "hit from memory",
                median_cell(cache["summary"]["memory"], digits=3),
                ratio_cell(cache["miss_vs_memory"], 0),
            ],
            [
                "hit from disk (fresh process cache)",
                median_cell(cache["summary"]["disk"], digits=3),
                ratio_cell(cache["miss_vs_disk"], 0),
            ],
        ],
    )
    out += ["", f"Image {cache['image']}; the states seen were {sorted(set(cache['states']))}."]
    return out


def tokens_section(doc: BenchDoc) -> list[str]:
    tokens = doc["tokens"]
    out = ["## Tokens", "", f"Full-page estimate: {tokens['formula']}", ""]
    rows = []
    for t in tokens["images"]:
        cells: list[object] = [t["image"], t["full_page_image"]]
        for tier in ("table_ocr", "ui_crop", "full_page"):
            got = t["strategy"].get(tier)
            if got is None:
                cells.append("– (headline only in this run)")
                continue
            note = "" if got == tier else f", became {got}"
            cells.append(f"{t['sent'][tier]} ({t['share'][tier]:.0%}{note})")
        cells.append("yes" if t["table_screen"] else "no")
        rows.append(cells)
    out += md_table(
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


def batch_section(doc: BenchDoc) -> list[str]:
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
                median_cell(c["summary"], "img/min", 1),
                f"{busy:.2f}",
                ", ".join(f"{x:.0f}" for x in c["peak_rss_mb"]) or "–",
                c["error"] or "",
            ]
        )
    out += md_table(
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
        f"Pool vs one process on all cores: {ratio_cell(batch['pool_vs_single_all_cores'], 2)}; "
        "pool vs one process with one thread: "
        f"{ratio_cell(batch['pool_vs_single_one_thread'], 2)}.",
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
        out += md_table(
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


def host_section(doc: BenchDoc) -> list[str]:
    host = doc["host"]
    memory, stdio = host["memory"], host["stdio"]
    out = ["## Host", "", f'Task: "{host["task"]}", `rules` model, guards on.', ""]
    out += md_table(
        ["figure", "median (min–max)", "runs"],
        [
            [
                "host overhead per hop (in-memory servers)",
                median_cell(memory["summary"]["per_hop_ms"], digits=2),
                len(memory["per_hop_ms"]),
            ],
            [
                "host time per run (in-memory)",
                median_cell(memory["summary"]["host_ms"], digits=1),
                len(memory["host_ms"]),
            ],
            [
                "whole run (in-memory)",
                median_cell(memory["summary"]["total_ms"], digits=1),
                len(memory["total_ms"]),
            ],
            [
                "stdio: spawn the servers + run + stop",
                median_cell(stdio["summary"]["spawn_and_run_ms"]),
                len(stdio["spawn_and_run_ms"]),
            ],
            ["stdio: the run alone", median_cell(stdio["summary"]["run_ms"]), len(stdio["run_ms"])],
            ["stdio: spawn + run / run alone", ratio_cell(stdio["spawn_and_run_vs_run"]), ""],
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


def memory_section(doc: BenchDoc) -> list[str]:
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
    out += md_table(["process", "peak RSS"], rows)
    out += [
        "",
        "Peak RSS is the kernel's high-water mark: `ru_maxrss` of the ingest process started by "
        "a small launcher (a child forked from the bench itself would count the bench's pages), "
        "VmHWM of the batch workers and of the API process.",
    ]
    return out
