"""Errors as HTTP answers, mapped once for the whole API.

Every error response has the same body: `{"error": CODE, "message": TEXT}` (plus `details`
for request validation), where TEXT says what to change. Our own error tree and the
servers' and the store's errors are mapped by class, the most specific class first:

    UploadTooLargeError, ImageTooLargeError      413 upload_too_large / image_too_large
    UnsupportedFormatError                       415 unsupported_format
    other InputError (undecodable, empty, name)  422 invalid_input
    servers UnknownProposal                      404 not_found
    servers NotPending                           409 not_pending
    servers SameRequester                        403 same_requester
    servers InputError / Refused                 422 invalid_input
    RequestValidationError (FastAPI)             422 invalid_request
    a body FastAPI cannot decode (its 400)       422 invalid_request
    ToolServerError, StoreError                  503 unavailable
    VlmError                                     502 model_failed
    KeptFileError (a damaged kept screenshot)    410 damaged
    ConfigError, EngineError                     500 server_error

Refusals the API makes itself (`Refusal`) carry their own code: no key sent `401 missing_key`,
a key that is none of ours `401 unknown_key`, a key without the role a route needs
`403 role_required` (its `details` name the role), a screenshot that is not kept
`404 not_kept`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pipeline.errors import (
    ConfigError,
    EngineError,
    ImageTooLargeError,
    InputError,
    KeptFileError,
    StockshotError,
    ToolServerError,
    UnsupportedFormatError,
    UploadTooLargeError,
    VlmError,
)
from servers import errors as server_errors
from store.errors import StoreError

__all__ = ["ERROR_STATUS", "Refusal", "error_body", "install_error_handlers", "status_of"]

log = logging.getLogger(__name__)

ERROR_STATUS: tuple[tuple[type[Exception], int, str], ...] = (
    (UploadTooLargeError, 413, "upload_too_large"),
    (ImageTooLargeError, 413, "image_too_large"),
    (UnsupportedFormatError, 415, "unsupported_format"),
    (InputError, 422, "invalid_input"),
    (server_errors.UnknownProposal, 404, "not_found"),
    (server_errors.NotPending, 409, "not_pending"),
    (server_errors.SameRequester, 403, "same_requester"),
    (server_errors.InputError, 422, "invalid_input"),
    (server_errors.Refused, 422, "invalid_input"),
    (ToolServerError, 503, "unavailable"),
    (StoreError, 503, "unavailable"),
    (VlmError, 502, "model_failed"),
    (KeptFileError, 410, "damaged"),
    (ConfigError, 500, "server_error"),
    (EngineError, 500, "server_error"),
)

_HTTP_CODES = {
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "upload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
}


class Refusal(StarletteHTTPException):
    """A refusal the API itself makes before a route runs (no key, an unknown key, a role the
    key lacks), with its own error code and, where useful, details."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: Mapping[str, str] | None = None,
        details: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(status, message, headers=dict(headers) if headers else None)
        self.code = code
        self.details = dict(details) if details else None


def status_of(exc: Exception) -> tuple[int, str]:
    """The HTTP status and error code for one of our errors (500 for anything unknown)."""
    for cls, status, code in ERROR_STATUS:
        if isinstance(exc, cls):
            return status, code
    return 500, "server_error"


def error_body(code: str, message: str, **extra: object) -> dict[str, object]:
    return {"error": code, "message": message, **extra}


def _field_path(loc: Sequence[object]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "request"


def readable_validation(errors: Sequence[Mapping[str, object]]) -> list[dict[str, str]]:
    """FastAPI's validation errors as `field: what is wrong` a person can act on."""
    details = []
    for error in errors:
        loc = error.get("loc", ())
        where = _field_path(loc if isinstance(loc, list | tuple) else ())
        message = str(error.get("msg", "invalid value"))
        if error.get("type") == "missing":
            message = "is required"
        elif error.get("type") == "json_invalid":
            where, message = "body", "is not valid JSON"
        details.append({"field": where, "message": message})
    return details


def install_error_handlers(app: FastAPI) -> None:
    async def ours(request: Request, exc: Exception) -> JSONResponse:
        status, code = status_of(exc)
        if status >= 500:
            log.warning("%s %s failed: %s", request.method, request.url.path, exc)
        message = exc.message if isinstance(exc, server_errors.Refused) else str(exc)
        extra = (
            {"details": exc.details}
            if isinstance(exc, server_errors.NotPending) and exc.details
            else {}
        )
        headers = {"Connection": "close"} if status == 413 else None
        return JSONResponse(error_body(code, message, **extra), status_code=status, headers=headers)

    async def validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        details = readable_validation(exc.errors())
        message = "; ".join(f"{d['field']}: {d['message']}" for d in details)
        return JSONResponse(
            error_body("invalid_request", message, details=details), status_code=422
        )

    async def http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        status = exc.status_code
        detail = str(exc.detail)
        if status == 400:
            # FastAPI's own answer to a body it cannot decode: the request is unusable, as
            # every other unusable request is (422), and the message says how.
            status, detail = 422, f"the body cannot be read ({detail}); send UTF-8 JSON"
        code = exc.code if isinstance(exc, Refusal) else _HTTP_CODES.get(status, "error")
        extra = {"details": exc.details} if isinstance(exc, Refusal) and exc.details else {}
        return JSONResponse(
            error_body(code, detail, **extra), status_code=status, headers=dict(exc.headers or {})
        )

    app.add_exception_handler(StockshotError, ours)
    app.add_exception_handler(server_errors.ServersError, ours)
    app.add_exception_handler(StoreError, ours)
    app.add_exception_handler(RequestValidationError, validation)
    app.add_exception_handler(StarletteHTTPException, http)
