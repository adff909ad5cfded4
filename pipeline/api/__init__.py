"""The HTTP API and the dashboard page (`stockshot serve`)."""

from pipeline.api.app import create_app

__all__ = ["create_app"]
