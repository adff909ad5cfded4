"""Kept screenshots: each picture read is kept whole on disk by its SHA-256, a damaged one is
said to be damaged, and pruning removes the unused ones but never one that is still needed."""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pipeline.errors import KeptFileError
from pipeline.shelf import ScreenShelf

NOW = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)


def picture(n: int, size: int = 1000) -> tuple[str, bytes]:
    data = b"\x89PNG\r\n\x1a\n" + bytes([n]) * size
    return hashlib.sha256(data).hexdigest(), data


def aged(shelf: ScreenShelf, sha: str, days: float) -> None:
    """The picture was last read `days` before NOW."""
    path = shelf.path_of(sha)
    assert path is not None
    when = (NOW - timedelta(days=days)).timestamp()
    os.utime(path, (when, when))


def test_a_kept_screenshot_reads_back_as_it_was_written_and_leaves_no_temporary_file(
    tmp_path: Path,
) -> None:
    shelf = ScreenShelf(tmp_path / "screens")
    sha, data = picture(1)

    shelf.keep(sha, data)

    assert shelf.read(sha) == data
    assert sha in shelf
    assert [p.name for p in (tmp_path / "screens").rglob("*") if p.is_file()] == [sha]


def test_keeping_a_screenshot_again_counts_as_its_latest_use(tmp_path: Path) -> None:
    shelf = ScreenShelf(tmp_path)
    sha, data = picture(1)
    shelf.keep(sha, data)
    aged(shelf, sha, 40)

    shelf.keep(sha, data)
    pruned = shelf.prune(now=NOW, max_age=timedelta(days=30))

    assert pruned.removed == ()
    assert shelf.read(sha) == data


def test_a_truncated_kept_file_is_written_whole_when_the_screenshot_is_read_again(
    tmp_path: Path,
) -> None:
    shelf = ScreenShelf(tmp_path)
    sha, data = picture(1)
    shelf.keep(sha, data)
    path = shelf.path_of(sha)
    assert path is not None
    path.write_bytes(data[:10])

    shelf.keep(sha, data)

    assert shelf.read(sha) == data


def test_a_damaged_kept_file_is_said_to_be_damaged_and_removed(tmp_path: Path) -> None:
    shelf = ScreenShelf(tmp_path)
    sha, data = picture(1)
    shelf.keep(sha, data)
    path = shelf.path_of(sha)
    assert path is not None
    path.write_bytes(b"X" + data[1:])

    with pytest.raises(KeptFileError, match=r"damaged on disk.*upload it again"):
        shelf.read(sha)
    assert shelf.read(sha) is None


@pytest.mark.parametrize("asked", ["", "../../etc/passwd", "0" * 63, "Z" * 64, "A" * 64])
def test_an_id_that_is_not_a_sha256_finds_nothing(tmp_path: Path, asked: str) -> None:
    assert ScreenShelf(tmp_path).read(asked) is None


def test_pruning_removes_screenshots_unused_past_the_retention_but_not_needed_ones(
    tmp_path: Path,
) -> None:
    shelf = ScreenShelf(tmp_path)
    (old, a), (needed, b), (fresh, c) = picture(1), picture(2), picture(3)
    for sha, data in ((old, a), (needed, b), (fresh, c)):
        shelf.keep(sha, data)
    aged(shelf, old, 31)
    aged(shelf, needed, 45)
    aged(shelf, fresh, 29)

    pruned = shelf.prune(now=NOW, max_age=timedelta(days=30), needed={needed})

    assert (pruned.removed, pruned.spared, pruned.freed_bytes) == ((old,), (needed,), len(a))
    assert (old in shelf, needed in shelf, fresh in shelf) == (False, True, True)


def test_past_the_size_cap_the_least_recently_read_go_first_sparing_needed_ones(
    tmp_path: Path,
) -> None:
    shelf = ScreenShelf(tmp_path)
    shots = [picture(n) for n in range(4)]
    for days, (sha, data) in zip((4, 3, 2, 1), shots, strict=True):
        shelf.keep(sha, data)
        aged(shelf, sha, days)
    oldest, older, newer, newest = (sha for sha, _ in shots)

    pruned = shelf.prune(
        now=NOW, max_age=timedelta(days=30), max_bytes=2 * len(shots[0][1]), needed={oldest}
    )

    assert pruned.removed == (older, newer)
    assert (oldest in shelf, newest in shelf) == (True, True)


def test_pruning_an_empty_or_missing_folder_removes_nothing(tmp_path: Path) -> None:
    pruned = ScreenShelf(tmp_path / "none").prune(now=NOW, max_age=timedelta(days=1))

    assert (pruned.removed, pruned.freed_bytes) == ((), 0)
