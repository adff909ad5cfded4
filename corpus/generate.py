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

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from webcorpus.browser import BrowserMissingError, chromium
from webcorpus.data import load_seed
from webcorpus.designs import DESIGNS
from webcorpus.fonts import MissingFontsError, check_fonts
from webcorpus.output import json_text
from webcorpus.render import Entry, render_all
from webcorpus.specs import PHOTOS, SEED, SPECS

HERE = Path(__file__).resolve().parent
SEED_CSV = HERE.parent / "servers" / "data" / "seed.csv"
MANIFEST = "manifest.json"
PIXEL_KEYS = ("table_box",)
"""Truth keys measured from the rendered pixels or layout, free to move with Chromium."""
EXIT_DRIFT, EXIT_SETUP, EXIT_OTHER_CHROMIUM = 1, 2, 3
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
    seed = load_seed(SEED_CSV)
    with chromium() as renderer:
        entries = render_all(SPECS, PHOTOS, seed, renderer, SEED)
        version = renderer.version
    names = []
    for entry in entries:
        (out / entry.file).write_bytes(entry.data)
        truth = entry.manifest["truth"]
        (out / truth).write_text(json_text(entry.truth), encoding="utf-8")
        names += [entry.file, truth]
    (out / MANIFEST).write_text(json_text(manifest(entries, version)), encoding="utf-8")
    return [*names, MANIFEST], version


def _load(directory: Path) -> dict[str, Any]:
    path = directory / MANIFEST
    if not path.is_file():
        return {}
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _listed(directory: Path) -> set[str]:
    """Files the manifest in `directory` says belong to the corpus."""
    images = _load(directory).get("images", [])
    return {name for e in images for name in (e["file"], e["truth"])} | {MANIFEST}


def _same(a: Path, b: Path) -> bool:
    return b.is_file() and a.read_bytes() == b.read_bytes()


def _same_data(a: Path, b: Path) -> bool:
    """Equal once what the pixels decide is left out (images are not compared at all)."""
    if not a.name.endswith(".json"):
        return True
    if not b.is_file():
        return False
    fresh, kept = (json.loads(p.read_text(encoding="utf-8")) for p in (a, b))
    if a.name == MANIFEST:
        fresh.pop("chromium"), kept.pop("chromium", None)
    for key in PIXEL_KEYS:
        fresh.pop(key, None), kept.pop(key, None)
    return bool(fresh == kept)


def check() -> int:
    recorded = _load(HERE).get("chromium")
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        names, version = build(fresh)
        other = recorded != version
        same = _same_data if other else _same
        drift = [n for n in names if not same(fresh / n, HERE / n)]
        moved = [n for n in names if other and not _same(fresh / n, HERE / n)]
    stale = sorted(_listed(HERE) - set(names))
    for name in drift:
        print(f"drift: {name}", file=sys.stderr)
    for name in stale:
        print(f"stale: {name} is no longer generated", file=sys.stderr)
    if drift or stale:
        print("the corpus is out of date: run python corpus/generate.py", file=sys.stderr)
        return EXIT_DRIFT
    if other:
        print(
            f"Chromium {version} is installed but the corpus was rendered by Chromium "
            f"{recorded}: pixel drift is expected, so images and table boxes were not compared "
            f"({len(moved)} of {len(names)} files differ); the rows, cells and every other truth "
            "field match. Run python corpus/generate.py to re-render with this Chromium.",
            file=sys.stderr,
        )
        return EXIT_OTHER_CHROMIUM
    print(f"{len(names)} corpus files are up to date (Chromium {version})")
    return 0


def write() -> int:
    previous = _listed(HERE)
    names, version = build(HERE)
    for name in sorted(previous - set(names)):
        (HERE / name).unlink(missing_ok=True)
    print(f"wrote {len(names)} files to {HERE} (Chromium {version})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="verify the committed files are byte-identical"
    )
    args = parser.parse_args(argv)
    try:
        return check() if args.check else write()
    except (MissingFontsError, BrowserMissingError) as error:
        print(error, file=sys.stderr)
        return EXIT_SETUP


if __name__ == "__main__":
    sys.exit(main())
