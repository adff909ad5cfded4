"""The targets of the ingest, cache, token, host and batch figures, judged from a bench document.

Each verdict names the measured value, the threshold and the margin (`pipeline.bench.verdicts`);
the accuracy targets are judged in `pipeline.bench.targets_accuracy`. A missed target gets a
profile of the thing that missed and the next step it points to (`pipeline.bench.misses`).
"""

from __future__ import annotations

from statistics import median

from pipeline.bench.commands import PLAIN
from pipeline.bench.document import IngestImage, Measurements, RatioDoc, Target
from pipeline.bench.speed import BASELINE, BASELINE_THREADS, OURS
from pipeline.bench.targets_accuracy import table_targets, text_targets
from pipeline.bench.verdicts import (
    latency_target,
    margin,
    median_of,
    ms_of,
    pct,
    set_total,
    share_of,
    target,
    token_target,
)

__all__ = ["evaluate", "headline_of", "margin", "median_of"]


def headline_of(doc: Measurements) -> IngestImage:
    return next(i for i in doc["ingest"]["images"] if i["headline"])


def _per_image_targets(doc: Measurements) -> list[Target]:
    """The speed-up and the latency judged on every image, not the headline alone: the
    median over the images and the worst image; the speed-up also against the baseline
    given our thread settings."""
    images = doc["ingest"]["images"]
    speedups = [
        (i["name"], r["value"]) for i in images if (r := i["vs_baseline"].get(OURS)) is not None
    ]
    fair = [
        (i["name"], base / ours)
        for i in images
        if (base := median_of(i["summary"], BASELINE_THREADS))
        and (ours := median_of(i["summary"], OURS))
    ]
    latencies = [(i["name"], ms) for i in images if (ms := median_of(i["summary"], OURS))]
    found = []
    for key, label, pairs in (
        ("ingest_speedup_images", "the full-page baseline", speedups),
        ("ingest_speedup_same_threads", "the full-page baseline with our thread settings", fair),
    ):
        if not pairs:
            continue
        worst = min(pairs, key=lambda p: p[1])
        found += [
            target(
                key,
                f"warm `table_ocr` ingest at least 4x faster than {label}, median over the "
                f"{len(pairs)} images",
                median(v for _, v in pairs),
                ">=",
                4.0,
                "x",
                f"{sum(v >= 4.0 for _, v in pairs)} of {len(pairs)} images at 4x or more",
            ),
            target(
                f"{key}_worst",
                f"the same on the worst image ({worst[0]})",
                worst[1],
                ">=",
                4.0,
                "x",
                "; ".join(f"{name} {v:.1f}x" for name, v in sorted(pairs, key=lambda p: p[1])),
            ),
        ]
    if latencies:
        slowest = max(latencies, key=lambda p: p[1])
        found.append(
            latency_target(
                "ingest_latency_worst",
                f"warm `table_ocr` ingest at most 1.5 s on every image (the slowest: {slowest[0]})",
                slowest[1],
                f"median over the images {ms_of(median(v for _, v in latencies))}",
            )
        )
    return found


