"""One bench run: measure every section, then lay the figures out as one JSON-able document.

The document keeps the raw samples beside each summary and ratio; the Markdown report and the
target verdicts are made from it alone.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from pipeline.bench.batch import BatchResult, cpu_scaling, measure_batch
from pipeline.bench.cache import CacheTimings, measure_cache
from pipeline.bench.cold import cold_command, measure_cold, peak_rss_of
from pipeline.bench.commands import PLAIN, CommandTimes, measure_commands
from pipeline.bench.context import BenchContext, BenchOptions
from pipeline.bench.document import (
    ApiMemoryDoc,
    BatchConfigDoc,
    BatchDoc,
    BenchDoc,
    CacheDoc,
    ColdDoc,
    CommandsDoc,
    CpuScaling,
    HostDoc,
    IngestDoc,
    IngestImage,
    Measurements,
    MemoryDoc,
    MetaDoc,
    NotMeasured,
    RatioDoc,
    RealScreensDoc,
    SummaryDoc,
    TierTokensDoc,
    TokensDoc,
)
from pipeline.bench.host import HostRuns, StdioRuns, measure_host, measure_stdio
from pipeline.bench.memory import ApiMemory, measure_api
from pipeline.bench.misses import explain_misses
from pipeline.bench.peers import measure_peers
from pipeline.bench.real_screens import measure_real_products, measure_real_screens
from pipeline.bench.sets import collect_sets
from pipeline.bench.speed import BASELINE, BASELINE_CODE, OURS, Sweep, build_variants, run_sweep
from pipeline.bench.stats import ratio, summarize
from pipeline.bench.targets import evaluate, median_of
from pipeline.bench.texts import measure_texts
from pipeline.bench.tokens import FORMULA, TierTokens, measure_tokens

__all__ = ["run_bench"]


def _versions() -> dict[str, str]:
    found = {}
    for name in (
        "onnxruntime",
        "rapidocr",
        "opencv-python-headless",
        "paddleocr",
        "numpy",
        "rapid-table",
        "img2table",
        "table-recognition-metric",
    ):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


def _summary(samples: Sequence[float]) -> SummaryDoc:
    return summarize(samples).as_dict()


def _ratio(numerator: Sequence[float], denominator: Sequence[float]) -> RatioDoc | None:
    found = ratio(numerator, denominator)
    return found.as_dict() if found else None


def _ingest_doc(ctx: BenchContext, sweep: Sweep, rounds: int, headline_rounds: int) -> IngestDoc:
    images: list[IngestImage] = []
    overall: dict[str, list[int]] = {}
    everywhere = {v.key for v in sweep.variants if not v.headline_only}
    for image in ctx.options.images:
        samples = sweep.samples.get(image.name, {})
        accuracy = sweep.accuracy.get(image.name, {})
        base = samples.get(BASELINE, [])
        images.append(
            {
                "name": image.name,
                "size": image.size,
                "headline": image.name == ctx.options.headline.name,
                "samples_ms": samples,
                "summary": {k: _summary(v) for k, v in samples.items() if v},
                "vs_baseline": {
                    k: _ratio(base, v) for k, v in samples.items() if v and k != BASELINE
                },
                "accuracy": {k: list(v) for k, v in accuracy.items()},
            }
        )
        for key, (hits, total) in accuracy.items():
            if key not in everywhere:
                continue
            seen = overall.setdefault(key, [0, 0])
            seen[0] += hits
            seen[1] += total
    return {
        "headline": ctx.options.headline.name,
        "rounds": rounds,
        "headline_rounds": headline_rounds,
        "baseline": BASELINE,
        "ours": OURS,
        "baseline_code": BASELINE_CODE,
        "variants": [
            {"key": v.key, "label": v.label, "headline_only": v.headline_only}
            for v in sweep.variants
        ],
        "images": images,
        "accuracy_overall": overall,
        "skipped_engines": dict(ctx.skipped),
        "errors": dict(sweep.errors),
    }


def _headline_samples(ingest: IngestDoc, key: str) -> list[float]:
    for image in ingest["images"]:
        if image["headline"]:
            return list(image["samples_ms"].get(key, []))
    return []


def _cache_doc(image: str, cache: CacheTimings) -> CacheDoc:
    return {
        "image": image,
        "samples_ms": {"miss": cache.miss, "memory": cache.memory, "disk": cache.disk},
        "summary": {
            "miss": _summary(cache.miss),
            "memory": _summary(cache.memory),
            "disk": _summary(cache.disk),
        },
        "miss_vs_memory": _ratio(cache.miss, cache.memory),
        "miss_vs_disk": _ratio(cache.miss, cache.disk),
        "states": cache.states,
    }


def _commands_doc(times: CommandTimes) -> CommandsDoc:
    best = {name: b for name in times.seconds if (b := times.best(name)) is not None}
    return {
        "image": times.image,
        "turns": times.turns,
        "samples_s": dict(times.seconds),
        "best_s": best,
        "vs_plain": {
            name: v for name in best if name != PLAIN and (v := times.vs_plain(name)) is not None
        },
        "errors": dict(times.errors),
    }


def _tokens_doc(tokens: TierTokens) -> TierTokensDoc:
    return {
        "image": tokens.image,
        "full_page_image": tokens.full_page_image,
        "sent": dict(tokens.sent),
        "strategy": dict(tokens.strategy),
        "table_screen": tokens.table_screen,
        "share": {k: v / tokens.full_page_image for k, v in tokens.sent.items()},
    }


def _host_doc(host: HostRuns, stdio: StdioRuns) -> HostDoc:
    return {
        "task": "find the SKUs that are low and raise replenishment orders",
        "memory": {
            "per_hop_ms": list(host.per_hop_ms),
            "host_ms": list(host.host_ms),
            "total_ms": list(host.total_ms),
            "hops": list(host.hops),
            "tool_calls": list(host.tool_calls),
            "statuses": list(host.statuses),
            "summary": {
                "per_hop_ms": _summary(host.per_hop_ms),
                "host_ms": _summary(host.host_ms),
                "total_ms": _summary(host.total_ms),
            },
        },
        "stdio": {
            "spawn_and_run_ms": list(stdio.spawn_and_run_ms),
            "run_ms": list(stdio.run_ms),
            "hops": list(stdio.hops),
            "tool_calls": list(stdio.tool_calls),
            "statuses": list(stdio.statuses),
            "error": stdio.error,
            "summary": {
                "spawn_and_run_ms": _summary(stdio.spawn_and_run_ms),
                "run_ms": _summary(stdio.run_ms),
            },
            "spawn_and_run_vs_run": _ratio(stdio.spawn_and_run_ms, stdio.run_ms),
        },
    }


def _api_doc(api: ApiMemory | None) -> ApiMemoryDoc:
    if api is None:
        return {"measured": False, "note": "not measured with --quick"}
    return {
        "measured": api.measured,
        "note": api.note,
        "after_ready_mb": api.after_ready_mb,
        "after_ingest_mb": api.after_ingest_mb,
        "ingest_ms": api.ingest_ms,
    }


def run_bench(options: BenchOptions, *, argv: Sequence[str] = (), verbose: bool = True) -> BenchDoc:
    started = time.perf_counter()
    meta: MetaDoc = {
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": " ".join(["stockshot", "bench", *argv]),
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "versions": _versions(),
        "load_avg_start": list(os.getloadavg()),
        "repeat": options.repeat,
        "rounds": options.rounds,
        "mode": options.mode,
        "quick": options.quick,
        "ocr_threads_setting": options.settings.ocr_threads,
        "images": [i.name for i in options.images],
    }
    rounds = options.rounds
    with tempfile.TemporaryDirectory(prefix="stockshot-bench-") as scratch:
        ctx = BenchContext(options, Path(scratch), verbose=verbose)
        with ctx.step("ingest: baseline vs pipeline vs engines"):
            variants = build_variants(ctx)
            sweep = run_sweep(
                ctx,
                variants,
                options.images,
                rounds=rounds["images"],
                headline_rounds=rounds["headline"],
            )
        ingest = _ingest_doc(ctx, sweep, rounds["images"], rounds["headline"])
        warm = _headline_samples(ingest, OURS)

        with ctx.step("cache: hits vs a miss"):
            cache = measure_cache(ctx, rounds=rounds["cheap"])
        cache_doc: CacheDoc | NotMeasured = (
            _cache_doc(options.headline.name, cache)
            if cache
            else {"error": ctx.skipped.get("rapidocr", "rapidocr unavailable")}
        )

        with ctx.step("cold process start vs warm"):
            cold = measure_cold(ctx, rounds=rounds["cold"], warm_up=rounds["warm_up_processes"])
        failed = [r for r in cold.runs if r.returncode != 0]
        cold_doc: ColdDoc = {
            "image": options.headline.name,
            "command": " ".join(cold.command),
            "samples_ms": {"cold": cold.wall_ms, "warm": warm},
            "summary": {"cold": _summary(cold.wall_ms), "warm": _summary(warm)},
            "cold_vs_warm": _ratio(cold.wall_ms, warm),
            "ingest_ms_inside_cold": [r.ingest_ms for r in cold.runs],
            "errors": [f"exit {r.returncode}: {r.stderr[-300:]}" for r in failed],
        }

        with ctx.step("whole commands beside a plain RapidOCR process"):
            commands = _commands_doc(
                measure_commands(
                    options.headline.path, turns=rounds["commands"], scratch=ctx.scratch
                )
            )

        with ctx.step("tokens per tier"):
            tokens = measure_tokens(ctx, list(options.images), sweep.results)
        tokens_doc: TokensDoc = {"formula": FORMULA, "images": [_tokens_doc(t) for t in tokens]}

        with ctx.step("tables: the pipeline vs its peers on every image set"):
            sets = collect_sets(options.images, options.tables, quick=options.quick)
            tables = measure_peers(ctx, sets, rounds=rounds["images"])

        real_screens: RealScreensDoc | NotMeasured | None = None
        if options.real_screens is not None:
            with ctx.step("real screens: real products' screenshots, tuning and sealed"):
                real_screens = measure_real_screens(ctx, options.real_screens)
        real_products: RealScreensDoc | NotMeasured | None = None
        if options.real_products is not None:
            with ctx.step("real products: their own screens rendered here, tuning and sealed"):
                real_products = measure_real_products(
                    ctx, options.real_products, options.real_screens
                )

        with ctx.step("texts: known text read by content"):
            texts = measure_texts(ctx, ctx.scratch / "texts")

        with ctx.step("batch: pool vs one process"):
            costs = {i["name"]: median_of(i["summary"], OURS) or 0.0 for i in ingest["images"]}
            ordered = sorted(options.images, key=lambda i: costs.get(i.name, 0.0), reverse=True)
            loops = 3_000_000 if options.quick else 12_000_000
            probes = [cpu_scaling(loops=loops)]
            batch = measure_batch(ctx, [i.path for i in ordered], rounds=rounds["batch"])
            probes.append(cpu_scaling(loops=loops))
        batch_doc = _batch_doc(batch, len(ordered), probes)

        results = [sweep.results[n] for n in (options.headline.name,) if n in sweep.results]
        with ctx.step("host: overhead per hop, rules run over stdio"):
            host = measure_host(ctx.scratch, results, rounds=rounds["cheap"])
            stdio = measure_stdio(
                ctx.scratch, results, rounds=rounds["stdio"], warm_up=rounds["warm_up_processes"]
            )
        host_doc = _host_doc(host, stdio)

        with ctx.step("memory: ingest and API processes"):
            ingest_rss = peak_rss_of(cold_command(options.headline.path))
            api = measure_api(ctx.scratch, options.headline.path) if not options.quick else None
        memory: MemoryDoc = {
            "ingest_process_peak_rss_mb": ingest_rss,
            "batch_worker_peak_rss_mb": {b["key"]: b["peak_rss_mb"] for b in batch_doc["configs"]},
            "api": _api_doc(api),
        }

        measured: Measurements = {
            "meta": meta,
            "ingest": ingest,
            "cache": cache_doc,
            "cold_start": cold_doc,
            "commands": commands,
            "tokens": tokens_doc,
            "tables": tables,
            "texts": texts,
            "batch": batch_doc,
            "host": host_doc,
            "memory": memory,
        }
        if real_screens is not None:
            measured["real_screens"] = real_screens
        if real_products is not None:
            measured["real_products"] = real_products
        targets = evaluate(measured)
        with ctx.step("profiles of missed targets"):
            profiles = explain_misses(ctx, measured, targets)
        meta["section_s"] = dict(ctx.seconds)
    meta["load_avg_end"] = list(os.getloadavg())
    meta["duration_s"] = round(time.perf_counter() - started, 1)
    return {**measured, "targets": targets, "profiles": profiles}


def _batch_doc(batch: Sequence[BatchResult], images: int, probes: list[CpuScaling]) -> BatchDoc:
    by_key = {b.config.key: b for b in batch}
    configs: list[BatchConfigDoc] = [
        {
            "key": b.config.key,
            "label": b.config.label,
            "processes": b.config.processes,
            "threads": b.config.threads,
            "per_minute": b.per_minute,
            "wall_ms": b.wall_ms,
            "busy_ms": b.busy_ms,
            "peak_rss_mb": b.peak_rss_mb,
            "stage_ms_per_image": b.stage_ms_per_image,
            "summary": _summary(b.per_minute),
            "error": b.error,
        }
        for b in batch
    ]
    pool = by_key["pool"].per_minute
    single = by_key["single_all_cores"].per_minute
    one = by_key["single_one_thread"].per_minute
    cores = by_key["pool"].config.processes
    bound = None
    if one and single:
        bound = cores * summarize(one).median / summarize(single).median
    return {
        "images_per_round": images,
        "strategy": "auto",
        "configs": configs,
        "pool_vs_single_all_cores": _ratio(pool, single),
        "pool_vs_single_one_thread": _ratio(pool, one),
        "one_thread_bound": bound,
        "cpu_scaling": probes,
    }
