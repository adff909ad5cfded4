"""The reading ladder as one loop, in the shape of pydantic-ai's `FallbackModel.request`: the
candidates in order, each with its acceptance rule, one loop that stops at the first reading
taken and records why each one was passed.

A step is a rung (`pipeline.tiers`), its reader and its rule. The rule looks at the rung's
reading, and at what the climb read before it, and decides: take it (or a reading held from
an earlier rung), hold it while a later rung looks for better, or pass it with the reasons it
is unsure of. A reading that passes every check on the first rung ends the climb there; a
photo's first reading ends it only when it is sure as well (every field a value of its kind,
its rows' warehouse found, every cell read surely), else the engine's detection reads the
photo again and the two are weighed. When no rung takes a reading, the best one read is
taken; on a photo, a reading that reads clearly more fields than the one taken replaces it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from pipeline.ingest.attempts import (
    Attempt,
    Page,
    boxes_if_fuller,
    clearly_fuller,
    detection_if_better,
    formed,
    kind_and_sureness,
    rowless_after_rows,
)
from pipeline.ingest.results import escalated
from pipeline.table import keyed_by_name, well_formed
from pipeline.tiers import Method, Rung, judge

__all__ = ["Climb", "Decision", "Step", "climb", "make_steps", "sure"]


@dataclass(frozen=True)
class Decision:
    """What a rung's rule says of its reading."""

    reasons: tuple[str, ...] = ()
    """What the reading is unsure of (none: it passed every check)."""
    take: Attempt | None = None
    """The reading the climb ends with: this rung's, or one an earlier rung held."""
    hold: bool = False
    """Keep this reading while the later rungs look for a better one; taken if none is."""
    why: str = ""
    """Why the reading was taken or held, for the record."""


@dataclass
class Climb:
    """One climb: every reading in order, the one held, the one taken, and the record of why
    each rung's reading was taken, held or passed."""

    photo: bool
    readings: list[Attempt] = field(default_factory=list)
    held: Attempt | None = None
    taken: Attempt | None = None
    ahead: tuple[Method, ...] = ()
    """The methods of the rungs not yet climbed."""
    why: str = ""
    """Why the reading taken was taken."""
    record: list[str] = field(default_factory=list)
    """Each rung's reading as its rule decided: taken, held or passed, and why."""

    def note(self) -> str | None:
        """The reading taken and why, where that took more than its first rung passing every
        check (a sent picture says so itself)."""
        taken = self.taken
        if taken is None or not taken.rung.reads:
            return None
        if taken is self.readings[0] and self.why == PASSED:
            return None
        return f"taken: {_tier(taken.rung)} ({self.why})"

    def best(self) -> Attempt | None:
        """The reading to take when no rung took one: on a photo, the one that reads more
        fields as values of their kind, then more surely (its readings differ in what they
        misread); else the one with more rows read more surely."""
        if not self.readings:
            return None
        if self.photo:
            return max(self.readings, key=lambda a: kind_and_sureness(a, self.readings))
        return fullest(self.readings)


PASSED = "passed every check"


def fullest(readings: Sequence[Attempt]) -> Attempt | None:
    """Of a render's readings, none passing, the one that reads the most fields as values of
    their kind (a code, a name, a number), then more rows more surely: two readings of as
    many rows differ in the columns their header names."""
    return max(readings, key=lambda a: (formed(a, readings), a.score), default=None)


Reader = Callable[[Rung, Page], Attempt]
Rule = Callable[[Attempt, Climb], Decision]
Timer = Callable[[Rung], AbstractContextManager[object]]


@dataclass(frozen=True)
class Step:
    """A rung, how it reads the page, and when its reading is taken."""

    rung: Rung
    read: Reader
    accept: Rule


def _tier(rung: Rung) -> str:
    return f"{rung.strategy}/{rung.method}"


def climb(steps: Sequence[Step], page: Page, *, timer: Timer) -> tuple[Attempt, Climb]:
    """Climb `steps` in order until a rule takes a reading, each read inside `timer`. Every
    reading is kept in `readings` with the reasons its rule gave (a rung that sends the
    picture reads nothing of its own). No rung taking one, the best reading is taken; on a
    photo, another reading that reads clearly more fields as values of their kind replaces
    the one taken (a structure model's rows can stop halfway down a photographed table, and
    the checks pass on the half it read)."""
    done = Climb(photo=page.norm.photographed)
    for k, step in enumerate(steps):
        done.ahead = tuple(s.rung.method for s in steps[k + 1 :])
        with timer(step.rung):
            attempt = step.read(step.rung, page)
        if step.rung.reads:
            done.readings.append(attempt)
        decision = step.accept(attempt, done)
        attempt.reasons = decision.reasons
        tier = _tier(step.rung)
        if decision.take is not None:
            _take(done, decision.take, decision.why or "taken")
            break
        if decision.hold:
            done.held = attempt
            done.record.append(f"{tier} held: {decision.why}")
        else:
            done.record.append(f"{tier} passed: {'; '.join(decision.reasons)}")
    else:
        best = done.best()
        if best is not None:
            _take(done, best, "the best reading, none passed")
    taken = done.taken
    if done.photo and taken is not None and taken.rung.reads:
        fuller = clearly_fuller(taken, done.readings)
        if fuller is not taken:
            _take(done, fuller, f"reads clearly more fields than {_tier(taken.rung)}")
    if done.taken is None:
        raise ValueError("a ladder needs at least one rung")
    return done.taken, done


def _take(done: Climb, attempt: Attempt, why: str) -> None:
    done.taken, done.why = attempt, why
    done.record.append(f"{_tier(attempt.rung)} taken: {why}")


