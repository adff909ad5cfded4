"""Upload to rows over HTTP, as a client of a running `stockshot serve` waits for them, beside
a plain `RapidOCR()` process reading the same image in the same sitting.

    .venv/bin/python scripts/serve_times.py --code /tmp/then --code . --turns 3

Each turn starts one server per checkout (`python -m pipeline.cli serve`, its own fresh data
folder, the SQLite store), waits until `/readyz` answers 200, and times `POST /v1/ingest` until
the rows come back:

- `first`: the first upload the server gets, of bytes it has never seen;
- `miss`: a second upload of other bytes it has never seen (the same picture with another PNG
  comment, so the pixels and the work are the same);
- `hit`: the second upload's bytes again, a cache hit.

The plain process and the servers take their turns in the reverse order every other turn, so
a load that comes and goes falls on all alike. Each figure is the best of the turns, also as a
ratio to the plain process's best.
"""

from __future__ import annotations

import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.bench.commands import PLAIN, PLAIN_CODE, best_turns  # noqa: E402
from pipeline.bench.memory import serve_address  # noqa: E402

DEFAULT_IMAGE = ROOT / "samples" / "erp-light-wh01.png"
READY_S = 300.0


def with_comment(png: bytes, comment: str) -> bytes:
    """The same PNG with a `tEXt` comment before its end: other bytes, the same picture."""
    if not png.startswith(b"\x89PNG\r\n\x1a\n") or png[-12:-8] != b"\x00\x00\x00\x00":
        raise SystemExit("serve_times: the image must be a PNG (its bytes are varied per turn)")
    body = b"tEXt" + b"Comment\x00" + comment.encode("ascii")
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    return png[:-12] + chunk + png[-12:]


def _upload(client: httpx.Client, name: str, data: bytes) -> float:
    started = time.perf_counter()
    response = client.post("/v1/ingest", files={"file": (name, data, "image/png")})
    taken = time.perf_counter() - started
    response.raise_for_status()
    results = response.json()["results"]
    if not results or not results[0]["rows"]:
        raise SystemExit(f"serve_times: {name}: the server answered without rows")
    return taken


def serve_turn(code: Path, image: Path, turn: int, scratch: Path) -> dict[str, float]:
    """One fresh server on `code`: its first upload, another unseen one, then a hit."""
    data_dir = Path(tempfile.mkdtemp(dir=scratch, prefix="data-"))
    env = {k: v for k, v in os.environ.items() if k != "STOCKSHOT_API_KEYS"}
    env.update(PYTHONPATH=str(code), STOCKSHOT_DATA_DIR=str(data_dir))
    log = data_dir / "serve.log"
    command = [sys.executable, "-m", "pipeline.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
    png = image.read_bytes()
    with log.open("wb") as err:
        process = subprocess.Popen(
            command, cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=err
        )
    try:
        deadline = time.monotonic() + READY_S
        base = serve_address(log, process, deadline)
        if base is None:
            raise SystemExit(f"serve_times: {code}: serve did not start: {log.read_text()[-500:]}")
        with httpx.Client(base_url=base, timeout=READY_S) as client:
            while client.get("/readyz").status_code != 200:
                if time.monotonic() > deadline:
                    raise SystemExit(f"serve_times: {code}: /readyz never answered 200")
                time.sleep(0.2)
            first = with_comment(png, f"turn {turn} first")
            other = with_comment(png, f"turn {turn} other")
            return {
                "first": _upload(client, image.name, first),
                "miss": _upload(client, image.name, other),
                "hit": _upload(client, image.name, other),
            }
    finally:
        process.terminate()
        process.wait(timeout=60)


def _plain(image: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", PLAIN_CODE, str(image)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", action="append", type=Path, help="a checkout (repeat)")
    parser.add_argument("--image", type=Path, default=DEFAULT_IMAGE, help="a PNG")
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args(argv)
    codes: list[Path] = [c.resolve() for c in (args.code or [ROOT])]
    image = args.image.resolve()
    times: dict[str, list[float]] = {PLAIN: []}
    jobs: list[str] = [PLAIN, *(str(c) for c in codes)]
    with tempfile.TemporaryDirectory(prefix="serve-times-") as tmp:
        for turn in range(args.turns):
            for job in jobs if turn % 2 == 0 else jobs[::-1]:
                if job == PLAIN:
                    times[PLAIN].append(_plain(image))
                    continue
                for upload, took in serve_turn(Path(job), image, turn, Path(tmp)).items():
                    times.setdefault(f"{upload} {job}", []).append(took)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.turns} turns each, best of them, on {image.name}; load average now {load}")
    print("\n".join(best_turns(times)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
