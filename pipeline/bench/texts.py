"""Text judged by what it says: images of known text, read by the pipeline and by plain
`RapidOCR()`, scored by character error rate (the characters read in order against the text
drawn, whitespace aside).

"Every image returns text" cannot fail while every result starts with its capture line; a
page of large lettering could still come back as strokes (`玉`, `1` for `我是中国人`). These
images are the kinds that broke before: large CJK and Latin lettering on a transparent
background in white and in black (after RapidOCR's own test files
`white_font_color_transparent.png` and `black_font_color_transparent.png`), half-transparent
text, a banner on a dark background and a line of small text. They are drawn here with the
Debian fonts, each with the text it carries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from pydantic import TypeAdapter

from pipeline.bench.context import BenchContext, quiet_info
from pipeline.bench.document import TextRead, TextsDoc, TextTotal
from pipeline.ingest import Ingestor
from pipeline.ocr.rapid import plain_rapidocr, whole_page
from pipeline.screentext import parse_screens

__all__ = [
    "TEXT_IMAGES",
    "TextImage",
    "cer",
    "draw_text_images",
    "measure_texts",
    "missing_font",
]

RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class TextImage:
    name: str
    text: str
    font: str
    package: str
    """The Debian package that installs `font` (`make fonts`)."""
    size: int
    ink: RGBA
    paper: RGBA
    """The background; alpha 0 is a transparent PNG."""
    note: str


def _load(path: Path) -> tuple[TextImage, ...]:
    return TypeAdapter(tuple[TextImage, ...]).validate_json(path.read_bytes())


TEXT_IMAGES = _load(Path(__file__).with_name("text_images.json"))
"""Lettering on transparent and plain backgrounds, some after RapidOCR's own test images."""


def missing_font(spec: TextImage) -> str | None:
    """Why `spec` cannot be drawn here (its font file is missing, and which package has it)."""
    if Path(spec.font).is_file():
        return None
    return (
        f"{spec.name}: the font {spec.font} is missing; Debian's {spec.package} provides it "
        "(`make fonts` installs it)"
    )


def draw_text_images(folder: Path) -> list[tuple[TextImage, Path]]:
    """Each text image drawn as a PNG in `folder` (those whose font is missing are left out;
    `missing_font` says why)."""
    folder.mkdir(parents=True, exist_ok=True)
    drawn = []
    for spec in TEXT_IMAGES:
        if missing_font(spec) is not None:
            continue
        font = ImageFont.truetype(spec.font, spec.size)
        left, top, right, bottom = (round(v) for v in font.getbbox(spec.text))
        pad = spec.size // 2
        image = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), spec.paper)
        ImageDraw.Draw(image).text((pad - left, pad - top), spec.text, font=font, fill=spec.ink)
        path = folder / f"{spec.name}.png"
        image.save(path)
        drawn.append((spec, path))
    return drawn


def cer(expected: str, read: str) -> float:
    """Character error rate: the edit distance between the text drawn and the text read, in
    characters and whitespace aside, over the length of the text drawn."""
    want = "".join(expected.split())
    got = "".join(read.split())
    if not want:
        return 0.0 if not got else 1.0
    previous = list(range(len(got) + 1))
    for i, a in enumerate(want, 1):
        current = [i]
        for j, b in enumerate(got, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1] / len(want)


def _ours(ingestor: Ingestor, path: Path) -> str:
    result = ingestor.ingest_path(path)
    screens = parse_screens(result.text)
    if not screens:
        return ""
    screen = screens[0]
    if screen.lines:
        return " ".join(screen.lines)
    cells = [c for row in screen.grid for c in row] or [r.name or "" for r in screen.rows]
    return " ".join(cells)


def measure_texts(ctx: BenchContext, folder: Path) -> TextsDoc:
    """Each text image read by the pipeline (auto) and by plain `RapidOCR()`: the text read,
    its CER, and whether it was read right (CER 0)."""
    engine = ctx.engine("rapidocr")
    if engine is None:
        return {"images": [], "error": ctx.skipped.get("rapidocr", "rapidocr unavailable")}
    ingestor = Ingestor(engine, config=ctx.config(), cache=None)
    with quiet_info():
        plain = plain_rapidocr()
    images: list[TextRead] = []
    for spec, path in draw_text_images(folder):
        ours = _ours(ingestor, path)
        output = whole_page(plain, str(path))
        theirs = " ".join(str(t) for t in (output.txts if output and output.txts else ()))
        images.append(
            {
                "name": spec.name,
                "note": spec.note,
                "text": spec.text,
                "tools": {
                    "stockshot": {"read": ours, "cer": round(cer(spec.text, ours), 3)},
                    "rapidocr": {"read": theirs, "cer": round(cer(spec.text, theirs), 3)},
                },
            }
        )
    doc: TextsDoc = {"images": images, "totals": _totals(images)}
    missing = [m for m in map(missing_font, TEXT_IMAGES) if m is not None]
    if missing:
        doc["not_drawn"] = missing
    return doc


def _totals(images: Sequence[TextRead]) -> dict[str, TextTotal]:
    out: dict[str, TextTotal] = {}
    for tool in ("stockshot", "rapidocr"):
        rates = [i["tools"][tool]["cer"] for i in images]
        out[tool] = {
            "right": sum(r == 0 for r in rates),
            "images": len(rates),
            "mean_cer": round(sum(rates) / len(rates), 3) if rates else None,
        }
    return out
