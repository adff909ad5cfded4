"""Test tiers: what a test needs beyond Python and a temporary folder.

Each test is marked with the tiers it needs, worked out from the fixtures it uses (directly or
through other fixtures), the parameters it runs with (a `postgresql` store, servers over
`stdio`) and, for the few
files whose tests build such a thing themselves, its file; a test that needs none is `unit`.
`make unit` runs the `unit` tests only, and in that run a test that starts a process or loads an
OCR model fails naming the tier it needs (tests/conftest.py), so the marks stay true.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["TIERS", "TIER_FILES", "TIER_FIXTURES", "tiers_of"]

TIERS = ("ocr", "postgres", "browser", "subprocess", "slow")

TIER_FIXTURES = {
    "rapidocr": "ocr",
    "postgres_cluster": "postgres",
    "postgres_url": "postgres",
}
"""A test that uses one of these fixtures needs its tier."""

TIER_FILES = {
    "ocr/": ("ocr",),
    "samples/": ("ocr",),
    "bench/": ("ocr",),
    "test_ingest.py": ("ocr",),
    "test_ingest_screens.py": ("ocr",),
    "cli/test_ingest_and_run.py": ("ocr", "subprocess"),
    "cli/test_imports.py": ("subprocess",),
    "corpus/": ("subprocess",),
    "servers/test_http_app.py": ("subprocess",),
    "servers/test_stdio_transport.py": ("subprocess",),
    "servers/test_roundtrip.py": ("subprocess",),
    "api/test_dashboard.py": ("browser",),
    "corpus/test_corpus.py": ("browser",),
}
"""Test files (or folders, ending in `/`) below tests/ whose tests build such a thing
themselves rather than through a fixture."""

_NOT_UNIT = ("paddle", "local_model")
"""Marks that keep a test out of `unit` (paddle loads an OCR model; local_model is opt-in)."""


def tiers_of(
    fixtures: Iterable[str], params: Mapping[str, object], where: str, marked: Iterable[str]
) -> set[str]:
    """The marks a test gets: its tiers, or `unit` when it needs none. `where` is its file
    below tests/, `marked` the marks it already has."""
    marks = set(marked)
    found = {TIER_FIXTURES[f] for f in fixtures if f in TIER_FIXTURES} | (marks & set(TIERS))
    if any("postgres" in str(value) for value in params.values()):
        found.add("postgres")
    if any(str(value) == "stdio" for value in params.values()):
        found.add("subprocess")
    for prefix, tiers in TIER_FILES.items():
        if where == prefix or (prefix.endswith("/") and where.startswith(prefix)):
            found.update(tiers)
    if "paddle" in marks:
        found.add("ocr")
    if not found and not marks & set(_NOT_UNIT):
        found.add("unit")
    return found
