"""Map whatever a screen calls its columns onto the inventory schema, in English and Chinese.

A column's role comes from evidence of two kinds, combined (`type_columns`):

- **its values** (`pipeline.table.values`): SKU-like codes (`SKU-10231`, `BX-310-K`,
  `01.02.0035`), warehouse codes, quantities with or without separators and a unit (`1,450 件`,
  `120 pcs`), running indexes (`序号` 1…N), prices, dates, status words, free text;
- **its header** (`pipeline.table.headers`): the whole header against each field's synonyms
  (exactly, or fuzzily for an OCR misread), and its words against an open vocabulary (`qty`,
  `avail`, `free`, `balance`, `现存` … for on hand; `min`, `safety`, `reorder`, `警戒` … for the
  reorder point; `ref`, `code`, `part`, `#`, `编码` … for the SKU), with words that rule a field
  out (`on order`, `allocated`, `在途`, `price`, `unit`, `status`).

A field is given to the column with the best combined score, each column serving at most one
field; when two quantity columns compete the header decides (`on hand` over `available` over
a bare `qty`), unless the values say otherwise: a column that is another plus an `Allocated`
column row by row is on hand; an `On order` column is never on hand. Values alone speak under
a header that names nothing, and, where no header names the field, for surely coded SKUs under
a header read together with its neighbour's, for quantities with a unit in a table of codes
(on hand, unsure), for the one column of quantities left under a header that names nothing
when only one of the two counts is mapped (the other, unsure), and for a column of varied
words in a table that counts stock (the name, unsure). Two headers read as one map by
the first over numbers (`Safety stock Status` over `150`). Every mapping carries its evidence
and a confidence (`ColumnRole`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pipeline.fields import KeyKind
from pipeline.models import NONE_MARKS
from pipeline.table.cells import quantity_and_unit
from pipeline.table.headers import (
    COMMITTED,
    FIELDS,
    header_evidence,
    header_words,
    leading_phrase,
    names_something,
    on_hand_rank,
    ruled_out,
)
from pipeline.table.values import ValuesProfile, values_profile

__all__ = ["ColumnRole", "fits", "map_columns", "type_columns"]


@dataclass(frozen=True)
class ColumnRole:
    """What one column of a table is taken to hold: `maps_to` (a schema field, or None), how
    sure (`confidence`, 0-1), and why (the evidence, in words)."""

    index: int
    header: str
    maps_to: str | None
    confidence: float
    why: str
    unit: str | None = None
    key: KeyKind | None = None
    """Where this column keys the rows: the kind of identifier it holds."""
    key_part: str | None = None
    """The part of the cell that is the key, where it is not the whole cell."""


def fits(field: str, profile: ValuesProfile) -> tuple[float, str]:
    """How well a column's values fit `field` (1: fully, 0: not at all), and in words."""
    if profile.filled == 0:
        return 0.6, "no values to check"
    n = profile.filled
    if field in ("on_hand", "reorder_point"):
        if profile.index:
            return 0.0, f"values run 1…{n} (a row number)"
        if profile.prices >= 0.5 or profile.dates >= 0.5:
            return 0.0, "values are prices or dates"
        fit = profile.quantities if profile.quantities >= 0.7 else 0.0
        if profile.quantities > 0.5 and not fit:
            # Most are numbers, some misread (`44 pcs` as `u pes` on a blurred photo): they
            # fit, but less, and not at all where nothing else says so (see type_columns).
            fit = profile.quantities / 2
        unit = f" with unit {profile.unit}" if profile.unit else ""
        return fit, f"{round(profile.quantities * n)}/{n} quantities{unit}"
    if field == "sku":
        if profile.index:
            return 0.15, "values run 1…N (a row number)"
        if profile.quantities >= 0.9 and profile.codes < 0.5:
            if profile.distinct == profile.filled and profile.unit is None and n >= 2:
                # Each row its own number (`10001`, `4006381333931`): item numbers, if a
                # header says the column identifies them.
                return 0.5, "values are plain numbers, each row its own"
            return 0.15, "values are plain numbers"
        if profile.codes >= 0.6:
            return 1.0, f"{round(profile.codes * n)}/{n} codes"
        return (0.3 if profile.text < 0.8 else 0.1), f"{round(profile.codes * n)}/{n} codes"
    if field == "warehouse_id":
        if profile.warehouses >= 0.6:
            return 1.0, f"{round(profile.warehouses * n)}/{n} warehouse codes"
        if profile.codes >= 0.6:
            return 0.6, "values are codes (a location's: an area, a bin)"
        if profile.quantities >= 0.6:
            return 0.1, "values are numbers, not warehouses"
        return 0.5, "no warehouse codes (names?)"
    # name
    if profile.codes >= 0.6 or profile.quantities >= 0.6:
        return 0.1, "values are codes or numbers, not names"
    return (1.0 if profile.text >= 0.6 else 0.4), f"{round(profile.text * n)}/{n} text values"


