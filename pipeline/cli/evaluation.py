"""`stockshot eval`: two-track evaluation: model vs product, with each guard switched off in turn.

Run the evaluation cases on the model track (one request, first tool call scored) and the
product track (the whole host loop with guards against the tool servers on a scratch store,
scored on the ledger), with each guard off in turn and k seeds; write reports/eval.md and
reports/eval.json and print a summary. Default models: rules and the fault replay (offline).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

import httpx

from pipeline.bootstrap import host_limits
from pipeline.cli import Commands, command, positive
from pipeline.contract import TaskReading, read_task
from pipeline.errors import ConfigError
from pipeline.evals.baselines import BASELINES, OptionBaseline
from pipeline.evals.cases import (
    SMOKE_DIR,
    SPLITS,
    Case,
    load_all_cases,
    load_cases,
    select_cases,
)
from pipeline.evals.document import FaultPolicy as PolicyDoc, ModelReadings, Report
from pipeline.evals.faults import FAULT_KINDS, FaultPolicy, FaultReplay
from pipeline.evals.markdown import render_readings
from pipeline.evals.modelreads import (
    ReadingCache,
    fingerprint,
    judge,
    load_cache,
    read_into,
    save_cache,
)
from pipeline.evals.readings import (
    PHRASINGS,
    catalogue,
    load_readings,
    reader_report,
    sealed_readings,
)
from pipeline.evals.report import build_report, write_reports
from pipeline.evals.runner import (
    ModelSpec,
    Workbench,
    guard_configs,
    run_suite,
    seeded,
)
from pipeline.evals.scratch import SeededStore
from pipeline.evals.screens import EVAL_CLOCK, SAMPLES_ZONE, Screens
from pipeline.evals.summary import render_summary
from pipeline.host import CALL_GUARDS, RESPONSE_GUARDS
from pipeline.ingest import IngestConfig, Ingestor
from pipeline.ocr import EngineOptions, make_engine
from pipeline.settings import GuardSettings, Settings
from pipeline.vlm import ModelOptions, SchemaAnswerer, make_model
from pipeline.vlm.rules import RulesModel
from pipeline.vlm.steps import Narrowing
from servers.catalog import seed_data

__all__ = ["DEFAULT_MODELS", "default_cases", "register"]

DEFAULT_MODELS = ("rules", "faults")
_FAULTS = ("faults", "fault-replay")
_NO_NARROWING = Narrowing(
    writes_after_read=False, id_enums=False, quantity_bounds=False, needed_reads=False
)


def register(sub: Commands) -> None:
    parser = command(sub, "eval", __doc__)
    parser.add_argument(
        "--model",
        action="append",
        default=None,
        metavar="SPEC",
        help="rules | faults | openai:NAME | scripted:PATH | first-option | random-option; "
        "repeatable (default: rules, faults); the two baselines run beside any other model "
        "unless --no-baselines",
    )
    parser.add_argument(
        "--no-baselines",
        action="store_true",
        help="no first-option / random-option rows (pick among the step schema's alternatives "
        "without reading), and no narrowings-off row for an endpoint model",
    )
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint")
    parser.add_argument("--k", type=positive, default=4, help="seeds per case (default 4)")
    parser.add_argument(
        "--cases",
        choices=("core", "all", "smoke"),
        default=None,
        help="default: all for the offline models, core when an endpoint model is listed; "
        "smoke: the real-model smoke set (pipeline/evals/smoke, `make eval-local-smoke`)",
    )
    parser.add_argument(
        "--all", dest="cases", action="store_const", const="all", help="same as --cases all"
    )
    parser.add_argument(
        "--case", action="append", default=[], metavar="ID", help="only this case; repeatable"
    )
    parser.add_argument("--track", choices=("model", "product", "both"), default="both")
    parser.add_argument(
        "--split",
        choices=("tuning", "sealed", "both"),
        default="both",
        help="the tuning cases (tests quote them), the sealed ones (nothing quotes them), or "
        "both, reported apart (default both)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="product track records write calls instead of running them; scored on those",
    )
    parser.add_argument(
        "--no-ablation", action="store_true", help="only all guards on (no row per guard)"
    )
    parser.add_argument(
        "--temperature",
        type=float,
        default=None,
        help="sampling temperature for endpoint models (default: the host's)",
    )
    parser.add_argument("--out", type=Path, default=Path("reports"), help="default: reports/")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when a model misses the ship gate"
    )
    parser.add_argument(
        "--readings",
        action="store_true",
        help="only the task readings: each --model that reads tasks (an openai endpoint) reads "
        "the tuning and sealed requests it has not read yet, kept in --readings-cache, and "
        "the kept readings are judged with today's reader; writes eval-readings.md and .json "
        "(no runs)",
    )
    parser.add_argument(
        "--readings-cache",
        type=Path,
        default=None,
        metavar="PATH",
        help="with --readings: where the model's readings are kept (default "
        "reports/readings-NAME.json); they depend on the requests and the prompt, not on the "
        "reader",
    )
    parser.add_argument(
        "--greedy-first",
        action="store_true",
        help="with --readings: ask each request first without the schema's grammar and keep "
        "the reading when the grammar allows it as written (the same tokens a constrained "
        "greedy decode picks); the others are then asked under the schema",
    )
    parser.add_argument(
        "--from-cache",
        action="store_true",
        help="with --readings: judge the kept readings only, asking no model",
    )
    parser.set_defaults(handler=_eval)


def _eval(args: argparse.Namespace, settings: Settings) -> int:
    if args.readings:
        return asyncio.run(_readings(args, settings))
    specs_text: Sequence[str] = args.model or DEFAULT_MODELS
    subset = args.cases or default_cases(specs_text)
    if subset == "smoke":
        smoke = load_cases(SMOKE_DIR, split="smoke")
        cases = select_cases(smoke, subset="all", ids=args.case, splits=("smoke",))
    else:
        splits = SPLITS if args.split == "both" else (args.split,)
        cases = select_cases(load_all_cases(), subset=subset, ids=args.case, splits=splits)
    started = time.perf_counter()
    report = asyncio.run(_evaluate(args, settings, cases, specs_text, started))
    json_path, md_path = write_reports(report, args.out)
    print(render_summary(report))
    print(f"reports: {md_path} and {json_path}")
    if args.strict and any(
        m["ship_gate"] is not None and not m["ship_gate"]["passed"] for m in report["models"]
    ):
        return 1
    return 0


async def _evaluate(
    args: argparse.Namespace,
    settings: Settings,
    cases: Sequence[Case],
    specs_text: Sequence[str],
    started: float,
) -> Report:
    engine = make_engine(
        settings.ocr_engine,
        EngineOptions(threads=settings.ocr_threads, model_dir=settings.resolved_model_dir()),
    )
    ingestor = Ingestor(
        engine,
        config=IngestConfig(
            max_bytes=settings.max_upload_bytes,
            max_pixels=settings.max_image_pixels,
            tz=SAMPLES_ZONE,
            strategy=settings.strategy,
        ),
        cache=None,
        clock=lambda: EVAL_CLOCK,
    )
    limits = host_limits(settings)
    tracks = ("model", "product") if args.track == "both" else (args.track,)
    configs = guard_configs(RESPONSE_GUARDS, CALL_GUARDS, ablation=not args.no_ablation)
    screens = Screens(ingestor, now=EVAL_CLOCK)
    async with httpx.AsyncClient() as http:
        options = ModelOptions.from_settings(settings, http, base_url=args.base_url)
        specs = [_spec(text, options, args.temperature) for text in specs_text]
        if not args.no_baselines:
            specs += _companions(specs_text, options, args.temperature)
        labels = [s.label for s in specs]
        if len(set(labels)) != len(labels):
            raise ConfigError(f"a model is listed twice: {', '.join(labels)}")
        for case in cases:
            screens.get(case.images)
        with tempfile.TemporaryDirectory(prefix="stockshot-eval-") as scratch:
            store = SeededStore(Path(scratch), now=EVAL_CLOCK)
            bench = Workbench(screens, store, limits=limits, now=EVAL_CLOCK, progress=_progress)
            runs = await run_suite(
                bench,
                specs,
                cases,
                k=args.k,
                tracks=tracks,
                configs=configs,
                dry_run=args.dry_run,
            )
    uses_faults = any(s.label == "fault-replay" for s in specs)
    names = {n: w.warehouse_id for w in seed_data()[0] for n in (w.name, *w.aliases)}
    return build_report(
        runs,
        cases,
        k=args.k,
        guard_names=list(GuardSettings.model_fields),
        registered=[*RESPONSE_GUARDS, *CALL_GUARDS],
        dry_run=args.dry_run,
        clock=EVAL_CLOCK.isoformat(),
        wall_s=time.perf_counter() - started,
        ingest_ms=screens.ingest_ms,
        screenshots=screens.count,
        fault_policy=_policy(FaultPolicy()) if uses_faults else None,
        reader=reader_report(names),
    )


async def _readings(args: argparse.Namespace, settings: Settings) -> int:
    """Each reading model's readings of the tuning and sealed requests, asked once and kept
    (`pipeline.evals.modelreads`), judged with today's reader."""
    names = {n: w.warehouse_id for w in seed_data()[0] for n in (w.name, *w.aliases)}
    splits = SPLITS if args.split == "both" else (args.split,)
    sets = {"tuning": load_readings(PHRASINGS)} if "tuning" in splits else {}
    if "sealed" in splits:
        sets |= {f"sealed: {stem}": cases for stem, cases in sealed_readings().items()}
    if not args.model:
        raise ConfigError("--readings needs a --model that reads tasks (openai:NAME)")
    if args.readings_cache is not None and len(args.model) > 1:
        raise ConfigError("--readings-cache names one file: give one --model with it")
    prompt = fingerprint(names)
    # The requests the reader does not account for in full first, a set at a time from the
    # smallest: a run stopped early has read those today's figures depend on, a whole set's
    # where it could.
    everything = sorted(
        (case for cases in sorted(sets.values(), key=len) for case in cases),
        key=lambda case: _read_in_full(read_task(case.task, names, catalogue(case))),
    )
    judged: dict[str, dict[str, ModelReadings]] = {}
    async with httpx.AsyncClient() as http:
        options = ModelOptions.from_settings(settings, http, base_url=args.base_url)
        for text in args.model:
            path = args.readings_cache or Path("reports") / f"readings-{_file_name(text)}.json"
            cache = load_cache(path, text, prompt)
            if not args.from_cache:
                model = make_model(text, options)
                if not isinstance(model, SchemaAnswerer):
                    raise ConfigError(f"{text} does not read tasks (only an openai endpoint does)")
                asked = await read_into(
                    cache,
                    model,
                    everything,
                    names,
                    budget_s=settings.vlm_timeout_s,
                    save=partial(_keep, path),
                    progress=_progress,
                    greedy=model if args.greedy_first else None,
                )
                _progress(f"{text}: {asked} requests read now, kept in {path}")
            judged[text] = {split: judge(cache, sets[split], names) for split in sets}
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / "eval-readings.json"
    out.write_text(json.dumps({"models": judged}, ensure_ascii=False, indent=2) + "\n", "utf-8")
    markdown = args.out / "eval-readings.md"
    markdown.write_text(render_readings(judged), encoding="utf-8")
    print(render_readings(judged))
    print(f"reports: {markdown} and {out}")
    return 0


