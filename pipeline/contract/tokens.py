"""A marked clause cut into tokens: placeholders, English words and phrases of the closed
vocabulary (`pipeline.contract.lexicon`), Chinese phrases by longest match; anything else is a
token not understood."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from pipeline.contract.lexicon import EN, SHORTHAND, ZH
from pipeline.contract.marking import PLACEHOLDER, is_cjk

__all__ = ["Token", "known_word", "tokens_of", "vocabulary_tag"]

_EN_WORD = re.compile(r"[a-z]+(?:[-'][a-z]+)*'?")
_MAX_PHRASE_WORDS = 8
_MAX_PHRASE_CHARS = max(len(k) for k in ZH)


@dataclass
class Token:
    text: str
    tag: str
    start: int
    end: int
    kind: str = ""
    """For a placeholder: S, W, O, Q, R, L, D, C or N."""
    index: int = -1
    read_as: str = ""
    """The vocabulary's word a word not in it was read as (shorthand, an inflection, a typo):
    said in the reading."""


def known_word(text: str) -> bool:
    """A number, or a word or phrase of the vocabulary (whatever its place made of it)."""
    return text[:1].isdigit() or vocabulary_tag(text) is not None


def vocabulary_tag(text: str) -> str | None:
    """What the vocabulary lists a word or phrase as, before its place changes it."""
    return EN.get(text.lower()) or ZH.get(text)


def tokens_of(clause: str) -> list[Token]:
    """The clause cut into placeholders, numbers, English phrases and Chinese words; a word
    outside the vocabulary is a token tagged `unknown`."""
    found: list[Token] = []
    pos = 0
    while pos < len(clause):
        char = clause[pos]
        match = PLACEHOLDER.match(clause, pos)
        if char.isspace() or not (char.isalnum() or match):
            pos += 1
            continue
        if match:
            tag = {"T": "unknown", "X": "quote"}.get(match[1], "placeholder")
            index = int(match[2]) if match[2] else -1
            found.append(Token(match[0], tag, pos, match.end(), match[1], index))
            pos = match.end()
        elif char.isdigit():
            end = pos
            while end < len(clause) and (clause[end].isdigit() or clause[end] == "."):
                end += 1
            found.append(Token(clause[pos:end], "number", pos, end))
            pos = end
        elif char.isascii():
            end = pos
            while end < len(clause) and (
                clause[end].isascii() and (clause[end].isalpha() or clause[end] in " '-")
            ):
                end += 1
            found += _english(clause, pos, end)
            pos = end
        elif is_cjk(char):
            end = pos
            while end < len(clause) and is_cjk(clause[end]):
                end += 1
            found += _chinese(clause, pos, end)
            pos = end
        else:
            found.append(Token(char, "unknown", pos, pos + 1))
            pos += 1
    return found


def _english(clause: str, start: int, end: int) -> list[Token]:
    words = [
        (m[0], start + m.start(), start + m.end()) for m in _EN_WORD.finditer(clause[start:end])
    ]
    bases = [_read_as(_base(w)) for w, _, _ in words]
    tokens: list[Token] = []
    i = 0
    while i < len(words):
        for n in range(min(_MAX_PHRASE_WORDS, len(words) - i), 0, -1):
            surface = " ".join(w for w, _, _ in words[i : i + n])
            for phrase in dict.fromkeys((surface, " ".join(bases[i : i + n]))):
                if phrase in EN:
                    token = Token(phrase, EN[phrase], words[i][1], words[i + n - 1][2])
                    fixed = [
                        (w, b)
                        for (w, _, _), b in zip(words[i : i + n], bases[i : i + n], strict=True)
                        if b != _base(w) and phrase != surface
                    ]
                    token.read_as = "; ".join(f"{w!r} as {b!r}" for w, b in fixed)
                    tokens.append(token)
                    break
            else:
                continue
            i += n
            break
        else:
            tokens.append(Token(words[i][0], "unknown", words[i][1], words[i][2]))
            i += 1
    return tokens


_VERBS = frozenset({"write", "make", "cancel", "report", "order", "modify"})
_SUFFIXES = (("ing", ("", "e")), ("es", ("",)), ("s", ("",)))


@cache
def _read_as(word: str) -> str:
    """The vocabulary's word that a word outside it stands for: known shorthand (`qty`,
    `reord`), a verb's inflection (`placing`, `restocks`), or a typo at a small edit distance
    from one word of the vocabulary (`replnish`); else the word itself (not understood)."""
    if word in EN or not word.isalpha():
        return word
    if word in SHORTHAND:
        return SHORTHAND[word]
    for suffix, endings in _SUFFIXES:
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3:
            stems = (stem, stem[:-1]) if stem[-1:] == stem[-2:-1] else (stem,)
            for base in (s + e for s in stems for e in endings):
                if EN.get(base) in _VERBS:
                    return base
    return _nearest(word) or word


def _nearest(word: str) -> str | None:
    """The one word of the vocabulary a typo stands for: at edit distance 1 (2 for a word of
    nine letters or more), the same first letter, every word that near of one tag, and no
    word of another weighty tag within one edit more than the nearest ("reorded" is one edit
    from "reorder" and two from "reordered": not guessed; "replenihs" is one from "replenish"
    and three from "replenished": guessed); else a typo only in the vowels of a long word
    (`_vowels_apart`); a word shorter than five letters is never guessed."""
    if len(word) < 5:
        return None
    swapped = _swapped(word)
    if swapped is not None:
        return swapped
    most = 1 if len(word) < 9 else 2
    found = sorted(
        (_distance(word, known, most + 1), known)
        for known in _SINGLE_WORDS
        if known[0] == word[0] and abs(len(known) - len(word)) <= most + 1
    )
    if not found or found[0][0] > most:
        return _vowels_apart(word)
    best = found[0][0]
    near = [(d, k) for d, k in found if d <= best or (d == best + 1 and EN[k] in _WEIGHTY)]
    near += [(d, k) for d, k in found if best < d <= most and (d, k) not in near]
    if len({EN[k] for _, k in near}) != 1:
        return None
    guess = near[0][1]
    if word.endswith("ed") and guess in (word[:-2], word[:-1]):
        return None  # a participle ("the highlighted rows"), no typo of its verb
    return guess


_VOWELS = re.compile(r"[aeiouy]")


def _skeleton(word: str) -> str:
    """A word's consonants, doubled letters once: what survives a typo in its vowels."""
    return re.sub(r"(.)\1+", r"\1", _VOWELS.sub("", word))


