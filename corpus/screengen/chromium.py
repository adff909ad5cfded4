"""Debian's Chromium, and the flags it is launched with wherever a page is shown headless: no
sandbox, no GPU and no traffic of its own (updates, sync, QUIC), so that a run depends only on
the page it is given."""

from __future__ import annotations

from pathlib import Path

__all__ = ["CHROMIUM", "HEADLESS_ARGS"]

CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
