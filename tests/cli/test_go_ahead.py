"""A run's question is confirmed by `--yes` only when the reading is the reader's own; a
model's reading waits for a person."""

from __future__ import annotations

import argparse
from typing import Literal

import pytest

from pipeline.cli.run import _go_ahead
from pipeline.contract import Question, TaskContract, question


def _question(source: Literal["reader", "model"]) -> Question:
    return question(TaskContract(action="replenish", writes_allowed=True), source, ["dnot"])


@pytest.mark.parametrize(
    ("source", "confirmed"),
    [("reader", True), ("model", False)],
    ids=["the reader's reading goes ahead", "a model's reading waits for a person"],
)
def test_yes_in_a_script_confirms_only_the_readers_own_reading(
    source: Literal["reader", "model"], confirmed: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    args = argparse.Namespace(yes=True, json=True)

    assert _go_ahead(args, _question(source)) is confirmed
    if not confirmed:
        assert "answer it at a terminal" in capsys.readouterr().err
