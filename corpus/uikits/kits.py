"""The UI kits: npm tarballs pinned by a lock file, and each kit's own stylesheet made offline.

`kits.lock.json` names every package with its exact version and the sha512 `integrity` the npm
registry publishes for its tarball. `fetch` runs `npm pack NAME@VERSION` into `.kits/` (not
committed) when the tarball is not there yet and refuses one whose digest differs from the
lock; `stylesheet` reads a kit's distributed CSS straight out of the tarball.

A page inlines that CSS after three changes that keep the browser offline and the fonts pinned:
`@import` rules (web-font services) and `@font-face` rules (web fonts, icon fonts) are dropped;
every font stack the kit declares (in `font-family`, the `font` shorthand or a custom property
such as `--bs-font-sans-serif`) is replaced by the page's stack of faces from /usr/share/fonts;
and `url()` references to files (images next to the CSS in the package) become `none`. Icon
font families are left alone: the pages draw icons as inline SVG.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOCK = HERE / "kits.lock.json"
CACHE = HERE / ".kits"
NPM = "npm"


class KitFetchError(RuntimeError):
    """A kit's tarball is missing and npm could not fetch it, or its digest is wrong."""


@dataclass(frozen=True)
class Kit:
    id: str
    name: str
    version: str
    tarball: str
    integrity: str
    license: str


@cache
def locked() -> dict[str, Kit]:
    data = json.loads(LOCK.read_text(encoding="utf-8"))
    return {entry["id"]: Kit(**entry) for entry in data["kits"]}


STYLESHEETS: dict[str, dict[str, tuple[str, ...]]] = {
    "bootstrap": {
        "light": ("dist/css/bootstrap.min.css",),
        "dark": ("dist/css/bootstrap.min.css",),
    },
    "bootswatch": {
        theme: (f"dist/{theme}/bootstrap.min.css",)
        for theme in ("flatly", "darkly", "sandstone", "yeti", "superhero", "cyborg")
    },
    "tabler": {"light": ("dist/css/tabler.min.css",), "dark": ("dist/css/tabler.min.css",)},
    "bulma": {"light": ("css/bulma.min.css",), "dark": ("css/bulma.min.css",)},
    "pico": {"light": ("css/pico.min.css",), "dark": ("css/pico.min.css",)},
    "element-plus": {
        "light": ("dist/index.css",),
        "dark": ("dist/index.css", "theme-chalk/dark/css-vars.css"),
    },
    "antd": {"light": ("dist/antd.min.css",), "dark": ("dist/antd.dark.min.css",)},
    "carbon": {"light": ("css/carbon-components.min.css",)},
    "primer": {"light": ("dist/primer.css",), "dark": ("dist/primer.css",)},
    "fomantic": {"light": ("semantic.min.css",), "dark": ("semantic.min.css",)},
    "uikit": {"light": ("dist/css/uikit.min.css",), "dark": ("dist/css/uikit.min.css",)},
    "materialize": {"light": ("dist/css/materialize.min.css",)},
}
"""The distributed CSS files of each kit by theme, as paths inside the package."""


