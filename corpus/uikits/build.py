"""Turn a split's specs into corpus files: build each page from its kit's CSS and markup, render
it, take the truth from the DOM, and photograph some renders."""

from __future__ import annotations

import random
from html import escape
from typing import Any

from screengen.capture import Entry, captured_at, png_bytes, truth_name
from screengen.geometry import Pixels
from screengen.seed import SCHEMA_FIELD, Seed, entry_seed
from webcorpus.browser import Chromium, RenderError, screen_image
from webcorpus.fonts import faces, font_face_css, stack
from webcorpus.model import Photo
from webcorpus.render import Rendered, photo_of
from webcorpus.truth import image_box

from .data import Grid, build_grid, units
from .kits import Stacks, locked, stylesheet
from .measure import MEASURE, SCROLL_SLACK, Measured, parse
from .model import UiSpec
from .pages import DESIGNS
from .pages.base import Body, Ctx

MONO = "dejavu-mono"
BASE_CSS = (
    "*,*::before,*::after{animation:none!important;transition:none!important;"
    "caret-color:transparent!important;scroll-behavior:auto!important}"
    "button,input,select,textarea{font-family:inherit}"
)
"""Before the kit's CSS: no motion, and form controls in the page's font as normalize.css has it
(an app's own stylesheet sets that where the kit does not)."""


def families(spec: UiSpec) -> tuple[str, ...]:
    return tuple(f for f in (spec.font, spec.cjk, MONO) if f)


def document(spec: UiSpec, body: Body) -> str:
    text = (spec.font, spec.cjk) if spec.cjk else (spec.font,)
    stacks = Stacks(sans=stack(*text), mono=stack(MONO, *text[1:]))
    kit_css = stylesheet(spec.kit, spec.theme, stacks)
    lang = "zh-CN" if spec.formats.language == "zh" else "en"
    return (
        f'<!doctype html><html lang="{lang}"{body.html_attrs}><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(spec.title)}</title>"
        f"<style>{font_face_css(families(spec))}{BASE_CSS}html{{font-family:{stacks.sans}}}</style>"
        f"<style>{kit_css}</style><style>{body.css}</style></head>"
        f"<body{body.body_attrs}>{body.html}</body></html>\n"
    )


def kind(spec: UiSpec) -> str:
    return f"{spec.kit}-{spec.design}"


def grid_rows(ctx: Ctx) -> range:
    return range(ctx.n)


def schema_columns(ctx: Ctx) -> list[int]:
    """Columns (or card slots) whose text the truth rows hold: shown exactly as written (a
    header, a status or a label may be drawn in capitals by the kit's `text-transform`)."""
    return [c for c, col in enumerate(ctx.grid.columns) if col.field in SCHEMA_FIELD]


def _check(spec: UiSpec, ctx: Ctx, m: Measured) -> list[int]:
    """The visible items, once the DOM is shown to hold exactly the page's truth texts."""
    file = spec.file
    if not m.clean or m.problems():
        raise RenderError(f"{file}: texts cut at an edge or unreadable: {m.problems()[:6]}")
    wanted = spec.page_warehouse if spec.cue in ("heading", "chip", "breadcrumb", "tab") else None
    if [text for text, _, _ in m.cues] != ([wanted] if wanted else []):
        raise RenderError(f"{file}: the page states its warehouse as {m.cues}, not {wanted}")
    width, height = spec.screen.viewport
    if m.viewport != (width, height) or abs(m.dpr - spec.screen.scale) > 1e-5:
        raise RenderError(f"{file}: viewport {m.viewport} at {m.dpr}, not {width}x{height}")
    problems = []
    exact = {(r, c) for r in range(1, len(grid_rows(ctx)) + 1) for c in schema_columns(ctx)}
    for key, text in ctx.expected.items():
        shown = m.texts.get(key)
        same = shown is not None and (
            shown == text if key in exact else shown.casefold() == text.casefold()
        )
        if not same:
            problems.append(f"{key}: page {text!r}, DOM shows {shown!r}")
    problems += [f"{key} is not in the truth" for key in m.texts if key not in ctx.expected]
    if problems:
        raise RenderError(f"{file}: the DOM differs from the page's texts: {problems[:6]}")
    if spec.layout == "table":
        hidden = [k for k, s in m.states.items() if k[0] == 0 and s != "full"]
        if hidden:
            raise RenderError(f"{file}: header cells not visible: {hidden}")
    visible = m.visible_items()
    if not 8 <= len(visible) <= 20:
        raise RenderError(f"{file}: {len(visible)} items are visible, not 8-20")
    return visible


