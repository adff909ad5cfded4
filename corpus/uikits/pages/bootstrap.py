"""Bootstrap 5 pages (also Bootswatch themes, which keep Bootstrap's markup): the docs'
"Sidebars" example shell with a striped table in a card, and a phone stock app of cards."""

from __future__ import annotations

from .base import PHONE_CSS, Badge, Body, Ctx, esc, icon, on, phone_home, phone_status_bar

BADGE = Badge('<span class="badge text-bg-{kind}"{attrs}>{text}</span>', "danger", "success")
SOFT_BADGE = Badge(
    '<span class="badge bg-{kind}-subtle text-{kind}-emphasis border border-{kind}-subtle"'
    "{attrs}>{text}</span>",
    "danger",
    "success",
)
WRAPS = {
    "sku": '<a href="#" class="link-underline link-underline-opacity-0">{text}</a>',
    "action": '<a href="#" class="btn btn-sm btn-outline-secondary py-0">{text}</a>',
}


def _sidebar(ctx: Ctx) -> str:
    items = "".join(
        f'<li class="nav-item"><a href="#" class="nav-link {on(label, "active")}'
        f'{on(label, "", " text-white")}">{icon(name, 16)}'
        f'<span class="ms-2">{esc(label)}</span></a></li>'
        for name, label in ctx.nav()
    )
    return (
        '<div class="d-flex flex-column flex-shrink-0 p-3 text-bg-dark" style="width:232px">'
        '<a href="#" class="d-flex align-items-center mb-3 text-white text-decoration-none">'
        f'{icon("box", 28)}<span class="fs-5 ms-2">StockShot</span></a><hr>'
        f'<ul class="nav nav-pills flex-column mb-auto">{items}</ul><hr>'
        '<div class="d-flex align-items-center text-white"><span class="rounded-circle '
        'bg-secondary d-inline-flex align-items-center justify-content-center me-2" '
        'style="width:32px;height:32px">ML</span><strong>Mei Lin</strong></div></div>'
    )


def _chip(ctx: Ctx) -> str:
    """The filter chip with the page's warehouse, on a page that states it in a chip."""
    return ctx.if_cue(
        "chip",
        '<span class="badge rounded-pill text-bg-primary fw-normal fs-6 me-2">'
        f'{ctx.chip_text()} <span class="ms-1">×</span></span>',
    )


def _surface(ctx: Ctx) -> str:
    """Bootstrap's page background; Bootswatch's dark themes leave `bg-body-tertiary` light."""
    return "bg-body" if ctx.spec.kit == "bootswatch" and ctx.dark else "bg-body-tertiary"


def admin(ctx: Ctx) -> Body:
    crumbs = ctx.trail(
        '<li class="breadcrumb-item"><a href="#">{text}</a></li>',
        '<li class="breadcrumb-item active" aria-current="page">{text}</li>',
        ("Home", "Inventory", "Stock levels"),
    )
    badge = SOFT_BADGE if ctx.has("soft-badges") else BADGE
    classes = ctx.switched(
        "table table-hover align-middle mb-0", striped=" table-striped", small=" table-sm"
    )
    markup = ctx.table(
        classes=classes,
        numeric="text-end",
        td_inner=lambda r, c: ctx.marked(r, c, badge, WRAPS),
        thead_class="table-light" if not ctx.dark else "",
        lead_head='<th style="width:36px"><input class="form-check-input" type="checkbox"></th>',
        lead_cell=lambda r: '<td><input class="form-check-input" type="checkbox"></td>',
    )
    total = ctx.n + 23
    pages = "".join(
        f'<li class="page-item{" active" if p == 1 else ""}"><a class="page-link" href="#">{p}</a>'
        "</li>"
        for p in (1, 2, 3)
    )
    html = (
        '<div class="d-flex" style="height:100vh">'
        f"{_sidebar(ctx)}"
        f'<div class="flex-grow-1 d-flex flex-column overflow-hidden {_surface(ctx)}">'
        '<header class="navbar bg-body border-bottom px-4 py-2">'
        '<form class="d-flex" style="width:360px"><input class="form-control form-control-sm" '
        'placeholder="Search items, SKUs, suppliers…"></form>'
        '<div class="d-flex align-items-center gap-3 text-body-secondary">'
        f"{icon('bell', 18)}{icon('gear', 18)}<span>Mei Lin</span></div></header>"
        '<main class="flex-grow-1 overflow-hidden p-4" data-scroll>'
        f'<nav aria-label="breadcrumb"><ol class="breadcrumb mb-2">{crumbs}</ol></nav>'
        '<div class="d-flex justify-content-between align-items-center mb-3">'
        f'<h1 class="h3 mb-0">{ctx.heading(" — ")}</h1>'
        '<div class="d-flex gap-2"><button class="btn btn-outline-secondary btn-sm">'
        f'{icon("download", 14)} Export</button><button class="btn btn-primary btn-sm">'
        f"{icon('plus', 14)} New item</button></div></div>"
        f'<div class="d-flex align-items-center mb-3">{_chip(ctx)}'
        '<span class="badge rounded-pill text-bg-light border fw-normal fs-6 me-2">'
        'Category: All</span><a href="#" class="small">Clear filters</a></div>'
        f'<div class="card shadow-sm"><div class="table-responsive">{markup}</div>'
        '<div class="card-footer d-flex align-items-center bg-body">'
        f'<span class="text-body-secondary small">{ctx.count_text(total)} items</span>'
        f'<ul class="pagination pagination-sm mb-0 ms-auto">{pages}</ul></div></div>'
        "</main></div></div>"
    )
    return Body(html, html_attrs=' data-bs-theme="dark"' if ctx.spec.theme == "dark" else "")


