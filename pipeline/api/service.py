"""What the routes work with: ingest off the event loop, recent results, run inputs checked.

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
from datetime import datetime

from pipeline.errors import EmptyInputError, InputError, UnknownNameError, UnsupportedFormatError
from pipeline.ingest import REQUESTABLE, Ingestor
from pipeline.models import IngestResult
from pipeline.settings import Settings
from pipeline.vlm import MODELS

__all__ = [
    "IngestService",
    "check_guard_switches",
    "check_model",
    "looks_like_image",
    "parse_captured_at",
    "parse_strategy",
]

_SIGNATURES = (
    b"\x89PNG\r\n\x1a\n",
    b"\xff\xd8\xff",
    b"GIF87a",
    b"GIF89a",
    b"BM",
    b"II*\x00",
    b"MM\x00*",
)
API_MODELS = ("rules", "openai")


def looks_like_image(data: bytes) -> bool:
    """Whether the bytes start like one of the formats ingest reads (PNG, JPEG, WebP, ...)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return True
    return any(data.startswith(signature) for signature in _SIGNATURES)


def parse_captured_at(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise InputError(
            f"captured_at: {text!r} is not an ISO 8601 time (like 2026-11-27T09:14:52+08:00)"
        ) from None


def parse_strategy(text: str | None) -> str | None:
    if text is not None and text not in REQUESTABLE:
        raise UnknownNameError("strategy", text, REQUESTABLE)
    return text


def check_model(spec: str, settings: Settings) -> str:
    """A model the API may run, or an error that says which ones it may."""
    kind, _, argument = spec.partition(":")
    if kind not in MODELS:
        raise UnknownNameError("model", kind, API_MODELS)
    if kind not in API_MODELS:
        raise InputError(
            f"model {kind!r} replays local files and is not offered over the API; "
            "use rules or openai:NAME"
        )
    if kind == "openai" and not argument:
        raise InputError("model: name the model, like openai:qwen2.5-vl-7b")
    if kind == "openai" and not settings.base_url:
        raise InputError(
            "model: openai:NAME needs STOCKSHOT_BASE_URL set on the server; use rules instead "
            "or ask whoever runs the server to set it"
        )
    return spec


def check_guard_switches(switches: dict[str, bool], settings: Settings) -> None:
    """Per-request guard switches are the server's to allow; `scope` never goes off."""
    if not switches:
        return
    if switches.get("scope") is False:
        raise InputError(
            "guards: scope holds every write to the task contract and cannot be switched off "
            "per request"
        )
    if not settings.api_guard_switches:
        raise InputError(
            "guards: per-request guard switches are off on this server; leave 'guards' out, or "
            "ask whoever runs it to set STOCKSHOT_API_GUARD_SWITCHES=true"
        )


class IngestService:
    """The ingestor behind the API: a worker pool, shared flights, recent results by id."""

    def __init__(self, ingestor: Ingestor, pool: Executor, *, keep: int = 256) -> None:
        self.ingestor = ingestor
        self._pool = pool
        self._keep = keep
        self._flights: dict[str, asyncio.Future[None]] = {}
        self._recent: OrderedDict[str, IngestResult] = OrderedDict()

    async def ingest(
        self,
        data: bytes,
        *,
        name: str,
        caller_time: datetime | None = None,
        strategy: str | None = None,
        content_type: str | None = None,
    ) -> IngestResult:
        if not data:
            raise EmptyInputError(f"{name}: empty file (0 bytes)")
        if len(data) <= self.ingestor.config.max_bytes and not looks_like_image(data):
            declared = f" (sent as {content_type})" if content_type else ""
            raise UnsupportedFormatError(
                f"{name}{declared}: not an image type stockshot reads; "
                "send PNG, JPEG, WebP, BMP, TIFF or GIF"
            )
        loop = asyncio.get_running_loop()
        digest = await asyncio.to_thread(_sha256, data)
        key = f"{digest}|{strategy or self.ingestor.config.strategy}"
        work = functools.partial(
            self.ingestor.ingest_bytes,
            data,
            name=name,
            caller_time=caller_time,
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
        self._recent[result.sha256] = result
        self._recent.move_to_end(result.sha256)
        while len(self._recent) > self._keep:
            self._recent.popitem(last=False)

    def recent(self, ids: Sequence[str]) -> list[IngestResult]:
        """Results of earlier uploads by id, in the order asked; unknown ids are refused."""
        missing = [i for i in ids if i not in self._recent]
        if missing:
            raise InputError(
                f"ingest_ids: unknown {', '.join(repr(i) for i in missing)}; upload the image "
                f"with POST /v1/ingest first (the latest {self._keep} are kept) or send it with "
                "this request"
            )
        return [self._recent[i] for i in ids]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
