"""`POST /v1/ingest`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pipeline.api.deps import Services
from pipeline.api.openapi import INGEST_BODY
from pipeline.api.requests import ingest_uploads, item
from pipeline.api.schemas import IngestResponse
from pipeline.api.uploads import read_form
from pipeline.errors import InputError

__all__ = ["router"]

router = APIRouter(tags=["ingest"])


@router.post(
    "/ingest",
    summary="Read inventory screenshots",
    responses={200: {"model": IngestResponse}},
    openapi_extra=INGEST_BODY,
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
    results = await ingest_uploads(
        services,
        form.files,
        captured_at=form.one("captured_at"),
        strategy=form.one("strategy"),
    )
    return JSONResponse({"results": [item(r) for r in results]})
