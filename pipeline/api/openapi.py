"""What the OpenAPI document says beyond the routes' own types: error answers and the
request bodies FastAPI cannot derive (multipart forms, a body read by hand)."""

from __future__ import annotations

from pipeline.api.schemas import RUN_EXAMPLE, ErrorBody, RunRequest
from pipeline.models import JsonObject

__all__ = ["ERRORS", "INGEST_BODY", "MISDIRECTED", "RUN_BODY", "Responses", "as_json"]

Responses = dict[int | str, dict[str, object]]
"""A route's `responses`: by status, a model class and a description, or the OpenAPI answer."""

MISDIRECTED: Responses = {
    421: {
        "model": ErrorBody,
        "description": "a Host this server does not answer to (DNS-rebinding protection); "
        "STOCKSHOT_ALLOWED_HOSTS adds a proxy's name",
    }
}
ERRORS: Responses = {
    status: {"model": ErrorBody, "description": what}
    for status, what in (
        (401, "no API key, or not one of ours"),
        (413, "too many bytes or pixels"),
        (415, "not an image type stockshot reads, or not multipart/form-data"),
        (422, "a field that cannot be used; the message says which and why"),
    )
}


def as_json(responses: Responses) -> Responses:
    """Error answers documented as JSON on a route whose own answer is another media type
    (the event stream), where FastAPI would file their model under that media type."""
    schema = {"$ref": f"#/components/schemas/{ErrorBody.__name__}"}
    return {
        status: {
            "description": answer.get("description", "an error"),
            "content": {"application/json": {"schema": schema}},
        }
        for status, answer in responses.items()
    }


INGEST_BODY: JsonObject = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {
                            "type": "array",
                            "items": {"type": "string", "format": "binary"},
                            "description": "one or more images (PNG, JPEG, WebP, BMP, TIFF, GIF)",
                        },
                        "captured_at": {
                            "type": "string",
                            "format": "date-time",
                            "description": "when the screen was captured, if known",
                            "example": "2026-11-30T08:12:00+08:00",
                        },
                        "strategy": {
                            "type": "string",
                            "enum": ["auto", "table_ocr", "full_page", "ui_crop"],
                        },
                    },
                }
            }
        },
    }
}
RUN_BODY: JsonObject = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": RunRequest.model_json_schema(), "example": RUN_EXAMPLE},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["task"],
                    "properties": {
                        "task": {"type": "string"},
                        "file": {"type": "array", "items": {"type": "string", "format": "binary"}},
                        "ingest_ids": {"type": "string", "description": "comma-separated"},
                        "model": {"type": "string", "example": "rules"},
                        "dry_run": {"type": "boolean"},
                        "captured_at": {"type": "string", "format": "date-time"},
                        "strategy": {"type": "string"},
                    },
                }
            },
        },
    }
}
