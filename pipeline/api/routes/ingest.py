"""`POST /v1/ingest`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pipeline.api.deps import Services, caller, needs
from pipeline.api.openapi import INGEST_BODY
from pipeline.api.requests import ingest_uploads, item
from pipeline.api.schemas import IngestResponse
from pipeline.api.uploads import read_form
from pipeline.errors import InputError
from pipeline.ingest import apply_columns
from pipeline.table.profiles import parse_columns

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
