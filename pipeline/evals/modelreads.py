"""A model's readings of the requests, asked once and kept, and judged with today's reader.

A model's reading of a request (`pipeline.host.reading.model_reading`) depends on the request,
the store's warehouse names, the prompt and the schema, never on the reader. So it is asked
once and kept in a JSON file (`ReadingCache`, fingerprinted by the prompt and the schema), and
the report (`judge`) combines the kept readings with the reader as it reads today: after a
change to the reader the figures are made again in seconds, without the model.

For each request, judged against its hand-written meaning (`pipeline.evals.readings.verdict`):

- the reader alone, the model alone, and the final contract the run acts on
  (`pipeline.contract.settle`: the reader's full reading stands; else the meet of its fallback
  and the model's reading);
- `lost`: right readings of the reader that the final contract is not (the model cost them);
- for a request the reader did not account for in full (no words that defer), the model's
  reading is the suggestion a person may confirm: right, a safe miss or wider than meant; and
  what the run does with it, judged the same way: acts on the final contract when it writes
  (the meet, never wider than the reader's fallback), else asks a person about a reading
  (`pipeline.contract.offer`: the model's, or the reader's fallback; a yes runs exactly it),
  else only reports.

Pure apart from the file and the model: `judge` asks nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Literal

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.contract import ContractAnswer, TaskContract, TaskReading, offer, read_task, settle
from pipeline.errors import InputError
from pipeline.evals.document import ModelReadings
from pipeline.evals.readings import Meaning, ReadingCase, catalogue, verdict
from pipeline.models import JsonObject, ModelSettings
from pipeline.vlm.base import Model, SchemaAnswerer

__all__ = [
    "CachedReading",
    "ReadingCache",
    "fingerprint",
    "judge",
    "load_cache",
    "model_readings",
    "read_into",
    "save_cache",
    "words_of",
]

VERDICTS = ("right", "safe miss", "wider")


Decoding = Literal["constrained", "greedy, in the schema"]


class CachedReading(BaseModel):
    """One request as the model read it: its contract, or None with why (too late, outside
    the schema), and how it was decoded (`read_into`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    words: str
    """The request's fingerprint (`words_of`): a reading of other words is read again, and
    a sealed request's words stay out of the file."""
    contract: TaskContract | None
    note: str = ""
    seconds: float = 0.0
    decoding: Decoding = "constrained"


class ReadingCache(BaseModel):
    """A model's readings by request id, valid for the prompt and schema `prompt` names."""

    model_config = ConfigDict(extra="forbid")

    model: str
    prompt: str
    readings: dict[str, CachedReading] = Field(default_factory=dict)

    def reading(self, case: ReadingCase) -> CachedReading | None:
        """The kept reading of `case`, or None when it has none or was of other words."""
        found = self.readings.get(case.id)
        return found if found is not None and found.words == words_of(case.task) else None


def words_of(task: str) -> str:
    return hashlib.sha256(task.encode("utf-8")).hexdigest()[:16]


def fingerprint(names: Mapping[str, str]) -> str:
    """What a kept reading was asked with, beside the request itself: the instructions (with
    the warehouse names) and the schema. A cache made with others is not reused."""
    from pipeline.host import CONTRACT_SCHEMA, contract_prompt

    system = contract_prompt("", names)[0].content
    text = json.dumps([system, CONTRACT_SCHEMA], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_cache(path: Path, model: str, prompt: str) -> ReadingCache:
    """The cache at `path` (an empty one when there is no file). One of another model or
    asked with another prompt is refused: its readings would be judged as this one's."""
    if not path.exists():
        return ReadingCache(model=model, prompt=prompt)
    try:
        cache = ReadingCache.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError) as exc:
        why = str(exc).splitlines()[0]
        raise InputError(f"cannot read the model's readings in {path}: {why}") from None
    if model and cache.model != model:
        raise InputError(
            f"{path} holds the readings of {cache.model}, not {model}; name another file"
        )
    if cache.prompt != prompt:
        raise InputError(
            f"{path} was read with another prompt or schema ({cache.prompt}, now {prompt}); "
            "move it aside to read the requests again"
        )
    return cache


def save_cache(cache: ReadingCache, path: Path) -> None:
    """Written whole and then moved into place: a run stopped midway keeps what it read."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(cache.model_dump_json(indent=1) + "\n", encoding="utf-8")
    partial.replace(path)


def _in_schema(text: str, schema: JsonObject) -> TaskContract | str:
    """The reading `text` gives when it is, as written, a string the schema's grammar accepts:
    one JSON object valid under `schema`, its keys in the schema's order, spaced as the
    prompt's example or not at all. Otherwise why not (without the text)."""
    try:
        value = json.loads(text)
    except ValueError:
        return f"not JSON ({len(text)} characters)"
    try:
        jsonschema.Draft202012Validator(dict(schema)).validate(value)
        answer = ContractAnswer.model_validate(value)
    except jsonschema.ValidationError as exc:
        return f"outside the schema ({exc.validator} at /{'/'.join(map(str, exc.path))})"
    except ValidationError:
        return "outside the reading's model"
    if not isinstance(value, dict) or list(value) != list(_object(schema, "properties")):
        return "keys in another order"
    spaced = {
        json.dumps(value, ensure_ascii=False, separators=s) for s in ((", ", ": "), (",", ":"))
    }
    return answer.to_contract() if text.strip() in spaced else "spaced otherwise"


def _object(schema: JsonObject, key: str) -> JsonObject:
    found = schema[key]
    if not isinstance(found, dict):
        raise TypeError(f"not an object: {key}")
    return found


async def _greedy(
    model: Model, task: str, names: Mapping[str, str], budget_s: float
) -> TaskContract | str:
    """The model's greedy reading without the schema's grammar, when every token of it is one
    the grammar allows (`_in_schema`): then the constrained greedy decode picks the same
    tokens. Otherwise why not."""
    from pipeline.host import READING_TOKENS, contract_prompt, contract_schema

    settings = ModelSettings(max_tokens=READING_TOKENS)
    if settings.temperature != 0:
        return "not greedy"  # only a greedy decode is the same with and without the grammar
    try:
        reply = await asyncio.wait_for(
            model.request(contract_prompt(task, names), [], settings), timeout=budget_s
        )
    except TimeoutError:
        return "too late"
    if reply.truncated or reply.tool_calls:
        return "cut at the token limit" if reply.truncated else "a tool call"
    return _in_schema(reply.content, contract_schema(task, names))


async def read_into(
    cache: ReadingCache,
    model: SchemaAnswerer,
    cases: Sequence[ReadingCase],
    names: Mapping[str, str],
    *,
    budget_s: float,
    save: Callable[[ReadingCache], None] | None = None,
    progress: Callable[[str], None] | None = None,
    greedy: Model | None = None,
) -> int:
    """Ask `model` to read each request `cache` has no reading of, in order, keeping each
    reading as it comes (`save`); the number read. With `greedy` (the same model, asked
    plainly), every request is first read without the grammar and the reading kept when it is
    one the grammar allows (`_greedy`); the others are then read under the schema as a run
    reads them (`pipeline.host.reading.model_reading`). The endpoint's own failure
    (`VlmError`) stops it with what was read so far kept."""
    from pipeline.host import model_reading

    todo = [case for case in cases if cache.reading(case) is None]

    def keep(case: ReadingCase, reading: CachedReading, n: int, total: int) -> None:
        cache.readings[case.id] = reading
        if save is not None:
            save(cache)
        if progress is not None:
            said = f"{n}/{total} {case.id}: read in {reading.seconds} s ({reading.decoding})"
            progress(said)

    rest: list[ReadingCase] = []
    for n, case in enumerate(todo if greedy is not None else (), 1):
        started = time.perf_counter()
        quick = await _greedy(greedy, case.task, names, budget_s) if greedy else "no model"
        if isinstance(quick, str):
            rest.append(case)
            if progress is not None:
                progress(f"{n}/{len(todo)} {case.id}: the plain answer is {quick}; later")
            continue
        seconds = round(time.perf_counter() - started, 1)
        kept = CachedReading(
            words=words_of(case.task),
            contract=quick,
            seconds=seconds,
            decoding="greedy, in the schema",
        )
        keep(case, kept, n, len(todo))
    if greedy is None:
        rest = todo
    for n, case in enumerate(rest, 1):
        started = time.perf_counter()
        found = await model_reading(model, case.task, names, budget_s=budget_s)
        seconds = round(time.perf_counter() - started, 1)
        kept = CachedReading(
            words=words_of(case.task), contract=found.contract, note=found.note, seconds=seconds
        )
        keep(case, kept, n, len(rest))
    return len(todo)


def _tally(counter: Counter[str], pad: bool = True) -> dict[str, int]:
    first = VERDICTS if pad else ()
    return {k: counter.get(k, 0) for k in (*first, *sorted(set(counter) - set(first)))}


def _what_runs(
    reading: TaskReading,
    final: TaskContract,
    model: TaskContract | None,
    items: Mapping[str, str],
    means: Meaning,
) -> str:
    """What a run does with a request the reader did not read in full: acts on the final
    contract when it writes (the meet, never wider than the reader's fallback), else asks a
    person about a reading (the model's, or the reader's fallback), else only reports."""
    if final.writes_allowed:
        return f"acts: {verdict(final, means)[0]}"
    asked = offer(reading, final, model, items)
    if asked is None:
        return "reports, asks nothing"
    return f"asks ({asked.source}'s reading): {verdict(asked.contract, means)[0]}"


def _own(kept: CachedReading | None, means: Meaning) -> str:
    if kept is None:
        return "not read yet"
    if kept.contract is None:
        return "no reading"
    return verdict(kept.contract, means)[0]


def judge(
    cache: ReadingCache, cases: Sequence[ReadingCase], names: Mapping[str, str]
) -> ModelReadings:
    """The kept readings met with today's reader (see the module's docstring). A request with
    no kept reading is counted apart (`unread`), and judged as if the model gave none."""
    tallies: dict[str, Counter[str]] = {
        k: Counter() for k in ("reader", "model", "final", "suggested", "asked")
    }
    lists: dict[str, list[str]] = {
        k: [] for k in ("recovered", "blocked", "no_reading", "final_wider", "lost", "unread")
    }
    not_full = 0
    for case in cases:
        items = catalogue(case)
        reading = read_task(case.task, names, items)
        alone, _ = verdict(reading.contract, case.means)
        kept = cache.reading(case)
        model = kept.contract if kept is not None else None
        own = _own(kept, case.means)
        final_contract, blocked = settle(reading, model)
        final, _ = verdict(final_contract, case.means)
        tallies["reader"][alone] += 1
        tallies["final"][final] += 1
        if kept is not None:
            tallies["model"][own] += 1
        if not reading.contract.understood and reading.stop is None:
            not_full += 1
            tallies["suggested"][own] += 1
            runs = _what_runs(reading, final_contract, model, items, case.means)
            tallies["asked"][runs] += 1
        for name, holds in (
            ("unread", kept is None),
            ("no_reading", kept is not None and model is None),
            ("recovered", final == "right" and alone != "right"),
            ("blocked", bool(blocked)),
            ("final_wider", final == "wider"),
            ("lost", alone == "right" and final != "right"),
        ):
            if holds:
                lists[name].append(case.id)
    return {
        "requests": len(cases),
        "not_full": not_full,
        "counts": {k: _tally(v, pad=k != "asked") for k, v in tallies.items()},
        "recovered": lists["recovered"],
        "blocked": lists["blocked"],
        "no_reading": lists["no_reading"],
        "final_wider": lists["final_wider"],
        "lost": lists["lost"],
        "unread": lists["unread"],
    }


async def model_readings(
    model: SchemaAnswerer,
    cases: Sequence[ReadingCase],
    names: Mapping[str, str],
    *,
    budget_s: float = 120.0,
) -> ModelReadings:
    """`model`'s readings of `cases`, asked now (nothing kept), judged with the reader."""
    cache = ReadingCache(model="", prompt=fingerprint(names))
    await read_into(cache, model, cases, names, budget_s=budget_s)
    return judge(cache, cases, names)
