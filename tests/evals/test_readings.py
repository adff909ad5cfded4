"""The reader alone, and a model's reading met with it, on requests with a hand-written
meaning. The model here is a replay of answers, not a model."""

from typing import Any

from pipeline.contract import parse_task
from pipeline.evals.readings import Meaning, ReadingCase, model_readings, score_readings, verdict
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
            case("Replenish the low items, leave SKU-10001 alone", action="replenish", writes=True, exclude_skus=["SKU-10001"]),
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
    leave = "Replenish the low items, leave SKU-10001 alone"
    wrong = "Replenish the low items, keep SKU-10002 as is"
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
    assert found["counts"]["final"] == {"right": 1}
    assert found["lost"] == []