def _read_in_full(reading: TaskReading) -> bool:
    """The reader accounted for every word, or for words that make it a report whatever any
    reading says: a model's reading changes nothing the run does."""
    return reading.contract.understood or reading.stop is not None


def _keep(path: Path, cache: ReadingCache) -> None:
    save_cache(cache, path)


def _file_name(model: str) -> str:
    """A model spec as a file name (`openai:qwen2.5-coder-1.5b` -> `qwen2.5-coder-1.5b`)."""
    name = model.partition(":")[2] or model
    return "".join(c if c.isalnum() or c in "._-" else "-" for c in name)


def default_cases(models: Sequence[str]) -> str:
    """All cases for the offline models; the core ones once an endpoint model is listed, as
    each of its runs costs real generation time."""
    return "core" if any(text.partition(":")[0] == "openai" for text in models) else "all"


def _spec(text: str, options: ModelOptions, temperature: float | None) -> ModelSpec:
    kind, _, argument = text.partition(":")
    if text in _FAULTS:
        policy = FaultPolicy()
        return ModelSpec(
            "fault-replay",
            lambda case_id, seed: FaultReplay(seed, case_id, policy=policy),
            deterministic=True,
            kind="replay",
        )
    if text == "rules":
        return ModelSpec("rules", lambda case_id, seed: RulesModel(), deterministic=True)
    if text in BASELINES:
        pick = BASELINES[text]
        cap = options.max_quantity
        return ModelSpec(
            f"baseline:{text}",
            lambda case_id, seed: OptionBaseline(
                pick, case_id=case_id, seed=seed, max_quantity=cap
            ),
            deterministic=True,
            kind="baseline",
        )
    make_model(text, options)  # a bad spec or a missing endpoint fails before any run
    if kind == "scripted":
        return ModelSpec(
            f"scripted replay:{argument}",
            lambda case_id, seed: make_model(text, options),
            kind="replay",
        )
    model = make_model(text, options)
    greedy = not temperature
    return ModelSpec(
        text, lambda case_id, seed: seeded(model, seed, temperature), deterministic=greedy
    )


