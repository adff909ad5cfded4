"""The watch folder: settled files only, done/ or failed/ exactly once, by hash, across restarts."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import queue
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import pytest

from pipeline.bootstrap import screen_shelf
from pipeline.cli import main
from pipeline.cli.watch import FileProgress
from pipeline.host.record import RunRecord
from pipeline.ingest import Ingestor
from pipeline.ingest.cache import IngestCache
from pipeline.models import IngestResult
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from pipeline.watch import Outcome, Summary, Watcher
from servers import catalog, domain
from store.models import OrderQuery, ProposalQuery
from store.stores import sqlite_store
from tests.api.conftest import variant
from tests.conftest import NOW, SAMPLES, cli_process, make_ingestor
from tests.host.conftest import SEEDED_AT

SAMPLE = SAMPLES / "overlay-black-wh02.png"
START = 1_800_000_000.0


class Clock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Counting:
    """The real ingestor, counting what it was asked to read."""

    def __init__(self, inner: Ingestor) -> None:
        self.inner = inner
        self.paths: list[str] = []

    def ingest_bytes(self, data: bytes, *, name: str, mtime: datetime | None) -> IngestResult:
        self.paths.append(name)
        return self.inner.ingest_bytes(data, name=name, mtime=mtime)


@pytest.fixture
def ingestor(rapidocr: OcrEngine, shared_cache: IngestCache) -> Counting:
    return Counting(make_ingestor(rapidocr, shared_cache))


def drop(folder: Path, name: str, data: bytes, at: float = START - 60) -> Path:
    path = folder / "inbox" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.utime(path, (at, at))
    return path


def watcher(root: Path, ingest: Any, clock: Clock | None = None, **kwargs: Any) -> Watcher:
    return Watcher(root, ingestor=ingest, clock=clock or Clock(), settle_s=2.0, **kwargs)


def result(root: Path, folder: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / folder / f"{name}.json").read_text("utf-8"))
    return data


def layout(root: Path) -> dict[str, list[str]]:
    return {
        folder: sorted(p.name for p in (root / folder).iterdir())
        for folder in ("inbox", "processing", "done", "failed")
    }


def test_a_screenshot_dropped_in_the_inbox_ends_in_done_with_its_result_beside_it(
    tmp_path: Path, ingestor: Counting
) -> None:
    drop(tmp_path, "wh02.png", SAMPLE.read_bytes())
    outcomes = watcher(tmp_path, ingestor).step()
    assert outcomes == [Outcome("wh02.png", "done", "10 rows, 6 low")]
    assert layout(tmp_path) == {
        "inbox": [],
        "processing": [],
        "done": ["wh02.png", "wh02.png.json"],
        "failed": [],
    }
    body = result(tmp_path, "done", "wh02.png")
    assert body["status"] == "done"
    assert body["sha256"] == body["ingest"]["sha256"]
    assert len(body["ingest"]["rows"]) == 10
    assert body["ingest"]["captured_at_source"] == "mtime"


def test_a_corrupt_file_ends_in_failed_with_the_reason_and_the_others_go_on(
    tmp_path: Path, ingestor: Counting
) -> None:
    drop(tmp_path, "a-broken.png", SAMPLE.read_bytes()[:3000], at=START - 90)
    drop(tmp_path, "b-notes.txt", b"not a picture", at=START - 80)
    drop(tmp_path, "c-good.png", SAMPLE.read_bytes(), at=START - 70)
    outcomes = watcher(tmp_path, ingestor).step()
    assert [(o.name, o.status) for o in outcomes] == [
        ("a-broken.png", "failed"),
        ("b-notes.txt", "failed"),
        ("c-good.png", "done"),
    ]
    broken = result(tmp_path, "failed", "a-broken.png")
    assert broken["status"] == "failed"
    assert broken["error_type"] == "UndecodableImageError"
    assert broken["error"].startswith("a-broken.png: corrupt or truncated PNG data")
    notes = result(tmp_path, "failed", "b-notes.txt")
    assert "send PNG, JPEG, WebP, BMP, TIFF or GIF" in notes["error"]
    assert layout(tmp_path)["failed"] == [
        "a-broken.png",
        "a-broken.png.json",
        "b-notes.txt",
        "b-notes.txt.json",
    ]


def test_a_file_still_being_written_is_not_taken_until_it_stops_changing(
    tmp_path: Path, ingestor: Counting
) -> None:
    clock = Clock()
    watch = watcher(tmp_path, ingestor, clock)
    data = SAMPLE.read_bytes()
    path = drop(tmp_path, "copying.png", data[:4000], at=clock.now)
    assert watch.step() == []
    clock.now += 1.5
    with path.open("ab") as handle:
        handle.write(data[4000:9000])
    os.utime(path, (clock.now, clock.now))
    assert watch.step() == []
    clock.now += 1.0
    assert watch.step() == []
    with path.open("ab") as handle:
        handle.write(data[9000:])
    os.utime(path, (clock.now, clock.now))
    clock.now += 1.9
    assert watch.step() == []
    assert ingestor.paths == []
    clock.now += 0.2
    assert [(o.name, o.status) for o in watch.step()] == [("copying.png", "done")]
    assert ingestor.paths == ["copying.png"]


def test_the_same_bytes_dropped_again_are_recognised_and_not_read_again(
    tmp_path: Path, ingestor: Counting
) -> None:
    drop(tmp_path, "first.png", SAMPLE.read_bytes())
    watcher(tmp_path, ingestor).step()
    drop(tmp_path, "again.png", SAMPLE.read_bytes())
    drop(tmp_path, "other.png", variant(SAMPLE.read_bytes(), 1))
    outcomes = watcher(tmp_path, ingestor).step()
    assert [(o.name, o.status) for o in outcomes] == [
        ("again.png", "duplicate"),
        ("other.png", "done"),
    ]
    assert ingestor.paths == ["first.png", "other.png"]
    again = result(tmp_path, "done", "again.png")
    assert (again["status"], again["duplicate_of"]) == ("duplicate", "first.png")
    assert again["sha256"] == result(tmp_path, "done", "first.png")["sha256"]


def test_a_name_already_used_gets_a_suffix_instead_of_overwriting(
    tmp_path: Path, ingestor: Counting
) -> None:
    drop(tmp_path, "shot.png", SAMPLE.read_bytes())
    watcher(tmp_path, ingestor).step()
    drop(tmp_path, "shot.png", variant(SAMPLE.read_bytes(), 2))
    assert [o.name for o in watcher(tmp_path, ingestor).step()] == ["shot-2.png"]
    assert layout(tmp_path)["done"] == [
        "shot-2.png",
        "shot-2.png.json",
        "shot.png",
        "shot.png.json",
    ]


def test_files_left_in_processing_are_resumed_and_a_result_already_written_is_only_moved(
    tmp_path: Path, ingestor: Counting
) -> None:
    watch = watcher(tmp_path, ingestor)
    data = SAMPLE.read_bytes()
    (tmp_path / "processing" / "interrupted.png").write_bytes(variant(data, 3))
    (tmp_path / "processing" / "written.png").write_bytes(data)
    (tmp_path / "done" / "written.png.json").write_text(
        json.dumps({"status": "done", "file": "written.png", "sha256": _sha(data)}), "utf-8"
    )
    outcomes = watch.step()
    assert [(o.name, o.status) for o in outcomes] == [
        ("interrupted.png", "done"),
        ("written.png", "done"),
    ]
    assert outcomes[1].detail == "resumed: its result was already written"
    assert ingestor.paths == ["interrupted.png"]
    assert layout(tmp_path)["processing"] == []
    assert watch.step() == []


def _sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


class Runs:
    def __init__(self, status: Any = "done") -> None:
        self.calls: list[tuple[str, list[str]]] = []
        self.status = status

    def __call__(self, task: str, results: Sequence[IngestResult]) -> RunRecord:
        self.calls.append((task, [r.file for r in results]))
        return RunRecord(
            id=f"run-{len(self.calls)}", task=task, model="rules", groups=[], status=self.status,
            final="went wrong" if self.status != "done" else "ok", started_at=NOW,
        )  # fmt: skip


def test_with_a_task_each_image_also_runs_the_host_and_its_record_lands_in_the_json(
    tmp_path: Path, ingestor: Counting
) -> None:
    runs = Runs()
    drop(tmp_path, "wh02.png", SAMPLE.read_bytes())
    watcher(tmp_path, ingestor, runner=runs, task="restock").step()
    assert runs.calls == [("restock", ["wh02.png"])]
    run = result(tmp_path, "done", "wh02.png")["run"]
    assert (run["id"], run["status"], run["approval"], run["proposals"]) == (
        "run-1",
        "done",
        "auto",
        [],
    )


def test_a_run_that_does_not_finish_puts_the_image_in_failed_with_the_run(
    tmp_path: Path, ingestor: Counting
) -> None:
    drop(tmp_path, "wh02.png", SAMPLE.read_bytes())
    watcher(tmp_path, ingestor, runner=Runs("error"), task="restock").step()
    body = result(tmp_path, "failed", "wh02.png")
    assert body["error"] == "the run ended error: went wrong"
    assert body["run"]["status"] == "error"
    assert body["ingest"]["rows"]


def test_a_watch_folder_that_is_a_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "w").write_text("not a folder", "utf-8")
    assert main(["watch", str(tmp_path / "w"), "--once"]) == 2
    assert "cannot be used as a watch folder" in capsys.readouterr().err


def test_an_inbox_removed_while_watching_is_made_again(tmp_path: Path, ingestor: Counting) -> None:
    watch = watcher(tmp_path, ingestor)
    (tmp_path / "inbox").rmdir()
    assert watch.step() == []
    assert (tmp_path / "inbox").is_dir()


def test_dotfiles_and_partial_downloads_are_left_where_they_are(
    tmp_path: Path, ingestor: Counting
) -> None:
    for name in (".hidden.png", "shot.png.part", "shot.png.crdownload", "x.tmp"):
        drop(tmp_path, name, b"partial")
    assert watcher(tmp_path, ingestor).run(once=True, interval_s=0, wait=_never).total == 0
    assert len(layout(tmp_path)["inbox"]) == 4


def _never(_: float) -> None:
    raise AssertionError("a backlog of settled files needs no waiting")


def test_a_backlog_shows_progress_per_file_and_a_one_line_summary(
    tmp_path: Path, ingestor: Counting
) -> None:
    drop(tmp_path, "a.png", SAMPLE.read_bytes())
    drop(tmp_path, "b.png", SAMPLE.read_bytes())
    drop(tmp_path, "c.png", b"oops")
    stream = io.StringIO()
    summary = watcher(tmp_path, ingestor, progress=FileProgress(stream)).run(
        once=True, interval_s=1.0, wait=_never
    )
    assert stream.getvalue().splitlines() == [
        "[1/3] done: a.png (10 rows, 6 low)",
        "[2/3] duplicate: b.png (same as a.png)",
        "[3/3] failed: c.png (c.png: not an image: its bytes match no image format stockshot reads; "
        "send PNG, JPEG, WebP, BMP, TIFF or GIF)",
    ]
    assert summary.line().startswith("watch: 3 file(s): 1 done, 1 failed, 1 duplicate(s) in ")


def test_the_progress_bar_redraws_one_line_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    progress = FileProgress(stream, width=4)
    progress.start(2)
    progress.advance(Outcome("a.png", "done", ""))
    first = stream.getvalue()
    progress.advance(Outcome("b.png", "failed", ""))
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())  # colours, cursor
    # Redrawn in place (a carriage return each time), and one new line once all are done.
    assert "1/2" in first and "done: a.png" in first and "\n" not in first
    assert "2/2" in drawn and "failed: b.png" in drawn and "\r" in drawn
    assert drawn.endswith("\n") and drawn.count("\n") == 1
    assert Summary(done=1, failed=1).total == 2


def _watch_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *flags: str) -> Settings:
    """`stockshot watch DIR --once --task ...` over the demo page, on a seeded store."""
    monkeypatch.setenv("STOCKSHOT_WATCH_SETTLE_S", "0")
    settings = Settings()
    with sqlite_store(settings.resolved_db()) as store:
        domain.seed(store, *catalog.seed_data(), now=SEEDED_AT)
    drop(tmp_path / "w", "erp-light-wh01.png", (SAMPLES / "erp-light-wh01.png").read_bytes())
    task = "find the SKUs that are low and raise replenishment orders"
    assert main(["watch", str(tmp_path / "w"), "--once", "--task", task, *flags]) == 0
    return settings


@pytest.mark.subprocess
def test_the_watch_command_with_a_task_and_apply_raises_orders_in_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = _watch_once(tmp_path, monkeypatch, "--apply")
    body = result(tmp_path / "w", "done", "erp-light-wh01.png")
    with sqlite_store(settings.resolved_db()) as store:
        orders = domain.list_orders(store, OrderQuery(run_id=body["run"]["id"])).orders
    assert {o.sku for o in orders} == {o["sku"] for o in body["run"]["orders"]}
    assert len(orders) == 5
    assert "watch: 1 file(s): 1 done, 0 failed, 0 duplicate(s)" in capsys.readouterr().err


@pytest.mark.subprocess
def test_the_watch_command_with_a_task_queues_the_writes_for_approval_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _watch_once(tmp_path, monkeypatch)
    run = result(tmp_path / "w", "done", "erp-light-wh01.png")["run"]
    with sqlite_store(settings.resolved_db()) as store:
        orders = domain.list_orders(store, OrderQuery(limit=50)).orders
        with store.reading() as tx:
            pending = tx.proposals(ProposalQuery(status="pending"))
    assert orders == []
    assert run["approval"] == "manual" and len(run["proposals"]) == 5
    assert {p.id for p in pending} == {p["id"] for p in run["proposals"]}


@pytest.mark.subprocess
def test_the_watch_keeps_each_screenshot_it_reads_and_prunes_old_ones_as_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STOCKSHOT_WATCH_SETTLE_S", "0")
    shelf = screen_shelf(Settings())
    old = b"\x89PNG\r\n\x1a\n an old screenshot"
    old_id = hashlib.sha256(old).hexdigest()
    shelf.keep(old_id, old)
    path = shelf.path_of(old_id)
    assert path is not None
    long_ago = time.time() - 40 * 86400
    os.utime(path, (long_ago, long_ago))
    data = SAMPLE.read_bytes()
    drop(tmp_path / "w", SAMPLE.name, data)

    assert main(["watch", str(tmp_path / "w"), "--once"]) == 0

    assert old_id not in shelf
    assert shelf.read(hashlib.sha256(data).hexdigest()) == data


def _lines(stream: IO[str], into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)
    into.put("")


@contextlib.contextmanager
def _watch_process(root: Path) -> Iterator[tuple[subprocess.Popen[str], queue.Queue[str]]]:
    """`stockshot watch ROOT --once` as its own process, and its stderr lines; killed at the
    end of the block if it still runs."""
    env = {**os.environ, "STOCKSHOT_WATCH_SETTLE_S": "0", "STOCKSHOT_WATCH_INTERVAL_S": "0.05"}
    process = cli_process("watch", str(root), "--once", env=env)
    assert process.stderr is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(process.stderr, lines), daemon=True).start()
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
        process.stderr.close()


def _progress_lines(lines: queue.Queue[str]) -> Iterator[str]:
    while (line := lines.get(timeout=120)) != "":
        if line.startswith("["):
            yield line


@pytest.mark.subprocess
def test_a_restart_mid_batch_leaves_every_file_in_done_or_failed_exactly_once(
    tmp_path: Path,
) -> None:
    root = tmp_path / "w"
    data = SAMPLE.read_bytes()
    names = [f"shot-{n:02d}.png" for n in range(10)]
    for n, name in enumerate(names):
        drop(root, name, variant(data, 100 + n), at=START - 100 + n)
    drop(root, "zz-broken.png", data[:2000], at=START - 10)
    drop(root, "zz-copy.png", variant(data, 100), at=START - 5)
    everything = [*names, "zz-broken.png", "zz-copy.png"]

    with _watch_process(root) as (first, first_lines):
        seen_first = [next(_progress_lines(first_lines))]
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    left = layout(root)
    assert left["inbox"] or left["processing"], "the kill came after the whole batch"

    with _watch_process(root) as (second, second_lines):
        seen_second = list(_progress_lines(second_lines))
        assert second.wait(timeout=120) == 1

    final = layout(root)
    assert final["inbox"] == [] and final["processing"] == []
    for name in everything:
        places = [f for f in ("done", "failed") if name in final[f]]
        assert len(places) == 1, (name, final)
        assert f"{name}.json" in final[places[0]], name
    assert len(final["done"]) + len(final["failed"]) == 2 * len(everything)
    assert not [n for n in final["done"] + final["failed"] if n.startswith(".")]
    done_first = {line.split(": ", 1)[1].split(" (")[0] for line in seen_first}
    done_second = {line.split(": ", 1)[1].split(" (")[0] for line in seen_second}
    assert not done_first & done_second
    assert done_first | done_second <= set(everything)
    assert final["failed"] == ["zz-broken.png", "zz-broken.png.json"]
    assert result(root, "done", "zz-copy.png")["duplicate_of"] == "shot-00.png"