def type_columns(
    header: Sequence[str], columns: Sequence[Sequence[str]], *, headers_only: bool = False
) -> list[ColumnRole]:
    """Each column's role, from its header and its values together (see the module
    docstring). `headers_only` asks what the header alone names."""
    profiles = [
        values_profile([] if headers_only else (columns[i] if i < len(columns) else []))
        for i in range(len(header))
    ]
    # What each header names, scored once: every rule below reads it.
    said_by = [{f: header_evidence(text, f) for f in FIELDS} for text in header]
    # Numbers that run on (10001, 10002 …) under a header that names an identifier (`ID`,
    # `编号`) are the items' numbers, not the rows': a row number starts at 1.
    profiles = [
        replace(p, index=False)
        if p.index and said_by[i]["sku"][0] >= 0.6 and _first_number(columns[i]) != 1
        else p
        for i, p in enumerate(profiles)
    ]
    scored: list[tuple[float, int, str, int, str]] = []
    # The fields some header names. Only in a table that counts stock is a silent column of
    # words taken for the name: one where a header names a stock quantity, or where surely
    # coded SKUs under their own header stand beside quantities under headers the vocabulary
    # does not know (blurred: `库存数量` read as `成行 R量`; another language: `Bestand`). A
    # grid of other text is no table of stock.
    named = {f for f in FIELDS if any(said[f][0] >= 0.5 for said in said_by)}
    coded = any(p.codes >= 0.85 for p in profiles)
    itemised = any(
        said["sku"][0] >= 0.5 and profiles[i].codes >= 0.85 for i, said in enumerate(said_by)
    )
    # Words named by no header are the name: sure enough where a header names a count, unsure
    # (for a person or a model to confirm) where only the values say the table counts.
    said_counted = bool(named & {"on_hand", "reorder_point"})
    counted = said_counted or (
        itemised
        and any(
            not names_something(header_words(text)) and fits("on_hand", profiles[i])[0] >= 0.7
            for i, text in enumerate(header)
        )
    )
    named_by_words = 0.6 if said_counted else 0.45
    # Columns of words whose header says, if only weakly, that they hold the name (`Article`).
    worded = {
        i
        for i, said in enumerate(said_by)
        if said["name"][0] > 0 and fits("name", profiles[i])[0] == 1.0
    }
    for index, text in enumerate(header):
        profile = profiles[index]
        # Values alone speak for a column only as far as it is filled: a menu that shares a
        # few rows with the table (a sidebar read as a first column) holds no field.
        cells = len(columns[index]) if index < len(columns) else 0
        coverage = profile.filled / cells if cells else 0.0
        words = header_words(text)
        rank = on_hand_rank(words)
        # Two headers read as one: only over numbers (with or without a unit) are the values
        # the first one's; a status or unit column's own values are words.
        numeric = profile.unit is not None or profile.quantities >= 0.7
        lead = None if headers_only or not numeric else leading_phrase(text)
        silent = not names_something(words)
        varied = profile.distinct >= 0.7 * profile.filled
        for field in FIELDS:
            said, said_why = said_by[index][field]
            fit, fit_why = fits(field, profile)
            if said == 0 and lead is not None:
                # `Min qty Unit` over `150 boxes`: two columns read as one; the number is
                # the first one's.
                said, said_why = header_evidence(lead[0], field)
                if said > 0:
                    said_why += f" (and {lead[1]!r} beside it, read as one column)"
            if said > 0:
                score = said * (0.35 + 0.65 * fit) if profile.filled else said
            elif headers_only:
                continue
            elif (
                field == "sku"
                and "sku" not in named
                and profile.codes >= 0.85
                and not silent
                and said_by[index]["warehouse_id"][0] < 0.5
            ):
                # `ON ORDER SKU` read as one header over an empty column and the codes: codes
                # this sure are the SKU when no header names it, whatever else the header says.
                score = 0.7 * profile.codes * coverage
                said_why = f"no header names it; {text!r} names another field"
            elif not silent:
                continue  # values alone decide only under a header that names nothing
            elif field == "sku" and profile.codes >= 0.85:
                score, said_why = 0.85 * profile.codes * coverage, "no header names it"
            elif field == "warehouse_id" and profile.warehouses >= 0.6:
                score, said_why = 0.85 * profile.warehouses * coverage, "no header names it"
            elif field == "on_hand" and "on_hand" not in named and profile.unit and coded:
                # Quantities with their unit (`96 boxes`) under a header glare left unread, in
                # a table of codes, where no header names what is on hand: stock counted.
                score, said_why = 0.6 * fit * coverage, "no header names it"
            elif field == "name" and fit == 1.0 and counted and not worded and varied:
                # Under a misread header (`Description` read as `B`), words are the name
                # unless a column whose header says so holds them; words that repeat down
                # the column (`OK`, `Reorder`) are a status.
                score, said_why = named_by_words * profile.text * coverage, "no header names it"
            else:
                continue
            if score < 0.3:
                continue
            why = "; ".join(
                w for w in (said_why, None if headers_only else f"values: {fit_why}") if w
            )
            scored.append((score, rank if field == "on_hand" else 1, field, index, why))
    roles: dict[int, ColumnRole] = {}
    taken: set[str] = set()
    for score, _rank, field, index, why in sorted(scored, key=lambda s: (-s[0], -s[1])):
        if field in taken or index in roles:
            continue
        competing = [s for s in scored if s[2] == field and s[3] != index and s[3] not in roles]
        if field == "on_hand" and any(s[1] > _rank and s[0] >= 0.5 * score for s in competing):
            continue  # a better-named on-hand column ("On hand" beside "Available") wins
        runner_up = max((s[0] for s in scored if s[3] == index and s[2] != field), default=0.0)
        confidence = round(max(0.0, min(1.0, score - 0.5 * runner_up)), 2)
        roles[index] = ColumnRole(
            index, header[index], field, confidence, why, profiles[index].unit
        )
        taken.add(field)
    if not headers_only:
        _total_of_parts(roles, header, columns, profiles)
        _count_left_over(roles, header, columns, profiles)
    return [
        roles.get(i)
        or ColumnRole(
            i, header[i], None, 0.0, _unmapped_why(header[i], profiles[i]), profiles[i].unit
        )
        for i in range(len(header))
    ]


