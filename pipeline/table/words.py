"""A column's names read together: a blurred photo misreads a letter of a word in one row
(`gioves`, `Cabie`, `bok`), and the same word read right in other rows of the column says
what it was.

A word of three or more Latin letters that only one row has takes the form of a word two or
more other rows have, when the two differ by one letter that a recogniser takes for the other
(`i` for `l`, `k` for `x`, `b` for `h` ...) or by one of a doubled letter (`Wal` for `Wall`).
Words in one row only, with no such twin, are kept as read: a name's own words (`M8`, `size
L`) are not changed by looking alike.
"""

from __future__ import annotations

import re
from collections import Counter

from pipeline.models import Row

__all__ = ["column_words"]

_WORD = re.compile(r"[A-Za-z]{3,}")
_LOOKALIKES = tuple(frozenset(group) for group in ("il", "kx", "oce", "bh", "nh"))
"""Letters a recogniser reads for each other in small or blurred text (not `f` for `l`: a
`fine` beside two `line`s is a word of its own as often as not)."""


def column_words(rows: list[Row]) -> list[Row]:
    """The rows with the words of their names read together (see the module)."""
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
    twins = [c for c in common if _misread(word.lower(), c)]
    if len(twins) != 1:
        return word
    twin = forms[twins[0]]
    return twin.capitalize() if word[0].isupper() and twin[0].islower() else twin


def _misread(read: str, word: str) -> bool:
    """Whether `read` is `word` with one letter taken for a look-alike, or one of a doubled
    letter lost."""
    if len(read) == len(word):
        pairs = [(a, b) for a, b in zip(read, word, strict=True) if a != b]
        return len(pairs) == 1 and any(set(pairs[0]) <= group for group in _LOOKALIKES)
    if len(read) + 1 == len(word):
        return any(
            word[i] == word[i - 1] and word[:i] + word[i + 1 :] == read for i in range(1, len(word))
        )
    return False
