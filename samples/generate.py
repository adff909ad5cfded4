"""Generate the sample screenshots and their ground truth, deterministically.

    python samples/generate.py            # (re)write every sample into samples/
    python samples/generate.py --check    # regenerate in a temp dir; exit 1 if anything drifted

Each sample `X` gets `X.truth.json` beside it; `manifest.json` lists them all. Stock values come
from servers/data/seed.csv (the live store the screenshots are past views of). Fonts are read by
path from /usr/share/fonts; a missing font stops the run naming the Debian packages to install.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

# The screens are data, read by the browser corpora's loader.
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "corpus"))

from synth.data import load_seed
from synth.fonts import MissingFontsError, check_fonts
from synth.model import Spec
from synth.output import dump_json, save_image, truth
from synth.render import render_sample
from synth.specs import SPECS

HERE = Path(__file__).resolve().parent
SEED_CSV = HERE.parent / "servers" / "data" / "seed.csv"
MANIFEST = "manifest.json"


def truth_name(spec: Spec) -> str:
    return f"{spec.file}.truth.json"


def fonts_used(specs: tuple[Spec, ...]) -> set[str]:
    return {
        name
        for s in specs
        for name in (s.table.regular, s.table.bold, s.chrome.regular, s.chrome.bold)
    }


def build(out: Path) -> list[str]:
    """Write every sample, its truth and the manifest into `out`; returns the file names."""
    check_fonts(fonts_used(SPECS))
    seed = load_seed(SEED_CSV)
    manifest: list[dict[str, Any]] = []
    for spec in SPECS:
        rendered = render_sample(spec, seed)
        save_image(rendered.image, spec, out / spec.file)
        table = rendered.table
        record = truth(
            spec,
            rendered.image.size,
            rendered.box,
            table.header,
            table.fields,
            table.cells,
            table.rows,
            table.differs,
        )
        dump_json(record, out / truth_name(spec))
        manifest.append(
            {
                "file": spec.file,
                "kind": spec.kind,
                "description": spec.description,
                "truth": truth_name(spec),
            }
        )
    dump_json(manifest, out / MANIFEST)
    return [name for s in SPECS for name in (s.file, truth_name(s))] + [MANIFEST]


def _listed(directory: Path) -> set[str]:
    """Files the manifest in `directory` says belong to the samples."""
    path = directory / MANIFEST
    if not path.is_file():
        return set()
    entries = json.loads(path.read_text(encoding="utf-8"))
    return {name for e in entries for name in (e["file"], e["truth"])} | {MANIFEST}


def check() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        names = build(fresh)
        drift = [n for n in names if not _same(fresh / n, HERE / n)]
    stale = sorted(_listed(HERE) - set(names))
    for name in drift:
        print(f"drift: {name}", file=sys.stderr)
    for name in stale:
        print(f"stale: {name} is no longer generated", file=sys.stderr)
    if drift or stale:
        print("samples are out of date: run python samples/generate.py", file=sys.stderr)
        return 1
    print(f"{len(names)} sample files are up to date")
    return 0


def _same(a: Path, b: Path) -> bool:
    return b.is_file() and a.read_bytes() == b.read_bytes()


def write() -> int:
    previous = _listed(HERE)
    names = build(HERE)
    for name in sorted(previous - set(names)):
        (HERE / name).unlink(missing_ok=True)
    print(f"wrote {len(names)} files to {HERE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="verify the committed files are byte-identical"
    )
    args = parser.parse_args(argv)
    try:
        return check() if args.check else write()
    except MissingFontsError as error:
        print(error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
