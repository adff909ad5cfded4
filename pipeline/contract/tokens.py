"""A marked clause cut into tokens: placeholders, English words and phrases of the closed
vocabulary (`pipeline.contract.lexicon`), Chinese phrases by longest match; anything else is a
token not understood."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.contract.lexicon import EN, ZH
from pipeline.contract.marking import PLACEHOLDER, is_cjk

__all__ = ["Token", "tokens_of"]

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
    """For a placeholder: S, W, O, Q, R, L, D or N."""
    index: int = -1


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
            tag = "unknown" if match[1] == "T" else "placeholder"
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
    bases = [_base(w) for w, _, _ in words]
    tokens: list[Token] = []
    i = 0
    while i < len(words):
        for n in range(min(_MAX_PHRASE_WORDS, len(words) - i), 0, -1):
            for phrase in {" ".join(w for w, _, _ in words[i : i + n]), " ".join(bases[i : i + n])}:
                if phrase in EN:
                    tokens.append(Token(phrase, EN[phrase], words[i][1], words[i + n - 1][2]))
                    break
            else:
                continue
            i += n
            break
        else:
            tokens.append(Token(words[i][0], "unknown", words[i][1], words[i][2]))
            i += 1
    return tokens


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