def _first_number(values: Sequence[str]) -> int | None:
    first = next((v.strip() for v in values if v.strip()), "")
    return int(first) if first.isdigit() else None


def _total_of_parts(
    roles: dict[int, ColumnRole],
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    profiles: Sequence[ValuesProfile],
) -> None:
    """On hand is what is free plus what is allocated: when the column taken for on hand plus
    an `Allocated` (`Reserved`, `预留`) column gives another unmapped column row by row (`Free
    stock` 412 = `Avail.` 330 + `Alloc.` 82), that total is on hand, whatever its header says."""
    free = next((i for i, r in roles.items() if r.maps_to == "on_hand"), None)
    if free is None:
        return
    held = [
        i for i in range(len(header)) if i not in roles and COMMITTED & {*header_words(header[i])}
    ]
    for part in held:
        for total in (i for i in range(len(header)) if i not in roles and i != part):
            if _sums(columns, total, free, part):
                role = roles.pop(free)
                roles[total] = ColumnRole(
                    total,
                    header[total],
                    "on_hand",
                    role.confidence,
                    f"values: each is {header[free]!r} + {header[part]!r} (on hand is what is "
                    f"free plus what is allocated)",
                    profiles[total].unit,
                )
                roles[free] = ColumnRole(
                    free,
                    header[free],
                    None,
                    0.0,
                    f"header {header[free]!r}: what is free of {header[part]!r}, not on hand",
                    role.unit,
                )
                return


