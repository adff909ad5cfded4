"""The two splits, as data: `screens/tune.json` and `screens/sealed.json`, seventeen renders and
five photos each, with the seed each split's random choices are drawn from.

Both splits cover the same kinds of difficulty in equal measure (a Chinese ERP table with a
running index and an on-hand beside an available column, dark themes, a warehouse given only by
a heading, chip, breadcrumb or tab, an on-order column beside on-hand, units after quantities,
narrow adjacent quantity columns, the shop's other item codes, browser zoom 80-125%, device
pixel ratios 1 and 2, screens 1280-2560 px wide, two phone card screens and a desktop tile grid
or list, photos with light, dark and no bezels) but with other kit-design pairs, vocabularies,
column orders, rows and seeds. `tune` may be looked at while changing ingest; `sealed` may not.

An entry gives a render's (`UiSpec`) or a photo's (`webcorpus.model.Photo`) fields by name; a
field left out takes its default. The files are validated when loaded: a wrong value or a field
no entry has is an error that names the file and the field.
"""

from __future__ import annotations

from pathlib import Path

from screengen.specdata import entries, read_data, seed_of
from webcorpus.model import Photo

from .model import UiSpec

__all__ = ["SCREENS", "SPLITS", "load_split"]

SCREENS = Path(__file__).with_name("screens")


def load_split(name: str) -> tuple[tuple[UiSpec, ...], tuple[Photo, ...], int]:
    """A split's renders, photos and seed, from `screens/<name>.json`."""
    path = SCREENS / f"{name}.json"
    doc = read_data(path)
    return (
        tuple(entries(doc, "renders", UiSpec, path)),
        tuple(entries(doc, "photos", Photo, path)),
        seed_of(doc, path),
    )


SPLITS: dict[str, tuple[tuple[UiSpec, ...], tuple[Photo, ...], int]] = {
    name: load_split(name) for name in ("tune", "sealed")
}
