"""Fomantic-UI pages: a `ui left fixed vertical menu`, a top `ui menu`, breadcrumb and `ui
labels`, then a `ui celled striped table` with a pagination footer, or a `ui cards` tile grid."""

from __future__ import annotations

from .base import (
    ACTIVE,
    Body,
    Ctx,
    card_items,
    cue_text,
    esc,
    icon,
    meta_parts,
    nav,
    table,
    warehouse_label,
)

CSS = """
.page{margin-left:220px;height:100vh;overflow:hidden}
.ui.left.fixed.menu{width:220px}
.ui.vertical.menu .item svg{margin-right:8px;vertical-align:-3px}
body.inverted-page{background:#1b1c1d}
"""


def _menu(ctx: Ctx) -> str:
    inverted = "" if ctx.has("light-menu") else " inverted"
    items = "".join(
        f'<a class="{"active " if label in ACTIVE else ""}item">{icon(name, 16)}{esc(label)}</a>'
        for name, label in nav(ctx)
    )
    return (
        f'<div class="ui left fixed vertical{inverted} menu"><div class="item"><b>StockShot</b>'
        f"</div>{items}</div>"
    )


def _top(ctx: Ctx) -> str:
    wh = cue_text(ctx)
    cue = ctx.spec.cue
    dark = ctx.spec.theme == "dark"
    inv = " inverted" if dark else ""
    crumb = (
        f'<a class="section">{wh}</a><span class="divider">/</span>' if cue == "breadcrumb" else ""
    )
    title = esc(ctx.spec.title) + (f" — {wh}" if cue == "heading" else "")
    chip = f'<a class="ui blue label">{warehouse_label(ctx)}: {wh} ×</a>' if cue == "chip" else ""
    return (
        f'<div class="ui top attached{inv} menu"><div class="item">{icon("menu", 16)}</div>'
        '<div class="right menu"><div class="item"><div class="ui transparent input">'
        '<input type="text" placeholder="Search..."></div></div><a class="item">Mei Lin</a></div>'
        "</div>"
        f'<div class="ui basic{inv} segment" style="margin:0">'
        f'<div class="ui breadcrumb"><a class="section">Home</a><span class="divider">/</span>'
        f'<a class="section">Inventory</a><span class="divider">/</span>{crumb}'
        '<div class="active section">Stock</div></div>'
        f'<h2 class="ui{inv} header">{title}<div class="sub header">Levels per item</div></h2>'
        f'<div class="ui labels">{chip}<a class="ui label">Active</a><a class="ui label">'
        "Tracked</a></div>"
    )


def _cell(ctx: Ctx, r: int, c: int) -> str:
    if ctx.field(c) == "status":
        color = "red" if ctx.low(r) else "green"
        return f'<div class="ui {color} mini label">{ctx.text(r, c)}</div>'
    return ctx.text(r, c)


def admin(ctx: Ctx) -> Body:
    dark = ctx.spec.theme == "dark"
    classes = "ui celled striped table" + (" inverted" if dark else "")
    if ctx.has("compact") or ctx.has("narrow"):
        classes += " compact"
    markup = table(
        ctx,
        classes=classes,
        th_class=lambda c: "right aligned" if ctx.numeric(c) else "",
        td_class=lambda r, c: "right aligned" if ctx.numeric(c) else "",
        td_inner=lambda r, c: _cell(ctx, r, c),
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
    for r, (title_attrs, title), (code_attrs, code), status in card_items(ctx):
        label = ""
        if status is not None:
            color = "red" if ctx.low(r) else "green"
            label = f'<div class="ui {color} tiny label"{status[0]}>{status[1]}</div>'
        meta = "".join(f"<div>{p}</div>" for p in meta_parts(ctx, r))
        cards.append(
            f'<div class="{"inverted " if dark else ""}card"{ctx.item_box(r)}><div class="content">'
            f'<div class="header"{title_attrs}>{title}</div>'
            f'<div class="meta"{code_attrs}>{code}</div>'
            f'<div class="description">{meta}</div></div>'
            f'<div class="extra content">{label}</div></div>'
        )
    html = (
        f'{_menu(ctx)}<div class="page" data-scroll>{_top(ctx)}'
        f'<div class="ui four{" inverted" if dark else ""} cards">{"".join(cards)}</div></div>'
        "</div>"
    )
    return Body(html, css=CSS, body_attrs=' class="inverted-page"' if dark else "")
