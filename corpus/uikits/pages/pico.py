"""Pico pages: semantic HTML with few classes: a `nav` header, an `aside` of links, breadcrumb,
`hgroup` and a `table class="striped"`."""

from __future__ import annotations

from .base import Body, Ctx, esc, on

CSS = """
.layout{display:grid;grid-template-columns:210px 1fr;gap:2rem}
.layout aside nav li{padding:.25rem 0}
td.num,th.num{text-align:right}
"""


CURRENT = ' aria-current="page"'
SECONDARY = ' class="secondary"'


def _cell(ctx: Ctx, r: int, c: int) -> str:
    f = ctx.field(c)
    if f == "status":
        return f"<mark>{ctx.text(r, c)}</mark>" if ctx.low(r) else ctx.text(r, c)
    if f == "sku":
        return f'<a href="#">{ctx.text(r, c)}</a>'
    return ctx.text(r, c)


def admin(ctx: Ctx) -> Body:
    links = "".join(
        f'<li><a href="#"{on(label, CURRENT, SECONDARY)}>{esc(label)}</a></li>'
        for _, label in ctx.nav()
    )
    crumbs = ctx.trail('<li><a href="#">{text}</a></li>', "<li>{text}</li>")
    title = ctx.heading(" · ")
    chip = ctx.if_cue(
        "chip",
        f'<a href="#" role="button" class="outline secondary">{ctx.chip_text()} ×</a>',
    )
    markup = ctx.table(
        classes="striped",
        numeric="num",
        td_inner=lambda r, c: _cell(ctx, r, c),
    )
    html = (
        '<header class="container-fluid"><nav><ul><li><strong>StockShot</strong></li></ul>'
        '<ul><li><a href="#" class="secondary">Help</a></li>'
        '<li><a href="#" class="secondary">Mei Lin</a></li></ul></nav></header>'
        '<main class="container-fluid"><div class="layout">'
        f"<aside><nav><ul>{links}</ul></nav></aside><div>"
        f'<nav aria-label="breadcrumb"><ul>{crumbs}</ul></nav>'
        f"<hgroup><h3>{title}</h3><p>Counted stock and reorder points</p></hgroup>"
        '<div role="group" style="max-width:640px">'
        '<input type="search" placeholder="Search by code or name">'
        f"{chip}<button>Filter</button></div>"
        f'<div class="overflow-auto">{markup}</div></div></div></main>'
    )
    attrs = f' data-theme="{"dark" if ctx.spec.theme == "dark" else "light"}"'
    return Body(html, css=CSS, html_attrs=attrs)
