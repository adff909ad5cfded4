"""Build the real I/O objects from settings; shared by the CLI, the API and the watch folder."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pipeline.cache import IngestCache
from pipeline.errors import ConfigError
from pipeline.ingest import IngestConfig, Ingestor
from pipeline.ocr import EngineOptions, make_engine
from pipeline.settings import Settings

__all__ = ["build_ingestor", "local_zone", "utc_now"]


def utc_now() -> datetime:
    return datetime.now(UTC)


def local_zone(settings: Settings) -> tzinfo:
    if settings.timezone:
        try:
            return ZoneInfo(settings.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ConfigError(
                f"STOCKSHOT_TIMEZONE={settings.timezone!r} is not a known time zone "
                "(use an IANA name such as Asia/Shanghai or UTC)"
            ) from exc
    zone = datetime.now().astimezone().tzinfo
    return zone if zone is not None else UTC


def build_ingestor(
    settings: Settings, *, engine: str | None = None, use_cache: bool = True
) -> Ingestor:
    ocr = make_engine(
        engine or settings.ocr_engine,
        EngineOptions(threads=settings.ocr_threads, model_dir=settings.resolved_model_dir()),
    )
    cache = (
        IngestCache(settings.resolved_cache_dir(), memory_items=settings.memory_cache_items)
        if use_cache
        else None
    )
    config = IngestConfig(
        max_bytes=settings.max_upload_bytes,
        max_pixels=settings.max_image_pixels,
        tz=local_zone(settings),
        strategy=settings.strategy,
    )
    return Ingestor(ocr, config=config, cache=cache, clock=utc_now)
