from pathlib import Path

from pipeline.ingest.cache import Entry, IngestCache, cache_key


def entry(mark: str) -> Entry:
    """A whole analysis, told apart by its one warning."""
    return {
        "strategy": "table_ocr",
        "engine": "rapidocr",
        "size": [10, 10],
        "crop": None,
        "table": {},
        "rows": [],
        "confidences": [],
        "mapping": {},
        "sources": [],
        "context": [],
        "annotations": [],
        "warnings": [mark],
        "image": None,
        "image_tokens": 0,
        "full_page_tokens": 0,
        "exif_datetime": None,
        "exif_offset": None,
        "png_text": None,
        "timings_ms": {},
    }


def test_key_changes_with_strategy_engine_model_files_and_version() -> None:
    def key(**change: str) -> str:
        parts = {"strategy": "auto", "engine": "rapidocr", "models": "m1", "version": "1"}
        return cache_key("abc", **(parts | change))

    assert key() == key()
    assert key() != key(strategy="full_page")
    assert key() != key(engine="paddleocr")
    assert key() != key(models="m2")
    assert key() != key(version="2")


def test_a_stored_entry_comes_back_from_memory_then_from_disk_after_restart(tmp_path: Path) -> None:
    with IngestCache(tmp_path) as cache:
        assert cache.get("k") is None
        cache.put("k", entry("rows"))
        assert cache.get("k") == (entry("rows"), "memory")
    with IngestCache(tmp_path) as reopened:
        assert reopened.get("k") == (entry("rows"), "disk")
        assert reopened.get("k") == (entry("rows"), "memory")


def test_memory_level_evicts_the_least_recently_used_entry() -> None:
    cache = IngestCache(None, memory_items=2)
    cache.put("a", entry("1"))
    cache.put("b", entry("2"))
    cache.get("a")
    cache.put("c", entry("3"))
    assert cache.get("b") is None
    assert cache.get("a") == (entry("1"), "memory")
