"""Generate the sample screenshots and their ground truth, deterministically.

    python samples/generate.py            # (re)write every sample into samples/
    python samples/generate.py --check    # regenerate in a temp dir; exit 1 if anything drifted

Each sample `X` gets `X.truth.json` beside it; `manifest.json` lists them all. Stock values come
from servers/data/seed.csv (the live store the screenshots are past views of). Fonts are read by
path from /usr/share/fonts; a missing font stops the run naming the Debian packages to install.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

# The screens are data, read by the browser corpora's loader.
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "corpus"))

from screengen.capture import truth_name
from screengen.command import Generator, main
from screengen.seed import load_seed
from synth.fonts import MissingFontsError, check_fonts
from synth.model import Spec
from synth.output import dump_json, save_image, truth
from synth.render import render_sample
from synth.specs import SPECS

HERE = Path(__file__).resolve().parent
MANIFEST = "manifest.json"


def fonts_used(specs: tuple[Spec, ...]) -> set[str]:
    return {
        name
        for s in specs
        for name in (s.table.regular, s.table.bold, s.chrome.regular, s.chrome.bold)
    }


def build(out: Path) -> list[str]:
    """Write every sample, its truth and the manifest into `out`; returns the file names."""
    check_fonts(fonts_used(SPECS))
    seed = load_seed()
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
        dump_json(record, out / truth_name(spec.file))
        manifest.append(
            {
                "file": spec.file,
                "kind": spec.kind,
                "description": spec.description,
                "truth": truth_name(spec.file),
            }
        )
    dump_json(manifest, out / MANIFEST)
    return [name for s in SPECS for name in (s.file, truth_name(s.file))] + [MANIFEST]


def _listed(directory: Path) -> set[str]:
    """Files the manifest in `directory` says belong to the samples."""
    path = directory / MANIFEST
    if not path.is_file():
        return set()
    entries = json.loads(path.read_text(encoding="utf-8"))
    return {name for e in entries for name in (e["file"], e["truth"])} | {MANIFEST}


GENERATOR = Generator(
    what="sample",
    script="samples/generate.py",
    root=HERE,
    build=lambda out: (build(out), None),
    listed=_listed,
    setup_errors=(MissingFontsError,),
)

if __name__ == "__main__":
    sys.exit(main(GENERATOR, __doc__.splitlines()[0]))
