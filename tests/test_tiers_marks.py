"""Tests are marked by what they need, so `make unit` runs only those that need nothing."""

from __future__ import annotations

import pytest

from tests.tiers import tiers_of


@pytest.mark.parametrize(
    ("fixtures", "params", "where", "marked", "expected"),
    [
        (("tmp_path",), {}, "host/test_loop.py", (), {"unit"}),
        (("rapidocr", "tmp_path"), {}, "host/test_loop.py", (), {"ocr"}),
        (("postgres_url",), {}, "servers/test_domain.py", (), {"postgres"}),
        (("store",), {"store_url": "postgresql"}, "servers/test_domain.py", (), {"postgres"}),
        (("store",), {"store_url": "sqlite"}, "servers/test_domain.py", (), {"unit"}),
        (("client",), {"transport": "stdio"}, "servers/test_orders.py", (), {"subprocess"}),
        ((), {}, "ocr/test_rapid.py", (), {"ocr"}),
        ((), {}, "test_ingest.py", (), {"ocr"}),
        ((), {}, "test_ingest_screens.py", (), {"ocr"}),
        ((), {}, "corpus/test_corpus.py", (), {"subprocess", "browser"}),
        ((), {}, "host/test_toolbox.py", ("subprocess",), {"subprocess"}),
        ((), {}, "host/test_loop.py", ("slow",), {"slow"}),
        ((), {}, "ocr/test_paddle.py", ("paddle",), {"ocr"}),
        ((), {}, "host/test_local_model.py", ("local_model",), set()),
    ],
    ids=[
        "a test that needs nothing is a unit test",
        "the OCR fixture makes it an ocr test",
        "a PostgreSQL database makes it a postgres test",
        "a store parameter of postgresql makes it a postgres test",
        "the same test on SQLite is a unit test",
        "a tool server reached over stdio is a process of its own",
        "a file that builds its own engine is ocr",
        "the ingest tests read images",
        "the ingest screens tests read images",
        "the corpus generator starts Chromium in a process",
        "a test marked by hand keeps its mark",
        "a slow test is not a unit test",
        "a paddle test loads an OCR model",
        "an opt-in real-model test is in no tier and not unit",
    ],
)
def test_a_test_is_marked_with_what_it_needs(
    fixtures: tuple[str, ...],
    params: dict[str, object],
    where: str,
    marked: tuple[str, ...],
    expected: set[str],
) -> None:
    assert tiers_of(fixtures, params, where, marked) == expected
