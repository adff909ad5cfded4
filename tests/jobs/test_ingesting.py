from datetime import UTC, datetime

from pipeline.jobs.ingesting import RecentResults
from tests.ingested import result as ingested


def test_the_newest_results_keep_their_screenshots_within_the_byte_budget() -> None:
    recent = RecentResults(keep=3, source_budget=250)
    at = datetime(2026, 12, 1, tzinfo=UTC)
    for n in range(4):
        one = ingested(f"s{n}.png", at, []).model_copy(update={"sha256": f"{n:064x}"})
        recent.add(one.with_source(b"x" * 100))
    assert f"{0:064x}" not in recent  # only the latest three are kept
    kept = [recent.get(f"{n:064x}") for n in (1, 2, 3)]
    assert [len(r.source or b"") for r in kept if r is not None] == [0, 100, 100]
    oldest = kept[0]
    assert oldest is not None and oldest.file == "s1.png"
