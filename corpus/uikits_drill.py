"""Variants of the UI-kit corpus's tune screens, rendered into a scratch folder for practice.

    python corpus/uikits_drill.py OUT [--seed 1] [--variants 2] [--photos | --cameras]
    python scripts/fields.py --folder OUT

Each tune render is drawn again `--variants` times with other choices, drawn from `--seed`: a
table page is put on a table design picked among its language's kits (Bootstrap, Bootswatch,
Tabler, Bulma, Pico, Carbon, Fomantic, UIkit, Materialize; Element Plus and Ant Design for
Chinese pages; its own kit among them), its columns are shuffled and renamed from a wider
header vocabulary than the corpus uses, its narrow/compact/striped switches flip, and it is
shown on a screen size and browser zoom picked afresh (`--kit` puts every table on that kit's
design instead); every page gets a theme of its kit picked afresh. `--photos` also photographs
each variant of a tune photo's source with the photo's own camera, under another bezel for a
monitor; `--cameras` photographs every desktop variant instead, each with a camera drawn
afresh (distance, tilt, turn, blur, noise, moire, glare, bezel and mount) within the ranges the
corpus's photos span and a little past them.

The folder holds `v<k>/<file>`, its truth files (the corpus's truth keys, read from the DOM as
the corpus's are) and a `manifest.json` that `scripts/fields.py --folder` reads. It is not part
of the corpus: it is drawn from the tune split, so it may be looked at and tuned on like that
split, and it says nothing about the held-out one. Renders a variant cannot draw (a page that
no longer fits its screen, too few items visible) are skipped and named.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from pathlib import Path

from screengen.capture import Entry, json_text
from screengen.seed import load_seed
from uikits.build import photo_entry, render_spec
from uikits.model import Col, UiSpec
from uikits.specs import SPLITS
from webcorpus.browser import RenderError, chromium
from webcorpus.model import Bezel, Mount, Photo, Screen
from webcorpus.render import Rendered

HEADERS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "sku": ("Item #", "Article", "Ref.", "Part no.", "Code", "SKU", "Item code",
                "Product code", "Part number", "Item"),
        "on_hand": ("Qty avail.", "Free stock", "Available", "Balance", "In stock", "On hand",
                    "Stock", "Qty", "Quantity", "Qty on hand", "Current stock", "Units"),
        "reorder": ("Reorder pt.", "Reorder level", "Min qty", "Safety stock", "Threshold",
                    "Min", "Reorder point", "Min. stock", "Minimum", "Reorder at", "Par level"),
        "warehouse": ("Depot", "Site", "Location", "Store", "Warehouse", "WH", "Facility"),
        "name": ("Article", "Name", "Description", "Product", "Item name", "Title"),
    },
    "zh": {
        "sku": ("物料编码", "存货编码", "商品编码", "编码", "货号"),
        "on_hand": ("现存量", "结存", "库存数量", "实际库存", "当前库存"),
        "reorder": ("安全库存", "警戒库存", "最低库存", "补货点", "库存下限"),
        "warehouse": ("仓库", "仓库名称", "所在仓库"),
        "name": ("物料名称", "存货名称", "商品名称", "名称"),
    },
}  # fmt: skip
"""Header words by language and field; more than the corpus's own pages use."""

THEMES: dict[str, tuple[str, ...]] = {
    "bootstrap": ("light", "dark"),
    "bootswatch": ("flatly", "darkly"),
    "tabler": ("light", "dark"),
    "bulma": ("light", "dark"),
    "pico": ("light", "dark"),
    "element-plus": ("light", "dark"),
    "antd": ("light", "dark"),
    "carbon": ("light",),
    "primer": ("light", "dark"),
    "fomantic": ("light", "dark"),
    "uikit": ("light", "dark"),
    "materialize": ("light",),
}
TABLE_DESIGNS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("bootstrap", "admin"), ("bootswatch", "admin"), ("tabler", "admin"), ("bulma", "admin"),
        ("pico", "admin"), ("carbon", "data-table"), ("fomantic", "admin"), ("uikit", "admin"),
        ("materialize", "admin"),
    ),
    "zh": (("element-plus", "erp"), ("antd", "erp")),
}  # fmt: skip
SCREENS = (
    (1280, 800, 1), (1366, 768, 1), (1440, 900, 1), (1536, 864, 1), (1600, 900, 1),
    (1920, 1080, 1), (1920, 1200, 1), (2560, 1440, 2), (2880, 1800, 2),
)  # fmt: skip
ZOOMS = (0.8, 0.9, 1.0, 1.1, 1.25)
SWITCHES = ("narrow", "compact", "striped")
BEZELS: tuple[Bezel, ...] = ("dark", "silver", "none")
DESKTOP = 1024
"""Screens narrower than this (pixels at device ratio 1) are phones, which `--cameras` leaves."""
CAMERA: dict[str, tuple[float, float]] = {
    "fill": (0.7, 0.95), "pitch": (-13.0, 13.0), "yaw": (-24.0, 24.0), "roll": (-9.0, 9.0),
    "blur": (0.8, 1.4), "noise": (2.0, 3.5), "moire": (0.03, 0.1), "glare": (0.08, 0.35),
}  # fmt: skip
"""Ranges a drawn camera's settings are picked from (`--cameras`)."""


