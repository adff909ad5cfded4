"""Metamorphic rewrites of every write task the evaluation and the reader's tests hold: adding
a negation, a deferral, a hypothetical or an exclusion never allows more than the original,
and an id named in an exclusion (or in a clause the reader did not understand) is never in
the write scope."""

import random
from functools import cache

from hypothesis import given, settings, strategies as st

from pipeline.contract import TaskContract, read_task, widenings
from pipeline.evals.cases import load_cases, load_truth
from pipeline.evals.readings import PHRASINGS, load_readings
from pipeline.evals.rewrites import KINDS, judge, meaning, rewrite, tally
from tests.contract.warehouses import NAMES

_LIGHT = sorted({r["sku"] for r in load_truth("erp-light-wh01.png").rows})


@cache
def bases() -> tuple[tuple[str, tuple[str, ...], TaskContract], ...]:
    """(task, screen SKUs, reading) of every write task of the evaluation's tuning cases and
    of the reader's tuning phrasings."""
    found = []
    for case in load_cases():
        skus = tuple(sorted({r["sku"] for i in case.images for r in load_truth(i.file).rows}))
        found.append((case.task, skus))
    for phrasing in load_readings(PHRASINGS):
        found.append((phrasing.task, tuple(_LIGHT)))
    out = []
    for task, skus in dict(found).items():
        contract = read_task(task, NAMES).contract
        if contract.writes_allowed:
            out.append((task, skus, contract))
    return tuple(out)


def test_the_rewrites_start_from_many_write_tasks() -> None:
    assert len(bases()) >= 100


@settings(max_examples=1200, derandomize=True, deadline=None)
@given(st.integers(min_value=0), st.sampled_from(KINDS), st.integers(min_value=0))
def test_no_rewrite_that_negates_defers_hypothesises_or_excludes_allows_more(
    index: int, kind: str, seed: int
) -> None:
    task, skus, original = bases()[index % len(bases())]
    change = rewrite(task, kind, random.Random(seed), skus)  # type: ignore[arg-type]
    if change is None:
        return
    read = read_task(change.task, NAMES).contract
    assert widenings(read, original) == [], change.task
    meant = meaning(change, original)
    if change.kind in ("deferral", "hypothetical", "negation") and not meant.writes_allowed:
        assert not read.writes_allowed, change.task
    if change.forbids_orders and original.action == "cancel":
        # A cancel that forbids ordering is still that cancel, and orders nothing.
        assert read.action in ("cancel", "report") and not read.quantities, change.task
    if change.sku is not None:
        assert not read.writes_allowed or not read.allows_sku(change.sku), change.task
    found, wider = judge(read, meant)
    assert found != "wider", (change.task, wider)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=0), st.sampled_from(_LIGHT))
def test_an_id_in_a_clause_that_is_not_understood_is_never_written(
    index: int, seed: int, sku: str
) -> None:
    task, _skus, _original = bases()[index % len(bases())]
    rng = random.Random(seed)
    words = ["zorbly", "frobnicate", "maybe-ish", "umpteen", "蓝莓", "哈哈"]
    unclear = f"{rng.choice(words)} {sku} {rng.choice(words)}"
    glue = "，" if any("\u4e00" <= c <= "\u9fff" for c in task) else ", "
    read = read_task(task.rstrip(".!?。！？") + glue + unclear, NAMES)
    assert not read.contract.writes_allowed or not read.contract.allows_sku(sku)
    assert not read.fallback.writes_allowed or not read.fallback.allows_sku(sku)


def test_every_kind_of_rewrite_is_read_right_or_as_a_safe_miss_never_wider() -> None:
    counts = tally(((task, skus) for task, skus, _ in bases()), NAMES, per_task=3)
    assert set(counts) == set(KINDS)
    for kind, figures in counts.items():
        assert figures["wider"] == 0, kind
        assert figures["wider than the original"] == 0, kind
        assert figures["right"] > 0, kind
