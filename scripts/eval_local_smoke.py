"""The real-model smoke check (`make eval-local-smoke`): a served model on the smoke set.

Runs `stockshot eval --cases smoke` for `openai:MODEL` at BASE_URL beside the first-option
baseline (the same step schema, picking without reading), both tracks, k = 1, schema steps on
the JSON-object wire, and writes the generated report into reports/eval-local.md (the section
between the smoke markers, replaced each run) and reports/eval-local.json (one entry a run):
both views, the product (what the user got) and the model's own (the host's rescues counted
as the model's failures), with the baseline beside them.

A model that cannot be reached is not skipped: its runs fail and score 0, the report says so
in bold, and the command exits 1 with the reason. Start the model first:

    make local-model LOCAL_MODEL=qwen2.5-coder-1.5b
    make eval-local-smoke LOCAL_MODEL=qwen2.5-coder-1.5b
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- smoke:start (written by scripts/eval_local_smoke.py) -->"
END = "<!-- smoke:end -->"
ENV = {
    "STOCKSHOT_VLM_STEPS": "schema",
    "STOCKSHOT_VLM_SCHEMA_WIRE": "json_object",
    "STOCKSHOT_VLM_TIMEOUT_S": "900",
    "STOCKSHOT_VLM_RETRIES": "1",
    "STOCKSHOT_WALL_CLOCK_S": "3600",
}


def say(message: str) -> None:
    print(f"eval-local-smoke: {message}", file=sys.stderr, flush=True)


def answers(base_url: str) -> str | None:
    """None when the endpoint lists its models, else why not. A server that answers one
    request at a time may be busy with another client's for minutes: it is given that long."""
    try:
        with urllib.request.urlopen(f"{base_url.rstrip('/')}/models", timeout=300) as r:  # noqa: S310
            json.load(r)
        return None
    except (OSError, urllib.error.URLError, ValueError) as exc:
        return f"no model server answers at {base_url} ({exc})"


def evaluate(model: str, base_url: str, out: Path, cases: list[str]) -> int:
    command = [
        sys.executable,
        "-m",
        "pipeline.cli",
        "eval",
        "--model",
        f"openai:{model}",
        "--model",
        "first-option",
        "--no-baselines",
        "--base-url",
        base_url,
        "--cases",
        "smoke",
        "--k",
        "1",
        "--track",
        "both",
        "--no-ablation",
        "--out",
        str(out),
        *(arg for case in cases for arg in ("--case", case)),
    ]
    say(" ".join(command))
    return subprocess.run(command, cwd=ROOT, env={**os.environ, **ENV}, check=False).returncode


def unreached(report: dict[str, Any], label: str) -> tuple[int, int]:
    """(cases of `label` that failed because its endpoint did not answer, its cases), over
    both tracks (k = 1: a case is one run)."""
    failed = cases = 0
    for entry in report["models"]:
        if entry["model"] != label:
            continue
        for key in ("model_track", "product"):
            track = entry.get(key) or {}
            cases += int(track.get("cases", 0))
            failed += sum(
                "endpoint" in str(reason) for reason in track.get("failures", {}).values()
            )
    return failed, cases


def section(
    model: str, base_url: str, markdown: str, summary: str, problem: str | None, cases: int
) -> str:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    body = markdown.split("\n", 1)[1] if markdown.startswith("# ") else markdown
    body = "\n".join(f"##{line}" if line.startswith("#") else line for line in body.splitlines())
    lines = [
        START,
        f"## Smoke set: {model} beside the first-option baseline ({stamp}, {commit})",
        "",
        f"`make eval-local-smoke LOCAL_MODEL={model}` against {base_url}: the {cases} tasks of "
        "`pipeline/evals/smoke/cases.json` (replenish, report, exclusion, one SKU, an "
        "injected instruction, nothing low; English and Chinese; screenshots no core case "
        "uses; expectations written by hand), both tracks, k = 1, schema steps on the "
        "JSON-object wire. *passes* is the product view (what the user got), *model's own* the "
        "model's view (an answer the host wrote counts against the model).",
        "",
    ]
    if problem:
        lines += [f"**The model could not be reached: {problem}. Every run of it scores 0.**", ""]
    lines += ["```", summary.strip(), "```", "", body.strip(), END]
    return "\n".join(lines)


def splice(path: Path, text: str, start: str = START, end: str = END) -> None:
    """`text` (which begins with `start` and ends with `end`) in place of the section between
    those markers in `path`, or at its end when it has none."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Local model runs\n"
    if start in old and end in old:
        head, rest = old.split(start, 1)
        new = head + text + rest.split(end, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    path.write_text(new, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--base-url", default="http://127.0.0.1:8765/v1")
    parser.add_argument("--reports", type=Path, default=ROOT / "reports")
    parser.add_argument("--case", action="append", default=[], help="only this case; repeatable")
    args = parser.parse_args()
    problem = answers(args.base_url)
    if problem:
        say(f"{problem}; the model's runs will fail and score 0 (start it: make local-model)")
    with tempfile.TemporaryDirectory(prefix="stockshot-smoke-") as scratch:
        out = Path(scratch)
        status = evaluate(args.model, args.base_url, out, args.case)
        if status != 0 or not (out / "eval.json").exists():
            say(f"the evaluation itself failed (exit {status}); nothing was written")
            return status or 1
        report = json.loads((out / "eval.json").read_text(encoding="utf-8"))
        markdown = (out / "eval.md").read_text(encoding="utf-8")
    failed, runs = unreached(report, f"openai:{args.model}")
    if failed and not problem:
        problem = f"{failed} of its {runs} runs ended because its endpoint failed"
    summary = subprocess.run(
        [sys.executable, "-c", "import json,sys;from pipeline.evals.summary import "
         "render_summary;print(render_summary(json.load(sys.stdin)))"],
        cwd=ROOT, input=json.dumps(report), capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    cases = int(report["cases"]["total"])
    args.reports.mkdir(parents=True, exist_ok=True)
    splice(
        args.reports / "eval-local.md",
        section(args.model, args.base_url, markdown, summary, problem, cases),
    )
    store = args.reports / "eval-local.json"
    runs_by_name = json.loads(store.read_text(encoding="utf-8")) if store.exists() else {}
    key = f"{datetime.now(UTC):%Y-%m-%d %H:%M} smoke: {args.model}, {cases} tasks, both tracks"
    runs_by_name[key] = report
    store.write_text(json.dumps(runs_by_name, ensure_ascii=False, indent=2) + "\n", "utf-8")
    say(f"wrote {args.reports / 'eval-local.md'} and {store}")
    if problem:
        say(f"FAILED: {problem}; every run of openai:{args.model} scores 0")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