def camera(template: Photo, source: str, rng: random.Random) -> Photo:
    """A photo of `source` with every camera setting drawn afresh from `CAMERA`, on a monitor
    with any bezel or on a laptop; the screen fills the frame when there is no bezel."""
    drawn = {name: round(rng.uniform(low, high), 2) for name, (low, high) in CAMERA.items()}
    mount: Mount = "laptop" if rng.random() < 0.25 else "monitor"
    bezel: Bezel = "silver" if mount == "laptop" else rng.choice(BEZELS)
    fill = round(rng.uniform(1.0, 1.04), 2) if bezel == "none" else drawn["fill"]
    stem = Path(source).stem.replace(" ", "-")
    return dataclasses.replace(
        template,
        file=f"photo-{stem}.jpg",
        source=source,
        description=f"Phone photo of {source}, camera drawn by the drill.",
        shift=(0.0, round(rng.uniform(-0.06, 0.03), 2)),
        bezel=bezel,
        mount=mount,
        fill=fill,
        pitch=drawn["pitch"],
        yaw=drawn["yaw"],
        roll=drawn["roll"],
        blur=drawn["blur"],
        noise=drawn["noise"],
        moire=drawn["moire"],
        glare=drawn["glare"],
    )


def _screen(rng: random.Random) -> Screen:
    while True:
        width, height, dpr = rng.choice(SCREENS)
        screen = Screen(width=width, height=height, dpr=dpr, zoom=rng.choice(ZOOMS))
        try:
            screen.viewport  # noqa: B018 - raises when the zoom leaves part of a CSS pixel
        except ValueError:
            continue
        return screen


def variant(spec: UiSpec, rng: random.Random, kit: str | None = None) -> UiSpec:
    """The spec drawn again: another theme, and for a table another kit (or a design of `kit`,
    in either language), column order, header words, switches and screen."""
    if spec.layout == "table":
        words = HEADERS[spec.formats.language]
        designs = TABLE_DESIGNS[spec.formats.language]
        if kit is not None:
            designs = tuple(d for ds in TABLE_DESIGNS.values() for d in ds if d[0] == kit)
        kit, design = rng.choice(designs)
        index = [c for c in spec.columns if c.field == "index"]
        rest = [c for c in spec.columns if c.field != "index"]
        if rng.random() < 0.7:
            rng.shuffle(rest)
        used: set[str] = set()
        columns: list[Col] = []
        for column in index + rest:
            if column.field in words and rng.random() < 0.8:
                header = rng.choice([w for w in words[column.field] if w not in used])
                used.add(header)
                column = dataclasses.replace(column, header=header)
            columns.append(column)
        switches = set(spec.options)
        for switch in SWITCHES:
            if rng.random() < 0.3:
                switches ^= {switch}
        spec = dataclasses.replace(
            spec,
            kit=kit,
            design=design,
            columns=tuple(columns),
            options=tuple(sorted(switches)),
            screen=_screen(rng),
        )
    return dataclasses.replace(spec, theme=rng.choice(THEMES[spec.kit]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", type=int, default=2)
    shots = parser.add_mutually_exclusive_group()
    shots.add_argument("--photos", action="store_true")
    shots.add_argument("--cameras", action="store_true")
    parser.add_argument(
        "--kit",
        choices=sorted({k for designs in TABLE_DESIGNS.values() for k, _ in designs}),
        help="put every table variant on this kit's design",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    renders, photos, _ = SPLITS["tune"]
    seed = load_seed()
    images: list[dict[str, object]] = []
    drawn: dict[tuple[int, str], Rendered] = {}
    screens: dict[tuple[int, str], Screen] = {}
    with chromium() as renderer:
        for spec in renders:
            for k in range(args.variants):
                drawn_spec = variant(spec, rng, args.kit)
                try:
                    rendered = render_spec(drawn_spec, "tune", seed, renderer, args.seed)
                except (RenderError, ValueError) as error:
                    print(f"skipped v{k}/{spec.file} ({drawn_spec.kit}): {error}", flush=True)
                    continue
                drawn[(k, spec.file)] = rendered
                screens[(k, spec.file)] = drawn_spec.screen
                images.append(_write(args.out, k, rendered.entry, None))
        for photo in photos if args.photos else ():
            for (k, file), rendered in drawn.items():
                if file != photo.source:
                    continue
                bezel: Bezel = rng.choice(BEZELS)
                shot = dataclasses.replace(
                    photo, bezel=bezel if photo.mount == "monitor" else photo.bezel
                )
                images += _photographed(args.out, k, shot, rendered, args.seed)
        for (k, file), rendered in drawn.items() if args.cameras else ():
            screen = screens[(k, file)]
            if screen.width / screen.dpr >= DESKTOP:
                shot = camera(photos[0], file, rng)
                images += _photographed(args.out, k, shot, rendered, args.seed)
    manifest = {"seed": args.seed, "variants": args.variants, "images": images}
    (args.out / "manifest.json").write_text(json_text(manifest), encoding="utf-8")
    print(f"{len(images)} images in {args.out}")
    return 0


def _photographed(
    out: Path, k: int, shot: Photo, rendered: Rendered, seed: int
) -> list[dict[str, object]]:
    """The photo of a variant written under `out/v<k>/`, as its manifest line; none (and a
    line said) when the screen does not fit in the photo."""
    try:
        entry = photo_entry(shot, rendered, seed)
    except ValueError as error:
        print(f"skipped v{k}/{shot.file}: {error}", flush=True)
        return []
    return [_write(out, k, entry, shot.source)]


def _write(out: Path, k: int, entry: Entry, photo_of: str | None) -> dict[str, object]:
    """The variant's image and truth under `out/v<k>/`, and its manifest line."""
    folder = out / f"v{k}"
    folder.mkdir(parents=True, exist_ok=True)
    image, truth = entry.write(folder)
    return {
        "file": f"v{k}/{image}",
        "truth": f"v{k}/{truth}",
        "kit": entry.manifest["kit"],
        "photo_of": photo_of,
    }


if __name__ == "__main__":
    sys.exit(main())
