"""Fomantic-UI pages: a `ui left fixed vertical menu`, a top `ui menu`, breadcrumb and `ui
labels`, then a `ui celled striped table` with a pagination footer, or a `ui cards` tile grid."""

from __future__ import annotations

from .base import Badge, Body, Ctx, esc, icon, on

LABEL = Badge('<div class="ui {kind} mini label"{attrs}>{text}</div>', "red", "green")
TILE_LABEL = Badge('<div class="ui {kind} tiny label"{attrs}>{text}</div>', "red", "green")

CSS = """
.page{margin-left:220px;height:100vh;overflow:hidden}
.ui.left.fixed.menu{width:220px}
.ui.vertical.menu .item svg{margin-right:8px;vertical-align:-3px}
body.inverted-page{background:#1b1c1d}
"""


def _menu(ctx: Ctx) -> str:
    inverted = "" if ctx.has("light-menu") else " inverted"
    items = "".join(
        f'<a class="{on(label, "active ")}item">{icon(name, 16)}{esc(label)}</a>'
        for name, label in ctx.nav()
    )
    return (
        f'<div class="ui left fixed vertical{inverted} menu"><div class="item"><b>StockShot</b>'
        f"</div>{items}</div>"
    )


def _top(ctx: Ctx) -> str:
    dark = ctx.spec.theme == "dark"
    inv = " inverted" if dark else ""
    crumbs = ctx.trail(
        '<a class="section">{text}</a><span class="divider">/</span>',
        '<div class="active section">{text}</div>',
    )
    title = ctx.heading(" — ")
    chip = ctx.if_cue("chip", f'<a class="ui blue label">{ctx.chip_text()} ×</a>')
    return (
        f'<div class="ui top attached{inv} menu"><div class="item">{icon("menu", 16)}</div>'
        '<div class="right menu"><div class="item"><div class="ui transparent input">'
        '<input type="text" placeholder="Search..."></div></div><a class="item">Mei Lin</a></div>'
        "</div>"
        f'<div class="ui basic{inv} segment" style="margin:0">'
        f'<div class="ui breadcrumb">{crumbs}</div>'
        f'<h2 class="ui{inv} header">{title}<div class="sub header">Levels per item</div></h2>'
        f'<div class="ui labels">{chip}<a class="ui label">Active</a><a class="ui label">'
        "Tracked</a></div>"
    )


def admin(ctx: Ctx) -> Body:
    dark = ctx.spec.theme == "dark"
    classes = ctx.switched(
        "ui celled striped table" + (" inverted" if dark else ""), small=" compact"
    )
    markup = ctx.table(
        classes=classes,
        numeric="right aligned",
        td_inner=lambda r, c: ctx.marked(r, c, LABEL),
    )
    pager = (
        '<div class="ui right floated pagination menu"><a class="icon item">‹</a>'
        '<a class="active item">1</a><a class="item">2</a><a class="item">3</a>'
        '<a class="icon item">›</a></div>'
    )
    html = (
        f'{_menu(ctx)}<div class="page" data-scroll>{_top(ctx)}{markup}'
        f'<div style="overflow:hidden;margin-top:8px">{pager}</div></div></div>'
    )
    return Body(html, css=CSS, body_attrs=' class="inverted-page"' if dark else "")


def tiles(ctx: Ctx) -> Body:
    dark = ctx.spec.theme == "dark"
    cards = []
    for c in ctx.cards(TILE_LABEL):
        meta = "".join(f"<div>{p}</div>" for p in c.meta)
        cards.append(
            f'<div class="{"inverted " if dark else ""}card"{c.box}><div class="content">'
            f'<div class="header"{c.title_attrs}>{c.title}</div>'
            f'<div class="meta"{c.code_attrs}>{c.code}</div>'
            f'<div class="description">{meta}</div></div>'
            f'<div class="extra content">{c.badge}</div></div>'
        )
    html = (
        f'{_menu(ctx)}<div class="page" data-scroll>{_top(ctx)}'
        f'<div class="ui four{" inverted" if dark else ""} cards">{"".join(cards)}</div></div>'
        "</div>"
    )
    return Body(html, css=CSS, body_attrs=' class="inverted-page"' if dark else "")
