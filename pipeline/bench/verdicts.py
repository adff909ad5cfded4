"""A target's verdict and the small figures the bench's targets are written with: a value
against its threshold with the margin in words, a pair of hits and a total, a median."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.bench.document import Measurements, Peer, SummaryDoc, Target, ToolTotal

__all__ = [
    "latency_target",
    "margin",
    "median_of",
    "ms_of",
    "pair_text",
    "pct",
    "set_total",
    "share_of",
    "target",
    "token_target",
]

LATENCY_MS = 1500.0
"""The most a warm ingest of one image may take."""
TOKEN_SHARE_PCT = 30.0
"""The most a table screen may send, as a share of the full-page image estimate."""


def margin(value: float, threshold: float, op: str) -> str:
    """How far a value is from its threshold, in words, as a share of the threshold."""
    if threshold == 0:
        return f"{value - threshold:+.2f}"
    share = value / threshold
    if op == ">=":
        return f"{share:.2f}x the target" if value >= threshold else f"short by {1 - share:.0%}"
    return f"{1 - share:.0%} under the limit" if value <= threshold else f"over by {share - 1:.0%}"


def target(
    key: str, statement: str, value: float | None, op: str, threshold: float, unit: str, detail: str
) -> Target:
    met = None
    if value is not None:
        met = (
            value >= threshold
            if op == ">="
            else value > threshold
            if op == ">"
            else value <= threshold
            if op == "<="
            else value < threshold
        )
    return {
        "key": key,
        "statement": statement,
        "value": value,
        "op": op,
        "threshold": threshold,
        "unit": unit,
        "met": met,
        "margin": margin(value, threshold, ">=" if op in (">=", ">") else "<=")
        if value is not None
        else "not measured",
        "detail": detail,
    }


def latency_target(key: str, statement: str, ms: float | None, detail: str) -> Target:
    """A warm ingest latency within `LATENCY_MS`."""
    return target(key, statement, ms, "<=", LATENCY_MS, "ms", detail)


def token_target(key: str, statement: str, share: float | None, detail: str) -> Target:
    """Tokens sent within `TOKEN_SHARE_PCT` of the full-page image estimate (`share` of it)."""
    return target(
        key, statement, None if share is None else share * 100, "<=", TOKEN_SHARE_PCT, "%", detail
    )


def set_total(doc: Measurements, key: str, tool: Peer) -> ToolTotal | None:
    for table_set in doc["tables"]["sets"]:
        if table_set["key"] == key:
            return table_set["totals"].get(tool)
    return None


def share_of(pair: list[int] | None) -> float | None:
    return pair[0] / pair[1] if pair and pair[1] else None


def pair_text(pair: list[int] | None) -> str:
    return f"{pair[0]}/{pair[1]}" if pair and pair[1] else "–"


def median_of(summaries: Mapping[str, SummaryDoc], key: str) -> float | None:
    """The median of `key`'s samples, or None when it has none."""
    summary = summaries.get(key)
    return summary["median"] if summary and summary["n"] else None


def ms_of(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:.{digits}f} ms"


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"
