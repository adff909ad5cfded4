"""The English words a name's words are checked against: pyspellchecker's English word
frequencies (about 160,000 words, counted over subtitles and other text), shipped in its wheel
and read once per process on first use."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

__all__ = ["english"]


@cache
def english() -> Mapping[str, int]:
    """Lower-case English word -> how often it is used (a count; rarer words are smaller)."""
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=1).word_frequency.dictionary
