"""Bulma pages: a `menu` sidebar, a navbar, breadcrumb, title, `tags` filters and a striped
`table is-fullwidth` in a `box`, with Bulma's pagination."""

from __future__ import annotations

from .base import Badge, Body, Ctx, esc, icon, on

IS_ACTIVE = ' class="is-active"'


TAG = Badge('<span class="tag {kind} is-light"{attrs}>{text}</span>', "is-danger", "is-success")
WRAPS = {"sku": '<a href="#">{text}</a>'}


def admin(ctx: Ctx) -> Body:
    labels = ctx.nav()
    items = "".join(
        f'<li><a href="#"{on(label, IS_ACTIVE)}>'
        f'<span class="icon-text"><span class="icon">{icon(name, 16)}</span>'
        f"<span>{esc(label)}</span></span></a></li>"
        for name, label in labels[:4]
    )
    more = "".join(f'<li><a href="#">{esc(label)}</a></li>' for _, label in labels[4:])
    crumbs = ctx.trail(
        '<li><a href="#">{text}</a></li>',
        '<li class="is-active"><a href="#" aria-current="page">{text}</a></li>',
    )
    title = ctx.heading(" – ")
    chip = ctx.if_cue(
        "chip",
        f'<span class="tag is-link">{ctx.chip_text()}'
        '<button class="delete is-small"></button></span>',
    )
    classes = ctx.switched(
        "table is-fullwidth is-hoverable", striped=" is-striped", small=" is-narrow"
    )
    markup = ctx.table(
        classes=classes,
        numeric="has-text-right",
        td_inner=lambda r, c: ctx.marked(r, c, TAG, WRAPS),
    )
    html = (
        '<div class="columns is-gapless mb-0" style="height:100vh;overflow:hidden">'
        '<aside class="column is-narrow menu px-4 py-5" '
        'style="width:230px;padding:20px 16px!important;background:var(--bulma-scheme-main-bis)">'
        f'<p class="title is-5 mb-5">{icon("box", 22)} StockShot</p>'
        f'<p class="menu-label">General</p><ul class="menu-list">{items}</ul>'
        f'<p class="menu-label">Administration</p><ul class="menu-list">{more}</ul></aside>'
        '<div class="column" style="overflow:hidden" data-scroll>'
        '<nav class="navbar has-shadow px-4" role="navigation"><div class="navbar-menu">'
        '<div class="navbar-start"><div class="navbar-item"><div class="control has-icons-left">'
        '<input class="input is-small" type="text" placeholder="Search stock" style="width:280px">'
        "</div></div></div>"
        '<div class="navbar-end"><a class="navbar-item">Help</a><div class="navbar-item">'
        '<span class="tag is-rounded">ML</span></div></div></div></nav>'
        '<section class="section py-5">'
        f'<nav class="breadcrumb" aria-label="breadcrumbs"><ul>{crumbs}</ul></nav>'
        '<div class="level mb-4"><div class="level-left"><div class="level-item">'
        f'<h1 class="title is-4">{title}</h1></div></div><div class="level-right">'
        '<div class="level-item"><div class="buttons are-small">'
        '<button class="button">Export CSV</button>'
        '<button class="button is-primary">Add item</button></div></div></div></div>'
        f'<div class="tags mb-3">{chip}<span class="tag">In stock</span>'
        '<span class="tag">Low stock</span></div>'
        f'<div class="box p-0">{markup}</div>'
        '<nav class="pagination is-small" role="navigation">'
        '<a class="pagination-previous">Previous</a><a class="pagination-next">Next page</a>'
        '<ul class="pagination-list"><li><a class="pagination-link is-current">1</a></li>'
        '<li><a class="pagination-link">2</a></li><li><a class="pagination-link">3</a></li>'
        f'</ul><span class="ml-3 has-text-grey">{ctx.count_text(ctx.n + 17)}</span></nav>'
        "</section></div></div>"
    )
    return Body(html, html_attrs=' data-theme="dark"' if ctx.spec.theme == "dark" else "")
