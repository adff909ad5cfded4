"""How the bench report writes its figures: medians with their spread, ratios with their
interval, accuracies as fractions, Markdown rows and tables, and a target's verdict."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.bench.document import RatioDoc, SummaryDoc, Target

__all__ = ["fraction", "md_table", "median_cell", "ratio_cell", "value_cell", "verdict_cell"]


def median_cell(summary: SummaryDoc | None, unit: str = "ms", digits: int = 0) -> str:
    if not summary or not summary.get("n"):
        return "–"
    median, low, high = summary["median"], summary["min"], summary["max"]
    if summary["n"] == 1:
        return f"{median:.{digits}f} {unit}"
    return f"{median:.{digits}f} {unit} ({low:.{digits}f}–{high:.{digits}f})"


def ratio_cell(found: RatioDoc | None, digits: int = 1) -> str:
    if not found:
        return "–"
    value, low, high = found["value"], found["min"], found["max"]
    if abs(low - high) < 10 ** (-digits):
        return f"**{value:.{digits}f}x**"
    return f"**{value:.{digits}f}x** ({low:.{digits}f}–{high:.{digits}f})"


def fraction(pair: Sequence[int] | None) -> str:
    if not pair or not pair[1]:
        return "–"
    return f"{pair[0]}/{pair[1]} ({pair[0] / pair[1]:.1%})"


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def md_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


def verdict_cell(target: Target) -> str:
    if target["met"] is None:
        return "not measured"
    return "met" if target["met"] else "**MISSED**"


def value_cell(target: Target) -> str:
    value = target["value"]
    if value is None:
        return "–"
    unit = target["unit"]
    digits = 2 if unit in ("x", "ms") and value < 10 else 1 if unit != "ms" else 0
    return f"{value:.{digits}f} {unit}".replace(" x", "x")