def _digest(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def fetch(kit: Kit, cache_dir: Path = CACHE) -> Path:
    """The kit's verified tarball in `cache_dir`, packed from the npm registry if missing."""
    path = cache_dir / kit.tarball
    if not path.is_file():
        if shutil.which(NPM) is None:
            raise KitFetchError(
                f"{kit.tarball} is not in {cache_dir} and npm is not installed: install "
                f"Node.js/npm, or run `npm pack {kit.name}@{kit.version}` there"
            )
        cache_dir.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            [NPM, "pack", f"{kit.name}@{kit.version}", "--pack-destination", str(cache_dir)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0 or not path.is_file():
            raise KitFetchError(
                f"npm pack {kit.name}@{kit.version} failed: {result.stderr.strip()[-400:]}"
            )
    digest = _digest(path)
    if digest != kit.integrity:
        raise KitFetchError(
            f"{path}: sha512 {digest} is not the locked {kit.integrity}; delete it and rerun"
        )
    return path


def fetch_all(kits: set[str] | None = None) -> None:
    """Fetch and verify every kit of the lock (or of `kits`) before anything renders."""
    for kit_id, kit in locked().items():
        if kits is None or kit_id in kits:
            fetch(kit)


@cache
def _member(kit_id: str, member: str) -> str:
    kit = locked()[kit_id]
    with tarfile.open(fetch(kit), "r:gz") as archive:
        handle = archive.extractfile(f"package/{member}")
        if handle is None:
            raise KitFetchError(f"{kit.tarball} has no file {member}")
        with io.TextIOWrapper(handle, encoding="utf-8") as text:
            return text.read()


def stylesheet_files(kit_id: str, theme: str) -> tuple[str, ...]:
    try:
        return STYLESHEETS[kit_id][theme]
    except KeyError:
        raise ValueError(f"kit {kit_id} has no {theme} stylesheet") from None


@dataclass(frozen=True)
class Stacks:
    """The page's CSS font stacks that replace the kit's."""

    sans: str
    mono: str


def stylesheet(kit_id: str, theme: str, stacks: Stacks) -> str:
    """The kit's CSS for `theme`, offline and with the page's font stacks."""
    return "\n".join(
        offline_css(_member(kit_id, f), stacks) for f in stylesheet_files(kit_id, theme)
    )


_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
_IMPORT = re.compile(r"@import\s+(?:url\([^)]*\)|\"[^\"]*\"|'[^']*')[^;]*;")
_CHARSET = re.compile(r"@charset\s+[^;]+;")
_FILE_URL = re.compile(r"url\(\s*(?!['\"]?(?:data:|#))(?:'[^']*'|\"[^\"]*\"|[^)'\"]*)\s*\)")
_DECLARATION = re.compile(r"(?<=[{;\s])(font-family|font|--[\w-]+)\s*:\s*([^;{}]*)")
_GENERIC = re.compile(
    r"(?<![\w-])(sans-serif|serif|monospace|system-ui|ui-monospace|ui-sans-serif|-apple-system|"
    r"BlinkMacSystemFont)(?![\w-])"
)
_MONO = re.compile(r"mono|consolas|courier|menlo|monaco", re.IGNORECASE)
_TEXT_FAMILIES = (
    "lato",
    "inter",
    "inter var",
    "ibm plex sans",
    "ibm plex mono",
    "roboto",
    "helvetica neue",
    "helvetica",
    "arial",
    "segoe ui",
    "noto sans",
    "open sans",
    "source sans pro",
    "simsun",
)
_SHORTHAND_SIZE = re.compile(
    r"^(.*?(?<![\w-])[\d.]+(?:px|rem|em|%|pt)(?:\s*/\s*[\d.]+(?:px|rem|em|%)?)?\s+)(.+)$"
)


def _is_stack(value: str) -> bool:
    if _GENERIC.search(value):
        return True
    first = value.split(",")[0].strip().strip("'\"").lower()
    return first in _TEXT_FAMILIES


def _replacement(value: str, stacks: Stacks) -> str:
    return stacks.mono if _MONO.search(value) else stacks.sans


def _rewrite(match: re.Match[str], stacks: Stacks) -> str:
    prop, raw = match.group(1), match.group(2)
    value, bang, _ = raw.partition("!important")
    important = bang and "!important"
    shorthand = _SHORTHAND_SIZE.match(value.strip())
    if prop == "font" or (prop.startswith("--") and shorthand):
        if shorthand is None or "var(" in value or not _is_stack(shorthand.group(2)):
            return match.group(0)
        families = _replacement(shorthand.group(2), stacks)
        return f"{prop}:{shorthand.group(1)}{families}{important}"
    if not _is_stack(value):
        return match.group(0)
    return f"{prop}:{_replacement(value, stacks)}{important}"


def offline_css(css: str, stacks: Stacks) -> str:
    css = _CHARSET.sub("", _IMPORT.sub("", _FONT_FACE.sub("", css)))
    css = _FILE_URL.sub("none", css)
    return _DECLARATION.sub(lambda m: _rewrite(m, stacks), css)
