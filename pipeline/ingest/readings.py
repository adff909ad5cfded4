"""The rungs of the reading ladder: each reads a page's table its own way (text boxes image
processing finds, the engine's detection, a table-structure model, records in cards)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from pipeline.imaging import (
    TextBoxes,
    faint_extent,
    ink_bounds,
    restore_spaces,
)
from pipeline.ingest.assembly import (
    FEW_LINES,
    box_crop,
    context_texts,
    deepest_header,
    finish,
    in_original,
    line_crop,
    pad,
    recognize_unique,
    said,
    strays,
    to_original,
)
from pipeline.ingest.attempts import CLEARLY_MORE, Attempt, Page
from pipeline.ingest.faded_text import between, faint_cells, faint_fragments_joined, faint_names
from pipeline.models import (
    TextLine,
)
from pipeline.ocr.base import OcrEngine
from pipeline.ocr.structure import TableStructureModel
from pipeline.pixels import Rgb
from pipeline.table import (
    TALL_REACH,
    TableLayout,
    cards_table,
    cell_lines,
    clean_text,
    find_table,
    known_cells,
    page_warehouse,
    read_cards,
    reading_order,
    split_merged,
    structure_region,
    table_from_html,
    table_of_lines,
    to_rows,
    union_box,
)
from pipeline.tiers import Rung

OTHER_TABLES = 2
"""How many more of a page's tables are read where its largest holds no inventory rows."""


