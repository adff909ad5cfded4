"""Watch folder: screenshots dropped in `DIR/inbox` are read (and acted on) one by one.

    inbox/  ->  processing/  ->  done/    NAME and NAME.json (the result)
                             ->  failed/  NAME and NAME.json (the error and why)

- A file is taken only once it has stopped changing for `settle_s` (size and mtime steady),
  so a screenshot still being written or copied is left alone. Dotfiles and `*.tmp`,
  `*.part`, `*.crdownload` are never taken.
- Every move is an `os.replace` inside DIR, and the result JSON is written atomically (a temp
  file, fsync, rename) *before* the image moves out of `processing/`. After a crash or a
  kill, files left in `processing/` are resumed at the next start: one whose result JSON is
  already written is only moved; one without is processed again. So every file ends in
  `done/` or `failed/` exactly once, with one JSON beside it.
- The same bytes dropped again are recognised by their SHA-256 (the hashes of `done/`) and
  not processed again: they go to `done/` with a JSON naming the earlier file.
- A name already used in the folders gets a suffix (`shot-2.png`), never overwriting.
- Nothing a file contains can stop the watcher: any failure ends that file in `failed/`.

`Watcher` is the core: the clock, the ingestor and the runner are passed in, so it can be
driven step by step; `stockshot watch` (`pipeline.cli.watch`) builds them and draws the progress.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal, Protocol

from pipeline.errors import ConfigError, StockshotError
from pipeline.host import RunRecord
from pipeline.models import IngestResult, JsonObject

__all__ = ["FOLDERS", "Outcome", "Progress", "Summary", "Watcher"]

log = logging.getLogger(__name__)

FOLDERS = ("inbox", "processing", "done", "failed")
IGNORED_SUFFIXES = (".tmp", ".part", ".partial", ".crdownload", ".download")
Status = Literal["done", "failed", "duplicate"]


class Ingest(Protocol):
    def ingest_bytes(self, data: bytes, *, name: str, mtime: datetime | None) -> IngestResult: ...


class Runner(Protocol):
    """Runs the task over one screenshot; how its writes are approved is the runner's."""

    def __call__(self, task: str, results: Sequence[IngestResult]) -> RunRecord: ...


@dataclass(frozen=True)
class Outcome:
    name: str
    status: Status
    detail: str


@dataclass
class Summary:
    done: int = 0
    failed: int = 0
    duplicate: int = 0
    started: float = field(default_factory=time.monotonic)

    def add(self, outcome: Outcome) -> None:
        setattr(self, outcome.status, getattr(self, outcome.status) + 1)

    @property
    def total(self) -> int:
        return self.done + self.failed + self.duplicate

    def line(self) -> str:
        spent = time.monotonic() - self.started
        return (
            f"watch: {self.total} file(s): {self.done} done, {self.failed} failed, "
            f"{self.duplicate} duplicate(s) in {spent:.1f} s"
        )


class Progress(Protocol):
    """Where the watcher reports each file it finished (`pipeline.cli.watch` draws it)."""

    def start(self, total: int) -> None: ...

    def advance(self, outcome: Outcome) -> None: ...


def _ignored(name: str) -> bool:
    return name.startswith(".") or name.lower().endswith(IGNORED_SUFFIXES)


def _write_json_atomic(path: Path, data: JsonObject) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=2)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)
    _sync_dir(path.parent)


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _run_summary(record: RunRecord) -> JsonObject:
    orders = [
        call.structured.get("order")
        for call in record.tool_calls
        if call.name == "orders_create_replenishment"
        and not call.is_error
        and call.executed
        and call.structured
    ]
    return {
        "id": record.id,
        "status": record.status,
        "final": record.final,
        "dry_run": record.dry_run,
        "approval": record.approval,
        "ledger": record.ledger_summary.text if record.ledger_summary else None,
        "proposals": [p.model_dump(mode="json") for p in record.proposals],
        "tool_calls": [
            {
                "name": c.name,
                "arguments": c.arguments,
                "is_error": c.is_error,
                "dry_run": c.dry_run,
                "result": c.result,
            }
            for c in record.tool_calls
        ],
        "orders": [o for o in orders if o],
    }