@cache
def _skeletons() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for known in _SINGLE_WORDS:
        if len(known) >= _LONG:
            found.setdefault(known[0] + _skeleton(known), set()).add(known)
    return {key: frozenset(words) for key, words in found.items()}


_LONG = 7


def _vowels_apart(word: str) -> str | None:
    """A typo two edits from one long word of the vocabulary (seven letters or more) that
    differs from it only in vowels and doubled letters ("replnsh", "restoock"): the one such
    word, when no other word of the vocabulary shares its consonants."""
    words = _skeletons().get(word[0] + _skeleton(word), frozenset())
    near = [k for k in words if _distance(word, k, 2) <= 2]
    return near[0] if len(near) == 1 else None


_WEIGHTY = frozenset(
    {"write", "write_past", "make", "cancel", "neg", "only", "excl", "defer", "self", "hypo"}
)
"""Tags that change what a task allows: a typo one edit further from a word of another such
tag is not guessed."""


_NAMING = frozenset(
    {"low", "object", "context", "context_adj", "filler", "warehouse_noun", "status", "described"}
)
"""Tags of words that name or qualify what is acted on, or say nothing: a typo's guess only
where two neighbouring letters are swapped or one is left out ("itmes", "warehose"). A word
one letter away from them otherwise is as likely a real word that narrows the set ("the shirt
items" are not "the short items", "think" is no "thing") as a typo."""

_SINGLE_WORDS = tuple(sorted(k for k in EN if k.isalpha() and EN[k] not in _NAMING))
_NAMING_WORDS = frozenset(k for k in EN if k.isalpha() and EN[k] in _NAMING)


def _swapped(word: str) -> str | None:
    """The one naming word that `word` is with two neighbouring letters swapped or a letter
    left out ("itmes", "warehose"), if any: slips of the hand that real words rarely are."""
    found = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    found |= {k for k in _NAMING_WORDS if len(k) == len(word) + 1 and _one_left_out(k, word)}
    found &= _NAMING_WORDS
    return found.pop() if len(found) == 1 else None


def _one_left_out(known: str, word: str) -> bool:
    return any(known[:i] + known[i + 1 :] == word for i in range(len(known)))


def _distance(a: str, b: str, most: int) -> int:
    """Edit distance (insert, delete, substitute, swap two neighbours), counted up to
    `most + 1`."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > most:
            return most + 1
        previous2, previous = previous, current
    return previous[-1]


def _base(word: str) -> str:
    """A word without its possessive: morning's -> morning, warehouses' -> warehouses."""
    if word.endswith("'s") and word not in EN:
        return word[:-2]
    return word.rstrip("'")


def _chinese(clause: str, start: int, end: int) -> list[Token]:
    """A run of Chinese cut into the vocabulary's words, leaving as few characters outside it
    as there can be (then as few words): "库存低于安全库存" is 库存 低于 安全库存, not
    库存低 于 …"""
    size = end - start
    best: list[tuple[int, int] | None] = [None] * (size + 1)
    back: list[int] = [0] * (size + 1)
    best[0] = (0, 0)
    for i in range(1, size + 1):
        for n in range(1, min(_MAX_PHRASE_CHARS, i) + 1):
            before = best[i - n]
            if before is None:
                continue
            piece = clause[start + i - n : start + i]
            if piece not in ZH and n > 1:
                continue
            cost = (before[0] + (piece not in ZH), before[1] + 1)
            current = best[i]
            if current is None or cost < current:
                best[i], back[i] = cost, n
    tokens: list[Token] = []
    i = size
    while i > 0:
        n = back[i]
        piece = clause[start + i - n : start + i]
        tag = ZH.get(piece, "unknown")
        tokens.append(Token(piece, tag, start + i - n, start + i))
        i -= n
    return tokens[::-1]
