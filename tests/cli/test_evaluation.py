"""`stockshot eval` end to end on two cases: both reports are written, the summary printed."""

import json
import socket
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.cli.evaluation import default_cases
from pipeline.ocr import OcrEngine


def run_eval(out: Path, *args: str) -> None:
    """`stockshot eval ARGS` with one draw per case, its reports written to `out`."""
    assert main(["eval", *args, "--k", "1", "--out", str(out)]) == 0


@pytest.fixture
def loaded_engine(monkeypatch: pytest.MonkeyPatch, rapidocr: OcrEngine) -> None:
    """The eval command reads its screens with the session's loaded OCR engine."""
    monkeypatch.setattr("pipeline.cli.evaluation.make_engine", lambda name, options: rapidocr)


@pytest.mark.usefixtures("loaded_engine")
def test_a_tiny_eval_run_writes_both_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "reports"
    run_eval(out, "--case", "core-light-wh01", "--case", "ask-cropped-no-warehouse")
    report = json.loads((out / "eval.json").read_text(encoding="utf-8"))
    markdown = (out / "eval.md").read_text(encoding="utf-8")
    assert [m["model"] for m in report["models"]] == [
        "rules",
        "fault-replay",
        "baseline:first-option",
        "baseline:random-option",
    ]
    rules = report["models"][0]
    # Only a model is held to the ship gate; the replay and the baselines are read against it.
    assert rules["ship_gate"] is not None
    assert [m["ship_gate"] for m in report["models"][1:]] == [None, None, None]
    assert [c["baseline"] for c in report["contributions"]] == [
        "baseline:first-option",
        "baseline:random-option",
    ]
    assert "## What the model adds over not reading" in markdown
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


def _dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port  # closed again: every connection to it is refused


@pytest.mark.usefixtures("loaded_engine")
def test_a_model_that_cannot_be_reached_passes_no_case_on_either_track(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STOCKSHOT_VLM_RETRIES", "0")
    out = tmp_path / "reports"
    run_eval(
        out,
        "--model",
        "openai:nobody-home",
        "--base-url",
        f"http://127.0.0.1:{_dead_port()}/v1",
        "--all",
        "--no-ablation",
        "--no-baselines",
    )
    report = json.loads((out / "eval.json").read_text(encoding="utf-8"))
    (entry,) = report["models"]
    assert report["cases"]["total"] > 100  # every case, tuning and sealed
    assert entry["model_track"]["mean"] == 0 and entry["model_track"]["pass_k"] == 0
    assert entry["product"]["mean"] == 0 and entry["product"]["pass_k"] == 0
    assert entry["ship_gate"]["passed"] is False
    failure = next(iter(entry["product"]["failures"].values()))
    assert "the run ended error" in failure and "connection" in failure.lower()
