"""What a missed bench target comes with: a profile (pyinstrument) of the thing that missed,
what the profile shows, and the next step it points to."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.bench.context import BenchContext
from pipeline.bench.document import Measurements, MissDoc, ProfileDoc, Target
from pipeline.bench.host import measure_host, measure_stdio
from pipeline.bench.profile import Profile, profiling
from pipeline.bench.speed import BASELINE, OURS
from pipeline.bench.targets import headline_of, median_of
from pipeline.ingest import Ingestor
from pipeline.models import IngestResult

__all__ = ["NEXT_STEPS", "explain_misses"]

NEXT_STEPS: dict[str, str] = {
    "ingest_speedup": (
        "Recognising the cell crops is most of a warm ingest (profile above); the image "
        "processing around it is the rest. Next, in order: (1) an int8 copy of the PP-OCRv6 "
        "recogniser (onnxruntime.quantization, dynamic), kept only if the sample cells stay at "
        "or above 98%; (2) fewer crops: remember recognised crops across images by their pixel "
        "hash (header rows, warehouse and status columns repeat between screenshots of the same "
        "system); (3) for many screenshots, the one-thread-per-process pool. Read the load "
        "average first: absolute times move with other work on the machine, ratios much less."
    ),
    "ingest_accuracy": (
        "Compare the mismatched cells listed above with the crops the pipeline cut for them "
        "(crop margins, merged neighbouring cells) before changing any speed setting."
    ),
    "ingest_latency": (
        "Same levers as the speed-up (int8 recogniser, crops remembered across images); check "
        "the load average before reading the absolute time."
    ),
    "cache_memory": "Keep the hit path free of image decoding and of re-rendering the text.",
    "cache_disk": (
        "Store the entry pre-serialised (one JSON blob) so a disk hit is one read and one parse."
    ),
    "tokens": (
        "Drop the columns the schema map leaves out from the text, or send the rows only, for the "
        "screens listed."
    ),
    "tokens_every_screen": (
        "A small screenshot costs few image tokens while its text costs the same per row, so the "
        "share is highest on small, dense screens. Send the mapped rows without the page context "
        "and the list of left-out columns when the screen is small, or let the tier ladder pick "
        "the image when it is the cheaper of the two."
    ),
    "fields_corpus": (
        "Read the per-image table below for the screens that miss; the ingest warnings name "
        "the rung that was chosen and why the ones before it were unsure."
    ),
    "fields_uikits": (
        "Read the per-kit and per-layout table: a kit far below the others points at its page "
        "structure (navigation, tabs, merged columns); a layout below the others at the cards "
        "rung or the rectifier. The held-out split's misses are not listed: reproduce the "
        "pattern on the tune split, and fix the mechanism there."
    ),
    "fields_photos": (
        "Photos lose fields to recognition (blur, glare, moire): spaces between Chinese and "
        "Latin text, misread characters under glare, badges of low contrast. A cell read "
        "unsure is read again sharpened already, and a warped screen keeps its size. Warping "
        "a far monitor's 6-8 px text at twice the size read few more fields (10 of 65 on one "
        "photo, none on another); misread Chinese characters need a parts vocabulary, not a "
        "general dictionary (which mends as many names as it breaks)."
    ),
    "teds_tables": (
        "Compare the HTML of each tool with the truth's for the image listed; the text of the "
        "cells (spaces the recogniser dropped) weighs in TEDS as much as the structure."
    ),
    "photo_latency": (
        "A photo that the image-processing rung cannot read well runs text detection over the "
        "whole screen; the timings per rung in the ingest result say which. Next: detect on "
        "the table region only, at the detector's smallest side limit that keeps the text."
    ),
    "text_by_content": (
        "Compare the text read with the text drawn for the images listed: strokes read as "
        "characters point at the page's text boxes (large lettering), a character missing at "
        "the recogniser; the engine's own detection of the page is the other reading."
    ),
    "ingest_speedup_images": (
        "The ratio moves with the image: a small or sparse screen has little for the cropping "
        "to save, a photo pays for its rectification. Read the per-image ratios before "
        "changing code."
    ),
    "ingest_speedup_same_threads": (
        "With our thread settings the baseline loses its spinning threads' waste: what is left "
        "is what cropping and per-cell recognition save."
    ),
    "ingest_latency_worst": (
        "The slowest image names the rung that cost the time (its timings per rung in the "
        "ingest result)."
    ),
    "host_per_hop": (
        "Look at the guards and the context rebuild per hop in the profile; cache the tool specs "
        "and the system prompt once per run."
    ),
    "stdio_run": (
        "Most of a stdio run is starting one Python server process per tool group. Start the "
        "servers once and keep them (the API mounts them in-process), or serve all groups from "
        "one process (`python -m servers all`)."
    ),
    "photo_vs_clean": (
        "Read the photo's rung timings: a photo read twice weighs its second reading only when "
        "the first is unsure, and rectification and detection should be computed once."
    ),
    "real_screens_speed": (
        "An unsure real screen climbs rung after rung; read which rungs each screen tried and "
        "stop the ladder at the first sure reading."
    ),
    "command_hit": (
        "A cache hit needs the cache and the result model only: run `python -X importtime -m "
        "pipeline.cli ingest IMAGE` on a cached image and move what it imports beyond them "
        "behind the work that needs it."
    ),
    "command_run": (
        "A run on a cached screenshot should start no server process and load no OCR engine: "
        "check the servers are in process and profile the command's imports as for a hit."
    ),
    "batch_workers": (
        "Read the stage profile first. Stages stretching alike, single-threaded ones included, "
        "mean the cores were shared with other work during the rounds (the plain-loop probe "
        "says how much): rerun on an idle machine before changing code. Only the recogniser "
        "stretching would point at memory bandwidth between the workers; then try one worker "
        "with two threads against two with one on a machine with more cores."
    ),
    "batch": (
        "On 2 cores the pool can only win the part of an ingest that one process leaves on one "
        "core (decoding, OpenCV, table and schema code, ONNX Runtime's serial sections): the "
        "bound above. Next: (1) keep the pool for machines with more cores, where one process's "
        "intra-op threads stop scaling long before the cores run out, and size it as cores / 2 "
        "processes x 2 threads there; (2) on 2 cores, overlap instead of splitting: decode and "
        "find the table of image n+1 while image n is in the recogniser (a two-stage pipeline "
        "in one process); (3) rerun on an idle machine, since the plain-loop probe shows how "
        "much of the second core other work took."
    ),
}


def explain_misses(
    ctx: BenchContext, doc: Measurements, targets: Sequence[Target]
) -> list[MissDoc]:
    """A profile and a next step for each missed target; the same profile serves related ones."""
    missed = [t["key"] for t in targets if t["met"] is False]
    found: list[MissDoc] = []
    made: dict[str, Profile] = {}
    for key in missed:
        maker = _PROFILES.get(key)
        profile = None
        if maker is not None:
            subject, make = maker
            if subject not in made:
                try:
                    made[subject] = make(ctx, doc)
                except Exception as exc:  # a profile is an explanation, never a failure
                    made[subject] = Profile(subject, note=f"profile failed: {exc}")
            profile = made[subject]
        found.append(
            {
                "target": key,
                "finding": _finding(key, doc),
                "profile": _profile_doc(profile) if profile else None,
                "next_step": NEXT_STEPS.get(
                    key.split(":")[0].removesuffix("_worst"), NEXT_STEPS["fields_corpus"]
                ),
            }
        )
    return found


def _profile_doc(profile: Profile) -> ProfileDoc:
    return {
        "subject": profile.subject,
        "seconds": profile.seconds,
        "top": list(profile.top),
        "tree": profile.tree,
        "note": profile.note,
        "stages": dict(profile.stages),
    }


def _ingestor(ctx: BenchContext) -> Ingestor:
    engine = ctx.engine("rapidocr")
    if engine is None:
        raise RuntimeError("rapidocr is unavailable")
    return Ingestor(engine, config=ctx.config(), cache=None)


def _profile_ingest(ctx: BenchContext, doc: Measurements) -> Profile:
    ingestor = _ingestor(ctx)
    path = ctx.options.headline.path
    with profiling(f"3 warm `table_ocr` ingests of {path.name}") as profile:
        for _ in range(3):
            ingestor.ingest_path(path, strategy="table_ocr")
    return profile


def _profile_hits(ctx: BenchContext, doc: Measurements) -> Profile:
    from pipeline.ingest import IngestCache

    data = ctx.options.headline.path.read_bytes()
    with IngestCache(ctx.scratch / "profile-cache") as cache:
        ingestor = Ingestor(_ingestor(ctx).engine, config=ctx.config(), cache=cache)
        ingestor.ingest_bytes(data, name="hit.png", strategy="table_ocr")
        with profiling("200 cache hits from memory") as profile:
            for _ in range(200):
                ingestor.ingest_bytes(data, name="hit.png", strategy="table_ocr")
    return profile


def _profile_host(ctx: BenchContext, doc: Measurements) -> Profile:
    results = _results(ctx)
    with profiling(
        "2 `rules` runs over in-memory servers (one warm-up)", interval=0.0005
    ) as profile:
        measure_host(ctx.scratch, results, rounds=1)
    return profile


def _profile_stdio(ctx: BenchContext, doc: Measurements) -> Profile:
    results = _results(ctx)
    with profiling("one `rules` run over stdio servers (host process side)") as profile:
        measure_stdio(ctx.scratch, results, rounds=0)
    return profile


def _results(ctx: BenchContext) -> list[IngestResult]:
    return [_ingestor(ctx).ingest_path(ctx.options.headline.path, strategy="table_ocr")]


_PROFILES: dict[str, tuple[str, Callable[[BenchContext, Measurements], Profile]]] = {
    "ingest_speedup": ("ingest", _profile_ingest),
    "ingest_latency": ("ingest", _profile_ingest),
    "cache_memory": ("hits", _profile_hits),
    "cache_disk": ("hits", _profile_hits),
    "host_per_hop": ("host", _profile_host),
    "stdio_run": ("stdio", _profile_stdio),
}


def _finding(key: str, doc: Measurements) -> str:
    head = headline_of(doc)
    if key in ("ingest_speedup", "ingest_latency"):
        base = median_of(head["summary"], BASELINE) or 0.0
        ours = median_of(head["summary"], OURS) or 0.0
        return (
            f"baseline {base:.0f} ms vs pipeline {ours:.0f} ms on {head['name']}; load average "
            f"{doc['meta']['load_avg_start'][0]:.2f} at the start on {doc['meta']['cpu_count']} "
            "cores; the profile below splits the pipeline's time by stage"
        )
    if key == "ingest_accuracy":
        return f"cells right: {head['accuracy']}"
    if key == "stdio_run":
        stdio = doc["host"]["stdio"]["summary"]
        whole, run = stdio["spawn_and_run_ms"]["median"], stdio["run_ms"]["median"]
        return (
            f"of {whole:.0f} ms, the run itself took {run:.0f} ms; starting, connecting and "
            f"stopping the three server processes took {whole - run:.0f} ms"
        )
    if key in ("batch", "batch_workers"):
        configs = {c["key"]: c for c in doc["batch"]["configs"]}
        rates = {k: c["summary"]["median"] for k, c in configs.items()}
        alone = configs["single_one_thread"]["stage_ms_per_image"]
        pooled = configs["pool"]["stage_ms_per_image"]
        stretched = [
            f"{stage} {alone[stage]:.0f} -> {pooled[stage]:.0f} ms"
            for stage in sorted(alone, key=lambda k: -alone[k])
            if stage in pooled and alone[stage] >= 5
        ]
        bound = doc["batch"].get("one_thread_bound") or 0.0
        gain = rates.get("single_all_cores", 0.0) / max(1e-9, rates.get("single_one_thread", 0.0))
        workers = configs["pool"]["processes"]
        factors = [pooled[k] / alone[k] for k in alone if k in pooled and alone[k] >= 5]
        profiled = (
            "; per image, one one-thread worker alone -> each worker in the pool: "
            + ", ".join(stretched)
            if stretched
            else ""
        )
        if factors and min(factors) >= 1.5:
            profiled += (
                f". Every stage stretched alike ({min(factors):.1f}-{max(factors):.1f}x), the "
                f"single-threaded decoding and OpenCV stages too: the {workers} workers got about "
                f"{workers * len(factors) / sum(factors):.1f} cores' worth between them, the "
                "pattern of cores shared with other work rather than of a stage contending with "
                "itself"
            )
        return (
            f"images/min: one process all cores {rates.get('single_all_cores', 0):.1f}, one "
            f"process one thread {rates.get('single_one_thread', 0):.1f}, pool "
            f"{rates.get('pool', 0):.1f}; the pool cannot beat cores x the one-thread rate "
            f"= {bound:.2f}x the all-cores process"
            + (
                ", so 1.6x against it is out of reach on this machine: the all-cores process "
                f"already gets {gain:.2f}x the one-thread rate from its second intra-op thread"
                if bound < 1.6
                else ""
            )
            + "; the machine gave one plain loop per core "
            + " / ".join(f"{p['scaling']:.2f}x" for p in doc["batch"].get("cpu_scaling", []))
            + " of one alone (before / after the rounds; other work shares these cores, load "
            f"average {doc['meta']['load_avg_start'][0]:.2f} at the start)" + profiled
        )
    if key in ("tokens", "tokens_every_screen"):
        over = [
            f"{t['image']} {t['share']['table_ocr']:.0%} ({t['sent']['table_ocr']} of "
            f"{t['full_page_image']})"
            for t in doc["tokens"]["images"]
            if t["table_screen"] and t["share"]["table_ocr"] > 0.30
        ]
        return "over 30%: " + ", ".join(over)
    if key == "host_per_hop":
        return "see the profile: own time of the host loop, guards and MCP client code"
    return "see the profile"