def _count_left_over(
    roles: dict[int, ColumnRole],
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    profiles: Sequence[ValuesProfile],
) -> None:
    """A table of codes with one of its two counts mapped (on hand, the reorder point) and
    exactly one other column of whole quantities under a header that names nothing (read as
    `qtyal.`, or lost to glare): that column is the other count, unsure, for a person to
    confirm. With neither count mapped, such a column is on hand, as unsure (a header the
    reading lost). A header that names anything else (`On order`, `Price`) keeps its column
    out."""
    taken = {r.maps_to for r in roles.values()}
    counts = [f for f in ("on_hand", "reorder_point") if f not in taken]
    if "sku" not in taken or not counts:
        return
    counts = counts[:1]
    loose = [
        i
        for i in range(len(header))
        if i not in roles
        and not names_something(header_words(header[i]))
        and profiles[i].filled >= 3
        and fits(counts[0], profiles[i])[0] >= 0.7
        and profiles[i].filled >= 0.8 * len(columns[i])
    ]
    if len(loose) != 1:
        return
    index = loose[0]
    other = "the reorder point" if counts[0] == "on_hand" else "on hand"
    beside = (
        f"beside {other}" if len(taken & {"on_hand", "reorder_point"}) else "in a table of codes"
    )
    roles[index] = ColumnRole(
        index,
        header[index],
        counts[0],
        0.3,
        f"no header names it; the one other column of quantities {beside}; values: "
        f"{fits(counts[0], profiles[index])[1]}",
        profiles[index].unit,
    )


def _sums(columns: Sequence[Sequence[str]], total: int, free: int, part: int) -> bool:
    """Whether column `total` is `free` + `part` on at least 80% of the rows where all three
    are read, three rows or more, one of them with something allocated (`-` is none)."""
    if max(total, free, part) >= len(columns):
        return False
    checked = agree = allocated = 0
    for whole, left, held in zip(columns[total], columns[free], columns[part], strict=False):
        a, b = quantity_and_unit(whole)[0], quantity_and_unit(left)[0]
        c = 0 if held.strip() in NONE_MARKS else quantity_and_unit(held)[0]
        if a is None or b is None or c is None:
            continue
        checked += 1
        agree += a == b + c
        allocated += c > 0
    return checked >= 3 and allocated > 0 and agree >= 0.8 * checked


def _unmapped_why(header: str, profile: ValuesProfile) -> str:
    if profile.index:
        return f"header {header!r}: a running row number"
    ruled = ruled_out(header)
    if ruled:
        return f"header {header!r}: {', '.join(ruled)} is not a stock field"
    return f"header {header!r} names no inventory field"


def map_columns(
    header: Sequence[str], columns: Sequence[Sequence[str]], *, headers_only: bool = False
) -> dict[str, int]:
    """Schema field -> column index (see `type_columns`); each column serves at most one
    field."""
    return {
        role.maps_to: role.index
        for role in type_columns(header, columns, headers_only=headers_only)
        if role.maps_to is not None
    }
