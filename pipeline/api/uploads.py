"""Request bodies read under limits: refused as soon as they are too big, never read whole first.

`Content-Length` over the limit is refused before a byte of the body is read; a body without
one (chunked) is counted while it streams, and each uploaded file is counted on its own, so
the request fails at the first byte past a limit. Multipart bodies are parsed as they arrive.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.exceptions import HTTPException
from starlette.requests import Request

from pipeline.errors import InputError, UploadTooLargeError

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

__all__ = ["FILE_FIELD", "FormCollector", "Upload", "UploadForm", "read_form", "read_limited"]

FILE_FIELD = "file"
MAX_FIELD_BYTES = 64 * 1024
_MB = 1024 * 1024


@dataclass(frozen=True)
class Upload:
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class UploadForm:
    files: list[Upload] = field(default_factory=list)
    fields: dict[str, list[str]] = field(default_factory=dict)

    def one(self, name: str) -> str | None:
        values = [v for v in self.fields.get(name, []) if v.strip()]
        if len(values) > 1:
            raise InputError(f"{name}: send it once, not {len(values)} times")
        return values[0].strip() if values else None


def _size(limit: int) -> str:
    return f"{limit / _MB:g} MiB" if limit >= _MB else f"{limit:,} bytes"


def _declared_length(request: Request) -> int | None:
    value = request.headers.get("content-length")
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise InputError("Content-Length is not a number") from None


async def _counted(request: Request, limit: int, what: str) -> AsyncIterator[bytes]:
    declared = _declared_length(request)
    if declared is not None and declared > limit:
        raise UploadTooLargeError(
            f"{what} of {declared:,} bytes is over the limit of {_size(limit)}; send less"
        )
    seen = 0
    async for chunk in request.stream():
        seen += len(chunk)
        if seen > limit:
            raise UploadTooLargeError(f"{what} is over the limit of {_size(limit)}; send less")
        yield chunk


async def read_limited(request: Request, limit: int, what: str = "the request body") -> bytes:
    chunks = [chunk async for chunk in _counted(request, limit, what)]
    return b"".join(chunks)


class FormCollector:
    """Feeds multipart bytes to the parser and keeps files and fields, counting each part."""

    def __init__(self, boundary: bytes, *, max_file_bytes: int, max_files: int) -> None:
        self.form = UploadForm()
        self.max_file_bytes = max_file_bytes
        self.max_files = max_files
        self.ended = False
        self._header_name = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self._data = bytearray()
        self._name = ""
        self._filename: str | None = None
        callbacks: MultipartCallbacks = {
            "on_part_begin": self._part_begin,
            "on_header_field": self._header_field,
            "on_header_value": self._header_value_part,
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_finished,
            "on_part_data": self._part_data,
            "on_part_end": self._part_end,
            "on_end": self._end,
        }
        try:
            self._parser = MultipartParser(boundary, callbacks)
        except FormParserError as exc:
            raise InputError(f"the multipart boundary cannot be used: {exc}") from exc

    def feed(self, chunk: bytes) -> None:
        try:
            self._parser.write(chunk)
        except FormParserError as exc:
            raise InputError(
                "the multipart body is malformed; send multipart/form-data as a browser or "
                "`curl -F file=@IMAGE` does"
            ) from exc

    def finish(self) -> UploadForm:
        self._parser.finalize()
        if not self.ended:
            raise InputError("the multipart body ended early; send the whole request again")
        return self.form

    @property
    def _is_file(self) -> bool:
        return self._name == FILE_FIELD

    def _part_begin(self) -> None:
        self._headers = {}
        self._data = bytearray()
        self._name = ""
        self._filename = None

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def _header_value_part(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def _header_end(self) -> None:
        self._headers[self._header_name.strip().lower()] = self._header_value.strip()
        self._header_name = b""
        self._header_value = b""

    def _headers_finished(self) -> None:
        _, options = parse_options_header(self._headers.get(b"content-disposition", b""))
        name = options.get(b"name")
        if name is None:
            raise InputError("a multipart part has no name; name the image part 'file'")
        self._name = name.decode("utf-8", "replace")
        filename = options.get(b"filename")
        self._filename = None if filename is None else filename.decode("utf-8", "replace")
        if self._filename is not None and self._name != FILE_FIELD:
            raise InputError(
                f"a file was sent in the field {self._name!r}; send images in the field "
                f"{FILE_FIELD!r}"
            )
        if self._is_file and len(self.form.files) >= self.max_files:
            raise InputError(
                f"too many files: at most {self.max_files} images per request; split the upload"
            )

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        self._data += data[start:end]
        if self._is_file:
            if len(self._data) > self.max_file_bytes:
                label = self._filename or f"file {len(self.form.files) + 1}"
                raise UploadTooLargeError(
                    f"{label}: over the limit of {_size(self.max_file_bytes)} per image; "
                    "send a smaller screenshot (PNG or JPEG of the screen)"
                )
        elif len(self._data) > MAX_FIELD_BYTES:
            raise InputError(f"{self._name}: over {MAX_FIELD_BYTES:,} bytes for a form field")

    def _part_end(self) -> None:
        if self._is_file:
            content_type = self._headers.get(b"content-type")
            self.form.files.append(
                Upload(
                    filename=self._filename or f"upload-{len(self.form.files) + 1}",
                    content_type=None if content_type is None else content_type.decode("latin-1"),
                    data=bytes(self._data),
                )
            )
        else:
            value = self._data.decode("utf-8", "replace")
            self.form.fields.setdefault(self._name, []).append(value)
        self._data = bytearray()

    def _end(self) -> None:
        self.ended = True


def multipart_boundary(request: Request) -> bytes | None:
    kind, options = parse_options_header(request.headers.get("content-type"))
    if kind != b"multipart/form-data":
        return None
    boundary = options.get(b"boundary")
    if not boundary:
        raise InputError("multipart/form-data without a boundary; let the client set it")
    return boundary


async def read_form(request: Request, *, max_file_bytes: int, max_files: int) -> UploadForm:
    """The multipart form of `request`; 415 when the body is not multipart/form-data."""
    boundary = multipart_boundary(request)
    if boundary is None:
        raise HTTPException(
            415,
            "send multipart/form-data with the image(s) in the field 'file' "
            "(for example `curl -F file=@screenshot.png`)",
        )
    collector = FormCollector(boundary, max_file_bytes=max_file_bytes, max_files=max_files)
    limit = max_files * (max_file_bytes + MAX_FIELD_BYTES) + _MB
    async for chunk in _counted(request, limit, "the upload"):
        collector.feed(chunk)
    return collector.finish()
