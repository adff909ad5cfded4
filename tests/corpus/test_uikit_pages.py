"""The UI-kit corpus's page designs write the page's warehouse where its spec says.

The corpus code is its own top-level package (`corpus/`), so it runs in a child interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

BREADCRUMB = """
import dataclasses, random, sys
sys.path.insert(0, {corpus!r})
from screengen.seed import load_seed
from uikits.data import build_grid
from uikits.pages import DESIGNS
from uikits.pages.base import Ctx
from uikits.specs import SPLITS
seed = load_seed()
table = next(s for s in SPLITS["tune"][0] if s.layout == "table" and s.page_warehouse)
for kit in sys.argv[1:]:
    spec = dataclasses.replace(table, kit=kit, design="erp", cue="breadcrumb")
    body = DESIGNS[(kit, "erp")](Ctx(spec, build_grid(spec, seed, random.Random(1))))
    markup = "".join(str(part) for part in dataclasses.astuple(body))
    print(kit, markup.count("<span data-cue>"), markup.count("&lt;span data-cue"))
"""


def test_erp_pages_show_the_breadcrumbs_warehouse_as_markup_not_as_escaped_text() -> None:
    result = subprocess.run(
        [sys.executable, "-c", BREADCRUMB.format(corpus=str(CORPUS)), "antd", "element-plus"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["antd 1 0", "element-plus 1 0"]
