"""A standard bench run fits a stop (every image once, the peers on a subset); `--full` is the
long run; both judge every target from the same report shape."""

from __future__ import annotations

import pytest

from pipeline.bench.context import PEER_IMAGES, rounds_of
from pipeline.bench.peers import peers_read
from pipeline.cli import main


def test_a_standard_run_reads_every_image_once_and_the_headline_three_times() -> None:
    rounds = rounds_of(1, mode="standard")
    assert (rounds["images"], rounds["headline"], rounds["cheap"], rounds["batch"]) == (1, 3, 3, 1)
    assert rounds["warm_up_processes"]


def test_a_full_run_keeps_the_long_runs_rounds() -> None:
    rounds = rounds_of(2, mode="full")
    assert (rounds["images"], rounds["headline"], rounds["cheap"], rounds["cold"]) == (2, 5, 5, 3)


def test_quick_and_full_are_one_or_the_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--quick", "--full"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_standard_run_gives_the_peers_the_first_image_of_a_set_and_every_table_picture() -> None:
    limit = PEER_IMAGES["standard"]
    assert [peers_read(limit, "uikits-tune", k) for k in range(3)] == [True, False, False]
    assert all(peers_read(limit, "tables:tables", k) for k in range(3))
    assert all(peers_read(PEER_IMAGES["full"], "uikits-tune", k) for k in range(3))
