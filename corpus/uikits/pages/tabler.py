"""Tabler pages: the dashboard's vertical navbar with a `card-table datatable`, and a tile view of
`card-sm` cards in a `row-cards` grid."""

from __future__ import annotations

from .base import Badge, Body, Ctx, esc, icon, on

BADGE = Badge('<span class="badge bg-{kind}-lt"{attrs}>{text}</span>', "red", "green")


def _root(ctx: Ctx) -> str:
    return ' data-bs-theme="dark"' if ctx.spec.theme == "dark" else ""


def _sidebar(ctx: Ctx) -> str:
    items = "".join(
        f'<li class="nav-item{on(label, " active")}"><a class="nav-link" href="#">'
        f'<span class="nav-link-icon d-md-none d-lg-inline-block">{icon(name, 20)}</span>'
        f'<span class="nav-link-title">{esc(label)}</span></a></li>'
        for name, label in ctx.nav()
    )
    return (
        '<aside class="navbar navbar-vertical navbar-expand-lg" data-bs-theme="dark">'
        '<div class="container-fluid"><h1 class="navbar-brand navbar-brand-autodark">'
        f'<a href="#" class="text-reset">{icon("box", 28)} StockShot</a></h1>'
        '<div class="collapse navbar-collapse show" id="sidebar-menu">'
        f'<ul class="navbar-nav pt-lg-3">{items}</ul></div></div></aside>'
    )


def _header(ctx: Ctx, pretitle: str) -> str:
    title = ctx.heading(" · ")
    pre = pretitle + ctx.if_cue("breadcrumb", f" / {ctx.cue_text()}")
    return (
        '<div class="page-header d-print-none"><div class="container-xl">'
        '<div class="row g-2 align-items-center"><div class="col">'
        f'<div class="page-pretitle">{pre}</div><h2 class="page-title">{title}</h2></div>'
        '<div class="col-auto ms-auto"><div class="btn-list">'
        f'<a href="#" class="btn">{icon("download", 18)} Export</a>'
        f'<a href="#" class="btn btn-primary">{icon("plus", 18)} New item</a>'
        "</div></div></div></div></div>"
    )


def _chip(ctx: Ctx) -> str:
    return ctx.if_cue(
        "chip",
        f'<span class="badge bg-blue-lt me-2">{ctx.chip_text()} ×</span>',
    )


WRAPS = {
    "sku": '<span class="text-secondary">{text}</span>',
    "name": '<a href="#" class="text-reset" tabindex="-1">{text}</a>',
}


def admin(ctx: Ctx) -> Body:
    markup = ctx.table(
        classes="table card-table table-vcenter text-nowrap datatable"
        + (" table-sm" if ctx.has("narrow") else ""),
        numeric="text-end",
        td_inner=lambda r, c: ctx.marked(r, c, BADGE, WRAPS),
        lead_head='<th class="w-1"><input class="form-check-input m-0 align-middle" '
        'type="checkbox"></th>',
        lead_cell=lambda r: (
            '<td><input class="form-check-input m-0 align-middle" '
            f'type="checkbox"{" checked" if ctx.has("selected") and r in (1, 2) else ""}></td>'
        ),
    )
    first = ctx.spec.first_index
    pages = "".join(
        f'<li class="page-item{" active" if p == 2 else ""}"><a class="page-link" href="#">{p}</a>'
        "</li>"
        for p in (1, 2, 3, 4)
    )
    html = (
        f'<div class="page">{_sidebar(ctx)}<div class="page-wrapper">'
        f"{_header(ctx, 'Inventory')}"
        '<div class="page-body"><div class="container-xl"><div class="card">'
        '<div class="card-header"><h3 class="card-title">Items</h3></div>'
        '<div class="card-body border-bottom py-3"><div class="d-flex align-items-center">'
        f'{_chip(ctx)}<div class="text-secondary">Show <div class="mx-2 d-inline-block">'
        '<input type="text" class="form-control form-control-sm" value="20" size="3"></div>'
        'entries</div><div class="ms-auto text-secondary">Search: <div class="ms-2 '
        'd-inline-block"><input type="text" class="form-control form-control-sm"></div>'
        "</div></div></div>"
        f'<div class="table-responsive">{markup}</div>'
        '<div class="card-footer d-flex align-items-center">'
        f'<p class="m-0 text-secondary">Showing <span>{first}</span> to '
        f"<span>{first + ctx.n - 1}</span> of <span>{first + ctx.n + 31}</span> entries</p>"
        f'<ul class="pagination m-0 ms-auto">{pages}</ul></div>'
        "</div></div></div></div></div>"
    )
    return Body(html, html_attrs=_root(ctx))


def tiles(ctx: Ctx) -> Body:
    cards = []
    for c in ctx.cards(BADGE):
        color = "red" if ctx.low(c.r) else "green"
        meta = "".join(f'<div class="text-secondary">{p}</div>' for p in c.meta)
        cards.append(
            f'<div class="col-sm-6 col-lg-3"><div class="card card-sm"{c.box}>'
            '<div class="card-body"><div class="row align-items-center">'
            f'<div class="col-auto"><span class="bg-{color} text-white avatar">'
            f'{icon("box", 20)}</span></div><div class="col">'
            f'<div class="font-weight-medium"{c.title_attrs}>{c.title}</div>'
            f'<div class="text-secondary"{c.code_attrs}>{c.code}</div></div>'
            f'<div class="col-auto">{c.badge}</div></div>'
            f'<div class="mt-2 d-flex gap-3">{meta}</div></div></div></div>'
        )
    html = (
        f'<div class="page">{_sidebar(ctx)}<div class="page-wrapper">'
        f"{_header(ctx, 'Inventory · Tiles')}"
        '<div class="page-body"><div class="container-xl">'
        f'<div class="d-flex mb-3">{_chip(ctx)}'
        '<div class="btn-group ms-auto"><a href="#" class="btn btn-sm">List</a>'
        '<a href="#" class="btn btn-sm active">Tiles</a></div></div>'
        f'<div class="row row-cards">{"".join(cards)}</div>'
        "</div></div></div></div>"
    )
    return Body(html, html_attrs=_root(ctx))
