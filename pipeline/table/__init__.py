"""Pure table logic: a page's text boxes in, a typed grid and inventory rows out.

Rules:
- pure: no I/O, no clock, no engine; what a page shows arrives as text boxes with their
  positions, and what comes out is data (`TableLayout`, `MappedRows`, the screen text);
- a column is typed by what its cells hold (`values`), its header only confirms it (`headers`,
  `schema`): codes, barcodes, part numbers or only names key the rows, and quantities are read
  the way the page writes them (`12 pcs`, `8,00`, `1000箱`);
- a reading that is not sure says so (`UNSURE`, `mapping_doubts`) rather than guess a column;
- one place for each kind of page: grids (`layout`, `spans`, `column_gaps`), cards and list
  items (`cards`), HTML tables (`html`), several screenshots merged (`merge`), a person's
  mapping (`profiles`).

Outside code imports from this face only; its names load their module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.faces import lazy_face

if TYPE_CHECKING:
    from pipeline.table.cards import cards_table as cards_table, read_cards as read_cards
    from pipeline.table.cells import (
        clean_text as clean_text,
        quantity_and_unit as quantity_and_unit,
    )
    from pipeline.table.column_gaps import (
        headless_regions as headless_regions,
        split_merged as split_merged,
    )
    from pipeline.table.emphasis import emphasised as emphasised
    from pipeline.table.grid import sheet_chrome as sheet_chrome, strip_icons as strip_icons
    from pipeline.table.headers import (
        FIELDS as FIELDS,
        is_data_row as is_data_row,
        normalise_header as normalise_header,
    )
    from pipeline.table.html import grid_html as grid_html, table_from_html as table_from_html
    from pipeline.table.joined_columns import split_fused as split_fused
    from pipeline.table.layout import (
        TALL_REACH as TALL_REACH,
        TableLayout as TableLayout,
        find_table as find_table,
        structure_region as structure_region,
        table_of_lines as table_of_lines,
    )
    from pipeline.table.merge import merge_results as merge_results
    from pipeline.table.profiles import (
        format_columns as format_columns,
        header_signature as header_signature,
        parse_columns as parse_columns,
        roles_from_mapping as roles_from_mapping,
    )
    from pipeline.table.rows import (
        UNSURE as UNSURE,
        MappedRows as MappedRows,
        estimate_text_tokens as estimate_text_tokens,
        fit_budget as fit_budget,
        keyed_by_name as keyed_by_name,
        mapping_doubts as mapping_doubts,
        screen_text as screen_text,
        to_rows as to_rows,
    )
    from pipeline.table.schema import (
        fits as fits,
        map_columns as map_columns,
        type_columns as type_columns,
    )
    from pipeline.table.textlines import (
        cell_lines as cell_lines,
        reading_order as reading_order,
        union_box as union_box,
        visual_lines as visual_lines,
    )
    from pipeline.table.values import (
        is_code as is_code,
        values_profile as values_profile,
        well_formed as well_formed,
    )
    from pipeline.table.warehouses import (
        page_warehouse as page_warehouse,
        selected_line as selected_line,
        warehouse_ids as warehouse_ids,
        warehouse_label as warehouse_label,
    )
    from pipeline.table.words import known_cells as known_cells

else:
    __getattr__, __dir__, __all__ = lazy_face(__name__)
