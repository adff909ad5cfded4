"""A column's names read together: a blurred photo misreads a letter of a word in one row
(`gioves`, `Cabie`, `bok`), and the same word read right in other rows of the column says
what it was.

A word of three or more Latin letters that only one row has takes the form of a word two or
more other rows have, when the two differ by one letter that a recogniser takes for the other
(`i` for `l`, `k` for `x`, `b` for `h` ...) or by one of a doubled letter (`Wal` for `Wall`).
Words in one row only, with no such twin, are kept as read: a name's own words (`M8`, `size
L`) are not changed by looking alike.

On a photo (`known_words`, applied to every cell a photo's reading returns): a word no English
dictionary knows (`tle`, `labeis`, `ribon`, `strp`) is the common English word it is one such
letter off, one of a doubled letter short or one thin letter (`i`, `l`) short of, where that
word is far more used than any other it could be (`tie`, `labels`, `ribbon`, `strip`). Words
in capitals (`LED`, `AAA`), a word right after a number (`31 pcs`) and a cell of one word
are units, codes or statuses, kept as read. A clean render keeps every word it reads: there a
word no dictionary knows is a brand (`Wago`, one glyph off `wage`), not a misreading.

A dimension sign spaced on one side only (`100 cm x50 m`, `110mmx 300m`) is spaced on both:
a recogniser that measures the gap on one side of a narrow `x` misses it on the other as often
as not, and writers space such a sign alike on both sides or on neither (`100x150` is kept),
as the name's other signs are (`40x 30x30` is `40x30x30`).

An empty cell's dash in the column beside, read into a name as its first word (`一 弹簧垫圈
M6`, `— Heat-shrink tube kit`), is left out where most of the column's names do not start so.
"""

from __future__ import annotations

import re
from collections import Counter

from pipeline.models import Row
from pipeline.table.cells import DASH_LOOKALIKES
from pipeline.table.lexicon import english

__all__ = ["column_words", "known_cells", "known_words"]

_WORD = re.compile(r"[A-Za-z]{3,}")
_LOOKALIKES = tuple(frozenset(group) for group in ("il", "kx", "oce", "bh", "nh", "ao"))
"""Letters a recogniser reads for each other in small or blurred text (`a` for `o` too; not
`f` for `l`: a `fine` beside two `line`s is a word of its own as often as not)."""


_LEADING_MARK = re.compile(rf"^[-{DASH_LOOKALIKES}一] +(?=\S)")
"""A lone dash (or the CJK `一` small text reads it as) and a space before a name's words."""


_ONE_SIDED_SIGN = re.compile(
    r"(\d(?: ?(?:mm|cm|km|m|in|ft|kg|g|ml|l|L|V|W))?)(?: ([x×])(?=\d)|([x×]) (?=\d))"
)
"""A dimension sign after a quantity (`100 cm`, `1.2m`, `48`) with a space on one side only
(not the `x` that ends a word: `100 box 5`)."""


def column_words(rows: list[Row]) -> list[Row]:
    """The rows with the words of their names read together (see the module)."""
    rows = [_spaced_signs(row) for row in _without_neighbours_dash(rows)]
    names = [row.name or "" for row in rows]
    seen: Counter[str] = Counter()
    forms: dict[str, str] = {}
    for name in names:
        words = _WORD.findall(name)
        seen.update({w.lower() for w in words})
        for word in words:
            forms.setdefault(word.lower(), word)
    common = [w for w, n in seen.items() if n >= 2]
    if not common:
        return rows
    mended = list(rows)
    for k, name in enumerate(names):
        fixed = _WORD.sub(lambda m: _twin(m.group(0), seen, common, forms), name)
        if fixed != name:
            mended[k] = rows[k].model_copy(update={"name": fixed})
    return mended


def _twin(word: str, seen: Counter[str], common: list[str], forms: dict[str, str]) -> str:
    """`word` as the column's common word it is a misreading of, else as read."""
    if seen[word.lower()] != 1:
        return word
    misread_from = _one_glyph_off(word.lower(), thin=False)
    twins = [c for c in common if c in misread_from]
    if len(twins) != 1:
        return word
    twin = forms[twins[0]]
    return twin.capitalize() if word[0].isupper() and twin[0].islower() else twin


_COMMON = 500
"""How often (in the dictionary's counts) a word is used to count as common: `tie` 62,083,
`ribbon` 5,226, `kraft` 74."""


_AFTER_NUMBER = re.compile(r"\d ?$")
_WHOLE_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]{3,}(?![^\W\d_])")
"""A Latin word of three letters or more, not part of a longer word (`rth` in `Würth`)."""


def known_words(text: str) -> str:
    """A photo's cell with each word no dictionary knows as the common English word it is one
    glyph off (see the module). A cell of one word (a unit, a status, a code) and a word right
    after a number (a unit: `31 pcs`, not `pics`) are kept as read."""
    if len(text.split()) < 2:
        return text
    return _WHOLE_WORD.sub(
        lambda m: m[0] if _AFTER_NUMBER.search(text, 0, m.start()) else _known(m[0]), text
    )


def _known(word: str) -> str:
    """`word` as the one common English word it is a misreading of (see the module), else as
    read."""
    lower = word.lower()
    lexicon = english()
    if word.isupper() or lower in lexicon:
        return word
    found = {c: lexicon.get(c, 0) for c in _one_glyph_off(lower)}
    likely = sorted(((n, c) for c, n in found.items() if n >= _COMMON), reverse=True)
    if not likely or (len(likely) > 1 and likely[0][0] < 10 * likely[1][0]):
        return word  # no common word it could be, or two alike
    best = likely[0][1]
    return best.capitalize() if word[0].isupper() else best


def _one_glyph_off(word: str, *, thin: bool = True) -> set[str]:
    """The words `word` is read from with one look-alike letter taken for another, one of a
    doubled letter lost, or (`thin`) one thin letter lost."""
    found: set[str] = set()
    for i, letter in enumerate(word):
        for group in _LOOKALIKES:
            if letter in group:
                found.update(word[:i] + other + word[i + 1 :] for other in group - {letter})
        found.add(word[: i + 1] + letter + word[i + 1 :])
    if thin:
        for i in range(len(word) + 1):
            found.update(word[:i] + lost + word[i:] for lost in "il")
    return found


def known_cells(rows: list[list[str]]) -> list[list[str]]:
    """A photo's rows of cells, each read with `known_words`."""
    return [[known_words(cell) for cell in row] for row in rows]


def _without_neighbours_dash(rows: list[Row]) -> list[Row]:
    """The names without a dash read in from the empty cell beside them (see the module)."""
    marked = [bool(row.name and _LEADING_MARK.match(row.name)) for row in rows]
    if not any(marked) or sum(marked) * 2 >= len(rows):
        return rows
    return [
        row.model_copy(update={"name": _LEADING_MARK.sub("", row.name)})
        if mark and row.name
        else row
        for row, mark in zip(rows, marked, strict=True)
    ]


def _spaced_signs(row: Row) -> Row:
    """The row with a dimension sign in its name spaced on both sides (see the module)."""
    if not row.name:
        return row
    # Spaced as the name's other signs are: `40x 30x30` is `40x30x30`.
    tight = re.search(r"\d[x×]\d", row.name) is not None
    name = _ONE_SIDED_SIGN.sub(
        lambda m: f"{m[1]}{m[2] or m[3]}" if tight else f"{m[1]} {m[2] or m[3]} ", row.name
    )
    return row if name == row.name else row.model_copy(update={"name": name})
