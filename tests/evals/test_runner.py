"""The tracks over the real cases: rules passes every one, and guard switches reach the loop."""

import pytest

from pipeline.evals.cases import Case
from pipeline.evals.faults import FaultPolicy, FaultReplay
from pipeline.evals.report import score
from pipeline.evals.results import TrackRuns
from pipeline.evals.runner import ModelSpec, Workbench, guard_configs
from pipeline.evals.scratch import SeededStore
from pipeline.evals.screens import EVAL_CLOCK, Screens
from pipeline.host.guards import CALL_GUARDS, RESPONSE_GUARDS
from pipeline.host.loop import HostLimits
from pipeline.settings import GuardSettings
from pipeline.vlm.rules import RulesModel
from tests.evals.conftest import case_by_id

RULES = ModelSpec("rules", lambda case_id, seed: RulesModel())
CONFIGS = guard_configs(RESPONSE_GUARDS, CALL_GUARDS)
ALL_ON = CONFIGS[0]


@pytest.fixture
def bench(screens: Screens, seeded: SeededStore) -> Workbench:
    return Workbench(screens, seeded, limits=HostLimits(), now=EVAL_CLOCK)


def _failures(track: TrackRuns) -> dict[str, str]:
    return {c: r.reason for c, runs in track.runs.items() for r in runs if not r.passed}


def test_guard_configs_are_all_on_then_each_guard_off_in_turn() -> None:
    assert [c.off for c in CONFIGS] == [None, *GuardSettings.model_fields]
    everything = {*RESPONSE_GUARDS, *CALL_GUARDS}
    assert {*ALL_ON.response, *ALL_ON.call} == everything
    for config in CONFIGS[1:]:
        assert {*config.response, *config.call} == everything - {config.off}


async def test_rules_passes_every_case_on_the_product_track_with_all_guards_on(
    bench: Workbench, cases: list[Case]
) -> None:
    track = await bench.product_track(RULES, cases, [0], ALL_ON)
    assert _failures(track) == {}
    assert len(track.runs) == len(cases)


async def test_rules_passes_every_case_on_the_model_track(
    bench: Workbench, cases: list[Case]
) -> None:
    assert _failures(await bench.model_track(RULES, cases, [0])) == {}


async def test_rules_passes_the_core_cases_in_a_dry_run_scored_on_recorded_writes(
    bench: Workbench, cases: list[Case]
) -> None:
    core = [c for c in cases if c.core]
    track = await bench.product_track(RULES, core, [0], ALL_ON, dry_run=True)
    assert _failures(track) == {}


async def test_a_stall_fails_the_ledger_only_when_the_stall_guard_is_off(
    bench: Workbench, cases: list[Case]
) -> None:
    policy = FaultPolicy(fix_rate=1.0, faults=("stall",))
    spec = ModelSpec("stalls", lambda case_id, seed: FaultReplay(seed, case_id, policy=policy))
    case = case_by_id(cases, "core-light-wh01")
    on = await bench.product_track(spec, [case], list(range(6)), ALL_ON)
    stalled = [r for r in on.runs[case.id] if r.faults.get("inject:stall") == 1]
    assert stalled and all(r.passed for r in stalled)
    stall_off = next(c for c in CONFIGS if c.off == "stall")
    off = await bench.product_track(spec, [case], [stalled[0].seed], stall_off)
    assert "missing SKU-10232@WH-01" in _failures(off)["core-light-wh01"]
    explained = score(off, {case.id})["failures"][case.id]
    assert "the run: done after" in explained and "(0 order calls)" in explained


async def test_a_deterministic_models_run_is_reused_only_where_the_switched_off_guard_never_acted(
    bench: Workbench, cases: list[Case]
) -> None:
    policy = FaultPolicy(fault_rate=0.2, fix_rate=1.0, faults=("stall",))
    spec = ModelSpec(
        "stalls",
        lambda case_id, seed: FaultReplay(seed, case_id, policy=policy),
        deterministic=True,
    )
    case = case_by_id(cases, "core-light-wh01")
    seeds = list(range(8))
    on = await bench.product_track(spec, [case], seeds, ALL_ON)
    stall_off = next(c for c in CONFIGS if c.off == "stall")
    off = await bench.product_track(spec, [case], seeds, stall_off, all_on=on)
    for before, after in zip(on.runs[case.id], off.runs[case.id], strict=True):
        assert after.reused == (not before.acted("stall"))
        if after.reused:
            assert after.passed == before.passed
    assert any(r.reused for r in off.runs[case.id])
    assert any(not r.reused and not r.passed for r in off.runs[case.id])