_SURE_CONFIDENCE = 0.9
"""The least recognition confidence of every cell a sure photo reading's rows come from."""


def sure(attempt: Attempt) -> bool:
    """A photo's reading that needs no second one: every row's every mapped field a value of
    its kind, its warehouse among them (a column's or the page's: a title the text boxes'
    reading missed above the table, the detection over the whole photo may read), and every
    cell those fields come from read with confidence."""
    mapped = attempt.mapped
    if not mapped.rows or attempt.reasons:
        return False
    if not all(r.warehouse_id for r in mapped.rows):
        return False
    fields = {*mapped.mapping, "warehouse_id"}
    if well_formed(mapped.rows) < len(mapped.rows) * len(fields):
        return False
    cells = [
        attempt.confidences[r][c]
        for r in mapped.sources
        for c in mapped.mapping.values()
        if r < len(attempt.confidences) and c < len(attempt.confidences[r])
    ]
    return bool(cells) and min(cells) >= _SURE_CONFIDENCE


# --- The rules. ---


def _checked(attempt: Attempt, done: Climb) -> Decision | None:
    """The checks every reading of a grid answers to (`judge`); None when it passes them."""
    doubts = attempt.doubts
    if done.photo and attempt.table and not attempt.mapped.rows:
        # A photo's grid that names no inventory column is as likely misread as not an
        # inventory table: the next rung reads it another way.
        doubts = (*doubts, "no inventory columns recognised")
    verdict = judge(
        attempt.table,
        attempt.confidences,
        attempt.mapped.rows,
        doubts,
        keyed_by_name=keyed_by_name(attempt.mapped, attempt.table),
    )
    return None if verdict.ok else Decision(verdict.reasons)


def grid(attempt: Attempt, done: Climb) -> Decision:
    """A grid read from the page: taken when it passes every check, unless it holds no
    inventory rows where a cards rung is still to come (a page of cards or tiles lines up as
    a grid of text: held while that rung reads it as blocks) or where an earlier reading
    found them (a sidebar and a pager taken for the table)."""
    if attempt.table is None and attempt.reasons:
        return Decision(attempt.reasons)
    unsure = _checked(attempt, done)
    if unsure is not None:
        return unsure
    if not attempt.mapped.rows and "cards" in done.ahead:
        return Decision(
            ("no inventory rows: the page may show cards or a list",),
            hold=True,
            why="a grid without inventory rows, while the cards rung reads the page as blocks",
        )
    if rowless_after_rows(attempt, done.readings):
        return Decision(("no inventory rows where an earlier reading found them",))
    return Decision(take=attempt, why=PASSED)


def cards(attempt: Attempt, done: Climb) -> Decision:
    """Records in blocks, judged like a grid; none found, the grid held is taken."""
    if attempt.table is None and done.held is not None:
        return Decision(
            attempt.reasons,
            take=done.held,
            why="no records in blocks either: the grid held is taken",
        )
    return grid(attempt, done)


def first_of_a_photo(attempt: Attempt, done: Climb) -> Decision:
    """A photo's first reading (its own text boxes): taken when it passes every check and is
    sure; passing but unsure, held for the engine's detection to read the photo again."""
    decision = grid(attempt, done)
    if decision.take is not attempt or "detect" not in done.ahead or sure(attempt):
        return decision
    return Decision(hold=True, why="passed, not sure: the detection reads the photo again")


def detection(attempt: Attempt, done: Climb) -> Decision:
    """The engine's detection of the text lines. On a photo whose first reading passed, the
    two are weighed (`detection_if_better`): more fields read as values of their kind, or as
    many more surely; a detection that found no table leaves the first. On a photo whose first
    reading did not pass, a detection that passes is taken, or the first, unsure of a value or
    two, when that reads more fields (`boxes_if_fuller`)."""
    held = done.held if done.photo and done.held and done.held.rung.method == "lines" else None
    if held is not None:
        if attempt.table is None or attempt.reasons:
            return Decision(attempt.reasons, take=held, why="the detection found no table")
        verdict = judge(
            attempt.table,
            attempt.confidences,
            attempt.mapped.rows,
            attempt.doubts,
            keyed_by_name=keyed_by_name(attempt.mapped, attempt.table),
        )
        chosen = detection_if_better(held, attempt, done.readings, passed=verdict.ok)
        return Decision(
            verdict.reasons,
            take=chosen,
            why="a photo's two readings weighed: "
            + ("the detection's reads more" if chosen is attempt else "its own boxes' kept"),
        )
    decision = grid(attempt, done)
    if decision.take is attempt and done.photo:
        fuller = boxes_if_fuller(attempt, done.readings)
        if fuller is not attempt:
            return Decision(take=fuller, why="its own boxes' reading reads more fields")
    return decision


def image(attempt: Attempt, done: Climb) -> Decision:
    """The picture itself, sent with the best reading for the model to see beside it."""
    best = (
        max(done.readings, key=lambda a: a.score, default=None)
        if done.photo
        else fullest(done.readings)
    )
    return Decision(take=escalated(attempt, best), why="the model reads the image itself")


RULES: dict[Method, Rule] = {
    "lines": grid,
    "cards": cards,
    "structure": grid,
    "detect": detection,
    "image": image,
}
"""Each method's acceptance rule."""
PHOTO_RULES: dict[Method, Rule] = {**RULES, "lines": first_of_a_photo}
"""A photo's: its own text boxes' reading is taken only when sure."""


def make_steps(rungs: Sequence[Rung], read: Reader, *, photo: bool) -> tuple[Step, ...]:
    """The ladder's rungs, each with `read` and its method's rule."""
    rules = PHOTO_RULES if photo else RULES
    return tuple(Step(rung, read, rules[rung.method]) for rung in rungs)
