"""The run book: ids, events for followers, and an end to every stream whatever happens."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ToolServerError, VlmError
from pipeline.host.record import AttachmentInfo, RunRecord
from pipeline.jobs.runbook import Numbered, RunBook, RunState
from tests.conftest import NOW

Sink = Callable[[dict[str, Any]], None]


def state() -> RunState:
    return RunState(task="t", model="rules", dry_run=False, started_at=NOW)


def record(run_id: str, status: Any = "done") -> RunRecord:
    return RunRecord(
        id=run_id, task="t", model="rules", groups=[], status=status, final="f", started_at=NOW
    )


async def events_of(run: RunState) -> list[Numbered]:
    return [numbered async for numbered in run.follow()]


async def test_the_finished_event_is_published_only_once_the_record_is_kept(
    tmp_path: Path,
) -> None:
    book = RunBook(tmp_path / "runs.jsonl")
    seen: list[tuple[str, bool]] = []
    run = state()

    async def start(sink: Sink) -> RunRecord:
        sink({"run_id": "run-1", "type": "run_started", "groups": []})
        sink({"run_id": "run-1", "type": "run_finished", "status": "done", "final": "f"})
        seen.append(("finished sent", run.finished))
        return record("run-1")

    await book.start(run, start)
    events = await asyncio.wait_for(events_of(run), timeout=10)
    assert seen == [("finished sent", False)]
    assert run.record is not None
    assert book.get("run-1") is run
    assert [(n, e["type"]) for n, e in events] == [(0, "run_started"), (1, "run_finished")]


@pytest.mark.parametrize(
    ("error", "final"),
    [
        (VlmError("endpoint said 500", status=500), "endpoint said 500"),
        (KeyError("x"), "the run failed: KeyError: 'x'"),
    ],
)
async def test_a_run_that_fails_outright_ends_with_an_error_record_and_event(
    tmp_path: Path, error: Exception, final: str
) -> None:
    run = state()

    async def start(sink: Sink) -> RunRecord:
        raise error

    await RunBook(tmp_path / "runs.jsonl").start(run, start)
    assert run.record is not None
    assert (run.record.status, run.record.final) == ("error", final)
    assert run.events[-1]["type"] == "run_finished"


async def test_a_run_that_does_not_start_in_time_is_stopped_and_reported(
    tmp_path: Path,
) -> None:
    never = asyncio.Event()

    async def start(sink: Sink) -> RunRecord:
        await never.wait()
        raise AssertionError("unreachable")

    book = RunBook(tmp_path / "runs.jsonl", start_timeout_s=0.05)
    with pytest.raises(ToolServerError, match=r"did not start within 0\.05 s"):
        await book.start(state(), start)


async def test_runs_still_going_at_shutdown_are_stopped_and_their_streams_end(
    tmp_path: Path,
) -> None:
    book = RunBook(tmp_path / "runs.jsonl")
    never = asyncio.Event()
    run = state()

    async def start(sink: Sink) -> RunRecord:
        sink({"run_id": "run-2", "type": "run_started", "groups": []})
        await never.wait()
        raise AssertionError("unreachable")

    await book.start(run, start)
    following = asyncio.create_task(events_of(run))
    await book.close()
    events = await asyncio.wait_for(following, timeout=10)
    assert "the server shut down" in str(events[-1][1]["final"])
    assert run.record is not None
    assert run.record.status == "error"


async def test_only_the_latest_finished_runs_are_kept_in_memory(tmp_path: Path) -> None:
    book = RunBook(tmp_path / "runs.jsonl", keep=2)
    for n in range(4):

        async def start(sink: Sink, n: int = n) -> RunRecord:
            return record(f"run-{n}")

        await book.start(state(), start)
    kept = [f"run-{n}" for n in range(4) if book.get(f"run-{n}") is not None]
    assert kept == ["run-2", "run-3"]


async def test_the_screenshots_of_a_run_are_named_once_it_finished_not_while_it_runs(
    tmp_path: Path,
) -> None:
    book = RunBook(tmp_path / "runs.jsonl")
    run = state()
    go_on = asyncio.Event()
    shot = "a" * 64

    async def start(sink: Sink) -> RunRecord:
        sink({"run_id": "run-1", "type": "run_started", "groups": []})
        await go_on.wait()
        sink({"run_id": "run-1", "type": "run_finished", "status": "done", "final": "f"})
        finished = record("run-1")
        finished.attachments = [AttachmentInfo(name="shot.png", description="", sha256=shot)]
        return finished

    await book.start(run, start)
    while_running = book.screens(["run-1", "run-2"])
    go_on.set()
    await asyncio.wait_for(events_of(run), timeout=10)

    assert while_running == {}
    assert book.screens(["run-1", "run-2"]) == {"run-1": [shot]}