class Watcher:
    """The watch-folder loop, one `step` at a time; every I/O object is passed in."""

    def __init__(
        self,
        root: Path,
        *,
        ingestor: Ingest,
        clock: Callable[[], float],
        settle_s: float,
        runner: Runner | None = None,
        task: str | None = None,
        progress: Progress | None = None,
    ) -> None:
        if task is not None and runner is None:
            raise ValueError("a task needs a runner")
        self.root = root
        self.inbox, self.processing, self.done, self.failed = (root / f for f in FOLDERS)
        self._make_folders()
        self._ingestor = ingestor
        self._clock = clock
        self._settle_s = settle_s
        self._runner = runner
        self._task = task
        self._progress = progress
        self._seen: dict[str, tuple[tuple[int, int], float]] = {}
        self._stuck: dict[str, tuple[int, int]] = {}
        self._index = self._load_index()
        self._resumed = False

    # ---- what is where

    def _make_folders(self) -> None:
        for folder in (self.inbox, self.processing, self.done, self.failed):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ConfigError(f"{folder}: cannot be used as a watch folder ({exc})") from exc

    def _load_index(self) -> dict[str, str]:
        """SHA-256 -> name, for every image `done/` holds a result of."""
        index: dict[str, str] = {}
        for result in sorted(self.done.glob("*.json")):
            if result.name.startswith("."):
                continue
            try:
                data = json.loads(result.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and data.get("status") == "done" and data.get("sha256"):
                index.setdefault(str(data["sha256"]), result.name[: -len(".json")])
        return index

    def pending(self) -> list[Path]:
        """Files in the inbox that may be taken once they settle."""
        try:
            entries = list(self.inbox.iterdir())
        except OSError:
            return []
        return [p for p in entries if not _ignored(p.name) and p.is_file()]

    def ready(self) -> list[Path]:
        """Inbox files that have stopped changing, oldest first; remembers what it saw."""
        now = self._clock()
        found: list[tuple[float, str, Path]] = []
        present = set()
        for path in self.pending():
            try:
                st = path.stat()
            except OSError:
                continue
            name = path.name
            present.add(name)
            key = (st.st_size, st.st_mtime_ns)
            if self._stuck.get(name) == key:
                continue
            previous = self._seen.get(name)
            if previous is None or previous[0] != key:
                self._seen[name] = (key, now)
                quiet = 0.0
            else:
                quiet = now - previous[1]
            idle = now - st.st_mtime
            if self._settle_s <= 0 or idle >= self._settle_s or quiet >= self._settle_s:
                found.append((st.st_mtime, name, path))
        for gone in set(self._seen) - present:
            del self._seen[gone]
        return [path for _, _, path in sorted(found)]

    # ---- the loop

    def step(self) -> list[Outcome]:
        """Resume what a previous run left in `processing/` (once), then take settled files."""
        outcomes: list[Outcome] = []
        batch: list[Path] = []
        try:
            self._make_folders()
        except ConfigError as exc:
            log.error("%s", exc)
            return outcomes
        if not self._resumed:
            self._resumed = True
            batch += sorted(p for p in self.processing.iterdir() if not _ignored(p.name))
        ready = self.ready()
        if self._progress is not None and len(batch) + len(ready) > 0:
            self._progress.start(len(batch) + len(ready))
        for path in batch:
            outcomes.append(self._finish(self._process(path)))
        for path in ready:
            taken = self._take(path)
            if taken is not None:
                outcomes.append(self._finish(self._process(taken)))
        return outcomes

    def run(
        self,
        *,
        once: bool,
        interval_s: float,
        wait: Callable[[float], None],
        summary: Summary | None = None,
    ) -> Summary:
        """Steps until the inbox is empty (`once`), or forever."""
        summary = summary or Summary()
        while True:
            for outcome in self.step():
                summary.add(outcome)
            if once and not [p for p in self.pending() if p.name not in self._stuck]:
                return summary
            wait(interval_s)

    def _finish(self, outcome: Outcome) -> Outcome:
        if self._progress is not None:
            self._progress.advance(outcome)
        return outcome

    # ---- one file

    def _free_name(self, name: str) -> str:
        stem, suffix = Path(name).stem, Path(name).suffix
        candidate, n = name, 2
        while any(
            (folder / c).exists()
            for folder in (self.processing, self.done, self.failed)
            for c in (candidate, f"{candidate}.json")
        ):
            candidate = f"{stem}-{n}{suffix}"
            n += 1
        return candidate

    def _take(self, path: Path) -> Path | None:
        target = self.processing / self._free_name(path.name)
        try:
            path.replace(target)
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("cannot take %s: %s", path, exc)
            try:
                st = path.stat()
                self._stuck[path.name] = (st.st_size, st.st_mtime_ns)
            except OSError:
                pass
            return None
        self._seen.pop(path.name, None)
        _sync_dir(self.processing)
        return target

    def _process(self, path: Path) -> Outcome:
        name = path.name
        digest = ""
        try:
            data = path.read_bytes()
            mtime = datetime.fromtimestamp(path.stat().st_mtime).astimezone()
            digest = hashlib.sha256(data).hexdigest()
            settled = self._already_written(name, digest)
            if settled is not None:
                return settled
            earlier = self._index.get(digest)
            if earlier is not None and earlier != name:
                body: JsonObject = {
                    "status": "duplicate",
                    "file": name,
                    "sha256": digest,
                    "duplicate_of": earlier,
                    "result": f"{earlier}.json",
                }
                return self._conclude(path, self.done, body, "duplicate", f"same as {earlier}")
            result = self._ingestor.ingest_bytes(data, name=name, mtime=mtime)
            body = {
                "status": "done",
                "file": name,
                "sha256": digest,
                "ingest": _ingest_json(result),
            }
            detail = f"{len(result.rows)} rows, {sum(r.is_low for r in result.rows)} low"
            if self._task is not None and self._runner is not None:
                record = self._runner(self._task, [result])
                body["run"] = _run_summary(record)
                detail += f", run {record.id} {record.status}"
                if record.status != "done":
                    body["status"] = "failed"
                    error = f"the run ended {record.status}: {record.final}"
                    body["error"] = error
                    body["error_type"] = "RunNotDone"
                    return self._conclude(path, self.failed, body, "failed", error)
            outcome = self._conclude(path, self.done, body, "done", detail)
            self._index.setdefault(digest, name)
            return outcome
        except Exception as exc:
            if not isinstance(exc, StockshotError):
                log.exception("unexpected failure on %s", path)
            error = str(exc) or type(exc).__name__
            failure: JsonObject = {
                "status": "failed",
                "file": name,
                "sha256": digest or None,
                "error": error,
                "error_type": type(exc).__name__,
            }
            try:
                return self._conclude(path, self.failed, failure, "failed", error)
            except OSError as move_error:
                log.error("cannot move %s to failed/: %s", path, move_error)
                return Outcome(name, "failed", str(move_error))

    def _already_written(self, name: str, digest: str) -> Outcome | None:
        """A result JSON written before a crash: only the image still has to move."""
        places: tuple[tuple[Path, Status], ...] = ((self.done, "done"), (self.failed, "failed"))
        for folder, status in places:
            result = folder / f"{name}.json"
            try:
                data = json.loads(result.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and data.get("sha256") == digest:
                kind: Status = "duplicate" if data.get("status") == "duplicate" else status
                (self.processing / name).replace(folder / name)
                _sync_dir(folder)
                if kind == "done":
                    self._index.setdefault(digest, name)
                return Outcome(name, kind, "resumed: its result was already written")
        return None

    def _conclude(
        self, path: Path, folder: Path, body: JsonObject, status: Status, detail: str
    ) -> Outcome:
        _write_json_atomic(folder / f"{path.name}.json", body)
        path.replace(folder / path.name)
        _sync_dir(folder)
        return Outcome(path.name, status, detail)


def _ingest_json(result: IngestResult) -> JsonObject:
    data = result.model_dump(mode="json")
    data.pop("image", None)
    return data
