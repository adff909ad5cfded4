"""Render one sample spec to an image, its table box in image pixels, and its table data."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image
from screengen.seed import Seed

from .data import TableData, table_for
from .draw import Painter
from .effects import photograph, to_overlay
from .model import Spec
from .page import LAYOUTS


@dataclass(frozen=True)
class Rendered:
    image: Image.Image
    box: tuple[int, int, int, int]
    table: TableData


def render_sample(spec: Spec, seed: Seed) -> Rendered:
    table = table_for(spec, seed)
    w, h = spec.view
    image = Image.new("RGB", (round(w * spec.scale), round(h * spec.scale)), spec.theme.page_bg)
    painter = Painter(image, spec.scale)
    box = painter.box(LAYOUTS[spec.layout](painter, spec, table))
    if spec.ink is not None:
        image = to_overlay(image, spec.ink)
    if spec.photo is not None:
        image, box = photograph(image, box, spec.photo, spec.seed)
    return Rendered(image, box, table)
