"""Coverage-guided fuzz target for `load_image` (atheris, libFuzzer), part of `make harden`.

    python tests/hardening/fuzz_load_image.py CORPUS_DIR -runs=20000 -seed=20261130

Writes the small encodings of `tests.hardening.images.seeds()` (every format, mode and
option) into CORPUS_DIR (made if missing) and grows from them inputs that reach new code in
the loader and in Pillow's Python plugins; libFuzzer keeps those in CORPUS_DIR too. Every input must decode or raise an `InputError`
naming the file; anything else stops the run with the input saved as `crash-*`. Exit status 0
when the runs end cleanly. Without atheris (it ships wheels for Linux x86-64) it says so and
exits 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "fuzzed.png"
MAX_BYTES = 2_000_000
MAX_PIXELS = 4_000_000


def main() -> int:
    try:
        import atheris
    except ImportError:
        print("atheris is not installed (pip install 'stockshot[harden]'); skipped")
        return 0
    sys.path.insert(0, str(ROOT))
    with atheris.instrument_imports(include=["PIL", "pipeline"]):
        from PIL import Image

        from pipeline.errors import InputError
        from pipeline.imaging.load import load_image

        Image.init()  # Pillow imports its format plugins lazily: here, so they are instrumented
    from tests.hardening.images import seeds

    def test_one_input(data: bytes) -> None:
        try:
            load_image(data, name=NAME, max_bytes=MAX_BYTES, max_pixels=MAX_PIXELS)
        except InputError as exc:
            if NAME not in str(exc):
                raise AssertionError(f"the error does not name the file: {exc}") from exc

    folders = [a for a in sys.argv[1:] if not a.startswith("-")]
    if not folders:
        print("usage: fuzz_load_image.py CORPUS_DIR [libFuzzer flags]", file=sys.stderr)
        return 2
    corpus = Path(folders[0])
    corpus.mkdir(parents=True, exist_ok=True)
    for n, seed in enumerate(seeds()):
        (corpus / f"seed-{n:03d}.{seed.format.lower()}").write_bytes(seed.data)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()  # exits the process when the runs are done
    return 0


if __name__ == "__main__":
    sys.exit(main())