def evaluate(doc: Measurements) -> list[Target]:
    head = headline_of(doc)
    name = f"{head['name']} ({head['size']})"
    speedup = _value(head["vs_baseline"].get(OURS))
    base_ms = median_of(head["summary"], BASELINE)
    ours_ms = median_of(head["summary"], OURS)
    ours_runs = head["summary"].get(OURS)
    ours_acc = share_of(head["accuracy"].get(OURS))
    base_acc = share_of(head["accuracy"].get(BASELINE))
    cache = doc["cache"]
    hits = cache if "error" not in cache else None
    cache_summary = hits["summary"] if hits else {}
    tokens = [t for t in doc["tokens"]["images"] if t["table_screen"]]
    worst = max(tokens, key=lambda t: t["share"]["table_ocr"], default=None)
    within = sum(t["share"]["table_ocr"] <= 0.30 for t in tokens)
    head_tokens = next((t for t in doc["tokens"]["images"] if t["image"] == head["name"]), None)
    per_hop = doc["host"]["memory"]["summary"]["per_hop_ms"]
    stdio = doc["host"]["stdio"]["summary"]["spawn_and_run_ms"]
    batch = doc["batch"]["pool_vs_single_all_cores"]
    workers = doc["batch"]["pool_vs_single_one_thread"]
    return [
        target(
            "ingest_speedup",
            f"warm `table_ocr` ingest of {name} at least 4x faster than the full-page baseline",
            speedup,
            ">=",
            4.0,
            "x",
            f"baseline {ms_of(base_ms)} vs pipeline {ms_of(ours_ms)} (medians)",
        ),
        target(
            "ingest_accuracy",
            f"with equal or better cell accuracy on {name}",
            None if ours_acc is None else ours_acc * 100,
            ">=",
            (base_acc or 0.0) * 100,
            "% cells",
            f"pipeline {pct(ours_acc)} vs baseline {pct(base_acc)} of cells exactly right",
        ),
        latency_target(
            "ingest_latency",
            f"warm `table_ocr` ingest of {name} at most 1.5 s (median)",
            ours_ms,
            f"median of {ours_runs['n'] if ours_runs else 0} runs after a warm-up",
        ),
        target(
            "cache_memory",
            "a cache hit from memory at least 100x faster than a miss",
            _value(hits["miss_vs_memory"] if hits else None),
            ">=",
            100.0,
            "x",
            f"miss {ms_of(median_of(cache_summary, 'miss'))} vs hit "
            f"{ms_of(median_of(cache_summary, 'memory'), 3)}",
        ),
        target(
            "cache_disk",
            "a cache hit from disk at least 100x faster than a miss",
            _value(hits["miss_vs_disk"] if hits else None),
            ">=",
            100.0,
            "x",
            f"miss {ms_of(median_of(cache_summary, 'miss'))} vs hit "
            f"{ms_of(median_of(cache_summary, 'disk'), 3)}",
        ),
        token_target(
            "tokens",
            f"tokens sent for the table screenshot {name} at most 30% of the full-page "
            "image estimate",
            None if head_tokens is None else head_tokens["share"]["table_ocr"],
            "not measured"
            if head_tokens is None
            else f"{head_tokens['sent']['table_ocr']} of {head_tokens['full_page_image']} tokens",
        ),
        token_target(
            "tokens_every_screen",
            "the same for every table screenshot measured (the worst one)",
            None if worst is None else worst["share"]["table_ocr"],
            "no table screen measured"
            if worst is None
            else f"worst {worst['image']}: {worst['sent']['table_ocr']} of "
            f"{worst['full_page_image']} tokens; {within} of {len(tokens)} table screens "
            "within 30%",
        ),
        target(
            "host_per_hop",
            "host overhead per hop under 5 ms (rules model, in-memory servers)",
            per_hop.get("median") if per_hop.get("n") else None,
            "<",
            5.0,
            "ms",
            f"median of {per_hop.get('n', 0)} runs, "
            f"{doc['host']['memory']['hops'][:1] or ['?']} hops each",
        ),
        target(
            "stdio_run",
            "a complete `rules` replenishment run over stdio servers under 5 s after warm-up",
            stdio.get("median") if stdio.get("n") else None,
            "<",
            5000.0,
            "ms",
            "spawning the three servers, connecting, the run, and shutting them down",
        ),
        target(
            "batch",
            "batch throughput at least 1.6x from one process (all cores) to a pool of one "
            "process per core",
            None if batch is None else batch["value"],
            ">=",
            1.6,
            "x",
            f"one-thread bound {doc['batch'].get('one_thread_bound') or 0:.2f}x "
            "(cores x one-thread rate / all-cores rate)",
        ),
        target(
            "batch_workers",
            "the same from one one-thread worker to one one-thread worker per core",
            None if workers is None else workers["value"],
            ">=",
            1.6,
            "x",
            "the scaling of the workers themselves, each with the same thread settings",
        ),
        *_per_image_targets(doc),
        *table_targets(doc),
        *_photo_vs_clean(doc, ours_ms, name),
        *_real_screens_speed(doc),
        *_command_targets(doc),
        *text_targets(doc),
    ]


def _photo_vs_clean(doc: Measurements, clean_ms: float | None, name: str) -> list[Target]:
    """The slowest photo's warm ingest against the clean headline page's, in the same run."""
    photos = set_total(doc, "photos", "stockshot")
    slowest = photos["max_ms"] if photos else None
    return [
        target(
            "photo_vs_clean",
            "warm ingest of a photo at most 1.5x a clean page's (the slowest photo's median "
            f"over that of {name})",
            slowest / clean_ms if slowest and clean_ms else None,
            "<=",
            1.5,
            "x",
            f"slowest photo {ms_of(slowest)} vs clean page {ms_of(clean_ms)}",
        )
    ]


def _real_screens_speed(doc: Measurements) -> list[Target]:
    """Real products' screens ingested no slower than a plain RapidOCR reads them whole
    (where a real screens folder was given)."""
    real = doc.get("real_screens")
    if real is None or "error" in real or "speed" not in real:
        return []
    speed = real["speed"]
    return [
        target(
            "real_screens_speed",
            "ingest of a real product's screen no slower than a plain `RapidOCR()` reading it "
            f"whole (median over {speed['screens']})",
            speed["ours_vs_plain"],
            "<=",
            1.0,
            "x",
            f"{speed['images']} screens: ingest {speed['ours_median_s']:.2f} s vs plain "
            f"RapidOCR {speed['plain_median_s']:.2f} s (medians, warm)",
        )
    ]


_COMMAND_LIMITS: dict[str, tuple[str, float]] = {
    "hit": ("a cache hit through `stockshot ingest`", 0.25),
    "run": ("`stockshot run` of the demo task with `rules` on a cached screenshot", 1.0),
}
"""Each whole command's statement and the most it may take, as a share of a plain RapidOCR
process reading the same image."""


def _command_targets(doc: Measurements) -> list[Target]:
    commands = doc["commands"]
    plain = commands["best_s"].get(PLAIN)
    found = []
    for name, (statement, limit) in _COMMAND_LIMITS.items():
        best = commands["best_s"].get(name)
        failed = commands["errors"].get(name)
        found.append(
            target(
                f"command_{name}",
                f"{statement}, a whole process, at most {limit:g}x a plain RapidOCR process "
                "on the same image (best turns)",
                commands["vs_plain"].get(name),
                "<=",
                limit,
                "x",
                f"failed: {failed}"
                if failed
                else f"{best or 0:.2f} s vs plain RapidOCR {plain or 0:.2f} s, best of "
                f"{commands['turns']}",
            )
        )
    return found


def _value(found: RatioDoc | None) -> float | None:
    return found["value"] if found else None
