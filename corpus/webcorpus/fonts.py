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

FONT_ROOT = Path("/usr/share/fonts")


@dataclass(frozen=True)
class Face:
    family: str
    weight: int
    path: str
    package: str
    postscript: str
    collection: bool = False

    @property
    def file(self) -> Path:
        return FONT_ROOT / self.path

    def css(self) -> str:
        if self.collection:
            source = f'local("{self.postscript}")'
        else:
            kind = "opentype" if self.path.endswith(".otf") else "truetype"
            source = f'url("{self.file.as_uri()}") format("{kind}")'
        return (
            f'@font-face{{font-family:"{self.family}";font-weight:{self.weight};'
            f"font-style:normal;src:{source};}}"
        )


_DEJAVU = "truetype/dejavu/"
_ROBOTO = "truetype/roboto/unhinted/"
_NOTO = "opentype/noto/"
_INTER = "opentype/inter/"


def _faces(family: str, package: str, *faces: tuple[int, str, str]) -> tuple[Face, ...]:
    return tuple(Face(family, w, path, package, ps) for w, path, ps in faces)


FAMILIES: dict[str, tuple[Face, ...]] = {
    "lato": _faces(
        "cs-lato",
        "fonts-lato",
        (400, "truetype/lato/Lato-Regular.ttf", "Lato-Regular"),
        (700, "truetype/lato/Lato-Bold.ttf", "Lato-Bold"),
    ),
    "roboto": _faces(
        "cs-roboto",
        "fonts-roboto-unhinted",
        (400, _ROBOTO + "RobotoTTF/Roboto-Regular.ttf", "Roboto-Regular"),
        (500, _ROBOTO + "RobotoTTF/Roboto-Medium.ttf", "Roboto-Medium"),
        (700, _ROBOTO + "RobotoTTF/Roboto-Bold.ttf", "Roboto-Bold"),
    ),
    "roboto-condensed": _faces(
        "cs-roboto-condensed",
        "fonts-roboto-unhinted",
        (400, _ROBOTO + "RobotoCondensed-Regular.ttf", "RobotoCondensed-Regular"),
        (700, _ROBOTO + "RobotoCondensed-Bold.ttf", "RobotoCondensed-Bold"),
    ),
    "open-sans": _faces(
        "cs-open-sans",
        "fonts-open-sans",
        (400, "truetype/open-sans/OpenSans-Regular.ttf", "OpenSans"),
        (600, "truetype/open-sans/OpenSans-Semibold.ttf", "OpenSans-Semibold"),
        (700, "truetype/open-sans/OpenSans-Bold.ttf", "OpenSans-Bold"),
    ),
    "liberation-sans": _faces(
        "cs-liberation-sans",
        "fonts-liberation",
        (400, "truetype/liberation/LiberationSans-Regular.ttf", "LiberationSans"),
        (700, "truetype/liberation/LiberationSans-Bold.ttf", "LiberationSans-Bold"),
    ),
    "dejavu-sans": _faces(
        "cs-dejavu-sans",
        "fonts-dejavu-core",
        (400, _DEJAVU + "DejaVuSans.ttf", "DejaVuSans"),
        (700, _DEJAVU + "DejaVuSans-Bold.ttf", "DejaVuSans-Bold"),
    ),
    "noto-cjk-sc": (
        Face(
            "cs-noto-cjk-sc",
            400,
            _NOTO + "NotoSansCJK-Regular.ttc",
            "fonts-noto-cjk",
            "NotoSansCJKsc-Regular",
            collection=True,
        ),
        Face(
            "cs-noto-cjk-sc",
            700,
            _NOTO + "NotoSansCJK-Bold.ttc",
            "fonts-noto-cjk",
            "NotoSansCJKsc-Bold",
            collection=True,
        ),
    ),
    "wqy-microhei": (
        Face(
            "cs-wqy-microhei",
            400,
            "truetype/wqy/wqy-microhei.ttc",
            "fonts-wqy-microhei",
            "WenQuanYiMicroHei",
            collection=True,
        ),
    ),
    "inter": _faces(
        "cs-inter",
        "fonts-inter",
        (400, _INTER + "Inter-Regular.otf", "Inter-Regular"),
        (500, _INTER + "Inter-Medium.otf", "Inter-Medium"),
        (600, _INTER + "Inter-SemiBold.otf", "Inter-SemiBold"),
        (700, _INTER + "Inter-Bold.otf", "Inter-Bold"),
    ),
    "noto-sans": _faces(
        "cs-noto-sans",
        "fonts-noto-core",
        (400, "truetype/noto/NotoSans-Regular.ttf", "NotoSans-Regular"),
        (700, "truetype/noto/NotoSans-Bold.ttf", "NotoSans-Bold"),
    ),
    "dejavu-mono": _faces(
        "cs-dejavu-mono",
        "fonts-dejavu-core",
        (400, _DEJAVU + "DejaVuSansMono.ttf", "DejaVuSansMono"),
        (700, _DEJAVU + "DejaVuSansMono-Bold.ttf", "DejaVuSansMono-Bold"),
    ),
}
SYMBOLS = "dejavu-sans"
"""The last family of every stack: it has the arrows, checks and dots the pages draw."""


class MissingFontsError(RuntimeError):
    """A font the pages are drawn with is not installed."""


def faces(families: Iterable[str]) -> tuple[Face, ...]:
    """The faces of `families` and of the symbol family: all a page may draw with."""
    names = dict.fromkeys([*families, SYMBOLS])
    return tuple(face for name in names for face in FAMILIES[name])


def check_fonts(families: Iterable[str]) -> None:
    """Fail with the Debian packages to install when a face of `families` is missing."""
    missing = [face for face in faces(families) if not face.file.is_file()]
    if missing:
        files = ", ".join(str(face.file) for face in missing)
        packages = " ".join(sorted({face.package for face in missing}))
        raise MissingFontsError(
            f"missing fonts: {files}; install them with: apt-get install {packages}"
        )


def stack(*families: str) -> str:
    """A CSS font-family list of corpus faces, ending in the symbol face."""
    names = dict.fromkeys([*families, SYMBOLS])
    return ",".join(f'"{FAMILIES[n][0].family}"' for n in names)


def font_face_css(families: Iterable[str]) -> str:
    return "".join(face.css() for face in faces(families))
