"""Reading what a request sends: uploads ingested off the event loop, a run asked for as JSON
or as multipart with images."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from pipeline.api.deps import AppServices
from pipeline.api.schemas import RunRequest
from pipeline.api.service import parse_captured_at, parse_strategy
from pipeline.api.uploads import Upload, read_form, read_limited
from pipeline.errors import InputError
from pipeline.jobs.spec import IngestAsk
from pipeline.models import IngestResult, JsonObject
from pipeline.settings import Settings

__all__ = ["MAX_JSON_BYTES", "RunAsk", "ingest_uploads", "item", "read_run_request"]

MAX_JSON_BYTES = 256 * 1024


def item(result: IngestResult) -> JsonObject:
    data = result.model_dump(mode="json")
    if data.get("image") is None:
        data.pop("image", None)
    return {"id": result.sha256, **data}


async def ingest_uploads(
    services: AppServices,
    uploads: list[Upload],
    *,
    captured_at: str | None,
    strategy: str | None,
) -> list[IngestResult]:
    caller_time = parse_captured_at(captured_at)
    chosen = parse_strategy(strategy)
    queue = services.job_queue()
    jobs = [
        queue.ingest(
            IngestAsk(
                upload.data,
                name=Path(upload.filename).name or "upload",
                caller_time=caller_time,
                strategy=chosen,
                content_type=upload.content_type,
            )
        )
        for upload in uploads
    ]
    return list(await asyncio.gather(*jobs))


def _truthy(text: str | None) -> bool:
    return (text or "").strip().lower() in ("1", "true", "on", "yes")


def _listed(values: list[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


@dataclass
class RunAsk:
    """A run request as sent: the run, and the screenshots that came with it (not read yet)."""

    run: RunRequest
    files: list[Upload] = field(default_factory=list)
    captured_at: str | None = None
    strategy: str | None = None


async def read_run_request(request: Request, settings: Settings) -> RunAsk:
    """The run asked for, as JSON or as multipart with images."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if kind == "application/json":
            body = await read_limited(request, MAX_JSON_BYTES, "the JSON body")
            try:
                payload = json.loads(body)
            except ValueError:
                raise InputError("the body is not valid JSON") from None
            return RunAsk(RunRequest.model_validate(payload))
        if kind == "multipart/form-data":
            form = await read_form(
                request,
                max_file_bytes=settings.max_upload_bytes,
                max_files=settings.max_files_per_request,
            )
            guards = form.one("guards")
            try:
                switches = json.loads(guards) if guards else {}
            except ValueError:
                raise InputError('guards: not valid JSON; send it like {"stall": false}') from None
            run = RunRequest.model_validate(
                {
                    "task": form.one("task") or "",
                    "ingest_ids": _listed(form.fields.get("ingest_ids", [])),
                    "model": form.one("model"),
                    "dry_run": _truthy(form.one("dry_run")),
                    "guards": switches,
                }
            )
            return RunAsk(run, form.files, form.one("captured_at"), form.one("strategy"))
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from None
    raise HTTPException(415, "send application/json, or multipart/form-data with images in 'file'")
