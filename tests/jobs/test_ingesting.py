from datetime import UTC, datetime

from pipeline.jobs.ingesting import RecentResults
from pipeline.models import IngestResult, Table, Tokens


def result(n: int, size: int) -> IngestResult:
    return IngestResult(
        file=f"s{n}.png",
        sha256=f"{n:064x}",
        captured_at=datetime(2026, 12, 1, tzinfo=UTC),
        captured_at_source="caller",
        age_s=0,
        strategy="table_ocr",
        engine="rapidocr",
        cache="miss",
        size=(10, 10),
        crop=None,
        table=Table(),
        rows=[],
        text="",
        tokens=Tokens(full_page_image=100, sent=10),
    ).with_source(b"x" * size)


def test_the_newest_results_keep_their_screenshots_within_the_byte_budget() -> None:
    recent = RecentResults(keep=3, source_budget=250)
    for n in range(4):
        recent.add(result(n, 100))
    assert "0" * 64 not in recent  # only the latest three are kept
    kept = [recent.get(f"{n:064x}") for n in (1, 2, 3)]
    assert [len(r.source or b"") for r in kept if r is not None] == [0, 100, 100]
    oldest = kept[0]
    assert oldest is not None and oldest.file == "s1.png" and oldest.sha256 == f"{1:064x}"
