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

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from uikits.build import Entry, families, render_split
from uikits.kits import KitFetchError, fetch_all, locked
from uikits.specs import SPLITS
from webcorpus.browser import BrowserMissingError, chromium
from webcorpus.data import load_seed
from webcorpus.fonts import MissingFontsError, check_fonts
from webcorpus.output import json_text

HERE = Path(__file__).resolve().parent
ROOT = HERE / "uikits"
SEED_CSV = HERE.parent / "servers" / "data" / "seed.csv"
MANIFEST = "manifest.json"
PIXEL_KEYS = ("table_box",)
"""Truth keys measured from the rendered layout, free to move with Chromium."""
LAYOUT_KEYS = ("chromium", "scroll")
EXIT_DRIFT, EXIT_SETUP, EXIT_OTHER_CHROMIUM = 1, 2, 3


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
    seed = load_seed(SEED_CSV)
    names: list[str] = []
    version = ""
    with chromium() as renderer:
        for split, (split_specs, photos, split_seed) in SPLITS.items():
            entries = render_split(split, split_specs, photos, seed, renderer, split_seed)
            version = renderer.version
            folder = out / split
            folder.mkdir(parents=True, exist_ok=True)
            for entry in entries:
                (folder / entry.file).write_bytes(entry.data)
                truth = entry.manifest["truth"]
                (folder / truth).write_text(json_text(entry.truth), encoding="utf-8")
                names += [f"{split}/{entry.file}", f"{split}/{truth}"]
            text = json_text(manifest(split, split_seed, entries, version))
            (folder / MANIFEST).write_text(text, encoding="utf-8")
            names.append(f"{split}/{MANIFEST}")
    return names, version


def _load(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _listed(root: Path) -> set[str]:
    """Files the committed manifests say belong to the corpus, relative to `root`."""
    out = set()
    for split in SPLITS:
        data = _load(root / split / MANIFEST)
        if data:
            out.add(f"{split}/{MANIFEST}")
        for e in data.get("images", []):
            out |= {f"{split}/{e['file']}", f"{split}/{e['truth']}"}
    return out


def _recorded_chromium(root: Path) -> str | None:
    versions = {_load(root / split / MANIFEST).get("chromium") for split in SPLITS}
    return versions.pop() if len(versions) == 1 else None


def _same(a: Path, b: Path) -> bool:
    return b.is_file() and a.read_bytes() == b.read_bytes()


def _strip(data: Any) -> Any:
    if isinstance(data, dict):
        return {
            k: _strip(v) for k, v in data.items() if k not in PIXEL_KEYS and k not in LAYOUT_KEYS
        }
    if isinstance(data, list):
        return [_strip(v) for v in data]
    return data


def _same_data(a: Path, b: Path) -> bool:
    """Equal once what the layout decides is left out (images are not compared at all)."""
    if not a.name.endswith(".json"):
        return True
    if not b.is_file():
        return False
    fresh, kept = (json.loads(p.read_text(encoding="utf-8")) for p in (a, b))
    return bool(_strip(fresh) == _strip(kept))


def check() -> int:
    recorded = _recorded_chromium(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        names, version = build(fresh)
        other = recorded != version
        same = _same_data if other else _same
        drift = [n for n in names if not same(fresh / n, ROOT / n)]
        moved = [n for n in names if other and not _same(fresh / n, ROOT / n)]
    stale = sorted(_listed(ROOT) - set(names))
    for name in drift:
        print(f"drift: {name}", file=sys.stderr)
    for name in stale:
        print(f"stale: {name} is no longer generated", file=sys.stderr)
    if drift or stale:
        print(
            "the UI-kit corpus is out of date: run python corpus/uikits_generate.py",
            file=sys.stderr,
        )
        return EXIT_DRIFT
    if other:
        print(
            f"Chromium {version} is installed but the UI-kit corpus was rendered by Chromium "
            f"{recorded}: pixel drift is expected, so images, table boxes and scroll offsets "
            f"were not compared ({len(moved)} of {len(names)} files differ); every other truth "
            "field matches. Run python corpus/uikits_generate.py to re-render.",
            file=sys.stderr,
        )
        return EXIT_OTHER_CHROMIUM
    print(f"{len(names)} UI-kit corpus files are up to date (Chromium {version})")
    return 0


def write() -> int:
    previous = _listed(ROOT)
    names, version = build(ROOT)
    for name in sorted(previous - set(names)):
        (ROOT / name).unlink(missing_ok=True)
    print(f"wrote {len(names)} files to {ROOT} (Chromium {version})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="verify the committed files are byte-identical"
    )
    args = parser.parse_args(argv)
    try:
        return check() if args.check else write()
    except (MissingFontsError, BrowserMissingError, KitFetchError) as error:
        print(error, file=sys.stderr)
        return EXIT_SETUP


if __name__ == "__main__":
    sys.exit(main())
