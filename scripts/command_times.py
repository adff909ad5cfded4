"""Whole commands as a person waits for them, one process each, beside a plain `RapidOCR()`
process reading the same image in the same sitting, for several versions of the code side by
side (`stockshot bench` measures the same commands for the code it runs, in
`pipeline.bench.commands`, which declares them). Each version of the code runs from its own
checkout with its own fresh data folder, and every command takes its turns alongside the others
(in the reverse order every other turn), so a load that comes and goes falls on all alike.

    .venv/bin/python scripts/command_times.py --code /tmp/then --code . --turns 3

Timed, best of the turns, as a ratio to the plain RapidOCR process:

- `hit`: `stockshot ingest IMAGE` of a screenshot already in the cache;
- `run`: `stockshot run` of the demo task with the `rules` model on that cached screenshot,
  against the demo catalogue (re-seeded before each turn, untimed, so every turn raises the
  same orders).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.bench.commands import COMMANDS, PLAIN, PLAIN_CODE, best_turns, cli  # noqa: E402

DEFAULT_IMAGE = ROOT / "samples" / "erp-light-wh01.png"


def _env(code: Path, data: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(code), "STOCKSHOT_DATA_DIR": str(data)}


def _timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    quiet = subprocess.DEVNULL
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=quiet, stderr=quiet)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", action="append", type=Path, help="a checkout (repeat)")
    parser.add_argument("--image", type=Path, default=DEFAULT_IMAGE)
    parser.add_argument("--turns", type=int, default=3, help="processes per command")
    parser.add_argument(
        "--command", action="append", choices=sorted(COMMANDS), help="which (default: all)"
    )
    args = parser.parse_args(argv)
    codes: list[Path] = [c.resolve() for c in (args.code or [Path.cwd()])]
    image = str(args.image.resolve())
    chosen = args.command or list(COMMANDS)
    times: dict[str, list[float]] = {PLAIN: []}
    with tempfile.TemporaryDirectory() as tmp:
        datas = {code: Path(tmp) / str(k) for k, code in enumerate(codes)}
        for code, data in datas.items():
            # The cache filled and the demo catalogue seeded, untimed.
            env = _env(code, data)
            subprocess.run(cli("store", "seed"), cwd=code, env=env, check=True)
            ingest = cli("ingest", image)
            subprocess.run(ingest, cwd=code, env=env, check=True, stdout=subprocess.DEVNULL)
        jobs: list[tuple[str, list[str], Path, dict[str, str]]] = [
            (
                PLAIN,
                [sys.executable, "-c", PLAIN_CODE, image],
                codes[0],
                dict(os.environ),
            )
        ]
        for name in chosen:
            for code, data in datas.items():
                label = f"{name} {code}"
                times[label] = []
                arguments = [a.format(image=image) for a in COMMANDS[name]]
                jobs.append((label, cli(*arguments), code, _env(code, data)))
        for turn in range(args.turns):
            for label, command, cwd, env in jobs if turn % 2 == 0 else jobs[::-1]:
                if label.startswith("run "):
                    seed = cli("store", "seed")
                    subprocess.run(seed, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
                times[label].append(_timed(command, cwd, env))
    print(f"{args.turns} turns each, best of them, on {Path(image).name}")
    print("\n".join(best_turns(times)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
