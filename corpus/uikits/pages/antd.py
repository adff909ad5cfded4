"""Ant Design 4 pages as its React components render them: an Ant Design Pro layout (dark
`ant-layout-sider` with an inline `ant-menu`, breadcrumb, a search-form card, an `ant-table`
with tags and `ant-pagination`), and a phone list of small `ant-card`s."""

from __future__ import annotations

from . import base
from .base import PHONE_CSS, Badge, Body, Ctx, esc, icon, on

BADGE = Badge('<span class="ant-tag ant-tag-{kind}"{attrs}>{text}</span>', "red", "green")
WRAPS = {"sku": "<a>{text}</a>", "action": "<a>{text}</a>"}

CSS = """
.logo{height:48px;display:flex;align-items:center;gap:10px;padding:0 20px;color:#fff;
  font-size:16px;font-weight:600}
.head{display:flex;align-items:center;gap:16px;box-shadow:0 1px 4px rgba(0,21,41,.08)}
.head .right{margin-left:auto;display:flex;gap:18px;align-items:center}
.ant-layout-content{padding:16px 20px 0;overflow:hidden}
.search .ant-form-item{margin-bottom:12px;margin-right:24px}
.search .ant-input,.search .ant-select{width:180px}
.card-title{display:flex;align-items:center;margin-bottom:12px}
.card-title .t{font-size:16px;font-weight:500}
.card-title .tools{margin-left:auto;display:flex;gap:8px}
.ant-table-cell{white-space:nowrap}
"""


def _table(ctx: Ctx) -> str:
    def style(c: int) -> str:
        if ctx.field(c) == "index":
            return ' style="text-align:center"'
        return ' style="text-align:right"' if ctx.numeric(c) else ""

    heads = ctx.head_cells(lambda c: f' class="ant-table-cell"{style(c)}')
    rows = []
    for r in range(ctx.n):
        cells = ctx.body_cells(
            r,
            lambda r, c: f' class="ant-table-cell"{style(c)}',
            lambda r, c: ctx.marked(r, c, BADGE, WRAPS),
        )
        rows.append(
            f'<tr class="ant-table-row ant-table-row-level-0" data-row-key="{r}">{cells}</tr>'
        )
    size = " ant-table-small" if ctx.has("narrow") or ctx.has("compact") else ""
    middle = " ant-table-middle" if ctx.has("middle") else ""
    border = " ant-table-bordered" if ctx.has("border") else ""
    return (
        '<div class="ant-table-wrapper"><div class="ant-spin-nested-loading">'
        f'<div class="ant-spin-container"><div class="ant-table{size}{middle}{border}">'
        '<div class="ant-table-container"><div class="ant-table-content">'
        '<table style="table-layout:auto"><thead class="ant-table-thead">'
        f'<tr>{heads}</tr></thead><tbody class="ant-table-tbody">{"".join(rows)}</tbody>'
        "</table></div></div></div></div></div></div>"
    )


def _pagination(ctx: Ctx, total: int) -> str:
    items = "".join(
        f'<li class="ant-pagination-item ant-pagination-item-{p}'
        f'{" ant-pagination-item-active" if p == ctx.page else ""}"><a rel="nofollow">{p}</a></li>'
        for p in range(1, 6)
    )
    total_text = f"共 {total} 条" if ctx.zh else f"Total {total} items"
    return (
        '<ul class="ant-pagination ant-table-pagination ant-table-pagination-right" '
        'style="margin:12px 0">'
        f'<li class="ant-pagination-total-text">{total_text}</li>'
        '<li class="ant-pagination-prev"><button class="ant-pagination-item-link" '
        f'type="button">{icon("chevron-left", 12)}</button></li>{items}'
        '<li class="ant-pagination-next"><button class="ant-pagination-item-link" '
        f'type="button">{icon("chevron-right", 12)}</button></li></ul>'
    )


def _top_item(name: str, label: str) -> str:
    """A menu item outside the open group, with its icon."""
    return (
        '<li class="ant-menu-item" style="padding-left:24px"><span class="ant-menu-item-icon">'
        f'{icon(name, 14)}</span><span class="ant-menu-title-content">{esc(label)}</span></li>'
    )


