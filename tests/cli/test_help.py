"""`stockshot --help` and each command's `--help`: the one-line help in the listing, the
description in full, both from the command module's docstring."""

from __future__ import annotations

import pytest

from pipeline.cli import main


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    assert exited.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_the_listing_gives_every_command_its_one_line_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    listing = help_text(capsys)
    assert "serve the HTTP API and the dashboard" in listing
    assert "read screenshots dropped into a folder" in listing
    assert "two-track evaluation: model vs product" in listing
    assert "`stockshot" not in listing


def test_a_commands_help_describes_it_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    serve = help_text(capsys, "serve")
    assert "Binds 127.0.0.1 unless told otherwise" in serve
    assert "STOCKSHOT_API_KEYS before serving on another address" in serve


def test_notes_for_readers_of_the_code_stay_out_of_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    watch = help_text(capsys, "watch")
    assert "Restart-safe and idempotent by content hash" in watch
    assert "progress bar" not in watch
