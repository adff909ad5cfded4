"""Carbon (v10) pages: the UI shell (`bx--header`, a fixed `bx--side-nav`), breadcrumb, filter
tags, and either a `bx--data-table` with its toolbar and pagination or a `bx--structured-list`
(a table drawn with `div`s)."""

from __future__ import annotations

from html import escape

from .base import Badge, Body, Ctx, esc, icon, on

TAG = Badge(
    '<div class="bx--tag bx--tag--{kind}"><span class="bx--tag__label"{attrs}>{text}</span></div>',
    "red",
    "green",
)

CSS = """
.bx--content{margin-left:256px;padding:64px 32px 0;height:100vh;overflow:hidden;
  background:#f4f4f4}
.bx--side-nav{top:48px}
.bx--side-nav__link svg{margin-right:12px}
td.num,th.num .bx--table-header-label{text-align:right}
th.num{text-align:right}
.title{font-size:28px;font-weight:400;margin:8px 0 16px}
.filters{display:flex;gap:4px;margin-bottom:12px}
.bx--structured-list{background:#fff;margin-bottom:0}
.bx--structured-list-td.num,.bx--structured-list-th.num{text-align:right}
"""


def _shell(ctx: Ctx) -> str:
    items = "".join(
        f'<li class="bx--side-nav__item"><a class="bx--side-nav__link'
        f'{on(label, " bx--side-nav__link--current")}" href="#">'
        f'{icon(name, 16)}<span class="bx--side-nav__link-text">{esc(label)}</span></a></li>'
        for name, label in ctx.nav()
    )
    return (
        '<header class="bx--header" aria-label="StockShot"><a class="bx--header__name" href="#">'
        '<span class="bx--header__name--prefix">StockShot</span>&nbsp;[Inventory]</a>'
        '<nav class="bx--header__nav" aria-label="StockShot"><ul class="bx--header__menu-bar">'
        '<li><a class="bx--header__menu-item" href="#"><span class="bx--text-truncate--end">'
        'Catalog</span></a></li><li><a class="bx--header__menu-item" href="#">'
        '<span class="bx--text-truncate--end">Warehouses</span></a></li></ul></nav></header>'
        '<nav class="bx--side-nav bx--side-nav--expanded bx--side-nav--ux" aria-label="Side">'
        f'<ul class="bx--side-nav__items">{items}</ul></nav>'
    )


def _top(ctx: Ctx) -> tuple[str, str]:
    wh = ctx.cue_text()
    cue = ctx.spec.cue
    crumbs = ["Home", "Inventory"] + ([wh] if cue == "breadcrumb" else [])
    crumb = "".join(
        f'<div class="bx--breadcrumb-item"><a href="#" class="bx--link">{c}</a></div>'
        for c in crumbs
    )
    title = ctx.heading(": ")
    tags = ctx.if_cue(
        "chip",
        '<div class="bx--tag bx--tag--filter bx--tag--blue"><span class="bx--tag__label">'
        f'{ctx.chip_text()}</span><button class="bx--tag__close-icon" '
        'aria-label="Clear">×</button></div>',
    )
    tags += (
        '<div class="bx--tag bx--tag--gray"><span class="bx--tag__label">Active items</span></div>'
    )
    head = (
        f'<nav class="bx--breadcrumb" aria-label="breadcrumb">{crumb}</nav>'
        f'<h1 class="title">{title}</h1><div class="filters">{tags}</div>'
    )
    return head, title


def data_table(ctx: Ctx) -> Body:
    head, _ = _top(ctx)
    markup = ctx.table(
        classes="bx--data-table bx--data-table--zebra"
        + (
            " bx--data-table--compact"
            if ctx.has("narrow")
            else " bx--data-table--short"
            if ctx.has("compact")
            else ""
        ),
        numeric="num",
        th_inner=lambda c: (
            f'<div class="bx--table-header-label">{escape(ctx.grid.header[c])}</div>'
        ),
        td_inner=lambda r, c: ctx.marked(r, c, TAG),
    )
    total = ctx.n + 42
    html = (
        f'{_shell(ctx)}<main class="bx--content" data-scroll>{head}'
        '<div class="bx--data-table-container"><div class="bx--data-table-header">'
        '<h4 class="bx--data-table-header__title">Stock on hand</h4>'
        '<p class="bx--data-table-header__description">Quantities as of the last sync</p></div>'
        '<section class="bx--table-toolbar"><div class="bx--toolbar-content">'
        '<div class="bx--search bx--search--sm" role="search"><div class="bx--search-magnifier">'
        f'{icon("search", 16)}</div><input class="bx--search-input" placeholder="Search"></div>'
        '<button class="bx--btn bx--btn--ghost bx--btn--sm">Export</button>'
        '<button class="bx--btn bx--btn--primary bx--btn--sm">Add item</button></div></section>'
        f"{markup}"
        '<div class="bx--pagination"><div class="bx--pagination__left">'
        '<span class="bx--pagination__text">Items per page: 20</span>'
        f'<span class="bx--pagination__text">{ctx.count_text(total)} items</span></div>'
        '<div class="bx--pagination__right"><span class="bx--pagination__text">1 of 3 pages</span>'
        '<button class="bx--pagination__button bx--pagination__button--backward">'
        f"{icon('chevron-left', 16)}</button>"
        '<button class="bx--pagination__button bx--pagination__button--forward">'
        f"{icon('chevron-right', 16)}</button>"
        "</div></div></div></main>"
    )
    return Body(html, css=CSS)


def structured(ctx: Ctx) -> Body:
    head, _ = _top(ctx)

    def cls(c: int) -> str:
        return " num" if ctx.numeric(c) else ""

    heads = "".join(
        f'<div class="bx--structured-list-th{cls(c)}"{ctx.head(c)}>'
        f"{escape(ctx.grid.header[c])}</div>"
        for c in range(len(ctx.grid.columns))
    )
    rows = "".join(
        '<div class="bx--structured-list-row">'
        + "".join(
            f'<div class="bx--structured-list-td{cls(c)}"{ctx.cell(r, c)}>'
            f"{ctx.marked(r, c, TAG)}</div>"
            for c in range(len(ctx.grid.columns))
        )
        + "</div>"
        for r in range(ctx.n)
    )
    html = (
        f'{_shell(ctx)}<main class="bx--content" data-scroll>{head}'
        '<section class="bx--structured-list bx--structured-list--condensed">'
        '<div class="bx--structured-list-thead"><div class="bx--structured-list-row '
        f'bx--structured-list-row--header-row">{heads}</div></div>'
        f'<div class="bx--structured-list-tbody">{rows}</div></section></main>'
    )
    return Body(html, css=CSS)
