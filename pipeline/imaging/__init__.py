"""Pure image helpers: loading and validation, normalisation, cropping, finding text.

Rules:
- bytes become pixels only through `load_image`, where every decoder error becomes one of the
  project's `InputError`s and a size over the limit is refused before decoding;
- pure functions over arrays; no OCR engine, no file system;
- a photo is straightened (`Quad`, the rectifier) before anything reads it.

Outside code imports from this face only; its names load their module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.faces import lazy_face

if TYPE_CHECKING:
    from pipeline.imaging.load import (
        LoadedImage as LoadedImage,
        check_size as check_size,
        load_image as load_image,
    )
    from pipeline.imaging.normalising import Normalised as Normalised, normalise as normalise
    from pipeline.imaging.payload import to_payload as to_payload
    from pipeline.imaging.rectify import Quad as Quad
    from pipeline.imaging.text import (
        TextBoxes as TextBoxes,
        faint_extent as faint_extent,
        faint_text as faint_text,
        find_text_boxes as find_text_boxes,
        ink_bounds as ink_bounds,
        restore_spaces as restore_spaces,
    )

else:
    __getattr__, __dir__, __all__ = lazy_face(__name__)
