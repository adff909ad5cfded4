"""The one error tree of stockshot.

    StockshotError
    ├── InputError                 the caller's bad input: fix the input, not the service
    │   ├── UnsupportedFormatError     not one of PNG, JPEG, WebP, BMP, TIFF, GIF
    │   ├── UndecodableImageError      bytes that claim a format but do not decode
    │   ├── ImageTooLargeError         more pixels than the limit (decompression bombs)
    │   ├── UploadTooLargeError        more bytes than the limit
    │   ├── EmptyInputError            zero bytes, a directory, a missing file
    │   └── UnknownNameError           an engine, strategy, model or guard nobody registered
    ├── ConfigError                a setting that cannot work (bad URL, missing model directory)
    ├── KeptFileError              a kept screenshot is damaged or cannot be read
    ├── EngineError                an OCR engine failed or is not installed
    │   └── EngineNotInstalledError
    ├── VlmError                   the model endpoint failed (status and body kept)
    └── ToolServerError            an MCP server could not be reached or died

Third-party exceptions are mapped onto this tree once, where they enter: image decoding in
`pipeline.imaging.load`, OCR in `pipeline.ocr`, HTTP in `pipeline.vlm`, MCP in `pipeline.host`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

__all__ = [
    "ConfigError",
    "EmptyInputError",
    "EngineError",
    "EngineNotInstalledError",
    "ImageTooLargeError",
    "InputError",
    "KeptFileError",
    "StockshotError",
    "ToolServerError",
    "UndecodableImageError",
    "UnknownNameError",
    "UnsupportedFormatError",
    "UploadTooLargeError",
    "VlmError",
    "registered",
]


class StockshotError(Exception):
    """Base of every error stockshot raises on purpose."""


class InputError(StockshotError):
    """The caller's input cannot be used; the message says what to change."""


class UnsupportedFormatError(InputError):
    pass


class UndecodableImageError(InputError):
    pass


class ImageTooLargeError(InputError):
    pass


class UploadTooLargeError(InputError):
    pass


class EmptyInputError(InputError):
    pass


class UnknownNameError(InputError):
    """A registry lookup failed; the message lists the names that exist."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = sorted(known)
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(self.known)}")


T = TypeVar("T")


def registered(registry: Mapping[str, T], kind: str, name: str) -> T:
    """What a plug-in registry holds under `name`; an `UnknownNameError` listing the names it
    does hold where it holds none."""
    try:
        return registry[name]
    except KeyError:
        raise UnknownNameError(kind, name, registry) from None


class ConfigError(StockshotError):
    pass


class KeptFileError(StockshotError):
    """A file kept on disk (a screenshot) is damaged or cannot be read; the message says
    which and what to do."""


class EngineError(StockshotError):
    pass


class EngineNotInstalledError(EngineError):
    pass


class VlmError(StockshotError):
    """The model endpoint failed. `status` is None when no HTTP response arrived."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "") -> None:
        self.status = status
        self.body = body
        super().__init__(message)


class ToolServerError(StockshotError):
    pass
