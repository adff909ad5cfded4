"""Render the UI-kit screenshot corpus (two splits) and its ground truth, deterministically.

    python corpus/uikits_generate.py            # (re)write uikits/tune/ and uikits/sealed/
    python corpus/uikits_generate.py --check    # regenerate in a temp dir; exit 1 on any drift

Pages are styled with real UI kits' distributed CSS, fetched from the npm registry with
`npm pack` into corpus/uikits/.kits/ (not committed) and checked against
corpus/uikits/kits.lock.json; they are rendered by Debian's Chromium through playwright and the
truth is read from the DOM. As with corpus/generate.py, the manifests record the Chromium that
rendered the images: under another version `--check` compares only what does not depend on the
pixels and exits 3. Exit 2: a setup problem (no Chromium, a missing font, a kit that could not be
fetched or whose digest is wrong).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from screengen.capture import Entry, json_text
from screengen.command import Generator, main, read_manifest, same_json_but
from screengen.seed import load_seed
from uikits.build import families, render_split
from uikits.kits import KitFetchError, fetch_all, locked
from uikits.specs import SPLITS
from webcorpus.browser import BrowserMissingError, chromium
from webcorpus.fonts import MissingFontsError, check_fonts

HERE = Path(__file__).resolve().parent
ROOT = HERE / "uikits"
MANIFEST = "manifest.json"
PIXEL_KEYS = ("table_box",)
"""Truth keys measured from the rendered layout, free to move with Chromium."""
LAYOUT_KEYS = ("chromium", "scroll")


def manifest(split: str, seed: int, entries: list[Entry], version: str) -> dict[str, Any]:
    kits = sorted({e.manifest["kit"] for e in entries})
    lock = {k.name: k for k in locked().values()}
    return {
        "chromium": version,
        "split": split,
        "seed": seed,
        "kits": {name: lock[name].version for name in kits},
        "renders": {
            layout: sum(
                1 for e in entries if e.manifest["layout"] == layout and not e.manifest["photo_of"]
            )
            for layout in ("table", "cards", "list")
        },
        "photos": sum(1 for e in entries if e.manifest["photo_of"] is not None),
        "images": [e.manifest for e in entries],
    }


def build(out: Path) -> tuple[list[str], str]:
    """Write both splits into `out` (`out/tune`, `out/sealed`); returns the paths written,
    relative to `out`, and the Chromium version that rendered them."""
    specs = [s for split in SPLITS.values() for s in split[0]]
    check_fonts({f for s in specs for f in families(s)})
    fetch_all({s.kit for s in specs})
    seed = load_seed()
    names: list[str] = []
    version = ""
    with chromium() as renderer:
        for split, (split_specs, photos, split_seed) in SPLITS.items():
            entries = render_split(split, split_specs, photos, seed, renderer, split_seed)
            version = renderer.version
            folder = out / split
            folder.mkdir(parents=True, exist_ok=True)
            for entry in entries:
                names += [f"{split}/{name}" for name in entry.write(folder)]
            text = json_text(manifest(split, split_seed, entries, version))
            (folder / MANIFEST).write_text(text, encoding="utf-8")
            names.append(f"{split}/{MANIFEST}")
    return names, version


def _listed(root: Path) -> set[str]:
    """Files the committed manifests say belong to the corpus, relative to `root`."""
    out = set()
    for split in SPLITS:
        data = read_manifest(root / split / MANIFEST)
        if data:
            out.add(f"{split}/{MANIFEST}")
        for e in data.get("images", []):
            out |= {f"{split}/{e['file']}", f"{split}/{e['truth']}"}
    return out


def _recorded_chromium(root: Path) -> str | None:
    versions = {read_manifest(root / split / MANIFEST).get("chromium") for split in SPLITS}
    return versions.pop() if len(versions) == 1 else None


GENERATOR = Generator(
    what="UI-kit corpus",
    script="corpus/uikits_generate.py",
    root=ROOT,
    build=build,
    listed=_listed,
    setup_errors=(MissingFontsError, BrowserMissingError, KitFetchError),
    recorded=_recorded_chromium,
    same_data=same_json_but((*PIXEL_KEYS, *LAYOUT_KEYS)),
    pixel_note="images, table boxes and scroll offsets",
)

if __name__ == "__main__":
    sys.exit(main(GENERATOR, __doc__.splitlines()[0]))