def phone(ctx: Ctx) -> Body:
    dark = ctx.dark
    cards = [
        f'<div class="card stock-card"{c.box}><div class="card-body">'
        '<div class="d-flex justify-content-between align-items-start">'
        f'<h6 class="card-title"{c.title_attrs}>{c.title}</h6>{c.badge}</div>'
        f'<div class="text-body-secondary small"{c.code_attrs}>{c.code}</div>'
        f'<div class="small">{c.meta_line}</div></div></div>'
        for c in ctx.cards(BADGE)
    ]
    bar_color = "#fff" if dark else "#000"
    tabs = "".join(
        f'<a href="#" class="nav-link flex-fill text-center'
        f'{" active" if i == 1 else " text-body-secondary"}">{icon(n, 22)}<div>{t}</div></a>'
        for i, (n, t) in enumerate(
            (("home", "Home"), ("box", "Stock"), ("truck", "Orders"), ("user", "Account"))
        )
    )
    where = ctx.if_cue(
        "chip",
        f'<span class="badge rounded-pill text-bg-primary fw-normal">{ctx.cue_text()} ×</span>',
    )
    html = (
        '<div class="d-flex flex-column bg-body-tertiary" style="height:100vh">'
        f"{phone_status_bar('9:41', bar_color, 'var(--bs-body-bg)')}"
        '<nav class="navbar bg-body border-bottom px-3 py-2">'
        f'<span class="navbar-brand mb-0 h1">{esc(ctx.spec.title)}</span>'
        f'<span class="text-body-secondary">{icon("search", 20)}</span></nav>'
        '<div class="px-3 py-2 d-flex gap-2 align-items-center bg-body border-bottom">'
        f'{where}<span class="badge rounded-pill text-bg-light border fw-normal">Low stock</span>'
        '<span class="badge rounded-pill text-bg-light border fw-normal">All categories</span>'
        "</div>"
        f'<div class="flex-grow-1 overflow-hidden px-3 pt-3" data-scroll>{"".join(cards)}'
        '<div style="height:200px"></div></div>'
        f'<nav class="nav nav-pills tabbar bg-body border-top pb-4">{tabs}</nav>'
        f"{phone_home(bar_color)}</div>"
    )
    css = PHONE_CSS + (
        ".stock-card .card-body{line-height:1.3;padding:6px 12px}"
        ".stock-card .card-title{font-size:15px;margin-bottom:2px}"
        ".stock-card .small{font-size:13px}.stock-card{margin-bottom:6px}"
        ".tabbar .nav-link{padding:6px 0 0;font-size:11px;border-radius:0}"
    )
    return Body(html, css=css, html_attrs=' data-bs-theme="dark"' if dark else "")
