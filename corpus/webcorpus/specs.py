"""The corpus, as data (`screens.json`): twelve browser renders of six designs, six photos of
some of them, and the seed everything random (update times, photo geometry noise) is drawn from.

Displayed stock values equal the store's seed (the live view) unless a row gives the past
`on_hand` the screen showed, e.g. an item that looked low then and has been restocked since.
An entry gives a render's (`Spec`) or a photo's (`Photo`) fields by name; a field left out takes
its default; the file is checked when loaded (`specdata`).
"""

from __future__ import annotations

from pathlib import Path

from screengen.specdata import entries, read_data, seed_of

from .model import Photo, Spec

__all__ = ["PHOTOS", "SCREENS", "SEED", "SPECS"]

SCREENS = Path(__file__).with_name("screens.json")


_DOC = read_data(SCREENS)
SEED = seed_of(_DOC, SCREENS)
SPECS: tuple[Spec, ...] = tuple(entries(_DOC, "renders", Spec, SCREENS))
PHOTOS: tuple[Photo, ...] = tuple(entries(_DOC, "photos", Photo, SCREENS))