def _menu(ctx: Ctx) -> str:
    menu = ctx.menu()
    sub = "".join(
        f'<li class="ant-menu-item{on(label, " ant-menu-item-selected")}" '
        f'style="padding-left:48px"><span class="ant-menu-title-content">{esc(label)}</span></li>'
        for _, label in menu.grouped
    )
    rest = "".join(_top_item(name, label) for name, label in menu.rest)
    return (
        '<aside class="ant-layout-sider ant-layout-sider-dark" style="flex:0 0 208px;'
        'max-width:208px;min-width:208px;width:208px"><div class="ant-layout-sider-children">'
        f'<div class="logo">{icon("box", 24, "#1890ff")}StockShot</div>'
        '<ul class="ant-menu ant-menu-root ant-menu-inline ant-menu-dark" role="menu">'
        f"{_top_item(*menu.first)}"
        '<li class="ant-menu-submenu ant-menu-submenu-inline ant-menu-submenu-open '
        'ant-menu-submenu-selected"><div class="ant-menu-submenu-title" style="padding-left:24px">'
        f'<span class="ant-menu-item-icon">{icon("box", 14)}</span>'
        f'<span class="ant-menu-title-content">{menu.group}</span></div>'
        f'<ul class="ant-menu ant-menu-sub ant-menu-inline">{sub}</ul></li>{rest}</ul></div>'
        "</aside>"
    )


def _form_item(label: str, control: str) -> str:
    return (
        '<div class="ant-row ant-form-item"><div class="ant-col ant-form-item-label">'
        f'<label>{label}</label></div><div class="ant-col ant-form-item-control">'
        '<div class="ant-form-item-control-input"><div class="ant-form-item-control-input-content">'
        f"{control}</div></div></div></div>"
    )


def _select(value: str, placeholder: bool = False) -> str:
    cls = "ant-select-selection-placeholder" if placeholder else "ant-select-selection-item"
    return (
        '<div class="ant-select ant-select-single ant-select-show-arrow">'
        '<div class="ant-select-selector"><span class="ant-select-selection-search"></span>'
        f'<span class="{cls}">{value}</span></div>'
        f'<span class="ant-select-arrow">{icon("chevron-down", 12)}</span></div>'
    )


def erp(ctx: Ctx) -> Body:
    zh = ctx.zh
    crumbs = ctx.crumbs(
        ("首页", "库存管理", "现存量查询") if zh else ("Home", "Inventory", "On-hand query")
    )
    crumb_html = (
        "<ol>"
        + "".join(
            f'<li><span class="ant-breadcrumb-link">{c}</span>'
            f'<span class="ant-breadcrumb-separator">/</span></li>'
            for c in crumbs
        )
        + "</ol>"
    )
    code, name, store = (
        ("存货编码", "存货名称", "仓库") if zh else ("Item code", "Item name", "Warehouse")
    )
    ph = "请输入" if zh else "Please enter"
    form = _form_item(code, f'<input class="ant-input" placeholder="{ph}">')
    form += _form_item(name, f'<input class="ant-input" placeholder="{ph}">')
    form += _form_item(
        store, _select(ctx.if_cue("chip", ctx.cue_text(), "全部仓库" if zh else "All"), False)
    )
    query, reset = ("查询", "重置") if zh else ("Search", "Reset")
    form += (
        f'<div class="ant-form-item"><button type="button" class="ant-btn ant-btn-primary">'
        f'<span>{query}</span></button> <button type="button" class="ant-btn">'
        f"<span>{reset}</span></button></div>"
    )
    heading = ctx.heading(" — ")
    tools = ("新建", "导入", "导出") if zh else ("New", "Import", "Export")
    total = ctx.n + ctx.spec.first_index + 58
    html = (
        f'<section class="ant-layout ant-layout-has-sider" style="height:100vh">{_menu(ctx)}'
        '<section class="ant-layout" style="overflow:hidden">'
        '<header class="ant-layout-header head" style="padding:0 20px;height:48px;line-height:48px;'
        f'background:var(--head-bg)">{icon("menu", 18)}'
        f'<div class="ant-breadcrumb">{crumb_html}</div>'
        f'<div class="right">{icon("search", 16)}{icon("bell", 16)}<span>admin</span></div>'
        "</header>"
        '<main class="ant-layout-content" data-scroll>'
        '<div class="ant-card ant-card-bordered" style="margin-bottom:16px"><div '
        'class="ant-card-body" '
        f'style="padding:16px 20px 4px"><form class="ant-form ant-form-inline search">{form}</form>'
        "</div></div>"
        '<div class="ant-card ant-card-bordered"><div class="ant-card-body" style="padding:16px '
        '20px 0">'
        f'<div class="card-title"><span class="t">{heading}</span><div class="tools">'
        f'<button type="button" class="ant-btn ant-btn-primary"><span>{tools[0]}</span></button>'
        f'<button type="button" class="ant-btn"><span>{tools[1]}</span></button>'
        f'<button type="button" class="ant-btn"><span>{tools[2]}</span></button></div></div>'
        f"{_table(ctx)}{_pagination(ctx, total)}</div></div></main></section></section>"
    )
    dark = ctx.spec.theme == "dark"
    css = CSS + f":root{{--head-bg:{'#141414' if dark else '#fff'}}}"
    return Body(html, css=css)


