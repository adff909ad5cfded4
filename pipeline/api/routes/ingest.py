"""`POST /v1/ingest`; `GET /v1/ingest/{id}/image`, the picture while it is kept."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from pipeline.api.deps import Services, caller, needs
from pipeline.api.errors import Refusal
from pipeline.api.openapi import INGEST_BODY
from pipeline.api.requests import ingest_uploads, item
from pipeline.api.schemas import ErrorBody, IngestResponse
from pipeline.api.screens import kept_result
from pipeline.api.uploads import read_form
from pipeline.errors import InputError
from pipeline.ingest import apply_columns
from pipeline.table import parse_columns

__all__ = ["router"]

router = APIRouter(tags=["ingest"])


@router.post(
    "/ingest",
    **needs("operator", INGEST_BODY),
    summary="Read inventory screenshots",
    responses={200: {"model": IngestResponse}},
)
async def ingest(request: Request, services: Services) -> JSONResponse:
    """Normalise, crop and OCR each image; return its table and rows with its `id`.

    The same bytes are analysed once: later uploads are cache hits (`cache` says which).
    """
    settings = services.settings
    form = await read_form(
        request,
        max_file_bytes=settings.max_upload_bytes,
        max_files=settings.max_files_per_request,
    )
    if not form.files:
        raise InputError("no image: send one or more images in the multipart field 'file'")
    columns_text = form.one("columns")
    columns = parse_columns(columns_text) if columns_text else None
    save = form.one("save_profile")
    if save is not None and columns is None:
        raise InputError("save_profile keeps a columns mapping: send columns too")
    results = await ingest_uploads(
        services,
        form.files,
        captured_at=form.one("captured_at"),
        strategy=form.one("strategy"),
    )
    if columns is not None:
        results = [apply_columns(r, columns, "given") for r in results]
        if save is not None:
            for result in results:
                services.profiles.save(result.table.header, columns, name=save, by=caller(request))
    return JSONResponse({"results": [item(r) for r in results]})


_MEDIA_TYPES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"BM", "image/bmp"),
    (b"II*\x00", "image/tiff"),
    (b"MM\x00*", "image/tiff"),
)


def media_type(data: bytes) -> str:
    """The image type the bytes start like (`application/octet-stream` for none)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return next(
        (kind for start, kind in _MEDIA_TYPES if data.startswith(start)), "application/octet-stream"
    )


@router.get(
    "/ingest/{ingest_id}/image",
    **needs("viewer"),
    summary="A screenshot's picture",
    response_class=Response,
    responses={
        200: {"content": {"image/png": {}}, "description": "the bytes as uploaded"},
        404: {"model": ErrorBody, "description": "not kept (never read, or past retention)"},
        410: {"model": ErrorBody, "description": "its kept file was damaged and is removed"},
    },
)
async def image(ingest_id: str, services: Services) -> Response:
    """The screenshot as it was uploaded (or dropped in the watch folder, or given to
    `stockshot run`): from this process's memory while it holds it, else from the screens
    folder, where every screenshot read is kept for `STOCKSHOT_SCREENSHOT_RETENTION_DAYS`
    after it was last read (longer while a pending proposal shows it). `404` when none is
    kept, `410` when its kept file was damaged; its table and rows stay in the run record."""
    result = await kept_result(services, ingest_id)
    data = None if result is None else result.source
    if data is None:
        data = await asyncio.to_thread(services.shelf.read, ingest_id)
    if data is None:
        days = services.settings.screenshot_retention_days
        raise Refusal(
            404,
            "not_kept",
            f"the screenshot {ingest_id!r} is not kept: none with that id was read here, or it "
            f"went unread for longer than the {days:g} days screenshots are kept "
            "(STOCKSHOT_SCREENSHOT_RETENTION_DAYS); upload it again to see it",
        )
    return Response(
        data, media_type=media_type(data), headers={"Cache-Control": "private, max-age=3600"}
    )
