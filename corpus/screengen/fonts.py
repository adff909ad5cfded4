"""The font files screens are drawn with: each one face in a file under /usr/share/fonts, from
a named Debian package. Pillow opens a face by its file and its index in a collection; a page
declares it by its file (`url()`) or, in a collection, by its PostScript name (`local()`). A
missing file stops a generator, naming the packages to install."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

FONT_ROOT = Path("/usr/share/fonts")


@dataclass(frozen=True)
class FontFile:
    path: str
    """Below `FONT_ROOT`."""
    package: str
    postscript: str
    index: int = 0
    """The face's index in a collection (`.ttc`)."""

    @property
    def file(self) -> Path:
        return FONT_ROOT / self.path

    @property
    def collection(self) -> bool:
        return self.path.endswith(".ttc")


_DEJAVU = "truetype/dejavu/"
_LIBERATION = "truetype/liberation/"
_ROBOTO = "truetype/roboto/unhinted/"
_OPEN_SANS = "truetype/open-sans/"
_NOTO = "opentype/noto/"
_INTER = "opentype/inter/"
_CORE, _EXTRA = "fonts-dejavu-core", "fonts-dejavu-extra"
_ROBOTO_PACKAGE = "fonts-roboto-unhinted"


def _file(path: str, package: str, postscript: str, index: int = 0) -> FontFile:
    return FontFile(path, package, postscript, index)


FILES: dict[str, FontFile] = {
    "dejavu-sans": _file(_DEJAVU + "DejaVuSans.ttf", _CORE, "DejaVuSans"),
    "dejavu-sans-bold": _file(_DEJAVU + "DejaVuSans-Bold.ttf", _CORE, "DejaVuSans-Bold"),
    "dejavu-serif": _file(_DEJAVU + "DejaVuSerif.ttf", _CORE, "DejaVuSerif"),
    "dejavu-serif-bold": _file(_DEJAVU + "DejaVuSerif-Bold.ttf", _CORE, "DejaVuSerif-Bold"),
    "dejavu-condensed": _file(_DEJAVU + "DejaVuSansCondensed.ttf", _EXTRA, "DejaVuSansCondensed"),
    "dejavu-condensed-bold": _file(
        _DEJAVU + "DejaVuSansCondensed-Bold.ttf", _EXTRA, "DejaVuSansCondensed-Bold"
    ),
    "dejavu-mono": _file(_DEJAVU + "DejaVuSansMono.ttf", _CORE, "DejaVuSansMono"),
    "dejavu-mono-bold": _file(_DEJAVU + "DejaVuSansMono-Bold.ttf", _CORE, "DejaVuSansMono-Bold"),
    "liberation-sans": _file(
        _LIBERATION + "LiberationSans-Regular.ttf", "fonts-liberation", "LiberationSans"
    ),
    "liberation-sans-bold": _file(
        _LIBERATION + "LiberationSans-Bold.ttf", "fonts-liberation", "LiberationSans-Bold"
    ),
    "liberation-mono": _file(
        _LIBERATION + "LiberationMono-Regular.ttf", "fonts-liberation", "LiberationMono"
    ),
    "liberation-mono-bold": _file(
        _LIBERATION + "LiberationMono-Bold.ttf", "fonts-liberation", "LiberationMono-Bold"
    ),
    "roboto": _file(_ROBOTO + "RobotoTTF/Roboto-Regular.ttf", _ROBOTO_PACKAGE, "Roboto-Regular"),
    "roboto-medium": _file(
        _ROBOTO + "RobotoTTF/Roboto-Medium.ttf", _ROBOTO_PACKAGE, "Roboto-Medium"
    ),
    "roboto-bold": _file(_ROBOTO + "RobotoTTF/Roboto-Bold.ttf", _ROBOTO_PACKAGE, "Roboto-Bold"),
    "roboto-condensed": _file(
        _ROBOTO + "RobotoCondensed-Regular.ttf", _ROBOTO_PACKAGE, "RobotoCondensed-Regular"
    ),
    "roboto-condensed-bold": _file(
        _ROBOTO + "RobotoCondensed-Bold.ttf", _ROBOTO_PACKAGE, "RobotoCondensed-Bold"
    ),
    "open-sans": _file(_OPEN_SANS + "OpenSans-Regular.ttf", "fonts-open-sans", "OpenSans"),
    "open-sans-semibold": _file(
        _OPEN_SANS + "OpenSans-Semibold.ttf", "fonts-open-sans", "OpenSans-Semibold"
    ),
    "open-sans-bold": _file(_OPEN_SANS + "OpenSans-Bold.ttf", "fonts-open-sans", "OpenSans-Bold"),
    "lato": _file("truetype/lato/Lato-Regular.ttf", "fonts-lato", "Lato-Regular"),
    "lato-bold": _file("truetype/lato/Lato-Bold.ttf", "fonts-lato", "Lato-Bold"),
    # Index 2 of each collection is the Simplified Chinese face.
    "noto-cjk-sc": _file(
        _NOTO + "NotoSansCJK-Regular.ttc", "fonts-noto-cjk", "NotoSansCJKsc-Regular", 2
    ),
    "noto-cjk-sc-bold": _file(
        _NOTO + "NotoSansCJK-Bold.ttc", "fonts-noto-cjk", "NotoSansCJKsc-Bold", 2
    ),
    "wqy-microhei": _file(
        "truetype/wqy/wqy-microhei.ttc", "fonts-wqy-microhei", "WenQuanYiMicroHei"
    ),
    "inter": _file(_INTER + "Inter-Regular.otf", "fonts-inter", "Inter-Regular"),
    "inter-medium": _file(_INTER + "Inter-Medium.otf", "fonts-inter", "Inter-Medium"),
    "inter-semibold": _file(_INTER + "Inter-SemiBold.otf", "fonts-inter", "Inter-SemiBold"),
    "inter-bold": _file(_INTER + "Inter-Bold.otf", "fonts-inter", "Inter-Bold"),
    "noto-sans": _file("truetype/noto/NotoSans-Regular.ttf", "fonts-noto-core", "NotoSans-Regular"),
    "noto-sans-bold": _file("truetype/noto/NotoSans-Bold.ttf", "fonts-noto-core", "NotoSans-Bold"),
}


class MissingFontsError(RuntimeError):
    """A font a screen is drawn with is not installed."""


def check_files(files: Iterable[FontFile]) -> None:
    """Fail with the Debian packages to install when any of `files` is missing."""
    missing = sorted({f for f in files if not f.file.is_file()}, key=lambda f: f.path)
    if missing:
        paths = ", ".join(str(f.file) for f in missing)
        packages = " ".join(sorted({f.package for f in missing}))
        raise MissingFontsError(
            f"missing fonts: {paths}; install them with: apt-get install {packages}"
        )