PHONE = """
.phone{height:100vh;display:flex;flex-direction:column;background:var(--page-bg)}
.nav{display:flex;align-items:center;justify-content:space-between;padding:10px 16px;
  background:var(--bar-bg);font-size:17px;font-weight:500}
.seg{padding:8px 12px;background:var(--bar-bg);display:flex;gap:8px;align-items:center}
.items{flex:1;overflow:hidden;padding:10px 12px}
.items .ant-card{margin-bottom:6px}
.items .ant-card-body{padding:6px 12px;line-height:1.35}
.items .n{font-size:15px;font-weight:500;display:flex;justify-content:space-between}
.items .n .ant-tag{margin-right:0;line-height:18px}
.items .c{font-size:13px;opacity:.65}
.items .m{font-size:13px}
.tabbar{display:flex;background:var(--bar-bg);border-top:1px solid var(--line);padding:6px 0 24px}
.tabbar span{flex:1;text-align:center;font-size:11px;opacity:.6}
.tabbar span.on{opacity:1;color:#1890ff}
"""


def phone(ctx: Ctx) -> Body:
    dark = ctx.spec.theme == "dark"
    cards = [
        f'<div class="ant-card ant-card-bordered ant-card-small"{c.box}>'
        f'<div class="ant-card-body"><div class="n"><span{c.title_attrs}>{c.title}</span>'
        f"{c.badge}</div>"
        f'<div class="c"{c.code_attrs}>{c.code}</div><div class="m">{c.meta_line}</div>'
        "</div></div>"
        for c in ctx.cards(BADGE)
    ]
    fg = "rgba(255,255,255,.85)" if dark else "#000"
    seg = ctx.if_cue("chip", f'<span class="ant-tag ant-tag-blue">{ctx.chip_text()}</span>')
    labels = ("工作台", "库存", "消息", "我的") if ctx.zh else ("Home", "Stock", "Inbox", "Me")
    tabs = base.phone_tabs(("home", "box", "bell", "user"), labels)
    html = (
        '<div class="phone">'
        f"{base.phone_status_bar('14:08', fg, 'var(--bar-bg)')}"
        f'<div class="nav">{icon("chevron-left", 22)}<span>{esc(ctx.spec.title)}</span>'
        f"{icon('filter', 20)}</div>"
        f'<div class="seg">{seg}<span class="ant-tag">{"全部" if ctx.zh else "All"}</span>'
        f'<span class="ant-tag">{"预警" if ctx.zh else "Alerts"}</span></div>'
        f'<div class="items" data-scroll>{"".join(cards)}<div style="height:240px"></div></div>'
        f'<div class="tabbar">{tabs}</div>{base.phone_home(fg)}</div>'
    )
    colors = (
        ":root{--page-bg:#000;--bar-bg:#141414;--line:#303030}"
        if dark
        else ":root{--page-bg:#f5f5f5;--bar-bg:#fff;--line:#f0f0f0}"
    )
    return Body(html, css=PHONE_CSS + PHONE + colors)
