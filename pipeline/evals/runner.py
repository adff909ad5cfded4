"""Running cases on the two tracks.

- Model track: one `model.request` per case and seed, with the run's opening messages (the
  system prompt built from the real servers' instructions, and the opening user message) and
  the run's tools; only the first tool call is scored.
- Product track: the whole host loop, with a given set of guards, against in-memory MCP servers
  over a scratch copy of the seeded store; the ledger is scored afterwards (or, in a dry run,
  the write calls the run recorded).

Every run gets a fresh model from its `ModelSpec` (the fault replay keeps state per run) and a
fresh scratch store; screenshots are ingested once per evaluation (`Screens`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from mcp.server.mcpserver import MCPServer

from pipeline.contract import read_task
from pipeline.errors import StockshotError
from pipeline.evals.cases import Case, first_calls
from pipeline.evals.faults import FaultReplay
from pipeline.evals.results import CaseRun, ModelKind, TrackRuns, case_run
from pipeline.evals.scoring import Verdict, score_dry_run, score_first_call, score_ledger
from pipeline.evals.scratch import SeededStore, read_ledger
from pipeline.evals.screens import Screens
from pipeline.host import (
    ALL_GROUPS,
    CallGuard,
    HostLimits,
    MemoryTarget,
    ResponseGuard,
    Run,
    Toolbox,
    choose_groups,
    from_ingest,
    offered_tools,
    opening_message,
    run_task,
    switched_on,
    system_prompt,
    warehouse_names,
)
from pipeline.models import JsonObject, Message, ModelResponse, ModelSettings, ToolSpec
from pipeline.settings import GuardSettings
from pipeline.vlm.base import Model, SchemaAnswerer
from servers.factory import build_server
from store.protocol import Store
from store.stores import open_store

__all__ = [
    "GuardConfig",
    "ModelSpec",
    "Progress",
    "SeededAnswerer",
    "SeededModel",
    "Workbench",
    "guard_configs",
    "run_suite",
    "seeded",
]

Progress = Callable[[str], None]


@dataclass(frozen=True)
class ModelSpec:
    """A model under evaluation: a label and a factory for a fresh instance per run. The
    factory gets the case id and the seed, never the case itself: a model learns what a case
    expects only from the conversation, as a real one does."""

    label: str
    make: Callable[[str, int], Model]
    deterministic: bool = False
    kind: ModelKind = "model"
    """`model` (a real one, or the rules planner), `baseline` (picks among the step schema's
    alternatives without reading: `pipeline.evals.baselines`) or `replay` (the fault replay, a
    scripted file): only a `model` is held to the ship gate."""
    """The same conversation always gets the same reply (rules, the fault replay, an endpoint at
    temperature 0). Then a run with a guard off that never acted with it on would repeat the
    all-on run exactly, so the all-on result is reused instead of run again."""


class SeededModel:
    """Passes the run's seed (and a sampling temperature, if given) to an endpoint model."""

    def __init__(self, inner: Model, seed: int, temperature: float | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.seed = seed
        self.temperature = temperature

    def with_seed(self, settings: ModelSettings) -> ModelSettings:
        """`settings` with the run's seed, and the temperature if one was given."""
        update: dict[str, object] = {"seed": self.seed}
        if self.temperature is not None:
            update["temperature"] = self.temperature
        return settings.model_copy(update=update)

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        return await self.inner.request(messages, tools, self.with_seed(settings))


class SeededAnswerer(SeededModel):
    """A `SeededModel` over a model that also answers under a schema (it reads the task)."""

    async def answer_schema(
        self,
        messages: Sequence[Message],
        schema: JsonObject,
        settings: ModelSettings,
        *,
        name: str,
    ) -> ModelResponse:
        assert isinstance(self.inner, SchemaAnswerer)
        return await self.inner.answer_schema(messages, schema, self.with_seed(settings), name=name)


def seeded(inner: Model, seed: int, temperature: float | None = None) -> SeededModel:
    """`inner` with the run's seed; one that reads tasks keeps doing so."""
    if isinstance(inner, SchemaAnswerer):
        return SeededAnswerer(inner, seed, temperature)
    return SeededModel(inner, seed, temperature)


@dataclass(frozen=True)
class GuardConfig:
    """The guards of one product-track configuration: all on, or one switched off."""

    label: str
    off: str | None
    response: Mapping[str, ResponseGuard]
    call: Mapping[str, CallGuard]


def guard_configs(
    response_guards: Mapping[str, ResponseGuard],
    call_guards: Mapping[str, CallGuard],
    *,
    ablation: bool = True,
) -> list[GuardConfig]:
    """All guards on, then (with `ablation`) each guard of `GuardSettings` switched off in turn,
    through the same switches `STOCKSHOT_GUARDS__<NAME>=false` sets."""

    def enabled(switches: GuardSettings) -> tuple[dict[str, ResponseGuard], dict[str, CallGuard]]:
        return switched_on(switches.model_dump(), response_guards, call_guards)

    configs = [GuardConfig("all guards on", None, *enabled(GuardSettings()))]
    if ablation:
        for name in GuardSettings.model_fields:
            off = GuardSettings.model_validate({name: False})
            configs.append(GuardConfig(f"{name} off", name, *enabled(off)))
    return configs


class Workbench:
    """Everything a run needs that is shared across runs: cases' screenshots, the seeded store,
    the host limits and the clock of the evaluation."""

    def __init__(
        self,
        screens: Screens,
        store: SeededStore,
        *,
        limits: HostLimits,
        now: datetime,
        progress: Progress | None = None,
    ) -> None:
        self.screens = screens
        self.store = store
        self.limits = limits
        self.now = now
        self.progress = progress or (lambda _line: None)

    def clock(self) -> datetime:
        return self.now

    async def model_track(
        self, spec: ModelSpec, cases: Sequence[Case], seeds: Sequence[int]
    ) -> TrackRuns:
        track = TrackRuns(spec.label, "model", "model track", None, kind=spec.kind)
        started = time.perf_counter()
        path = self.store.scratch("model-track")
        try:
            with open_store(str(path)) as db:
                targets = [MemoryTarget(g, self._server(g, db)) for g in ALL_GROUPS]
                async with Toolbox(targets) as toolbox:
                    for seed in seeds:
                        for case in cases:
                            track.add(await self._first_call(spec, case, seed, toolbox))
        finally:
            self.store.discard(path)
        track.wall_s = time.perf_counter() - started
        self._report(track)
        return track

    async def _first_call(
        self, spec: ModelSpec, case: Case, seed: int, toolbox: Toolbox
    ) -> CaseRun:
        names = await warehouse_names(toolbox, run_id=f"eval-{case.id}-{seed}")
        contract = read_task(case.task, names).contract
        groups = choose_groups(contract)
        attachments = from_ingest(self.screens.get(case.images))
        messages = [
            Message(role="system", content=system_prompt(toolbox.instructions, groups)),
            opening_message(case.task, attachments, self.now, contract),
        ]
        tools = offered_tools(toolbox.tools, groups, contract)
        started = time.perf_counter()
        try:
            model = spec.make(case.id, seed)
            response = await model.request(
                messages, tools, ModelSettings(max_tokens=self.limits.max_tokens)
            )
        except StockshotError as exc:
            return CaseRun(case.id, seed, False, f"the model failed: {exc}", status="error")
        elapsed_ms = (time.perf_counter() - started) * 1000
        verdict = score_first_call(first_calls(case, self.screens.samples_dir), response, tools)
        faults = (
            dict(Counter(f"{e.action}:{e.kind}" for e in model.events))
            if isinstance(model, FaultReplay)
            else {}
        )
        return CaseRun(
            case.id,
            seed,
            verdict.passed,
            verdict.reason,
            status="done",
            final_by="model",
            hops=1,
            tokens=response.usage.prompt_tokens + response.usage.completion_tokens,
            usage={
                "prompt": response.usage.prompt_tokens,
                "completion": response.usage.completion_tokens,
                "cached": response.usage.cached_tokens,
            },
            steps={
                **({response.steps: 1} if response.steps else {}),
                **({"schema_invalid": 1} if response.schema_valid is False else {}),
            },
            notes=[response.note] if response.note else [],
            wall_ms=elapsed_ms,
            model_ms=elapsed_ms,
            faults=faults,
        )

    async def product_track(
        self,
        spec: ModelSpec,
        cases: Sequence[Case],
        seeds: Sequence[int],
        guards: GuardConfig,
        *,
        dry_run: bool = False,
        all_on: TrackRuns | None = None,
    ) -> TrackRuns:
        """Every case and seed with `guards`; with `all_on` (the same model's all-on runs, for a
        deterministic model and a one-guard-off configuration), a run whose guard never acted
        is taken from there."""
        track = TrackRuns(
            spec.label,
            "dry run" if dry_run else "product",
            guards.label,
            guards.off,
            kind=spec.kind,
        )
        started = time.perf_counter()
        for k, seed in enumerate(seeds):
            for case in cases:
                earlier = all_on.runs.get(case.id, []) if all_on else []
                if guards.off and k < len(earlier) and not earlier[k].acted(guards.off):
                    track.add(replace(earlier[k], reused=True))
                    continue
                track.add(await self._full_run(spec, case, seed, guards, dry_run=dry_run))
        track.wall_s = time.perf_counter() - started
        self._report(track)
        return track

    async def _full_run(
        self, spec: ModelSpec, case: Case, seed: int, guards: GuardConfig, *, dry_run: bool
    ) -> CaseRun:
        attachments = from_ingest(self.screens.get(case.images))
        keys = [(o.sku, o.warehouse_id) for o in case.expect.orders]
        path = self.store.scratch(case.id, case.store)
        started = time.perf_counter()
        try:
            with open_store(str(path)) as db:
                before = read_ledger(db, keys, all_stock=dry_run)
                # Every group: the run reads the task (with the store's warehouse names, and
                # the model's own reading where it gives one) and takes the groups it needs.
                targets = [MemoryTarget(g, self._server(g, db)) for g in ALL_GROUPS]
                try:
                    model = spec.make(case.id, seed)
                    async with Toolbox(targets) as toolbox:
                        record = await run_task(
                            Run(
                                task=case.task,
                                model=model,
                                toolbox=toolbox,
                                attachments=attachments,
                                limits=self.limits,
                                dry_run=dry_run,
                                response_guards=guards.response,
                                call_guards=guards.call,
                                clock=self.clock,
                                run_id=f"eval-{case.id}-{seed}",
                                model_reads_task=True,
                            )
                        )
                except StockshotError as exc:
                    return CaseRun(case.id, seed, False, f"the run failed: {exc}", status="error")
                after = read_ledger(db)
        finally:
            self.store.discard(path)
        cap = self.store.max_order_quantity
        verdict: Verdict = (
            score_dry_run(case, before, record, max_quantity=cap)
            if dry_run
            else score_ledger(case, before, after, record, max_quantity=cap)
        )
        run = case_run(case, seed, verdict, record, time.perf_counter() - started)
        if isinstance(model, FaultReplay):
            run.faults = dict(Counter(f"{e.action}:{e.kind}" for e in model.events))
        return run

    def _server(self, group: str, db: Store) -> MCPServer:
        return build_server(
            group, db, max_order_quantity=self.store.max_order_quantity, clock=self.clock
        )

    def _report(self, track: TrackRuns) -> None:
        total = sum(len(runs) for runs in track.runs.values())
        passed = sum(r.passed for runs in track.runs.values() for r in runs)
        self.progress(
            f"{track.model} · {track.track} · {track.config}: {passed}/{total} runs passed "
            f"({track.wall_s:.1f} s)"
        )


async def run_suite(
    bench: Workbench,
    specs: Sequence[ModelSpec],
    cases: Sequence[Case],
    *,
    k: int,
    tracks: Sequence[str],
    configs: Sequence[GuardConfig],
    dry_run: bool = False,
) -> list[TrackRuns]:
    """Every model on the tracks asked for: the model track once, the product track once per
    guard configuration; each over all cases and k seeds."""
    seeds = list(range(k))
    done: list[TrackRuns] = []
    for spec in specs:
        if "model" in tracks:
            done.append(await bench.model_track(spec, cases, seeds))
        if "product" in tracks:
            all_on: TrackRuns | None = None
            for config in configs:
                track = await bench.product_track(
                    spec,
                    cases,
                    seeds,
                    config,
                    dry_run=dry_run,
                    all_on=all_on if spec.deterministic else None,
                )
                if config.off is None:
                    all_on = track
                done.append(track)
    return done
