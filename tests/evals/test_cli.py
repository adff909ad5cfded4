"""`stockshot eval` end to end on two cases: both reports are written, the summary printed."""

import json
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.evals.cli import default_cases
from pipeline.ocr import OcrEngine


def test_a_tiny_eval_run_writes_both_reports(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rapidocr: OcrEngine,
) -> None:
    monkeypatch.setattr("pipeline.evals.cli.make_engine", lambda name, options: rapidocr)
    out = tmp_path / "reports"
    code = main(
        [
            "eval",
            "--case",
            "core-light-wh01",
            "--case",
            "ask-cropped-no-warehouse",
            "--k",
            "1",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    report = json.loads((out / "eval.json").read_text(encoding="utf-8"))
    markdown = (out / "eval.md").read_text(encoding="utf-8")
    assert [m["model"] for m in report["models"]] == ["rules", "fault-replay"]
    rules = report["models"][0]
    assert rules["product"]["pass_k"] == 2 and rules["model_track"]["pass_k"] == 2
    assert [row["guard"] for row in rules["ablation"]] == report["guards"]["names"]
    assert len(rules["ablation"]) == 11
    assert "## Per family" in markdown
    assert report["k"] == 1 and report["cases"]["total"] == 2
    assert report["fault_policy"]["fault_rate"] == 0.4
    assert "## What each guard earns" not in markdown or "### What each guard earns" in markdown
    assert "| rules |" in markdown
    replay = report["models"][1]["requests"]
    assert replay["model_track"]["requests"] == 2  # one request per case on the model track
    assert replay["product_all_on"]["requests"] >= 2
    assert replay["product_all_on"]["median_tokens"] > 0  # the replay estimates its tokens
    assert "Per model request, product track, all guards on" in markdown
    printed = capsys.readouterr().out
    assert "ship gate" in printed and "model track (first call)" in printed


def test_an_unknown_case_id_is_an_error_that_lists_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--case", "nope", "--out", str(tmp_path)]) == 2
    assert "unknown case id(s) nope" in capsys.readouterr().err


def test_endpoint_models_run_the_core_cases_unless_all_are_asked_for() -> None:
    assert default_cases(["rules", "faults"]) == "all"
    assert default_cases(["scripted:replay.json"]) == "all"
    assert default_cases(["rules", "openai:qwen2.5-coder-0.5b"]) == "core"