class Reader:
    """The rungs over one engine (and table-structure model, when there is one)."""

    def __init__(self, engine: OcrEngine, structure: TableStructureModel | None) -> None:
        self.engine = engine
        self.structure = structure

    def climb(self, rung: Rung, page: Page) -> Attempt:
        if rung.method == "image":
            return Attempt(rung)
        if rung.method == "lines":
            return self._by_lines(rung, page)
        if rung.method == "structure":
            return self._by_structure(rung, page)
        if rung.method == "cards":
            return self._by_cards(rung, page)
        return self._by_detection(rung, page)

    def _by_cards(self, rung: Rung, page: Page) -> Attempt:
        """Records in blocks (cards, tiles, list items) read from the page's text lines."""
        norm = page.norm
        lines = self.detect(page, whole=True) if norm.photographed else self.page_lines(page)
        found = read_cards(lines, norm.gray)
        if found is None:
            return Attempt(rung, reasons=("no records in cards or a list",))
        table, confidences, roles = cards_table(found)
        if norm.photographed:
            table = table.model_copy(update={"cells": known_cells(table.cells)})
        mapped = to_rows(
            table,
            confidences,
            default_warehouse=page_warehouse(found.context),
            roles=roles,
        )
        table = table.model_copy(update={"columns": mapped.columns()})
        annotations = in_original(lines, norm)
        return Attempt(
            rung,
            table=table,
            confidences=confidences,
            mapped=mapped,
            context=found.context[:8],
            crop=to_original(found.box, norm),
            annotations=annotations,
            region=found.box,
            layout=found.layout,
        )

    def _by_lines(self, rung: Rung, page: Page) -> Attempt:
        """Clean render: image processing finds the cells, the engine only recognises them.
        The page's largest table holding no inventory rows, the next largest are read, and
        the first that holds them is taken (a search form, or a plan under the stock list,
        can be the larger grid); then the tables whose rows are taller than text (a thumbnail
        in each)."""
        found = page.boxes()
        layout = find_table(found.boxes, found.text_height, page.norm.gray)
        if layout is None:
            return Attempt(rung, reasons=("no table found",))
        first = self._read_layout(rung, page, found, layout)
        if first.mapped.rows:
            return first
        for rank in range(1, OTHER_TABLES + 1):
            other = find_table(found.boxes, found.text_height, page.norm.gray, rank)
            if other is None:
                break
            attempt = self._read_layout(rung, page, found, other)
            if attempt.mapped.rows:
                return attempt
        # Rows taller than a line of text allows for (a thumbnail in each): their columns are
        # found when a column's boxes may stand further apart.
        for rank in range(OTHER_TABLES + 1):
            tall = find_table(
                found.boxes, found.text_height, page.norm.gray, rank, reach=TALL_REACH
            )
            if tall is None:
                break
            if tall.box == layout.box:
                continue
            attempt = self._read_layout(rung, page, found, tall)
            if attempt.mapped.rows:
                return attempt
        return first

    def _read_layout(
        self, rung: Rung, page: Page, found: TextBoxes, layout: TableLayout
    ) -> Attempt:
        norm = page.norm
        split = split_merged(
            found.boxes, found.mask, layout.grid, layout.columns, found.text_height
        )
        if split is not None and (again := find_table(split, found.text_height, norm.gray)):
            found, layout = replace(found, boxes=split), again
        if norm.photographed:
            found, layout = faint_names(found, layout, norm.gray)
            layout = faint_fragments_joined(found, layout, norm.gray)
            found, layout = faint_cells(found, layout, norm.gray)
        cells = layout.grid
        crops: list[Rgb] = []
        slots: list[tuple[int, int]] = []
        firsts: list[int] = []
        for r, row in enumerate(cells):
            for c, members in enumerate(row):
                # A cell written on two lines (a header's `Auf` over `Lager`) is read line by
                # line: the recogniser reads one line of text at a time.
                for part in cell_lines(found.boxes, members, found.text_height):
                    tight = ink_bounds(found.mask, union_box([found.boxes[i] for i in part]))
                    if tight is None:
                        continue
                    if norm.photographed:
                        # A blurred or washed-out name's last glyphs can fall below the ink.
                        reach = between(layout.columns, c, found.text_height)
                        tight = faint_extent(norm.gray, tight, reach, found.text_height)
                    crops.append(line_crop(norm.rgb, tight, found.text_height))
                    slots.append((r, c))
                    firsts.append(part[0])
        context_boxes = [union_box([found.boxes[i] for i in p]) for p in layout.context]
        # Each box of a context phrase is read on its own (two filter chips side by side read
        # as one crop come out as neither), the phrase joined from them.
        members = [i for p in layout.context for i in p]
        context_crops = [
            line_crop(
                norm.rgb,
                ink_bounds(found.mask, found.boxes[i]) or found.boxes[i],
                found.text_height,
            )
            for i in members
        ]
        # Apart from the cells: the recogniser batches crops of like shape, so what the page
        # has above its table does not change how a cell reads.
        photo = norm.photographed
        recognised = recognize_unique(self.engine, crops, page.memo, photo=photo)
        above = recognize_unique(self.engine, context_crops, page.memo, photo=photo)
        read = dict(zip(members, (t for t, _ in above), strict=True))
        phrases = [" ".join(read[i] for i in p if read[i].strip()) for p in layout.context]
        texts = [["" for _ in layout.columns] for _ in cells]
        confs = [[1.0 for _ in layout.columns] for _ in cells]
        seen: set[tuple[int, int]] = set()
        for (r, c), (text, conf), crop in zip(slots, recognised, crops, strict=False):
            said_text = clean_text(restore_spaces(text, crop, photo=norm.photographed))
            if (r, c) in seen:
                texts[r][c] = " ".join(t for t in (texts[r][c], said_text) if t)
                confs[r][c] = min(confs[r][c], conf)
            else:
                texts[r][c], confs[r][c] = said_text, conf
                seen.add((r, c))
        context = context_texts(context_boxes, phrases)
        annotations = [
            TextLine(text=t, box=to_original(pad(found.boxes[i], 0), norm), confidence=c)
            for i, (t, c) in zip(firsts, recognised, strict=False)
        ]
        return finish(rung, texts, confs, context, layout.box, norm, annotations, strays(layout))

    def detect(self, page: Page, *, whole: bool = False) -> list[TextLine]:
        """Every text line the engine detects on the page (or, on a render, on the table
        region image processing finds, unless `whole` or the region holds almost no text),
        boxes in working pixels; run once per analysis and kind."""
        if whole:
            if page.detected_whole is None:
                page.detected_whole = [
                    line for line in self.engine.read(page.norm.rgb) if line.text.strip()
                ]
            return page.detected_whole
        if page.detected is not None:
            return page.detected
        norm = page.norm
        if norm.photographed:
            # A photo's own text boxes are its weak part: the region they make a table of can
            # miss a faint column or be a keyboard's keys. The engine reads the whole page.
            page.detected = self.detect(page, whole=True)
            return page.detected
        found = page.boxes()
        coarse = find_table(found.boxes, found.text_height, norm.gray)
        height, width = norm.gray.shape
        offset = (0, 0)
        region = norm.rgb
        if coarse is not None:
            margin = round(found.text_height * 4)
            x0, y0, x1, y1 = structure_region(coarse, found.boxes, found.text_height)
            x0, y0 = max(0, x0 - margin), max(0, y0 - margin * 3)
            x1, y1 = min(width, x1 + margin), min(height, y1 + margin)
            region = norm.rgb[y0:y1, x0:x1]
            offset = (x0, y0)
        page.detected = [
            TextLine(
                text=line.text,
                box=(
                    line.box[0] + offset[0],
                    line.box[1] + offset[1],
                    line.box[2] + offset[0],
                    line.box[3] + offset[1],
                ),
                confidence=line.confidence,
            )
            for line in self.engine.read(region)
            if line.text.strip()
        ]
        if coarse is None:
            page.detected_whole = page.detected
        elif len(page.detected) < FEW_LINES:
            # The region image processing took for a table holds no text the engine sees
            # (a grid of tiles or icons): the table is elsewhere on the page.
            page.detected = self.detect(page, whole=True)
        return page.detected

    def _by_detection(self, rung: Rung, page: Page) -> Attempt:
        """Photo or clutter: the engine detects text lines; the grid is rebuilt from their boxes."""
        norm = page.norm
        lines = self.detect(page)
        if not lines:
            return Attempt(rung, reasons=("no text detected",))
        boxes, _, layout = table_of_lines(lines, norm.gray)
        if layout is None:
            return Attempt(rung, reasons=("no table among the detected text",))
        cells = layout.grid
        texts = [
            [
                " ".join(
                    clean_text(
                        restore_spaces(
                            lines[i].text,
                            box_crop(norm.rgb, lines[i].box),
                            photo=norm.photographed,
                        )
                    )
                    for i in members
                )
                for members in row
            ]
            for row in cells
        ]
        confs = [
            [min((lines[i].confidence for i in members), default=1.0) for members in row]
            for row in cells
        ]
        context = context_texts(
            [union_box([boxes[i] for i in p]) for p in layout.context],
            [" ".join(lines[i].text for i in p) for p in layout.context],
        )
        annotations = in_original(lines, norm)
        return finish(rung, texts, confs, context, layout.box, norm, annotations, strays(layout))

    def page_lines(self, page: Page) -> list[TextLine]:
        """The page's text lines with their texts, in working pixels: on a rectified photo the
        ones the engine detects, else the text boxes image processing found (lone dashes and
        dense columns included), recognised."""
        if page.norm.photographed:
            # A photo's own text boxes are its weak part: the engine's detection reads it.
            return self.detect(page)
        found = page.boxes()
        crops = [
            line_crop(page.norm.rgb, ink_bounds(found.mask, b) or b, found.text_height)
            for b in found.boxes
        ]
        recognised = recognize_unique(self.engine, crops, page.memo)
        return [
            TextLine(
                text=clean_text(restore_spaces(t, crop)), box=b, confidence=max(0.0, min(1.0, c))
            )
            for b, (t, c), crop in zip(found.boxes, recognised, crops, strict=True)
            if t.strip()
        ]

    def page_text(self, page: Page) -> list[str]:
        """What the page says, line by line in reading order (for a page without a table, and
        beside the image of a full-page send). Where a rung already had the engine detect the
        whole page, its lines are kept unless image processing's text boxes read clearly more
        (a fifth more text): those boxes are made for UI text and cut large lettering into
        strokes and pieces (a 120 px `我是中国人` read as `玉` and `1`, a banner's `仓库WH-02`
        as `仓`, `库W`, `L`, `H`), the engine's detection finds words whatever their size."""
        boxes = self.page_lines(page)
        detected = page.detected_whole
        if detected is not None and said(detected) * CLEARLY_MORE >= said(boxes):
            return reading_order(detected)
        return reading_order(boxes)

    def _by_structure(self, rung: Rung, page: Page) -> Attempt:
        """A table-structure model reads rows, columns and merged cells from the table's pixels;
        the text comes from the same boxes the other rungs read."""
        if self.structure is None:
            return Attempt(rung, reasons=("no table-structure model",))
        norm = page.norm
        lines = self.page_lines(page)
        if not lines:
            return Attempt(rung, reasons=("no text found",))
        boxes, text_height, layout = table_of_lines(lines, norm.gray)
        if layout is None:
            return Attempt(rung, reasons=("no table found",))
        height, width = norm.gray.shape
        x0, y0, x1, y1 = structure_region(layout, boxes, text_height)
        pad = round(text_height)
        x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
        x1, y1 = min(width, x1 + pad), min(height, y1 + pad)
        inside = [
            TextLine(
                text=line.text,
                box=(line.box[0] - x0, line.box[1] - y0, line.box[2] - x0, line.box[3] - y0),
                confidence=line.confidence,
            )
            for line in lines
            if line.box[0] >= x0 and line.box[1] >= y0 and line.box[2] <= x1 and line.box[3] <= y1
        ]
        html = self.structure.structure(np.ascontiguousarray(norm.rgb[y0:y1, x0:x1]), inside)
        table = table_from_html(html)
        if not table.cells:
            return Attempt(rung, reasons=("the structure model found no table",))
        mean = sum(line.confidence for line in inside) / len(inside)
        texts = deepest_header([table.header, *table.cells])
        confs = [[mean for _ in row] for row in texts]
        region_box = (x0, y0, x1, y1)
        context = context_over(lines, layout, y0)
        annotations = in_original((line for line in lines if line.box[3] > y0), norm)
        return finish(rung, texts, confs, context, region_box, norm, annotations, (), table.html)


def context_over(lines: Sequence[TextLine], layout: TableLayout, region_top: int) -> list[str]:
    """The page's text over a table the structure model reads (the nearest 8): every line above
    the header found, not only above the model's region, since a filter bar the region takes
    in as a group header over the columns holds the page's warehouse chip."""
    head = [lines[i].box[1] for cell in layout.header for i in cell]
    top = max(region_top, min(head, default=region_top))
    over = [line for line in lines if line.box[3] <= top]
    return context_texts([line.box for line in over], [line.text for line in over])[-8:]
