"""Upload limits and error codes: 413 early, 415 for what is not an image, 422 that says why."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, MutableMapping
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pipeline.api import create_app
from pipeline.api.uploads import FormCollector
from pipeline.errors import InputError, UploadTooLargeError
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from tests.api.conftest import BASE_URL, SAMPLE, http_scope, running
from tests.api.serve import KEY
from tests.hardening.images import png_bomb

BOUNDARY = "stockshot-test-boundary"
LIMIT = 200_000


@pytest.fixture
async def small(settings: Settings, ingestor: Ingestor) -> AsyncIterator[FastAPI]:
    """An app that takes at most 200 kB per image and 2 images per request."""
    app = create_app(
        settings.model_copy(update={"max_upload_bytes": LIMIT, "max_files_per_request": 2}),
        ingestor=ingestor,
    )
    async with running(app):
        yield app


def multipart_head(filename: str = "big.png") -> bytes:
    return (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{filename}"\r\nContent-Type: image/png\r\n\r\n'
    ).encode()


async def call(
    app: FastAPI, headers: list[tuple[bytes, bytes]], chunks: list[bytes]
) -> tuple[int, dict[str, Any], int]:
    """Drive the app as a server would; return the status, the JSON and the chunks it read."""
    sent: list[dict[str, Any]] = []
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read < len(chunks):
            read += 1
            return {"type": "http.request", "body": chunks[read - 1], "more_body": True}
        if read == len(chunks):
            read += 1
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    content_type = (b"content-type", f"multipart/form-data; boundary={BOUNDARY}".encode())
    await app(http_scope("POST", "/v1/ingest", content_type, *headers), receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body), min(read, len(chunks))


async def test_a_declared_length_over_the_limit_is_refused_before_a_byte_is_read(
    small: FastAPI,
) -> None:
    chunks = [multipart_head(), *[b"\0" * 65536] * 100]
    status, body, read = await call(small, [(b"content-length", b"9000000000")], chunks)
    assert status == 413
    assert body["error"] == "upload_too_large"
    assert "9,000,000,000 bytes" in body["message"]
    assert read == 0


async def test_a_streamed_image_over_the_limit_is_refused_at_the_first_chunk_past_it(
    small: FastAPI,
) -> None:
    chunks = [multipart_head(), *[b"\0" * 65536] * 100]
    status, body, read = await call(small, [], chunks)
    assert status == 413
    assert body["error"] == "upload_too_large"
    assert body["message"].startswith("big.png: over the limit of 200,000 bytes per image")
    assert read == 1 + LIMIT // 65536 + 1


async def test_an_image_with_too_many_pixels_is_413(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/ingest", files={"file": ("bomb.png", png_bomb(20_000, 20_000), "image/png")}
    )
    assert response.status_code == 413
    assert response.json()["error"] == "image_too_large"
    assert response.json()["message"].startswith("bomb.png: ")


async def test_more_images_than_allowed_in_one_request_is_422(small: FastAPI) -> None:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=small), base_url=BASE_URL, headers={"X-API-Key": KEY}
    ) as http:
        files = [("file", (f"{n}.png", b"\x89PNG", "image/png")) for n in range(3)]
        response = await http.post("/v1/ingest", files=files)
    assert response.status_code == 422
    assert "at most 2 images per request" in response.json()["message"]


@pytest.mark.parametrize(
    ("name", "data", "content_type"),
    [
        ("notes.txt", b"SKU-10232 38 120\n", "text/plain"),
        ("report.pdf", b"%PDF-1.7\n...", "application/pdf"),
        ("shot.heic", b"\x00\x00\x00\x18ftypheic" + b"\0" * 32, "image/heic"),
    ],
)
async def test_a_file_that_is_not_an_image_type_we_read_is_415(
    client: httpx.AsyncClient, name: str, data: bytes, content_type: str
) -> None:
    response = await client.post("/v1/ingest", files={"file": (name, data, content_type)})
    assert response.status_code == 415
    assert response.json()["error"] == "unsupported_format"
    assert response.json()["message"].startswith(f"{name} (sent as {content_type}): ")
    assert "send PNG, JPEG, WebP, BMP, TIFF or GIF" in response.json()["message"]


async def test_a_body_that_is_not_multipart_is_415_and_says_what_to_send(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        "/v1/ingest", content=SAMPLE.read_bytes(), headers={"Content-Type": "image/png"}
    )
    assert response.status_code == 415
    assert "multipart/form-data" in response.json()["message"]
    assert "curl -F file=@screenshot.png" in response.json()["message"]


@pytest.mark.parametrize(
    ("files", "data", "expected"),
    [
        ({"file": ("broken.png", SAMPLE.read_bytes()[:5000], "image/png")}, {}, "broken.png: "),
        ({"file": ("empty.png", b"", "image/png")}, {}, "empty.png: empty file (0 bytes)"),
        ({"image": ("a.png", SAMPLE.read_bytes(), "image/png")}, {}, "field 'file'"),
        (
            {"file": ("a.png", SAMPLE.read_bytes(), "image/png")},
            {"strategy": "fast"},
            "unknown strategy 'fast'; known: auto, full_page, table_ocr, ui_crop",
        ),
        (
            {"file": ("a.png", SAMPLE.read_bytes(), "image/png")},
            {"captured_at": "yesterday"},
            "captured_at: 'yesterday' is not an ISO 8601 time",
        ),
    ],
    ids=["truncated", "empty", "wrong-field", "strategy", "captured-at"],
)
async def test_unusable_input_is_422_with_a_message_that_says_what_to_change(
    client: httpx.AsyncClient, files: dict[str, Any], data: dict[str, str], expected: str
) -> None:
    response = await client.post("/v1/ingest", files=files, data=data)
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_input"
    assert expected in response.json()["message"]


def test_the_form_collector_keeps_files_and_fields_and_counts_each_file() -> None:
    collector = FormCollector(BOUNDARY.encode(), max_file_bytes=10, max_files=2)
    body = (
        multipart_head("a.png")
        + b"0123456789\r\n"
        + f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="task"\r\n\r\n'.encode()
        + "raise orders 补货".encode()
        + f"\r\n--{BOUNDARY}--\r\n".encode()
    )
    for n in range(0, len(body), 7):
        collector.feed(body[n : n + 7])
    form = collector.finish()
    assert [(f.filename, f.content_type, f.data) for f in form.files] == [
        ("a.png", "image/png", b"0123456789")
    ]
    assert form.one("task") == "raise orders 补货"

    over = FormCollector(BOUNDARY.encode(), max_file_bytes=10, max_files=2)
    with pytest.raises(UploadTooLargeError, match=r"a\.png: over the limit of 10 bytes"):
        over.feed(multipart_head("a.png") + b"01234567890")


def test_a_body_cut_short_or_garbled_is_an_input_error() -> None:
    cut = FormCollector(BOUNDARY.encode(), max_file_bytes=100, max_files=2)
    cut.feed(multipart_head("a.png") + b"0123")
    with pytest.raises(InputError, match="ended early"):
        cut.finish()
    garbled = FormCollector(BOUNDARY.encode(), max_file_bytes=100, max_files=2)
    with pytest.raises(InputError, match="malformed"):
        garbled.feed(b"--not-the-boundary\r\n\r\n")
