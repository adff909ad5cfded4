"""The command every corpus generator runs with: `generate.py` (re)writes the committed files,
`generate.py --check` regenerates them in a temporary folder and compares.

Exit 0: up to date (or written). Exit 1: a file drifted, or a committed file is no longer
generated. Exit 2: a setup problem (a missing font, no browser, a kit that could not be
fetched), said in one line. Exit 3: a browser corpus rendered by another Chromium than the one
its manifest names; the pixels may move, so only what does not depend on them is compared.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXIT_DRIFT, EXIT_SETUP, EXIT_OTHER_CHROMIUM = 1, 2, 3


@dataclass(frozen=True)
class Generator:
    what: str
    """What the files are, as a message names them: "sample", "corpus", "UI-kit corpus"."""
    script: str
    """The command that rewrites them, for the hint when they drifted."""
    root: Path
    build: Callable[[Path], tuple[list[str], str | None]]
    """Writes every file into a folder; the names written (relative to it) and the Chromium
    version that rendered them (None: no browser)."""
    listed: Callable[[Path], set[str]]
    """The files a folder's manifests say belong to the set."""
    setup_errors: tuple[type[Exception], ...]
    recorded: Callable[[Path], str | None] = lambda _: None
    """The Chromium version the committed manifests name."""
    same_data: Callable[[Path, Path], bool] | None = None
    """Equal but for what the pixels decide: the comparison under another Chromium."""
    pixel_note: str = "images and table boxes"
    """What that comparison leaves out, for its message."""


def same_bytes(a: Path, b: Path) -> bool:
    return b.is_file() and a.read_bytes() == b.read_bytes()


def read_manifest(path: Path) -> dict[str, Any]:
    """A manifest's JSON; empty where there is none yet."""
    if not path.is_file():
        return {}
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _without(data: Any, keys: frozenset[str]) -> Any:
    if isinstance(data, dict):
        return {k: _without(v, keys) for k, v in data.items() if k not in keys}
    if isinstance(data, list):
        return [_without(v, keys) for v in data]
    return data


def same_json_but(keys: Iterable[str]) -> Callable[[Path, Path], bool]:
    """A comparison of JSON files equal once `keys` are left out at any depth (what the
    pixels or the layout decide); other files are not compared at all."""
    left_out = frozenset(keys)

    def same(a: Path, b: Path) -> bool:
        if not a.name.endswith(".json"):
            return True
        if not b.is_file():
            return False
        fresh, kept = (json.loads(p.read_text(encoding="utf-8")) for p in (a, b))
        return bool(_without(fresh, left_out) == _without(kept, left_out))

    return same


def check(gen: Generator) -> int:
    recorded = gen.recorded(gen.root)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        names, version = gen.build(fresh)
        # Under another Chromium, what the pixels decide is left out of the comparison.
        lenient = gen.same_data if version is not None and recorded != version else None
        same = lenient or same_bytes
        drift = [n for n in names if not same(fresh / n, gen.root / n)]
        moved = [n for n in names if not same_bytes(fresh / n, gen.root / n)] if lenient else []
    stale = sorted(gen.listed(gen.root) - set(names))
    for name in drift:
        print(f"drift: {name}", file=sys.stderr)
    for name in stale:
        print(f"stale: {name} is no longer generated", file=sys.stderr)
    if drift or stale:
        print(f"the {gen.what} files are out of date: run python {gen.script}", file=sys.stderr)
        return EXIT_DRIFT
    if lenient:
        print(
            f"Chromium {version} is installed but the {gen.what} files were rendered by "
            f"Chromium {recorded}: pixel drift is expected, so {gen.pixel_note} were not "
            f"compared ({len(moved)} of {len(names)} files differ); every other truth field "
            f"matches. Run python {gen.script} to re-render with this Chromium.",
            file=sys.stderr,
        )
        return EXIT_OTHER_CHROMIUM
    rendered = f" (Chromium {version})" if version else ""
    print(f"{len(names)} {gen.what} files are up to date{rendered}")
    return 0


def write(gen: Generator) -> int:
    previous = gen.listed(gen.root)
    names, version = gen.build(gen.root)
    for name in sorted(previous - set(names)):
        (gen.root / name).unlink(missing_ok=True)
    rendered = f" (Chromium {version})" if version else ""
    print(f"wrote {len(names)} files to {gen.root}{rendered}")
    return 0


def main(gen: Generator, description: str, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--check", action="store_true", help="verify the committed files are byte-identical"
    )
    args = parser.parse_args(argv)
    try:
        return check(gen) if args.check else write(gen)
    except gen.setup_errors as error:
        print(error, file=sys.stderr)
        return EXIT_SETUP
