"""Items named in a task by what they are ("the hex nuts", "弹簧垫圈", "the M8 washers"),
resolved against the catalogue of the screen's items (SKU and name).

A mention is a run of words that each belong to some item's name (English words, plural or
not, and the codes in names like `M8`; Chinese by the longest piece of a name), only spaces or
hyphens between them, and not words the reader already knows (`pipeline.contract.lexicon`),
numbers or units. Its candidates are the items whose name holds every word of it: one item is
that item; several are several (the reader may exclude them all, never write to them as a
scope); none is no mention (its words stay words the reader does not know). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from pipeline.contract.lexicon import EN, ZH

__all__ = ["UNIT_WORDS", "Mention", "mentions"]

_WORD = re.compile(r"\d+(?:\.\d+)?\s?(?:mm|cm|ml|kg|m|g)(?![a-z0-9])|[a-z0-9]+(?:[.x][0-9]+)*")
"""A word of a name or a task: a measure ("300 mm", one word), a code ("m8x40") or a word."""
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
UNIT_WORDS: tuple[str, ...] = ("units", "unit", "pcs", "pieces", "piece", "items", "item")
UNIT_WORDS += ("boxes", "box", "cases", "case", "packs", "pack", "ea")
"""English words for the unit of a quantity ("10 boxes"): never part of an item's name."""
_PACKAGING = re.compile(r"\([^)]*\)")
"""A name's packaging in brackets ("(box of 100)", "(pair)"): not what the item is."""
_GAP = re.compile(r"[\s\-]*")
_MIN_CJK = 2


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    skus: tuple[str, ...]
    """The items whose name holds every word of the mention (one: resolved)."""


def _plain(word: str) -> str:
    return word.replace(" ", "")


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and re.search(r"(?:s|x|ch|sh)es$", word):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _known(word: str) -> bool:
    """A word the reader reads by itself (or a number or unit): never part of a mention."""
    return word in EN or _singular(word) in EN or word.isdigit() or word in UNIT_WORDS


def _name_words(name: str) -> set[str]:
    """The words of a name a mention may use: each word, and the parts of a dimension code
    ("m8x40": m8x40, m8 and 40); never a single letter alone ("x" in "48 mm x 66 m" is how a
    task writes a quantity too), but a letter after a word, as one ("size l", "type b")."""
    found = set()
    words = [_plain(w) for w in _WORD.findall(_PACKAGING.sub(" ", name.lower()))]
    for word in words:
        found |= {word, *re.split(r"(?<=\d)x(?=\d)", word)}
    kept = {_singular(w) for w in found if not _known(w) and len(w) > 1}
    return kept | {f"{a} {b}" for a, b in pairwise(words) if _lettered(a, b)}


def _lettered(word: str, letter: str) -> bool:
    """A word and the single letter after it that tells items apart ("size l", "grade a")."""
    return len(letter) == 1 and letter.isalpha() and letter != "x" and word.isalpha()


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    skus: frozenset[str]


def _english_units(text: str, words: Mapping[str, set[str]]) -> list[_Unit]:
    found = []
    matches = list(_WORD.finditer(text))
    skip = -1
    for k, match in enumerate(matches):
        if k == skip:
            continue
        word = _plain(match[0])
        after = matches[k + 1] if k + 1 < len(matches) else None
        if (
            after is not None
            and _lettered(word, after[0])
            and text[match.end() : after.start()] == " "
        ):
            pair = f"{word} {after[0]}"
            owners = frozenset(sku for sku, own in words.items() if pair in own)
            if owners:
                found.append(_Unit(match.start(), after.end(), owners))
                skip = k + 1
                continue
        if _known(word):
            continue
        owners = frozenset(sku for sku, own in words.items() if _singular(word) in own)
        if owners:
            found.append(_Unit(match.start(), match.end(), owners))
    return found


def _chinese_units(text: str, names: Mapping[str, str]) -> list[_Unit]:
    """The longest pieces of names (two characters or more, not a word of the vocabulary) in
    each run of Chinese, left to right."""
    found = []
    for run in _CJK_RUN.finditer(text):
        i = run.start()
        while i < run.end():
            for j in range(run.end(), i + _MIN_CJK - 1, -1):
                piece = text[i:j]
                owners = frozenset(s for s, n in names.items() if piece in n)
                if owners and piece not in ZH:
                    found.append(_Unit(i, j, owners))
                    i = j
                    break
            else:
                i += 1
    return found


def mentions(text: str, catalogue: Mapping[str, str]) -> list[Mention]:
    """The mentions of the catalogue's items (`{sku: name}`) in `text` (lower case), in order;
    a run of name words that no one item's name holds in full is none."""
    if not catalogue:
        return []
    names = {sku: name.lower() for sku, name in catalogue.items() if name.strip()}
    words = {sku: _name_words(name) for sku, name in names.items()}
    units = sorted(_english_units(text, words) + _chinese_units(text, names), key=lambda u: u.start)
    found: list[Mention] = []
    group: list[_Unit] = []

    def close() -> None:
        if group:
            skus = frozenset.intersection(*(u.skus for u in group))
            if skus:
                found.append(Mention(group[0].start, group[-1].end, tuple(sorted(skus))))
            group.clear()

    for unit in units:
        if group and not _GAP.fullmatch(text[group[-1].end : unit.start]):
            close()
        group.append(unit)
    close()
    return found
