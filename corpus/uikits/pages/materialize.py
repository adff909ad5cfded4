"""Materialize pages: a fixed `sidenav`, a coloured `nav` with breadcrumbs, `chip` filters and a
`striped highlight` table in a `card`; and a phone app whose items are a `collection` list."""

from __future__ import annotations

from .base import (
    PHONE_CSS,
    Badge,
    Body,
    Ctx,
    esc,
    icon,
    on,
    phone_home,
    phone_status_bar,
    phone_tabs,
)

BADGE = Badge(
    '<span class="secondary-content {kind}"{attrs}>{text}</span>', "red-text", "teal-text"
)

CSS = """
.sidenav.sidenav-fixed{transform:translateX(0);width:250px}
main.shell{padding-left:250px;height:100vh;overflow:hidden}
.sidenav li>a svg{margin-right:24px;vertical-align:-3px}
nav .breadcrumb{font-size:16px}
nav .breadcrumb:before{content:"\\203A";font-family:inherit;font-size:22px;line-height:60px}
td.num,th.num{text-align:right}
.low{color:#e53935;font-weight:500}
.chips-row{margin:12px 0 4px}
"""


IS_ACTIVE = ' class="active"'


def _cell(ctx: Ctx, r: int, c: int) -> str:
    if ctx.field(c) == "status":
        cls = "new badge red" if ctx.low(r) else "new badge green"
        return f'<span class="{cls}" data-badge-caption="">{ctx.text(r, c)}</span>'
    if ctx.field(c) == "on_hand" and ctx.low(r):
        return f'<span class="low">{ctx.text(r, c)}</span>'
    return ctx.text(r, c)


def admin(ctx: Ctx) -> Body:
    links = "".join(
        f'<li{on(label, IS_ACTIVE)}><a href="#" class="waves-effect">'
        f"{icon(name, 20)}{esc(label)}</a></li>"
        for name, label in ctx.nav()
    )
    crumb = "".join(
        f'<a href="#" class="breadcrumb">{c}</a>' for c in ctx.crumbs(("Inventory", "Stock"))
    )
    title = ctx.heading(" – ")
    chip = ctx.if_cue("chip", f'<div class="chip">{ctx.chip_text()} ×</div>')
    markup = ctx.table(
        classes="striped highlight",
        numeric="num",
        td_inner=lambda r, c: _cell(ctx, r, c),
    )
    html = (
        '<ul class="sidenav sidenav-fixed"><li><div class="user-view" style="padding:24px 32px 0">'
        '<span class="name black-text" style="font-size:20px">StockShot</span></div></li>'
        f'<li><div class="divider"></div></li><li><a class="subheader">Menu</a></li>{links}</ul>'
        '<main class="shell"><nav class="teal"><div class="nav-wrapper" style="padding:0 24px">'
        f'<div class="col s12">{crumb}</div></div></nav>'
        '<div class="container" style="width:94%" data-scroll>'
        f'<div class="chips-row">{chip}<div class="chip">Tracked</div><div class="chip">'
        "Active</div></div>"
        f'<div class="card"><div class="card-content"><span class="card-title">{title}</span>'
        f"{markup}</div></div></div></main>"
    )
    return Body(html, css=CSS)


PHONE = """
.app{height:100vh;display:flex;flex-direction:column;background:#fff}
.app nav{height:56px;line-height:56px;box-shadow:none;padding:0 12px}
.app nav .title{font-size:20px}
.app .list{flex:1;overflow:hidden}
.app .collection{margin:0;border:0}
.app .collection .collection-item.avatar{min-height:72px;padding-left:68px;line-height:1.35}
.app .collection .collection-item.avatar .circle{display:flex;align-items:center;
  justify-content:center;left:14px}
.app .collection .collection-item .title{font-size:15px;font-weight:500}
.app .collection .collection-item p{font-size:13px;color:#616161}
.app .secondary-content{font-size:13px;font-weight:500}
.app .bottom{display:flex;border-top:1px solid #e0e0e0;padding:6px 0 24px;background:#fafafa}
.app .bottom span{flex:1;text-align:center;font-size:12px;color:#757575}
.app .bottom span.on{color:#00897b}
"""


def phone(ctx: Ctx) -> Body:
    items = []
    for c in ctx.cards(BADGE):
        color = "red lighten-4" if ctx.low(c.r) else "teal lighten-4"
        items.append(
            f'<li class="collection-item avatar"{c.box}>'
            f'<span class="circle {color}">{icon("box", 20)}</span>'
            f'<span class="title"{c.title_attrs}>{c.title}</span>'
            f"<p><span{c.code_attrs}>{c.code}</span><br>{c.meta_line}</p>{c.badge}</li>"
        )
    wh = ctx.cue_text()
    chips = ctx.if_cue("chip", f'<div class="chip">{wh}</div>')
    tabs = phone_tabs(("home", "list", "truck", "user"), ("Home", "Stock", "Receive", "Profile"))
    html = (
        '<div class="app">'
        f"{phone_status_bar('8:15', '#fff', '#00796b')}"
        f'<nav class="teal"><span class="title">{esc(ctx.spec.title)}</span>'
        f'<span class="right">{icon("search", 22, "#fff")}</span></nav>'
        f'<div style="padding:8px 12px 0">{chips}<div class="chip">Below min</div>'
        '<div class="chip">All types</div></div>'
        f'<div class="list" data-scroll><ul class="collection">{"".join(items)}</ul>'
        '<div style="height:240px"></div></div>'
        f'<div class="bottom">{tabs}</div>{phone_home("#000")}</div>'
    )
    return Body(html, css=PHONE_CSS + PHONE)
