"""Summaries and ratios: what every figure of the bench report is made of."""

import pytest

from pipeline.bench.stats import ratio, summarize
from pipeline.bench.targets import margin


def test_a_summary_is_the_median_and_the_range_of_the_samples() -> None:
    summary = summarize([30.0, 10.0, 20.0, 40.0])
    assert (summary.median, summary.low, summary.high, summary.n) == (25.0, 10.0, 40.0, 4)
    assert summary.text() == "25.0 ms (10.0–40.0)"


def test_no_samples_summarise_to_nothing_measured() -> None:
    assert summarize([]).n == 0
    assert summarize([]).text() == "–"


def test_a_ratio_is_the_ratio_of_medians_with_the_range_of_paired_ratios() -> None:
    found = ratio([100.0, 300.0, 200.0], [10.0, 20.0, 40.0])
    assert found is not None
    assert found.value == pytest.approx(200.0 / 20.0)
    assert found.low == pytest.approx(5.0)
    assert found.high == pytest.approx(15.0)


def test_a_ratio_over_nothing_is_not_a_number_anyone_reads() -> None:
    assert ratio([1.0], []) is None
    assert ratio([], [1.0]) is None
    assert ratio([1.0], [0.0]) is None


@pytest.mark.parametrize(
    ("value", "threshold", "op", "words"),
    [
        (6.0, 4.0, ">=", "1.50x the target"),
        (3.0, 4.0, ">=", "short by 25%"),
        (400.0, 1600.0, "<=", "75% under the limit"),
        (2000.0, 1600.0, "<=", "over by 25%"),
    ],
)
def test_the_margin_says_how_far_a_figure_is_from_its_target(
    value: float, threshold: float, op: str, words: str
) -> None:
    assert margin(value, threshold, op) == words
