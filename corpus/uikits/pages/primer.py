"""Primer pages (GitHub's CSS): an `UnderlineNav` of warehouses, a `subnav` of filters and a
`Box` list of items, one `Box-row` each (the issue-list layout), with a `Label` for low stock."""

from __future__ import annotations

from .base import Badge, Body, Ctx, icon

BADGE = Badge(' <span class="Label {kind}"{attrs}>{text}</span>', "Label--danger", "Label--success")

WAREHOUSES = ("WH-01", "WH-02", "WH-03")
CURRENT = ' aria-current="page"'
NONE = ""
CUE = " data-cue"


def _root(ctx: Ctx) -> str:
    if ctx.spec.theme == "dark":
        return ' data-color-mode="dark" data-dark-theme="dark" data-light-theme="light"'
    return ' data-color-mode="light" data-light-theme="light" data-dark-theme="dark"'


def item_list(ctx: Ctx) -> Body:
    wh = ctx.spec.page_warehouse or ""
    tabs = "".join(
        f'<a class="UnderlineNav-item" href="#"{CURRENT if w == wh else NONE}>'
        f'{icon("box", 16)}<span class="ml-1"{CUE if w == wh else NONE}>{w}</span></a>'
        for w in WAREHOUSES
    )
    rows = []
    for c in ctx.cards(BADGE):
        rows.append(
            f'<div class="Box-row d-flex flex-items-center"{c.box}>'
            f'<span class="color-fg-muted mr-3">{icon("box", 16)}</span>'
            '<div class="flex-auto">'
            f'<a href="#" class="Link--primary text-bold"{c.title_attrs}>{c.title}</a>{c.badge}'
            f'<div class="text-small color-fg-muted mt-1"><span{c.code_attrs}>{c.code}</span> · '
            f"{c.meta_line}</div></div>"
            '<span class="color-fg-muted">'
            f"{icon('more', 16)}</span></div>"
        )
    heading = ctx.heading(" · ")
    html = (
        '<div class="Header"><div class="Header-item"><a href="#" class="Header-link f4 d-flex '
        f'flex-items-center">{icon("box", 24)}<span class="ml-2">StockShot</span></a></div>'
        '<div class="Header-item Header-item--full"><input class="form-control input-dark '
        'input-sm" placeholder="Search or jump to…" style="width:280px"></div>'
        '<div class="Header-item mr-0"><span class="avatar avatar-small circle '
        'color-bg-subtle d-inline-block" style="width:20px;height:20px"></span></div></div>'
        '<div class="container-lg px-3 py-3">'
        f'<h1 class="h3 mb-2">{heading}</h1>'
        '<nav class="UnderlineNav mb-3" aria-label="Warehouses"><div class="UnderlineNav-body">'
        f"{tabs}"
        "</div></nav>"
        '<div class="d-flex mb-3"><nav class="subnav-links"><a class="subnav-item" href="#" '
        'aria-current="page">All items</a><a class="subnav-item" href="#">Below minimum</a>'
        '<a class="subnav-item" href="#">On order</a></nav>'
        '<input class="form-control subnav-search-input input-contrast ml-3" '
        'placeholder="Filter items" style="width:260px">'
        '<button class="btn btn-primary ml-auto" type="button">New item</button></div>'
        f'<div class="Box{" Box--condensed" if ctx.has("compact") else ""}">'
        '<div class="Box-header d-flex flex-items-center">'
        f'<span class="text-bold">{ctx.n} items</span><span class="ml-auto color-fg-muted">'
        f"Sort: Name {icon('chevron-down', 12)}</span></div>"
        f"{''.join(rows)}</div></div>"
    )
    return Body(html, html_attrs=_root(ctx), body_attrs=' class="color-bg-default"')
