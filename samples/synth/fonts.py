"""The fonts the samples are drawn with, by the names their specifications use, and Pillow's
faces of them."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from PIL import ImageFont
from screengen.fonts import FILES, FontFile, MissingFontsError, check_files

__all__ = ["FONTS", "MissingFontsError", "check_fonts", "load_font"]

_SAME = (
    "dejavu-sans",
    "dejavu-sans-bold",
    "dejavu-serif",
    "dejavu-serif-bold",
    "dejavu-condensed",
    "dejavu-condensed-bold",
    "liberation-sans",
    "liberation-sans-bold",
    "liberation-mono",
    "liberation-mono-bold",
    "roboto",
    "roboto-condensed",
    "roboto-condensed-bold",
    "open-sans",
    "lato",
    "lato-bold",
)
FONTS: dict[str, FontFile] = {
    **{name: FILES[name] for name in _SAME},
    # A sample's "bold" is the heavier face it draws headers with.
    "roboto-bold": FILES["roboto-medium"],
    "open-sans-bold": FILES["open-sans-semibold"],
    "noto-cjk": FILES["noto-cjk-sc"],
    "noto-cjk-bold": FILES["noto-cjk-sc-bold"],
    "wqy": FILES["wqy-microhei"],
}


def check_fonts(names: Iterable[str] = FONTS) -> None:
    """Fail with the Debian packages to install when any of `names` is missing."""
    check_files(FONTS[name] for name in set(names))


@cache
def load_font(name: str, px: int) -> ImageFont.FreeTypeFont:
    """The font `name` at `px` pixels per em, laid out without shaping (stable across hosts)."""
    file = FONTS[name]
    return ImageFont.truetype(
        str(file.file), px, index=file.index, layout_engine=ImageFont.Layout.BASIC
    )
