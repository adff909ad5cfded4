"""A served model's readings of the sealed requests, judged with today's reader
(`make eval-local-readings`).

Runs `stockshot eval --readings --split sealed` for `openai:MODEL`: the model reads each
sealed request it has not read yet (one schema-constrained request each, kept in
reports/readings-MODEL.json as it goes: a stopped run keeps what it read and the next one goes
on from there), then every kept reading is judged with the reader as it is now. With
--from-cache no model is asked: after a change to the reader the figures are made again in
seconds. The judged figures replace the readings section of reports/eval-local.md (between
the readings markers): the right readings the model cost, and for each request the reader did
not read in full, whether the model's suggestion (shown to a person, never acted on without a
yes) is right.

    make local-model LOCAL_MODEL=qwen2.5-coder-1.5b
    make eval-local-readings LOCAL_MODEL=qwen2.5-coder-1.5b        # reads, then reports
    make eval-local-readings LOCAL_MODEL=qwen2.5-coder-1.5b FROM_CACHE=1   # reports only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from statistics import median

from eval_local_smoke import ROOT, answers, splice

START = "<!-- readings:start (written by scripts/eval_local_readings.py) -->"
END = "<!-- readings:end -->"
ENV = {
    "STOCKSHOT_VLM_SCHEMA_WIRE": "json_object",
    "STOCKSHOT_VLM_TIMEOUT_S": "900",
    "STOCKSHOT_VLM_RETRIES": "1",
}


def say(message: str) -> None:
    print(f"eval-local-readings: {message}", file=sys.stderr, flush=True)


def command(model: str, base_url: str, cache: Path, out: Path, from_cache: bool) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pipeline.cli",
        "eval",
        "--readings",
        "--model",
        f"openai:{model}",
        "--base-url",
        base_url,
        "--split",
        "sealed",
        "--readings-cache",
        str(cache),
        "--out",
        str(out),
        *(["--from-cache"] if from_cache else []),
    ]


def cache_line(cache: Path) -> str:
    """How many requests the cache holds and how long the model took over them."""
    if not cache.exists():
        return "The model has read no request yet."
    kept = json.loads(cache.read_text(encoding="utf-8"))["readings"]
    seconds = [float(r["seconds"]) for r in kept.values()]
    none = sum(r["contract"] is None for r in kept.values())
    quick = sum(r["decoding"] != "constrained" for r in kept.values())
    if not seconds:
        return "The model has read no request yet."
    return (
        f"`{cache.relative_to(ROOT) if cache.is_relative_to(ROOT) else cache}` holds "
        f"{len(kept)} readings ({none} with no reading: too late or outside the schema; "
        f"{quick} kept from the plain greedy answer, {len(kept) - quick} decoded under the "
        "grammar); "
        f"a request took {median(seconds):.0f} s (median), {max(seconds):.0f} s at most, "
        "on this machine's 2 shared cores."
    )


def section(model: str, base_url: str, body: str, cache: Path, asked: bool) -> str:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    how = "read by the model and judged" if asked else "judged from the kept readings"
    lines = [
        START,
        f"## Task readings on the sealed sets: {model} ({stamp}, reader at {commit})",
        "",
        f"`make eval-local-readings LOCAL_MODEL={model}` against {base_url} ({how}; "
        f"`FROM_CACHE=1` judges the kept readings with the reader of the day, asking no "
        "model), which runs:",
        "",
        "```sh",
        " ".join(f"{k}={v}" for k, v in ENV.items()) + " \\",
        f"  stockshot eval --readings --model openai:{model} --base-url {base_url} \\",
        f"  --split sealed --readings-cache reports/readings-{model}.json \\",
        "  [--from-cache]    # judge the kept readings, ask no model",
        "```",
        "",
        "Each sealed request (`pipeline/evals/sealed/readings*.json`, ids and counts only) is "
        "read by the reader, by the model (one schema-constrained request at temperature 0, "
        "as a run asks it, kept), and as the "
        "run acts on it (`pipeline.contract.settle`: the reader's full reading stands; else "
        "the meet of its fallback and the model's reading), each judged against the "
        "hand-written meaning: *right*, *safe miss* (allows less), *wider* (allows more than "
        "meant). *Right readings lost*: right for the reader alone, not right as the run acts "
        "on it. The model reads the requests the reader does not account for in full first; "
        "a request it has not read yet is judged as if it gave no reading.",
        "",
        cache_line(cache),
        "",
        body.strip(),
        END,
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--base-url", default="http://127.0.0.1:8765/v1")
    parser.add_argument("--reports", type=Path, default=ROOT / "reports")
    parser.add_argument(
        "--from-cache", action="store_true", help="judge the kept readings; ask no model"
    )
    args = parser.parse_args()
    cache = args.reports / f"readings-{args.model}.json"
    if not args.from_cache:
        problem = answers(args.base_url)
        if problem:
            say(f"{problem}; start it (make local-model) or pass --from-cache")
            return 1
    with tempfile.TemporaryDirectory(prefix="stockshot-readings-") as scratch:
        out = Path(scratch)
        run = command(args.model, args.base_url, cache, out, args.from_cache)
        say(" ".join(run))
        status = subprocess.run(run, cwd=ROOT, env={**os.environ, **ENV}, check=False).returncode
        if status != 0 or not (out / "eval-readings.md").exists():
            say(f"the evaluation itself failed (exit {status}); the report was not changed")
            return status or 1
        body = (out / "eval-readings.md").read_text(encoding="utf-8")
    args.reports.mkdir(parents=True, exist_ok=True)
    target = args.reports / "eval-local.md"
    splice(
        target,
        section(args.model, args.base_url, body, cache, not args.from_cache),
        START,
        END,
    )
    say(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