def _truth(
    spec: UiSpec, split: str, grid: Grid, m: Measured, visible: list[int], box: Pixels
) -> dict[str, Any]:
    table = spec.layout == "table"
    columns = range(len(grid.columns))
    kit = locked()[spec.kit]
    return {
        "file": spec.file,
        "kind": kind(spec),
        "size": [spec.screen.width, spec.screen.height],
        "captured_at": captured_at(spec.file, spec.capture),
        "captured_at_source": spec.capture.source,
        "table_box": list(box),
        "header": [m.texts[(0, c)] for c in columns] if table else [],
        "header_fields": list(grid.header_fields) if table else [],
        "cells": [[m.texts[(r, c)] for c in columns] for r in visible] if table else [],
        "rows": [grid.rows[r - 1] for r in visible],
        "page_warehouse": spec.page_warehouse,
        "screen_differs_from_live": [],
        "notes": spec.notes,
        "kit": kit.name,
        "kit_version": kit.version,
        "layout": spec.layout,
        "split": split,
        "units": units(grid, [r - 1 for r in visible]),
        "partly_visible": [
            {"sku": grid.items[r - 1].sku, "name": grid.items[r - 1].name}
            for r in m.partly_visible()
        ],
    }


def _data_source(grid: Grid) -> str:
    sources = {item.source for item in grid.items}
    return sources.pop() if len(sources) == 1 else "mixed"


def render_spec(
    spec: UiSpec, split: str, seed: Seed, renderer: Chromium, split_seed: int
) -> Rendered:
    grid = build_grid(spec, seed, random.Random(entry_seed(split_seed, spec.file)))
    ctx = Ctx(spec, grid)
    body = DESIGNS[(spec.kit, spec.design)](ctx)
    html = document(spec, body)
    script = f"() => ({MEASURE})([{spec.scroll}, {SCROLL_SLACK}])"
    shot = renderer.capture(
        html,
        spec.screen,
        faces(families(spec)),
        script,
        locale="zh-CN" if spec.formats.language == "zh" else "en-US",
        color_scheme="dark" if ctx.dark else "light",
    )
    m = parse(shot.measured)
    visible = _check(spec, ctx, m)
    if shot.png is None or m.box is None:
        raise RenderError(f"{spec.file}: no screenshot or no table region")
    image = screen_image(shot.png, spec.file, spec.screen)
    size = image.size
    box = image_box(m.box, spec.screen.scale, size)
    truth = _truth(spec, split, grid, m, visible, box)
    kit = locked()[spec.kit]
    line = {
        "file": spec.file,
        "kind": truth["kind"],
        "kit": kit.name,
        "kit_version": kit.version,
        "theme": spec.theme,
        "design": spec.design,
        "layout": spec.layout,
        "description": spec.description,
        "truth": truth_name(spec.file),
        "size": list(size),
        "dpr": spec.screen.dpr,
        "zoom": spec.screen.zoom,
        "scroll": m.scroll,
        "data": _data_source(grid),
        "photo_of": None,
    }
    entry = Entry(spec.file, png_bytes(image, spec.capture), truth, line)
    return Rendered(entry, image, box)


def _photo_notes(photo: Photo, source: str) -> str:
    frame = {
        "dark": "a dark monitor bezel",
        "silver": "a light silver bezel",
        "none": "no bezel: the screen fills the frame",
    }[photo.bezel]
    what = "a laptop" if photo.mount == "laptop" else "a monitor"
    return (
        f"Photo of {source} on {what} with {frame}: keystone (pitch {photo.pitch:g}°, yaw "
        f"{photo.yaw:g}°), roll {photo.roll:g}°, blur, noise, moiré and glare; screen_quad "
        "holds the screen's corners (top left, top right, bottom right, bottom left)."
    )


def photo_entry(photo: Photo, rendered: Rendered, split_seed: int) -> Entry:
    notes = _photo_notes(photo, rendered.entry.file)
    return photo_of(photo, rendered, split_seed, notes, bezel=photo.bezel, mount=photo.mount)


def render_split(
    split: str,
    specs: tuple[UiSpec, ...],
    photos: tuple[Photo, ...],
    seed: Seed,
    renderer: Chromium,
    split_seed: int,
) -> list[Entry]:
    """Every render, then every photo, in the order the specs list them."""
    rendered = {s.file: render_spec(s, split, seed, renderer, split_seed) for s in specs}
    shots = [r.entry for r in rendered.values()]
    return shots + [photo_entry(p, rendered[p.source], split_seed) for p in photos]
