"""Fonts by file path under /usr/share/fonts, with the Debian package that ships each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_ROOT = Path("/usr/share/fonts")


@dataclass(frozen=True)
class FontFile:
    path: str
    index: int
    package: str


_DEJAVU = "truetype/dejavu/"
_LIBERATION = "truetype/liberation/"
_ROBOTO = "truetype/roboto/unhinted/"
_NOTO = "opentype/noto/"

FONTS: dict[str, FontFile] = {
    "dejavu-sans": FontFile(_DEJAVU + "DejaVuSans.ttf", 0, "fonts-dejavu-core"),
    "dejavu-sans-bold": FontFile(_DEJAVU + "DejaVuSans-Bold.ttf", 0, "fonts-dejavu-core"),
    "dejavu-serif": FontFile(_DEJAVU + "DejaVuSerif.ttf", 0, "fonts-dejavu-core"),
    "dejavu-serif-bold": FontFile(_DEJAVU + "DejaVuSerif-Bold.ttf", 0, "fonts-dejavu-core"),
    "dejavu-condensed": FontFile(_DEJAVU + "DejaVuSansCondensed.ttf", 0, "fonts-dejavu-extra"),
    "dejavu-condensed-bold": FontFile(
        _DEJAVU + "DejaVuSansCondensed-Bold.ttf", 0, "fonts-dejavu-extra"
    ),
    "liberation-sans": FontFile(_LIBERATION + "LiberationSans-Regular.ttf", 0, "fonts-liberation"),
    "liberation-sans-bold": FontFile(
        _LIBERATION + "LiberationSans-Bold.ttf", 0, "fonts-liberation"
    ),
    "liberation-mono": FontFile(_LIBERATION + "LiberationMono-Regular.ttf", 0, "fonts-liberation"),
    "liberation-mono-bold": FontFile(
        _LIBERATION + "LiberationMono-Bold.ttf", 0, "fonts-liberation"
    ),
    "roboto": FontFile(_ROBOTO + "RobotoTTF/Roboto-Regular.ttf", 0, "fonts-roboto"),
    "roboto-bold": FontFile(_ROBOTO + "RobotoTTF/Roboto-Medium.ttf", 0, "fonts-roboto"),
    "roboto-condensed": FontFile(_ROBOTO + "RobotoCondensed-Regular.ttf", 0, "fonts-roboto"),
    "roboto-condensed-bold": FontFile(_ROBOTO + "RobotoCondensed-Bold.ttf", 0, "fonts-roboto"),
    "open-sans": FontFile("truetype/open-sans/OpenSans-Regular.ttf", 0, "fonts-open-sans"),
    "open-sans-bold": FontFile("truetype/open-sans/OpenSans-Semibold.ttf", 0, "fonts-open-sans"),
    "lato": FontFile("truetype/lato/Lato-Regular.ttf", 0, "fonts-lato"),
    "lato-bold": FontFile("truetype/lato/Lato-Bold.ttf", 0, "fonts-lato"),
    # Index 2 of the collection is the Simplified Chinese face.
    "noto-cjk": FontFile(_NOTO + "NotoSansCJK-Regular.ttc", 2, "fonts-noto-cjk"),
    "noto-cjk-bold": FontFile(_NOTO + "NotoSansCJK-Bold.ttc", 2, "fonts-noto-cjk"),
    "wqy": FontFile("truetype/wqy/wqy-microhei.ttc", 0, "fonts-wqy-microhei"),
}


class MissingFontsError(RuntimeError):
    """A font the samples are drawn with is not installed."""


def check_fonts(names: Iterable[str] = FONTS) -> None:
    """Fail with the Debian packages to install when any of `names` is missing."""
    missing = [FONTS[name] for name in sorted(set(names))]
    missing = [f for f in missing if not (FONT_ROOT / f.path).is_file()]
    if missing:
        files = ", ".join(str(FONT_ROOT / f.path) for f in missing)
        packages = " ".join(sorted({f.package for f in missing}))
        raise MissingFontsError(
            f"missing fonts: {files}; install them with: apt-get install {packages}"
        )


@cache
def load_font(name: str, px: int) -> ImageFont.FreeTypeFont:
    """The font `name` at `px` pixels per em, laid out without shaping (stable across hosts)."""
    file = FONTS[name]
    return ImageFont.truetype(
        str(FONT_ROOT / file.path),
        px,
        index=file.index,
        layout_engine=ImageFont.Layout.BASIC,
    )
