"""A column's codes read together: small text misreads one code at a time, and the column's
other codes say what it was.

A separator lost or misread (`WH03`, `SKU·10702`, `01,02.0035`, `01.020035`), a whole run of
letters read as look-alike digits or the reverse (`TP-48-8` among `BX-310-K`), or a prefix one
letter off (`SKUJ-10232` among `SKU-...`), or one letter off with the hyphen's stroke read too
(`SKLJ-10232`), or a letter read as a look-alike digit (`5KU-10910`, `5KUJ-10310`), takes the
form most of the column shares. A blurred column may read its prefix a different way in each
row (`SKUA-`, `SKUF-`, `SKL-`): the prefix read whole far more often than any other, with
nearly every code a letter off it, is the column's. A neighbour's word read before a code
(`BAGSSKU-10310`) is dropped. A column split nearly evenly keeps what it read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate

from pipeline.models import Row
from pipeline.table.cells import MIDDLE_DOTS

__all__ = ["column_codes"]

_ID_PARTS = re.compile(r"^([A-Z]{1,6})-(\d+)$")


def column_codes(rows: list[Row]) -> list[Row]:
    """The rows with their SKUs and warehouse ids read together, column by column: a lost or
    misread separator, a whole run misread as the other kind, and a prefix one letter off
    (`SKUJ-10232` among `SKU-...` ids is `SKU-10232`) take the form most of the column shares."""
    for field in ("sku", "warehouse_id"):
        rows = _consensus_separators(rows, field)
        rows = _consensus_shape(rows, field)
        rows = _consensus_kinds(rows, field)
        rows = _consensus_prefix(rows, field)
    return rows


def _consensus_prefix(rows: list[Row], field: str) -> list[Row]:
    """A prefix a letter off (`SKUJ-`, `SKLJ-`, `SKUA-` among `SKU-...`), or read with a
    neighbour's text before it (`BAGSSKU-10310`, `95SKU-10403`), takes the prefix the column
    shares."""
    values = [_lettered_prefix(getattr(r, field) or "") for r in rows]
    parts = [_ID_PARTS.match(v) for v in values]
    prefixes = [m[1] for m in parts if m]
    if len(prefixes) < 3:
        return rows
    counts = Counter(prefixes).most_common()
    common = counts[0][0]
    share = counts[0][1] / len(prefixes)
    strong = share >= 0.6 or _near_consensus(common, counts)
    if share <= 0.5 and not strong:
        return rows
    for k, (value, match) in enumerate(zip(values, parts, strict=True)):
        if match is None:
            # Another cell's text read in before the prefix: the column's code follows it.
            joined = strong and re.fullmatch(rf"[A-Z0-9]{{1,8}} ?{common}-(\d+)", value)
            if joined:
                rows[k] = rows[k].model_copy(update={field: f"{common}-{joined[1]}"})
            continue
        if match[1] == common:
            if value != getattr(rows[k], field):  # read with a look-alike digit (`5KU-`)
                rows[k] = rows[k].model_copy(update={field: value})
            continue
        if not _one_edit(match[1], common):
            # A letter off and the hyphen's stroke too (`SKLJ-`): most of the column only.
            if strong and _stroked_edit(match[1], common):
                rows[k] = rows[k].model_copy(update={field: f"{common}-{match[2]}"})
            continue
        # A blurred hyphen reads as a stroke letter stuck to the prefix (`SKUJ-`): a
        # majority of the column is evidence enough for that misreading.
        if strong or _stroke_before_hyphen(match[1], common):
            rows[k] = rows[k].model_copy(update={field: f"{common}-{match[2]}"})
    return rows


_DIGITS_IN_PREFIX = re.compile(r"^([A-Z0-9]*[0-9][A-Z0-9]*)(-\d+)$")


def _lettered_prefix(value: str) -> str:
    """`5KU-10910` as `SKU-10910`: a prefix with digits that look like letters, read as those
    letters (only to compare it with the column's; a code that is not mended keeps its
    digits)."""
    match = _DIGITS_IN_PREFIX.match(value)
    if match is None or len(match[1]) > 6:
        return value
    letters = match[1].translate(_AS_LETTER)
    return letters + match[2] if letters.isalpha() else value


def _near_consensus(common: str, counts: Sequence[tuple[str, int]]) -> bool:
    """Whether a column whose codes blur their prefixes in several ways still shares
    `common`: it is read whole at least three times and twice as often as any other
    prefix, and three in four prefixes are it or a letter off it (a letter and the
    hyphen's stroke, too). Short prefixes (`BX`, `TP`) are not mended this way: a letter
    off one is often another family's."""
    if len(common) < 3 or counts[0][1] < 3:
        return False
    if len(counts) > 1 and counts[0][1] < 2 * counts[1][1]:
        return False
    near = sum(
        n
        for prefix, n in counts
        if prefix == common or _one_edit(prefix, common) or _stroked_edit(prefix, common)
    )
    return near >= 0.75 * sum(n for _, n in counts)


_STROKES = frozenset("JIL1T|")
"""Letters a blurred hyphen's stroke, read with the glyph before it, comes out as."""


def _stroke_before_hyphen(prefix: str, common: str) -> bool:
    """`SKUJ` for `SKU`: the common prefix and one stroke letter where the hyphen begins."""
    return prefix[:-1] == common and prefix[-1] in _STROKES


def _stroked_edit(prefix: str, common: str) -> bool:
    """`SKLJ` for `SKU`: a letter off the common prefix, and a stroke letter where the hyphen
    begins."""
    return prefix[-1] in _STROKES and _one_edit(prefix[:-1], common)


_LOOSE_ID = re.compile(r"^([A-Z]{1,6})[^A-Z0-9]{0,2}(\d+)$")
_DOTTED_ID = re.compile(rf"^[A-Z]{{1,6}}[{MIDDLE_DOTS}]\d+$")


def _consensus_separators(rows: list[Row], field: str) -> list[Row]:
    """`WH03`, `WH+-03` or `SKU·10702` among `WH-..`/`SKU-..` ids: the separator most ids of the
    column share, in place of a lost or misread one. Rows whose id was not read at all do not
    count against the column's agreement, nor do ids with a middle dot where the hyphen
    stands: no code is typed with one, it is a hyphen read short (a blurred photo can read
    most of a column's hyphens so)."""
    values = [getattr(r, field) or "" for r in rows]
    proper = sum(bool(_ID_PARTS.match(v)) for v in values)
    dotted = sum(bool(_DOTTED_ID.match(v)) for v in values)
    if proper < 3 or proper < 0.6 * (sum(bool(v) for v in values) - dotted):
        return rows
    fixed = []
    for row, value in zip(rows, values, strict=True):
        loose = _LOOSE_ID.match(value) if not _ID_PARTS.match(value) else None
        fixed.append(row.model_copy(update={field: f"{loose[1]}-{loose[2]}"}) if loose else row)
    return fixed


_RUN = re.compile(r"[A-Z]+|\d+")
_SEPARATOR_CHARS = frozenset(" .,:;·-_/")


def _shape(value: str) -> tuple[tuple[tuple[bool, int], ...], tuple[str, ...]] | None:
    """A code's letter and digit runs (kind, length) and the separators between them, or None
    when something other than separators stands before, after or between them."""
    runs = _RUN.findall(value)
    parts = _RUN.split(value)
    if not runs or parts[0] or parts[-1]:
        return None
    between = tuple(parts[1:-1])
    if any(len(p) > 2 or not set(p) <= _SEPARATOR_CHARS for p in between):
        return None
    return tuple((r.isdigit(), len(r)) for r in runs), between


def _consensus_shape(rows: list[Row], field: str) -> list[Row]:
    """`01,02.0035`, `01.02:0035` or `01 02 0035` among `01.02.0035`-shaped codes: the runs
    of letters and digits the column's codes share, with its separators in place of misread
    ones."""
    shapes = [_shape(getattr(r, field) or "") for r in rows]
    known = [s for s in shapes if s is not None]
    if len(known) < 3:
        return rows
    common, count = Counter(known).most_common(1)[0]
    if count < 3 or count < 0.5 * len(rows):
        return rows
    fixed = []
    for row, shape in zip(rows, shapes, strict=True):
        if shape is None or shape == common:
            fixed.append(row)
            continue
        read: list[str] = _RUN.findall(getattr(row, field) or "")
        runs = read if shape[0] == common[0] else _split_as(read, common[0])
        if runs is None:
            fixed.append(row)
            continue
        fixed.append(row.model_copy(update={field: _joined(runs, common[1])}))
    return fixed


def _split_as(runs: Sequence[str], common: Sequence[tuple[bool, int]]) -> list[str] | None:
    """Runs read with a separator lost between two of them (`02.010011` among `02.01.0011`):
    cut where the column's runs end, when every cut the read code has is one of theirs and each
    part is of its run's kind; else None."""
    ends = list(accumulate(n for _, n in common))
    cuts = list(accumulate(len(r) for r in runs))
    if len(runs) >= len(common) or cuts[-1] != ends[-1] or not set(cuts) <= set(ends):
        return None
    text = "".join(runs)
    parts = [text[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    if any(part.isdigit() != digits for part, (digits, _) in zip(parts, common, strict=True)):
        return None
    return parts


_AS_LETTER = str.maketrans({"8": "B", "5": "S", "0": "O", "1": "I", "2": "Z", "6": "G"})
_AS_DIGIT = str.maketrans(
    {"B": "8", "S": "5", "O": "0", "D": "0", "Q": "0", "I": "1", "L": "1", "Z": "2", "G": "6"}
)
"""Glyphs small text blurs into the other kind: a letter run of a code read as digits (`8` for
`B`, `5` for `S`), or a digit run read as letters."""


def _kinds(value: str) -> tuple[tuple[bool, ...], tuple[str, ...]] | None:
    """A code's runs as digits or letters, and its separators; None for no code."""
    shape = _shape(value)
    return (tuple(digits for digits, _ in shape[0]), shape[1]) if shape else None


def _consensus_kinds(rows: list[Row], field: str) -> list[Row]:
    """`TP-48-8` among `BX-310-K`, `FL-500-S`, `LB-100-T`: a run that the column's codes write
    in letters, read as digits that look like letters, is those letters (`TP-48-B`); a run they
    write in digits, read as look-alike letters, is those digits. Only where most of the
    column's codes share the runs' kinds, and every glyph of the run has a look-alike."""
    values = [getattr(r, field) or "" for r in rows]
    kinds = [_kinds(v) for v in values]
    known = [k for k in kinds if k is not None]
    if len(known) < 4:
        return rows
    common, count = Counter(known).most_common(1)[0]
    if count < 0.6 * len(known):
        return rows
    fixed = []
    for row, value, kind in zip(rows, values, kinds, strict=True):
        if kind is None or kind == common or kind[1] != common[1]:
            fixed.append(row)
            continue
        runs = _RUN.findall(value)
        mended = [
            run
            if is_digits == (run.isdigit())
            else run.translate(_AS_DIGIT if is_digits else _AS_LETTER)
            for run, is_digits in zip(runs, common[0], strict=True)
        ]
        if any(
            m.isdigit() != is_digits or (not is_digits and not m.isalpha())
            for m, is_digits in zip(mended, common[0], strict=True)
        ):
            fixed.append(row)
            continue
        fixed.append(row.model_copy(update={field: _joined(mended, common[1])}))
    return fixed


def _joined(runs: Sequence[str], separators: Sequence[str]) -> str:
    """A code written from its runs with `separators` between them."""
    return runs[0] + "".join(sep + run for sep, run in zip(separators, runs[1:], strict=True))


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))
