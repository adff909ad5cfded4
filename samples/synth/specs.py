"""The samples, as data (`samples.json`). One renderer walks this list; nothing here draws.

Displayed stock values equal the store's seed (the live view) unless a row gives the past
`on_hand` the screen showed, e.g. an item that looked low then and has been restocked since.
Themes, page texts and chrome several samples share are written once under `shared` and named
where they are used (`"@light"`, or `{"@": "en_page", "brand": …}` for one changed); the file
is loaded and checked by the screen generator library's `screengen.specdata`.
"""

from __future__ import annotations

from pathlib import Path

from screengen.specdata import entries, read_data

from .model import Spec

__all__ = ["SAMPLES", "SPECS"]

SAMPLES = Path(__file__).with_name("samples.json")
SPECS: tuple[Spec, ...] = tuple(entries(read_data(SAMPLES), "samples", Spec, SAMPLES))
