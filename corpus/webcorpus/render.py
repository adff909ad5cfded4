"""Turn the specs into corpus files: render each page, check the DOM against the truth, photograph
some renders. The browser comes in as a `Chromium`; everything else here is computation."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image
from screengen.capture import Entry, captured_at, jpeg_bytes, png_bytes, truth_name
from screengen.geometry import Pixels
from screengen.seed import Seed, entry_seed

from .browser import Chromium, RenderError, screen_image
from .data import stock_table
from .designs import DESIGNS, KINDS
from .fonts import faces
from .markup import plain_table
from .model import Photo, Spec
from .photo import photograph
from .truth import dom_mismatches, image_box, truth_record

PHOTO_KIND = "photo"


@dataclass(frozen=True)
class Rendered:
    """A render's corpus entry, with the image and table box a photo of it starts from."""

    entry: Entry
    image: Image.Image
    box: Pixels


def render_spec(spec: Spec, seed: Seed, renderer: Chromium, corpus_seed: int) -> Rendered:
    table = stock_table(spec, seed, random.Random(entry_seed(corpus_seed, spec.file)))
    page = DESIGNS[spec.design](spec, table)
    shot = renderer.render(page.html, spec.screen, faces(page.fonts))
    problems = dom_mismatches(table, shot.cells)
    if problems:
        raise RenderError(f"{spec.file}: the page does not show its truth: {problems[:5]}")
    image = screen_image(shot.png, spec.file, spec.screen)
    size = image.size
    box = image_box(shot.box, spec.screen.scale, size)
    rows = (*page.table.head, *page.table.body)
    merged = any(c.rowspan > 1 or c.colspan > 1 for r in rows for c in r.cells)
    table_html = plain_table(page.table) if merged else None
    kind = KINDS[spec.design]
    truth = truth_record(
        file=spec.file,
        kind=kind,
        size=size,
        captured_at=captured_at(spec.file, spec.capture),
        captured_at_source=spec.capture.source,
        box=box,
        table=table,
        page_warehouse=spec.page_warehouse,
        notes=spec.notes,
        table_html=table_html,
    )
    line = {
        "file": spec.file,
        "kind": kind,
        "design": spec.design,
        "description": spec.description,
        "truth": truth_name(spec.file),
        "size": list(size),
        "dpr": spec.screen.dpr,
        "zoom": spec.screen.zoom,
        "photo_of": None,
    }
    entry = Entry(spec.file, png_bytes(image, spec.capture), truth, line)
    return Rendered(entry, image, box)


def photo_of(photo: Photo, source: Rendered, seed: int, notes: str, **line: Any) -> Entry:
    """The entry of a photo of the render `source`: the render's truth and manifest line with the
    photo's own file, kind, size, capture time, table box, screen quad and `notes`, and `line`'s
    further manifest keys."""
    rng = np.random.default_rng(entry_seed(seed, photo.file))
    shot = photograph(np.asarray(source.image), source.box, photo, rng)
    render = source.entry
    truth = {
        **render.truth,
        "file": photo.file,
        "kind": PHOTO_KIND,
        "size": list(photo.size),
        "captured_at": captured_at(photo.file, photo.capture),
        "captured_at_source": photo.capture.source,
        "table_box": list(shot.table_box),
        "notes": notes,
        "screen_quad": [[round(x, 2), round(y, 2)] for x, y in shot.quad],
    }
    manifest = {
        **render.manifest,
        "file": photo.file,
        "kind": PHOTO_KIND,
        "description": photo.description,
        "truth": truth_name(photo.file),
        "size": list(photo.size),
        "photo_of": render.file,
        **line,
    }
    data = jpeg_bytes(Image.fromarray(shot.image, "RGB"), photo.capture, photo.quality)
    return Entry(photo.file, data, truth, manifest)


def _photo_notes(photo: Photo) -> str:
    return (
        f"Photo of {photo.source} on a monitor: keystone (pitch {photo.pitch:g}°, yaw "
        f"{photo.yaw:g}°), roll {photo.roll:g}°, blur, noise, moiré and glare; screen_quad "
        "holds the screen's corners (top left, top right, bottom right, bottom left)."
    )


def render_all(
    specs: tuple[Spec, ...],
    photos: tuple[Photo, ...],
    seed: Seed,
    renderer: Chromium,
    corpus_seed: int,
) -> list[Entry]:
    """Every render, then every photo, in the order the specs list them."""
    rendered = {s.file: render_spec(s, seed, renderer, corpus_seed) for s in specs}
    shots = [r.entry for r in rendered.values()]
    return shots + [photo_of(p, rendered[p.source], corpus_seed, _photo_notes(p)) for p in photos]
