from pathlib import Path

from pipeline.cache import IngestCache, cache_key


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
        cache.put("k", {"rows": [1, 2]})
        assert cache.get("k") == ({"rows": [1, 2]}, "memory")
    with IngestCache(tmp_path) as reopened:
        assert reopened.get("k") == ({"rows": [1, 2]}, "disk")
        assert reopened.get("k") == ({"rows": [1, 2]}, "memory")


def test_memory_level_evicts_the_least_recently_used_entry() -> None:
    cache = IngestCache(None, memory_items=2)
    cache.put("a", {"v": 1})
    cache.put("b", {"v": 2})
    cache.get("a")
    cache.put("c", {"v": 3})
    assert cache.get("b") is None
    assert cache.get("a") == ({"v": 1}, "memory")
