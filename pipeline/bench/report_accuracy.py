"""The bench report's sections on what was read: tables side by side with the other tools
(fields, cells, TEDS, by corpus, kit and layout) and text by content."""

from __future__ import annotations

from pipeline.bench.document import BenchDoc, RealScreensDoc
from pipeline.bench.peers import breakdown
from pipeline.bench.report_cells import fraction, md_table, median_cell
from pipeline.bench.sets import HELD_OUT

__all__ = [
    "real_products_section",
    "real_screens_section",
    "tables_section",
    "texts_section",
]

_TOOL_LABELS = {
    "stockshot": "this pipeline (`table_ocr`, ladder with the structure rung)",
    "rapidocr+rows": "full-page `RapidOCR()` (its defaults), lines grouped into rows",
    "rapidocr+rows@threads": "the same with only our thread settings (no spinning)",
    "rapid_table": "RapidTable (SLANet-plus) alone, on the whole page with RapidOCR's lines",
    "rapid_table@our-crop": "RapidTable on the region this pipeline cropped (the page where "
    "it cropped none)",
    "rapid_table@truth-box": "RapidTable on the truth's table box (renders only)",
    "img2table": "img2table (OpenCV) with the same RapidOCR engine",
}


def _teds(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def tables_section(doc: BenchDoc) -> list[str]:
    tables = doc.get("tables")
    out = ["## Tables side by side", ""]
    if not tables:
        return [*out, "Not measured."]
    tools = tables["tools"]
    out += [
        f"Every tool on every image set, {tables['rounds']} timed reads per image after one "
        "warm-up read per tool; accuracy from the last read. Cells: exact match with the "
        "truth's header and cells. Fields: the tool's grid mapped onto the inventory schema by "
        "the same code, against the truth rows. TEDS: tree-edit-distance similarity of the "
        "table HTML with the truth's (its merged cells where it has them), mean per image. "
        "Times: median over the set of each image's median.",
        "",
        "Tools: " + "; ".join(f"`{k}`: {_TOOL_LABELS.get(k, k)}" for k in tools) + ".",
        "",
    ]
    rows: list[list[object]] = []
    for table_set in tables["sets"]:
        label = f"{table_set['label']} ({len(table_set['images'])} images)"
        for key in tools:
            total = table_set["totals"].get(key, {})
            if not total.get("images"):
                continue
            rows.append(
                [
                    label,
                    key,
                    total["images"],
                    fraction(total.get("cells")),
                    fraction(total.get("fields")),
                    _teds(total.get("teds")),
                    median_cell({"median": ms, "min": 0, "max": 0, "n": 1})
                    if (ms := total.get("median_ms")) is not None
                    else "–",
                ]
            )
            label = ""
    out += md_table(["set", "tool", "images read", "cells", "fields", "TEDS", "ms"], rows)
    out += [
        "",
        "Where this pipeline's time goes, per rung of its ladder (from the last read of each "
        "image; a rung that ran but was not kept is the cost of its doubt):",
        "",
    ]
    rung_rows = []
    for table_set in tables["sets"]:
        for rung, cost in table_set["totals"].get("rungs", {}).items():
            rung_rows.append(
                [
                    table_set["label"],
                    rung,
                    cost["ran"],
                    cost["kept"]
                    if rung in ("lines", "cards", "structure", "detect", "image")
                    else "",
                    f"{cost['median_ms']:.0f} ms",
                ]
            )
    out += md_table(["set", "step", "ran on", "kept on", "median"], rung_rows)
    for table_set in tables["sets"]:
        if not table_set["key"].startswith("uikits"):
            continue
        parts = breakdown(table_set)
        empty = (
            str(len(parts["no_rows"]))
            if table_set["key"] in HELD_OUT
            else ", ".join(parts["no_rows"]) or "none"
        )
        out += [
            "",
            f"{table_set['label']}: inventory fields right (this pipeline) by kit and by layout; "
            f"screens with no row read: {empty}.",
            "",
        ]
        out += md_table(
            ["kit or layout", "fields"],
            [
                [name, fraction(pair)]
                for name, pair in [*parts["by_kit"].items(), *sorted(parts["by_layout"].items())]
            ],
        )
    for table_set in tables["sets"]:
        out += ["", f"### {table_set['label']}", ""]
        if table_set["key"] in HELD_OUT:
            out.append(
                f"{len(table_set['images'])} images; per-image figures of a held-out split are "
                "not listed (the totals and the per-kit table above are)."
            )
            continue
        header = ["image", "size"]
        for key in tools:
            header += [f"{key} cells", f"{key} TEDS", f"{key} ms"]
        rows = []
        for image in table_set["images"]:
            row: list[object] = [image["name"], image["size"]]
            for key in tools:
                found = image["tools"].get(key, {})
                ms = found.get("median_ms")
                row += [
                    fraction(found.get("cells")),
                    _teds(found.get("teds")),
                    "–" if ms is None else f"{ms:.0f}",
                ]
            rows.append(row)
        out += md_table(header, rows)
    for failed, error in tables["errors"].items():
        out.append(f"\n- `{failed}`: {error}")
    return out


def texts_section(doc: BenchDoc) -> list[str]:
    texts = doc.get("texts") or {}
    out = ["## Text by content", ""]
    if not texts.get("images"):
        return [*out, texts.get("error", "Not measured.")]
    out += [
        "Images of known text (large CJK and Latin lettering on transparent PNGs in white and "
        "black, after RapidOCR's own test files; half-transparent text; a banner on a dark "
        "background; a line of small text), drawn here with the Debian fonts. Each is read by "
        "this pipeline (`auto`, the page's text lines) and by plain `RapidOCR()`; CER is the "
        "edit distance over the characters drawn, whitespace aside. RapidOCR's original "
        "files are not on this machine, so these are look-alikes, not those images.",
        "",
    ]
    rows = [
        [
            image["name"],
            image["text"],
            image["tools"]["stockshot"]["read"],
            f"{image['tools']['stockshot']['cer']:.3f}",
            image["tools"]["rapidocr"]["read"],
            f"{image['tools']['rapidocr']['cer']:.3f}",
        ]
        for image in texts["images"]
    ]
    out += md_table(["image", "drawn", "stockshot read", "CER", "`RapidOCR()` read", "CER"], rows)
    out += [f"\n- not drawn: {why}" for why in texts.get("not_drawn", [])]
    return out


def _share(right: int, total: int) -> str:
    return f"{right}/{total} ({100.0 * right / total:.1f}%)" if total else "–"


def real_screens_section(doc: BenchDoc) -> list[str]:
    """Real products' screens: each split's total, then by product and by layout; the tuning
    split's images one by one (the sealed split's never)."""
    out = ["## Real products' screens", ""]
    real = doc.get("real_screens")
    if real is None:
        return [*out, "Not measured (no `--real-screens` folder)."]
    if "splits" not in real:
        return [*out, f"Not measured: {real.get('error', 'no engine')}."]
    out += [
        f"Screenshots of real inventory products with truth written by hand ({real['folder']}), "
        f"split by product in `{real['split_file']}`; each ingested once as `stockshot ingest` "
        "does, scored by the folder's own scorer's rules on the fields each screen shows. The "
        "sealed split is reported by product and layout only.",
        "",
    ]
    return out + _real_splits(real)


def real_products_section(doc: BenchDoc) -> list[str]:
    """Real products' own screens rendered here, reported as the real screens are."""
    out = ["## Real products rendered here", ""]
    real = doc.get("real_products")
    if real is None:
        return [*out, "Not measured (no `--real-products` folder)."]
    if "splits" not in real:
        return [*out, f"Not measured: {real.get('error', 'no engine')}."]
    out += [
        f"Real products installed and run here, their own pages screenshotted with Chromium and "
        f"their truth read back from their own databases ({real['folder']}), split by page "
        f"kind in `{real['split_file']}`; scored by the real screens' scorer. The sealed split "
        "is reported by product and layout only.",
        "",
    ]
    return out + _real_splits(real)


def _real_splits(real: RealScreensDoc) -> list[str]:
    out: list[str] = []
    speed = real.get("speed")
    if speed is not None and speed["ours_vs_plain"] is not None:
        out += [
            f"Speed, warm, over {speed['screens']} ({speed['images']} screens): ingest median "
            f"{speed['ours_median_s']:.2f} s, a plain `RapidOCR()` reading each screen whole "
            f"{speed['plain_median_s']:.2f} s: **{speed['ours_vs_plain']:.2f}x** the peer's time.",
            "",
        ]
    headers = ["", "images", "fields right", "rows found", "images with no rows", "median s"]
    for side, split in real["splits"].items():
        total = split["total"]
        if not total["images"]:
            continue
        out += [f"### {side.capitalize()} split", ""]
        for title, groups in (
            ("total", [total]),
            ("by product", split["products"]),
            ("by layout", split["layouts"]),
            ("by image", split["images"]),
        ):
            if not groups:
                continue
            rows = [
                [
                    g["name"] if title != "total" else f"**{side}**",
                    g["images"],
                    _share(g["fields_right"], g["fields"]),
                    _share(g["rows_found"], g["rows"]),
                    g["images_with_no_rows"],
                    f"{g['median_s']:.1f}",
                ]
                for g in groups
            ]
            out += [f"{title.capitalize()}:", "", *md_table([title, *headers[1:]], rows), ""]
    return out
