"""Quantities written in words become digits before a task is read.

"twenty units each", "a hundred of SKU-10232", "每个补三十件", "补两百箱": a number in words
next to a unit (or "each") is a quantity, and a quantity the reader drops silently would turn
into an order of another size. Only numbers followed by a unit or "each" are rewritten, so
"only this one", "one of them" and "这一个" stay words.
"""

from __future__ import annotations

import re

__all__ = ["digits_for_words"]

_ONES = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_WORD = "|".join(sorted([*_ONES, *_TENS, *_SCALES, "dozen"], key=len, reverse=True))
_EN_UNIT = r"(?:units?|pcs|pieces?|items?|boxes|box|cases?|ea|each|apiece|of each)\b"
_EN_NUMBER = re.compile(
    rf"\b((?:an?\s+)?(?:{_NUMBER_WORD})(?:[\s-]+(?:and[\s-]+)?(?:{_NUMBER_WORD}))*)"
    rf"(?=\s+(?:{_EN_UNIT}|of\s+[A-Za-z]{{2,6}}[-_ ]?\d))",
    re.IGNORECASE,
)

_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_SCALES = {"十": 10, "百": 100, "千": 1000}
_ZH_NUMBER = re.compile(
    r"(?<![这那每哪])([零〇一二两三四五六七八九十百千万]+)(?=\s*(件|个|箱|盒|包|台|只|套|份|条))"
)
"""个 is also the counter of warehouses and SKUs ("两个仓库"): a number below ten before it
stays a word."""


def _english(words: str) -> int | None:
    total = current = 0
    seen = False
    for word in re.split(r"[\s-]+", words.lower()):
        if word in ("a", "an"):
            current = max(current, 1)
        elif word == "and":
            continue
        elif word in _ONES:
            current += _ONES[word]
            seen = True
        elif word in _TENS:
            current += _TENS[word]
            seen = True
        elif word == "dozen":
            current = max(current, 1) * 12
            seen = True
        elif word in _SCALES:
            current = max(current, 1) * _SCALES[word]
            if word == "thousand":
                total, current = total + current, 0
            seen = True
    return total + current if seen else None


def _chinese(text: str) -> int | None:
    total = section = digit = 0
    for char in text:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char == "万":
            total = (total + section + digit) * 10000
            section = digit = 0
        else:
            section += (digit or 1) * _ZH_SCALES[char]
            digit = 0
    value = total + section + digit
    if all(c in _ZH_DIGITS for c in text) and len(text) > 1:
        value = int("".join(str(_ZH_DIGITS[c]) for c in text))  # 二五 -> 25, as written
    return value or None


_GROUPED = re.compile(r"(?<![\d.,])(\d{1,3})((?:,\d{3})+)(?![\d,]|\.\d)")
"""A number written with thousands commas (`1,000`, `12,500`): one number, not a list."""
_DOZENS = re.compile(r"\b(\d{1,4})\s+dozens?\b", re.IGNORECASE)
_THOUSANDS = re.compile(r"(?<![\w.])(\d{1,4}(?:\.\d{1,3})?)\s?k\b", re.IGNORECASE)
"""`1k`, `1.5k`: thousands, as people write them."""


def _digit_forms(text: str) -> str:
    """Numbers in digits written as people write them (`1,000`, `5 dozen`, `1.5k`) in plain
    digits."""
    text = _GROUPED.sub(lambda m: m[1] + m[2].replace(",", ""), text)
    text = _DOZENS.sub(lambda m: str(int(m[1]) * 12), text)

    def thousands(match: re.Match[str]) -> str:
        value = float(match[1]) * 1000
        return str(int(value)) if value == int(value) else match[0]

    return _THOUSANDS.sub(thousands, text)


def digits_for_words(text: str) -> str:
    """`text` with every quantity in words (English or Chinese) written in digits, and every
    number in digits in plain digits (`1,000`, `5 dozen`, `1.5k`)."""
    text = _digit_forms(text)

    def english(match: re.Match[str]) -> str:
        value = _english(match[1])
        return match[0] if value is None else str(value)

    def chinese(match: re.Match[str]) -> str:
        value = _chinese(match[1])
        if value is None or (match[2] == "个" and value < 10):
            return match[0]
        return str(value)

    return _ZH_NUMBER.sub(chinese, _EN_NUMBER.sub(english, text))
