"""The HTTP API and the dashboard page (`stockshot serve`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.api.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    # The command line (`pipeline.cli.serve`) imports this package; the app loads on use.
    if name == "create_app":
        from pipeline.api.app import create_app

        return create_app
    raise AttributeError(name)
