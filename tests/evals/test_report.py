"""The evaluation report: what the user got and what the model did, side by side."""

from pipeline.evals.cases import load_all_cases
from pipeline.evals.document import Report
from pipeline.evals.markdown import render_markdown
from pipeline.evals.report import build_report, score
from pipeline.evals.results import CaseRun, ModelKind, TrackRuns

CASES = [c for c in load_all_cases() if c.split == "tuning"][:3]


def _track(model: str, final_by: list[str], kind: ModelKind = "model") -> TrackRuns:
    track = TrackRuns(model, "product", "all guards on", None, kind=kind)
    for case, by in zip(CASES, final_by, strict=True):
        track.add(CaseRun(case.id, 0, passed=True, reason="ok", status="done", final_by=by))
    return track


def _report(*tracks: TrackRuns) -> Report:
    return build_report(
        tracks,
        CASES,
        k=1,
        guard_names=[],
        registered=[],
        dry_run=False,
        clock="2026-12-01T09:00:00+08:00",
        wall_s=1.0,
        ingest_ms=1.0,
        screenshots=1,
        fault_policy=None,
    )


def test_an_answer_the_host_wrote_is_the_products_pass_and_the_models_failure() -> None:
    track = _track("m", ["model", "host", "host"])
    assert score(track, set())["mean"] == 3
    own = score(track, set(), view="model")
    assert own["mean"] == 1 and own["pass_k"] == 1
    assert "the host wrote the answer" in own["failures"][CASES[1].id]


def test_the_report_shows_both_views_the_rescued_runs_and_what_a_model_adds() -> None:
    report = _report(
        _track("m", ["model", "model", "host"]),
        _track("baseline:first-option", ["host", "host", "host"], kind="baseline"),
    )
    model, baseline = report["models"]
    assert model["rescued"] == {"runs": 1, "cases": [CASES[2].id]}
    assert model["ship_gate"] is not None and baseline["ship_gate"] is None
    (contribution,) = report["contributions"]
    assert contribution["product_mean"] == 0 and contribution["model_mean"] == 2
    markdown = render_markdown(report)
    assert "model's own (mean)" in markdown and "rescued by the host (runs)" in markdown
    assert "not gated (baseline)" in markdown
