"""The reader alone, and a model's reading met with it, on requests with a hand-written
meaning. The model here is a replay of answers, not a model."""

import json
from pathlib import Path
from typing import Any

from pipeline.contract import QuantityRule, parse_task
from pipeline.evals.cases import load_cases, sealed_reading_files
from pipeline.evals.modelreads import model_readings
from pipeline.evals.readings import Meaning, ReadingCase, score_readings, verdict
from tests.contract.answers import Reading, ReadingReplay, answer

NAMES = {"North hub": "WH-02"}


def case(task: str, **means: Any) -> ReadingCase:
    return ReadingCase(id=task, lang="en", task=task, means=Meaning.model_validate(means))


def test_a_reading_is_right_a_safe_miss_or_wider_than_the_request_means() -> None:
    means = Meaning(action="replenish", writes=True, exclude_skus=("SKU-10001",))
    assert verdict(parse_task("Replenish the low items except SKU-10001"), means)[0] == "right"
    assert verdict(parse_task("Which items are low?"), means)[0] == "safe miss"
    assert verdict(parse_task("Replenish the low items"), means)[0] == "wider"


def test_a_target_level_no_contract_term_says_is_only_met_by_no_writes() -> None:
    means = Meaning(
        action="order",
        writes=True,
        skus=("SKU-10001",),
        quantity_rule={"kind": "up_to", "value": 200},
    )
    assert verdict(parse_task("Which items are low?"), means)[0] == "safe miss"
    assert verdict(parse_task("Reorder SKU-10001"), means)[0] == "wider"


def test_the_score_counts_each_verdict_by_language() -> None:
    score = score_readings(
        [
            case("Replenish the low items except SKU-10001", action="replenish", writes=True, exclude_skus=["SKU-10001"]),
            case("Replenish the low items, SKU-10001 is quarantined", action="replenish", writes=True, exclude_skus=["SKU-10001"]),
        ],
        NAMES,
    )  # fmt: skip
    assert score.counts == {"right": 1, "safe miss": 1, "wider": 0}
    assert score.by_lang == {"en": {"right": 1, "safe miss": 1}}


class Replay(ReadingReplay):
    """Recorded answers to the schema request, by task (a replay, not a model)."""

    def __init__(self, answers: dict[str, Reading]) -> None:
        super().__init__()
        self.answers = answers

    def read(self, task: str) -> Reading:
        return self.answers[task]


async def test_a_models_reading_is_counted_as_recovered_blocked_or_missing() -> None:
    leave = "Replenish the low items, SKU-10001 is quarantined"
    wrong = "Replenish the low items, SKU-10002 is on hold"
    garbled = "Replenish the low items, SKU-10003 can wait"
    cases = [
        case(leave, action="replenish", writes=True, exclude_skus=["SKU-10001"]),
        case(wrong, action="replenish", writes=True, exclude_skus=["SKU-10002"]),
        case(garbled, action="replenish", writes=True, exclude_skus=["SKU-10003"]),
    ]
    model = Replay(
        {
            leave: answer(exclude_skus=["SKU-10001"]),
            wrong: answer(skus=["SKU-10002"]),
            garbled: "nope",
        }
    )
    found = await model_readings(model, cases, NAMES)
    assert found["recovered"] == [cases[0].id]
    assert found["blocked"] == [cases[1].id]
    assert found["no_reading"] == [cases[2].id]
    assert found["final_wider"] == []
    assert found["lost"] == []


async def test_a_right_full_reading_is_not_lost_to_a_model_that_reads_it_narrower() -> None:
    task = "Replenish the low items except SKU-10004"
    right = case(task, action="replenish", writes=True, exclude_skus=["SKU-10004"])
    model = Replay({task: answer(action="report", writes_allowed=False)})
    found = await model_readings(model, [right], NAMES)
    assert found["counts"]["final"]["right"] == 1
    assert found["lost"] == []


def test_a_level_and_an_on_hand_condition_are_right_only_when_read_as_meant() -> None:
    level = Meaning(action="replenish", writes=True, quantity_rule={"kind": "level", "value": 200})
    below = Meaning(action="replenish", writes=True, on_hand_below=50)
    replenish = parse_task("Replenish the low items")
    assert verdict(replenish, level)[0] == "wider"
    assert verdict(replenish, below)[0] == "wider"
    assert verdict(parse_task("Which items are low?"), below)[0] == "safe miss"
    read_level = replenish.model_copy(
        update={"quantity_rule": QuantityRule(kind="level", value=200)}
    )
    assert verdict(read_level, level)[0] == "right"
    assert verdict(replenish.model_copy(update={"on_hand_below": 50}), below)[0] == "right"
    assert verdict(replenish.model_copy(update={"on_hand_below": 40}), below)[0] == "safe miss"


def test_each_sealed_set_of_requests_is_found_apart_and_none_is_read_as_cases(
    tmp_path: Path,
) -> None:
    sealed = Path(__file__).resolve().parents[2] / "pipeline" / "evals" / "sealed"
    for path in sealed.glob("*.json"):
        if not path.name.startswith("readings"):
            (tmp_path / path.name).write_bytes(path.read_bytes())
    request = [{"id": "r-1", "lang": "en", "task": "Which items are low?",
                "means": {"action": "report", "writes": False}}]  # fmt: skip
    for name in ("readings.json", "readings-everyday.json"):
        (tmp_path / name).write_text(json.dumps(request), encoding="utf-8")
    assert [p.stem for p in sealed_reading_files(tmp_path)] == ["readings-everyday", "readings"]
    assert all(c.id != "r-1" for c in load_cases(tmp_path, split="sealed"))


def test_the_same_units_for_each_named_sku_is_right_whichever_term_says_it() -> None:
    per_sku = Meaning(
        action="order",
        writes=True,
        skus=("SKU-10001", "SKU-10002"),
        quantities={"SKU-10001": 30, "SKU-10002": 30},
    )
    assert (
        verdict(parse_task("Order SKU-10001 and SKU-10002, 30 units each."), per_sku)[0] == "right"
    )
    assert (
        verdict(parse_task("Order SKU-10001 and SKU-10002, 20 units each."), per_sku)[0] == "wider"
    )
