"""The lines of a card or list item read as what they say: phrases joined from words, cut at
`·` and wide gaps into parts, labelled quantities (`On hand 12 pcs`, `安全 120`, `12 on hand`),
warehouse codes with or without their label (`Depot: WH-02`), and labels written above their
values joined with them. Labels are typed by the header vocabulary a table's columns are typed
with (`pipeline.table.headers`). Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.fields import QUANTITY_FIELDS
from pipeline.models import Box, TextLine
from pipeline.table.cells import clean_text, quantity_and_unit
from pipeline.table.headers import header_evidence

__all__ = ["Part", "key_code", "labelled", "line_parts", "stacked", "warehouse"]

_PARTS = re.compile(r"\s*[·•|｜]\s*|\s{3,}")
_DASH = re.compile(r"\s*[-\u2010-\u2015]\s+")
"""A dash with a space after it: inside a code or a number there is none (`BX-310-K`)."""
_LABELLED = re.compile(
    r"^(?P<label>[^\d:：]*?[A-Za-z\u4e00-\u9fff][^\d:：]*?)\s*[:：]?\s*"
    r"(?P<value>\d[\d,.\s']*(?:\s*[A-Za-z\u4e00-\u9fff]{1,8})?)$"
)
_VALUE_FIRST = re.compile(
    r"^(?P<value>\d[\d,.']*)\s*(?P<label>[A-Za-z\u4e00-\u9fff][A-Za-z\u4e00-\u9fff\s.]{1,20})$"
)
_WAREHOUSE_LABELLED = re.compile(
    r"^(?:(?P<label>[A-Za-z\u4e00-\u9fff][^:：]{0,12}?)\s*[:：]?\s*)?(?P<code>(?:WH|DC|W)-?\d{1,3})$",
    re.IGNORECASE,
)


@dataclass
class Part:
    """A piece of a record's line: its text, where it is, how sure, and which line."""

    text: str
    box: Box
    confidence: float
    line: int


_UNSURE = 0.7


def _icon(line: TextLine) -> bool:
    """An icon read as a character (`8` for a box, `日` for a grid): one character the engine
    is unsure of. It is not a word of the phrase beside it (`8 TP-50-F` is no code)."""
    return len(line.text.strip()) == 1 and line.confidence < _UNSURE


def _icon_before(line: TextLine) -> bool:
    """An icon before a phrase read as a letter or digit the engine is sure of (`8` for a cube
    left of `TP-50-F`): a Latin character is narrower than it is tall, the icon's box is not.
    (After a label a lone digit is its value: `Min` `8`.)"""
    text = line.text.strip()
    width, height = line.box[2] - line.box[0], line.box[3] - line.box[1]
    return len(text) == 1 and text.isascii() and width >= height > 0


def _phrases(lines: Sequence[TextLine]) -> list[TextLine]:
    """Words on one visual line with word-sized gaps between them, joined into one phrase (a
    name found as one box a word); wide gaps keep phrases apart (`On hand 12`   `Min 40`)."""
    ordered = sorted(lines, key=lambda ln: ((ln.box[1] + ln.box[3]) / 2, ln.box[0]))
    out: list[TextLine] = []
    for line in ordered:
        if out:
            last = out[-1]
            height = max(last.box[3] - last.box[1], line.box[3] - line.box[1])
            same_line = (
                abs((last.box[1] + last.box[3]) - (line.box[1] + line.box[3])) / 2 <= 0.4 * height
            )
            gap = line.box[0] - last.box[2]
            icon = _icon(last) or _icon(line) or _icon_before(last)
            if same_line and not icon and -0.2 * height <= gap <= 0.9 * height:
                out[-1] = TextLine(
                    text=f"{last.text} {line.text}",
                    box=(
                        last.box[0],
                        min(last.box[1], line.box[1]),
                        line.box[2],
                        max(last.box[3], line.box[3]),
                    ),
                    confidence=min(last.confidence, line.confidence),
                )
                continue
        out.append(line)
    return out


def line_parts(lines: Sequence[TextLine]) -> list[Part]:
    """Each line, cut at `·` and wide gaps into the parts a record line is made of."""
    found: list[Part] = []
    for n, line in enumerate(_phrases(lines)):
        text = _dots_misread(clean_text(line.text))
        pieces = [s for p in _PARTS.split(text) if p.strip() for s in _segments(p)]
        if len(pieces) <= 1:
            found.append(Part(text, line.box, line.confidence, n))
            continue
        x0, y0, x1, y1 = line.box
        total = max(1, sum(len(p) for p in pieces))
        at = 0.0
        for piece in pieces:
            width = (x1 - x0) * len(piece) / total
            found.append(
                Part(piece, (round(x0 + at), y0, round(x0 + at + width), y1), line.confidence, n)
            )
            at += width
    return found


