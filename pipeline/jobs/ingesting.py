"""Ingest off the event loop: a worker pool, shared flights, recent results by id.

OCR runs in a worker pool sized to the cores. Concurrent uploads of the same bytes share
one analysis: the first request runs it, the others wait for it without taking a worker
and then read the result from the ingest cache. Hashing and cache hits run beside the pool,
so an upload already analysed never queues behind analyses of other images.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Executor

from pipeline.errors import EmptyInputError, InputError, UnsupportedFormatError
from pipeline.ingest import Ingestor
from pipeline.jobs.spec import IngestAsk
from pipeline.models import IngestResult

__all__ = ["IngestService", "RecentResults", "check_upload", "looks_like_image", "sha256_of"]

_SIGNATURES = (
    b"\x89PNG\r\n\x1a\n",
    b"\xff\xd8\xff",
    b"GIF87a",
    b"GIF89a",
    b"BM",
    b"II*\x00",
    b"MM\x00*",
)


def looks_like_image(data: bytes) -> bool:
    """Whether the bytes start like one of the formats ingest reads (PNG, JPEG, WebP, ...)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return True
    return any(data.startswith(signature) for signature in _SIGNATURES)


def check_upload(ask: IngestAsk, *, max_bytes: int) -> None:
    """Refuse what is not worth queueing: no bytes, or bytes no image format starts with."""
    data, name, content_type = ask.data, ask.name, ask.content_type
    if not data:
        raise EmptyInputError(f"{name}: empty file (0 bytes)")
    if len(data) <= max_bytes and not looks_like_image(data):
        declared = f" (sent as {content_type})" if content_type else ""
        raise UnsupportedFormatError(
            f"{name}{declared}: not an image type stockshot reads; "
            "send PNG, JPEG, WebP, BMP, TIFF or GIF"
        )


SOURCE_BUDGET = 256 * 1024 * 1024
"""Bytes of screenshots the recent results keep for `screen_view`, newest first."""


class RecentResults:
    """The latest `keep` results by id. The newest hold their screenshot's bytes (a run that
    names them can show the model the picture) up to `source_budget` bytes in all; older
    ones keep their text and table only."""

    def __init__(self, keep: int = 256, *, source_budget: int = SOURCE_BUDGET) -> None:
        self.keep = keep
        self._budget = source_budget
        self._results: OrderedDict[str, IngestResult] = OrderedDict()

    def add(self, result: IngestResult) -> None:
        self._results[result.sha256] = result
        self._results.move_to_end(result.sha256)
        while len(self._results) > self.keep:
            self._results.popitem(last=False)
        held = 0
        for key in reversed(self._results):
            kept = self._results[key]
            size = len(kept.source or b"")
            if size and held + size > self._budget:
                self._results[key] = kept.model_copy().with_source(None)
            else:
                held += size

    def get(self, result_id: str) -> IngestResult | None:
        return self._results.get(result_id)

    def __contains__(self, result_id: object) -> bool:
        return result_id in self._results


class IngestService:
    """The ingestor behind the API: a worker pool, shared flights, recent results by id."""

    def __init__(self, ingestor: Ingestor, pool: Executor, *, keep: int = 256) -> None:
        self.ingestor = ingestor
        self._pool = pool
        self._flights: dict[str, asyncio.Future[None]] = {}
        self._recent = RecentResults(keep)

    async def ingest(self, ask: IngestAsk) -> IngestResult:
        check_upload(ask, max_bytes=self.ingestor.config.max_bytes)
        data, strategy = ask.data, ask.strategy
        loop = asyncio.get_running_loop()
        digest = await asyncio.to_thread(sha256_of, data)
        key = f"{digest}|{strategy or self.ingestor.config.strategy}"
        work = functools.partial(
            self.ingestor.ingest_bytes,
            data,
            name=ask.name,
            caller_time=ask.caller_time,
            strategy=strategy,
        )
        if key not in self._flights and await asyncio.to_thread(
            self.ingestor.cached, digest, strategy=strategy
        ):
            result = await asyncio.to_thread(work)
            self._remember(result)
            return result
        leader = self._flights.get(key)
        if leader is not None:
            await asyncio.shield(leader)
            result = await loop.run_in_executor(self._pool, work)
        else:
            flight: asyncio.Future[None] = loop.create_future()
            self._flights[key] = flight
            try:
                result = await loop.run_in_executor(self._pool, work)
            finally:
                del self._flights[key]
                flight.set_result(None)
        self._remember(result)
        return result

    def _remember(self, result: IngestResult) -> None:
        self._recent.add(result)

    def recent(self, ids: Sequence[str]) -> list[IngestResult]:
        """Results of earlier uploads by id, in the order asked; unknown ids are refused."""
        missing = [i for i in ids if i not in self._recent]
        if missing:
            raise InputError(
                f"ingest_ids: unknown {', '.join(repr(i) for i in missing)}; upload the image "
                f"with POST /v1/ingest first (the latest {self._recent.keep} are kept) or send "
                "it with this request"
            )
        return [r for r in (self._recent.get(i) for i in ids) if r is not None]


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
