"""Fixtures shared with the API tests: `stockshot serve` as a real process, and an ingestor."""

from tests.api.conftest import ingestor, served

__all__ = ["ingestor", "served"]
