"""A model's readings of requests, asked once, kept, and judged with the reader of the day.
The model here is a replay of answers, not a model."""

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import InputError
from pipeline.evals.modelreads import (
    ReadingCache,
    fingerprint,
    judge,
    load_cache,
    read_into,
    save_cache,
)
from pipeline.evals.readings import Meaning, ReadingCase
from pipeline.models import Message, ModelResponse, ModelSettings, ToolSpec
from tests.contract.answers import Reading, ReadingReplay, answer

NAMES = {"North hub": "WH-02"}
KEEP = "Replenish the low items, blorf SKU-10002"
"""A request the reader does not account for in full (a word no reader knows), which its
writer meant as leaving SKU-10002 out."""
EXCEPT = "Replenish the low items except SKU-10004"
"""One it reads right, in full."""


def case(task: str, **means: Any) -> ReadingCase:
    return ReadingCase(id=task, lang="en", task=task, means=Meaning.model_validate(means))


KEEP_CASE = case(KEEP, action="replenish", writes=True, exclude_skus=["SKU-10002"])
EXCEPT_CASE = case(EXCEPT, action="replenish", writes=True, exclude_skus=["SKU-10004"])


class Replay(ReadingReplay):
    """Recorded answers to the schema request, by task (a replay, not a model)."""

    def __init__(self, answers: dict[str, Reading]) -> None:
        super().__init__()
        self.answers = answers

    def read(self, task: str) -> Reading:
        return self.answers[task]


async def kept(answers: dict[str, Reading], cases: list[ReadingCase]) -> ReadingCache:
    cache = ReadingCache(model="openai:m", prompt=fingerprint(NAMES))
    await read_into(cache, Replay(answers), cases, NAMES, budget_s=5)
    return cache


async def test_a_right_suggestion_for_a_request_not_read_in_full_is_counted_right() -> None:
    cache = await kept({KEEP: answer(exclude_skus=["SKU-10002"])}, [KEEP_CASE])
    found = judge(cache, [KEEP_CASE], NAMES)
    assert found["not_full"] == 1
    assert found["counts"]["suggested"]["right"] == 1
    assert found["counts"]["asked"] == {"acts: right": 1}
    assert found["counts"]["final"]["wider"] == 0


async def test_a_suggestion_wider_than_the_request_is_counted_wrong_and_never_acted_on() -> None:
    cache = await kept({KEEP: answer(skus=["SKU-10002"])}, [KEEP_CASE])
    found = judge(cache, [KEEP_CASE], NAMES)
    assert found["counts"]["suggested"]["wider"] == 1
    assert found["final_wider"] == []
    assert found["counts"]["asked"] == {"asks (model's reading): wider": 1}


async def test_a_right_full_reading_is_never_lost_to_the_model() -> None:
    cache = await kept({EXCEPT: answer(action="report", writes_allowed=False)}, [EXCEPT_CASE])
    found = judge(cache, [EXCEPT_CASE], NAMES)
    assert found["counts"]["final"]["right"] == 1
    assert found["lost"] == [] and found["not_full"] == 0


async def test_kept_readings_are_not_asked_again_and_unread_requests_are_counted_apart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "readings.json"
    cache = await kept({KEEP: answer(exclude_skus=["SKU-10002"])}, [KEEP_CASE])
    save_cache(cache, path)
    again = load_cache(path, "openai:m", fingerprint(NAMES))
    model = Replay({})  # any request would fail: nothing is asked twice
    assert await read_into(again, model, [KEEP_CASE], NAMES, budget_s=5) == 0
    assert model.asked == []
    found = judge(again, [KEEP_CASE, EXCEPT_CASE], NAMES)
    assert found["unread"] == [EXCEPT]
    assert found["counts"]["suggested"]["right"] == 1


async def test_a_request_whose_words_changed_is_read_again() -> None:
    cache = await kept({KEEP: answer(exclude_skus=["SKU-10002"])}, [KEEP_CASE])
    reworded = KEEP_CASE.model_copy(update={"task": KEEP + " please"})
    assert cache.reading(reworded) is None


async def test_a_cache_of_another_model_or_prompt_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "readings.json"
    save_cache(await kept({KEEP: answer()}, [KEEP_CASE]), path)
    with pytest.raises(InputError, match="not openai:other"):
        load_cache(path, "openai:other", fingerprint(NAMES))
    with pytest.raises(InputError, match="another prompt"):
        load_cache(path, "openai:m", fingerprint({"South hub": "WH-03"}))


def test_a_missing_cache_is_an_empty_one_and_a_broken_one_says_where(tmp_path: Path) -> None:
    assert load_cache(tmp_path / "none.json", "openai:m", "x").readings == {}
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.json"):
        load_cache(broken, "openai:m", "x")


class PlainReplay(Replay):
    """Recorded answers, both to the schema request and to the same request asked plainly
    (`plain`, by task): a replay, not a model."""

    name = "replay"

    def __init__(self, answers: dict[str, Reading], plain: dict[str, str]) -> None:
        super().__init__(answers)
        self.plain = plain

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        return ModelResponse(content=self.plain[messages[-1].content], finish_reason="stop")


async def test_a_plain_greedy_answer_the_schema_allows_as_written_is_kept_without_the_grammar() -> (
    None
):
    written = json.dumps(answer(exclude_skus=["SKU-10002"]))
    model = PlainReplay({}, {KEEP: written})
    cache = ReadingCache(model="openai:m", prompt=fingerprint(NAMES))
    await read_into(cache, model, [KEEP_CASE], NAMES, budget_s=5, greedy=model)
    assert model.asked == []
    assert cache.readings[KEEP].decoding == "greedy, in the schema"
    assert judge(cache, [KEEP_CASE], NAMES)["counts"]["suggested"]["right"] == 1


@pytest.mark.parametrize(
    "plain",
    [
        "```json\n" + json.dumps(answer(exclude_skus=["SKU-10002"])) + "\n```",
        json.dumps(answer(exclude_skus=["SKU-10009"])),  # an id the request does not name
        json.dumps(dict(reversed(answer().items()))),  # keys out of the schema's order
    ],
)
async def test_a_plain_answer_the_grammar_would_not_allow_is_read_again_under_the_schema(
    plain: str,
) -> None:
    model = PlainReplay({KEEP: answer(skus=["SKU-10002"])}, {KEEP: plain})
    cache = ReadingCache(model="openai:m", prompt=fingerprint(NAMES))
    await read_into(cache, model, [KEEP_CASE], NAMES, budget_s=5, greedy=model)
    assert len(model.asked) == 1
    assert cache.readings[KEEP].decoding == "constrained"
    assert judge(cache, [KEEP_CASE], NAMES)["counts"]["suggested"]["wider"] == 1