def _dots_misread(text: str) -> str:
    """A `·` between a record's parts misread as a dash in small text (`BX-420-K- On hand 36
    pcs`, `EN-C5-P - On hand 64`): a dash before a space is a cut where what follows it is a
    labelled value or a warehouse; elsewhere (`Bolt - large`) it stays."""

    def cut(match: re.Match[str]) -> str:
        following = _DASH.split(_PARTS.split(text[match.end() :])[0])[0]
        return " · " if labelled(following) or warehouse(following) else match[0]

    return _DASH.sub(cut, text)


def _segments(text: str) -> list[str]:
    """A line of several labelled values read as one (`On hand 12 pcs Min 40 WH-02`), cut
    where a value is followed by the next label or a warehouse code."""
    words = text.split()
    if sum(any(ch.isdigit() for ch in w) for w in words) < 2:
        return [text]
    segments: list[list[str]] = [[]]
    for word in words:
        current = segments[-1]
        valued = any(any(ch.isdigit() for ch in w) for w in current)
        starts = _WAREHOUSE_LABELLED.match(word) is not None or (
            not any(ch.isdigit() for ch in word)
            and any(header_evidence(word, f)[0] >= 0.5 for f in (*QUANTITY_FIELDS, "warehouse_id"))
        )
        if current and valued and starts:
            segments.append([word])
        else:
            current.append(word)
    return [" ".join(s) for s in segments if s]


def labelled(text: str) -> tuple[str, str, str] | None:
    """(field, label, value) for a labelled quantity (`On hand 12 pcs`, `安全 120`)."""
    for pattern in (_LABELLED, _VALUE_FIRST):
        match = pattern.match(text.strip())
        if match is None:
            continue
        label, value = match["label"].strip(), match["value"].strip()
        if quantity_and_unit(value)[0] is None:
            continue
        scores = {f: header_evidence(label, f)[0] for f in QUANTITY_FIELDS}
        best = max(scores, key=lambda f: scores[f])
        if scores[best] >= 0.5:
            return best, label, value
    return None


_KEY_LABELLED = re.compile(
    r"^(?P<label>[A-Za-z\u4e00-\u9fff][A-Za-z.#\s\u4e00-\u9fff]{0,24}?)"
    r"(?:\s*[:：]\s*|\s+[-\u2010-\u2015]\s+)(?P<code>\S+)$"
)
"""A code after the label that names it (`SKU - shirt-variant-1-7`, `Barcode: 0123`)."""


def key_code(text: str) -> str:
    """A record's code as written, without a label before it that names the identifier
    (`SKU - shirt-variant-1-7` -> `shirt-variant-1-7`); any other text as it is."""
    value = clean_text(text)
    match = _KEY_LABELLED.match(value)
    if match is None or header_evidence(match["label"], "sku")[0] < 0.5:
        return value
    return match["code"]


def warehouse(text: str) -> str | None:
    match = _WAREHOUSE_LABELLED.match(text.strip())
    if match is None:
        return None
    label = match["label"]
    if label and header_evidence(label, "warehouse_id")[0] < 0.5:
        return None
    return match["code"].upper()


def stacked(anchor: Part, members: Sequence[Part]) -> list[Part]:
    """The block's parts, a label written above its value (`Units in stock` over `12 pcs`,
    or wrapped: `Reorder` over `level 40`) joined with the part right under it."""
    below = [p for p in members if p.box[1] > anchor.box[1]]
    used: set[int] = set()
    out: list[Part] = []
    for part in members:
        if id(part) in used:
            continue
        joined = None
        if part in below and labelled(part.text) is None and warehouse(part.text) is None:
            under = _under(part, [q for q in below if id(q) not in used and q is not part])
            joined = _joined(part, under) if under is not None else None
            if joined is not None and under is not None:
                used.add(id(under))
        out.append(joined or part)
    return out


def _under(part: Part, candidates: Sequence[Part]) -> Part | None:
    """The first of `candidates` right under `part`: left edges within a text height, its top
    at most most of a text height below `part`'s bottom."""
    height = part.box[3] - part.box[1]
    return next(
        (
            q
            for q in candidates
            if abs(q.box[0] - part.box[0]) <= height
            and -0.2 * height <= q.box[1] - part.box[3] <= 0.8 * height
        ),
        None,
    )


def _joined(part: Part, under: Part) -> Part | None:
    """`part` and the part under it as one, when together they are a labelled value."""
    # A code broken at its hyphen (`Depot WH-` over `02`) joins without a space.
    text = part.text + ("" if part.text.endswith("-") else " ") + under.text
    if labelled(text) is None and warehouse(text) is None:
        return None
    box = (
        min(part.box[0], under.box[0]),
        part.box[1],
        max(part.box[2], under.box[2]),
        under.box[3],
    )
    return Part(text, box, min(part.confidence, under.confidence), part.line)
