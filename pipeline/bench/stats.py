"""Summaries of repeated timings and the ratios between variants measured side by side.

Every ratio is the median of the slower variant over the median of the faster one, both taken
from the raw samples kept next to it, so a reader can recompute it; its spread is the range of
the ratios of the runs that were measured together (same round, same image).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.bench.document import RatioDoc, SummaryDoc

__all__ = ["Ratio", "Summary", "ratio", "summarize"]


@dataclass(frozen=True)
class Summary:
    """Median and min–max of the samples; `n` samples after the warm-up."""

    median: float
    low: float
    high: float
    n: int

    def text(self, unit: str = "ms", digits: int = 1) -> str:
        if self.n == 0:
            return "–"
        if self.n == 1:
            return f"{self.median:.{digits}f} {unit}"
        return f"{self.median:.{digits}f} {unit} ({self.low:.{digits}f}–{self.high:.{digits}f})"

    def as_dict(self) -> SummaryDoc:
        return {"median": self.median, "min": self.low, "max": self.high, "n": self.n}


def summarize(samples: Sequence[float]) -> Summary:
    if not samples:
        return Summary(0.0, 0.0, 0.0, 0)
    return Summary(
        median=float(statistics.median(samples)),
        low=float(min(samples)),
        high=float(max(samples)),
        n=len(samples),
    )


@dataclass(frozen=True)
class Ratio:
    """A ratio of medians, and the range of the ratios of samples taken together."""

    value: float
    low: float
    high: float

    def text(self, digits: int = 1) -> str:
        if self.low == self.high:
            return f"{self.value:.{digits}f}x"
        return f"{self.value:.{digits}f}x ({self.low:.{digits}f}–{self.high:.{digits}f})"

    def as_dict(self) -> RatioDoc:
        return {"value": self.value, "min": self.low, "max": self.high}


def ratio(numerator: Sequence[float], denominator: Sequence[float]) -> Ratio | None:
    """median(numerator) / median(denominator), e.g. slow / fast times or fast / slow rates;
    None when either side is empty or the denominator is not positive."""
    if not numerator or not denominator:
        return None
    below = statistics.median(denominator)
    if below <= 0:
        return None
    pairs = [a / b for a, b in zip(numerator, denominator, strict=False) if b > 0]
    value = float(statistics.median(numerator) / below)
    return Ratio(value, min(pairs, default=value), max(pairs, default=value))