def _companions(
    specs_text: Sequence[str], options: ModelOptions, temperature: float | None
) -> list[ModelSpec]:
    """What a real model's figures are read against: the two baselines that pick among the
    step schema's alternatives without reading, and each endpoint model again with every
    narrowing of the step schema off (under schema steps; native calls are not narrowed)."""
    listed = set(specs_text)
    out = [_spec(name, options, temperature) for name in BASELINES if name not in listed]
    for text in specs_text:
        if text.partition(":")[0] != "openai" or options.steps == "native":
            continue
        bare = replace(options, narrowing=_NO_NARROWING)
        spec = _spec(text, bare, temperature)
        out.append(replace(spec, label=f"{text} (narrowings off)"))
    return out


def _policy(policy: FaultPolicy) -> PolicyDoc:
    return {
        "fault_rate": policy.fault_rate,
        "fix_rate": policy.fix_rate,
        "vary_rate": policy.vary_rate,
        "faults": list(policy.faults),
        "weights": dict(policy.weights),
        "truncation_need": list(policy.truncation_need),
        "ignore_task_rate": policy.ignore_task_rate,
        "faults_known": list(FAULT_KINDS),
        "rule": (
            "each planned step meets one fault (picked by the weights among those that fit) "
            "with probability fault_rate the first time it comes up; after feedback (a tool "
            "error, a guard block, a host message) the replay sends the planned step with "
            "probability "
            "fix_rate, else repeats itself (same text, or the refused calls again: identically, "
            "or with probability vary_rate with an unrelated field changed); a read loop goes "
            "on until a result says otherwise; with probability ignore_task_rate a run whose "
            "task is not the plain replenishment ignores the task and plans that instead, "
            "until a block citing the task contract fixes it (fix_rate); draws are seeded by "
            "seed, case and step"
        ),
    }


def _progress(line: str) -> None:
    print(f"  {line}", file=sys.stderr, flush=True)
