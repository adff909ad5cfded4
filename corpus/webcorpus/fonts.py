"""The font faces pages may use, each a file under /usr/share/fonts from a named Debian package.

Pages declare every face they use with `@font-face`, so that no text is laid out in whatever
the system's default font is: a single file by `url(file://...)`, a face of a font collection
(which `@font-face` cannot index) by `local()` with its PostScript name. The browser module then
checks that Chromium drew every glyph with one of the declared faces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from screengen.fonts import FILES, FontFile, MissingFontsError, check_files

__all__ = [
    "FAMILIES",
    "Face",
    "MissingFontsError",
    "check_fonts",
    "faces",
    "font_face_css",
    "stack",
]


@dataclass(frozen=True)
class Face:
    """A font file as a page's CSS names it: a family and a weight."""

    family: str
    weight: int
    font: FontFile

    @property
    def file(self) -> Path:
        return self.font.file

    @property
    def postscript(self) -> str:
        return self.font.postscript

    def css(self) -> str:
        if self.font.collection:
            source = f'local("{self.font.postscript}")'
        else:
            kind = "opentype" if self.font.path.endswith(".otf") else "truetype"
            source = f'url("{self.file.as_uri()}") format("{kind}")'
        return (
            f'@font-face{{font-family:"{self.family}";font-weight:{self.weight};'
            f"font-style:normal;src:{source};}}"
        )


def _faces(name: str, *weights: tuple[int, str]) -> tuple[Face, ...]:
    return tuple(Face(f"cs-{name}", weight, FILES[file]) for weight, file in weights)


FAMILIES: dict[str, tuple[Face, ...]] = {
    "lato": _faces("lato", (400, "lato"), (700, "lato-bold")),
    "roboto": _faces("roboto", (400, "roboto"), (500, "roboto-medium"), (700, "roboto-bold")),
    "roboto-condensed": _faces(
        "roboto-condensed", (400, "roboto-condensed"), (700, "roboto-condensed-bold")
    ),
    "open-sans": _faces(
        "open-sans", (400, "open-sans"), (600, "open-sans-semibold"), (700, "open-sans-bold")
    ),
    "liberation-sans": _faces(
        "liberation-sans", (400, "liberation-sans"), (700, "liberation-sans-bold")
    ),
    "dejavu-sans": _faces("dejavu-sans", (400, "dejavu-sans"), (700, "dejavu-sans-bold")),
    "noto-cjk-sc": _faces("noto-cjk-sc", (400, "noto-cjk-sc"), (700, "noto-cjk-sc-bold")),
    "wqy-microhei": _faces("wqy-microhei", (400, "wqy-microhei")),
    "inter": _faces(
        "inter",
        (400, "inter"),
        (500, "inter-medium"),
        (600, "inter-semibold"),
        (700, "inter-bold"),
    ),
    "noto-sans": _faces("noto-sans", (400, "noto-sans"), (700, "noto-sans-bold")),
    "dejavu-mono": _faces("dejavu-mono", (400, "dejavu-mono"), (700, "dejavu-mono-bold")),
}
SYMBOLS = "dejavu-sans"
"""The last family of every stack: it has the arrows, checks and dots the pages draw."""


def faces(families: Iterable[str]) -> tuple[Face, ...]:
    """The faces of `families` and of the symbol family: all a page may draw with."""
    names = dict.fromkeys([*families, SYMBOLS])
    return tuple(face for name in names for face in FAMILIES[name])


def check_fonts(families: Iterable[str]) -> None:
    """Fail with the Debian packages to install when a face of `families` is missing."""
    check_files(face.font for face in faces(families))


def stack(*families: str) -> str:
    """A CSS font-family list of corpus faces, ending in the symbol face."""
    names = dict.fromkeys([*families, SYMBOLS])
    return ",".join(f'"{FAMILIES[n][0].family}"' for n in names)


def font_face_css(families: Iterable[str]) -> str:
    return "".join(face.css() for face in faces(families))
