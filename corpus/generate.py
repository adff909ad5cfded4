"""Render the browser screenshot corpus and its ground truth, deterministically.

    python corpus/generate.py            # (re)write every image, truth file and manifest.json
    python corpus/generate.py --check    # regenerate in a temp dir; exit 1 if anything drifted

Pages are HTML/CSS templates rendered by Debian's Chromium (/usr/bin/chromium) through
playwright; the truth comes from the data each page was built from and the table's box from
the DOM. Stock values come from servers/data/seed.csv. The manifest records the Chromium that
rendered the images: under another version pixels (and boxes measured in the DOM) may move,
and `--check` says so and compares only what does not depend on the pixels (exit 3).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from screengen.capture import Entry, json_text
from screengen.command import Generator, main, read_manifest, same_json_but
from screengen.seed import load_seed
from webcorpus.browser import BrowserMissingError, chromium
from webcorpus.designs import DESIGNS
from webcorpus.fonts import MissingFontsError, check_fonts
from webcorpus.render import render_all
from webcorpus.specs import PHOTOS, SEED, SPECS

HERE = Path(__file__).resolve().parent
MANIFEST = "manifest.json"
PIXEL_KEYS = ("table_box",)
"""Truth keys measured from the rendered pixels or layout, free to move with Chromium."""
ALL_FONTS = (
    "lato",
    "roboto",
    "roboto-condensed",
    "open-sans",
    "liberation-sans",
    "dejavu-sans",
    "noto-cjk-sc",
    "wqy-microhei",
)


def manifest(entries: list[Entry], version: str) -> dict[str, Any]:
    return {
        "chromium": version,
        "seed": SEED,
        "designs": sorted(DESIGNS),
        "images": [e.manifest for e in entries],
    }


def build(out: Path) -> tuple[list[str], str]:
    """Write every image, its truth and the manifest into `out`; returns the file names written
    and the Chromium version that rendered them."""
    check_fonts(ALL_FONTS)
    seed = load_seed()
    with chromium() as renderer:
        entries = render_all(SPECS, PHOTOS, seed, renderer, SEED)
        version = renderer.version
    names: list[str] = []
    for entry in entries:
        names += entry.write(out)
    (out / MANIFEST).write_text(json_text(manifest(entries, version)), encoding="utf-8")
    return [*names, MANIFEST], version


def _listed(directory: Path) -> set[str]:
    """Files the manifest in `directory` says belong to the corpus."""
    images = read_manifest(directory / MANIFEST).get("images", [])
    return {name for e in images for name in (e["file"], e["truth"])} | {MANIFEST}


GENERATOR = Generator(
    what="corpus",
    script="corpus/generate.py",
    root=HERE,
    build=build,
    listed=_listed,
    setup_errors=(MissingFontsError, BrowserMissingError),
    recorded=lambda root: read_manifest(root / MANIFEST).get("chromium"),
    same_data=same_json_but((*PIXEL_KEYS, "chromium")),
)

if __name__ == "__main__":
    sys.exit(main(GENERATOR, __doc__.splitlines()[0]))
