"""Element Plus pages as its Vue components render them (a RuoYi / vue-element-admin style
Chinese ERP): `el-menu` sidebar, `el-breadcrumb`, an inline `el-form` of filters, and an
`el-table` whose header and body are two tables with one `colgroup`; and a phone list of
`el-card`s."""

from __future__ import annotations

from html import escape

from . import base
from .base import PHONE_CSS, Badge, Body, Ctx, esc, icon, on

TAG = Badge(
    '<span class="el-tag el-tag--{kind} el-tag--small el-tag--light">'
    '<span class="el-tag__content"{attrs}>{text}</span></span>',
    "danger",
    "success",
)
TABLE_TAG = Badge(
    '<span class="el-tag el-tag--{kind} el-tag--light">'
    '<span class="el-tag__content"{attrs}>{text}</span></span>',
    "danger",
    "success",
)
WRAPS = {
    "action": '<button class="el-button el-button--primary el-button--small is-link">'
    "<span>{text}</span></button>"
}

WIDTHS = {
    "index": 64,
    "sku": 132,
    "warehouse": 96,
    "on_hand": 104,
    "available": 104,
    "reorder": 104,
    "on_order": 96,
    "allocated": 96,
    "unit": 72,
    "bin": 100,
    "price": 100,
    "status": 100,
    "category": 110,
    "supplier": 130,
    "updated": 160,
    "last_count": 120,
    "action": 90,
}
NARROW = {"on_hand": 76, "available": 76, "reorder": 76, "on_order": 70, "allocated": 70}

CSS = """
.app{display:flex;height:100vh;background:var(--el-bg-color-page)}
.app .el-aside{background:#304156;overflow:hidden}
html.dark .app .el-aside{background:#141414;border-right:1px solid var(--el-border-color)}
.logo{height:50px;display:flex;align-items:center;gap:8px;padding:0 18px;color:#fff;
  font-weight:600;font-size:14px}
.el-menu.side{--el-menu-bg-color:transparent;--el-menu-text-color:#bfcbd9;
  --el-menu-hover-bg-color:#263445;--el-menu-active-color:#409eff;border-right:0}
.el-menu.side .el-menu--inline{background:#1f2d3d}
html.dark .el-menu.side .el-menu--inline{background:#0a0a0a}
.el-menu.side .el-menu-item .el-icon,.el-menu.side .el-sub-menu__title .el-icon{margin-right:8px}
.main{flex:1;display:flex;flex-direction:column;min-width:0;overflow:hidden}
.navbar{height:50px;display:flex;align-items:center;padding:0 16px;gap:16px;
  background:var(--el-bg-color);box-shadow:0 1px 4px rgba(0,21,41,.08)}
.navbar .right{margin-left:auto;display:flex;gap:18px;align-items:center;
  color:var(--el-text-color-regular);font-size:14px}
.tags-view{height:34px;display:flex;align-items:center;gap:5px;padding:0 12px;
  background:var(--el-bg-color);border-bottom:1px solid var(--el-border-color-light)}
.tags-view .tag{border:1px solid var(--el-border-color);height:26px;line-height:24px;
  padding:0 8px;font-size:12px;color:var(--el-text-color-regular)}
.tags-view .tag.active{background:#42b983;border-color:#42b983;color:#fff}
.content{padding:16px 20px;overflow:hidden;flex:1}
.search .el-form-item{margin-right:18px;margin-bottom:14px}
.search .el-input,.search .el-select{width:190px}
.toolbar{display:flex;gap:10px;margin-bottom:10px}
.el-table .cell{white-space:nowrap}
.pagination{display:flex;justify-content:flex-end;margin-top:14px}
"""


def _colgroup(ctx: Ctx) -> str:
    narrow = ctx.has("narrow")
    cols = []
    for i, col in enumerate(ctx.grid.columns):
        width = (NARROW if narrow else {}).get(col.field, WIDTHS.get(col.field))
        name = f"el-table_1_column_{i + 1}"
        cols.append(f'<col name="{name}" width="{width}">' if width else f'<col name="{name}">')
    return f"<colgroup>{''.join(cols)}</colgroup>"


def _el_table(ctx: Ctx) -> str:
    colgroup = _colgroup(ctx)

    def align(c: int) -> str:
        return (
            " is-right"
            if ctx.numeric(c) and ctx.field(c) != "index"
            else " is-center"
            if ctx.field(c) == "index"
            else ""
        )

    heads = ctx.head_cells(
        lambda c: (
            f' class="el-table_1_column_{c + 1} is-leaf el-table__cell{align(c)}" '
            'colspan="1" rowspan="1"'
        ),
        lambda c: f'<div class="cell">{escape(ctx.grid.header[c])}</div>',
    )
    rows = []
    for r in range(ctx.n):
        cells = ctx.body_cells(
            r,
            lambda r, c: (
                f' class="el-table_1_column_{c + 1} el-table__cell{align(c)}" '
                'rowspan="1" colspan="1"'
            ),
            lambda r, c: f'<div class="cell">{ctx.marked(r, c, TABLE_TAG, WRAPS)}</div>',
        )
        striped = " el-table__row--striped" if r % 2 and ctx.has("striped") else ""
        rows.append(f'<tr class="el-table__row{striped}">{cells}</tr>')
    border = " el-table--border" if ctx.has("border") else ""
    stripe = " el-table--striped" if ctx.has("striped") else ""
    size = " el-table--small" if ctx.has("compact") else ""
    return (
        f'<div class="el-table--fit{stripe}{border}{size} el-table el-table--enable-row-hover '
        'el-table--layout-fixed is-scrolling-none" style="width:100%">'
        '<div class="el-table__inner-wrapper"><div class="hidden-columns"></div>'
        '<div class="el-table__header-wrapper"><table class="el-table__header" border="0" '
        f'cellpadding="0" cellspacing="0" style="width:100%">{colgroup}'
        f"<thead><tr>{heads}</tr></thead></table></div>"
        '<div class="el-table__body-wrapper"><div class="el-scrollbar">'
        '<div class="el-scrollbar__wrap el-scrollbar__wrap--hidden-default">'
        '<div class="el-scrollbar__view" style="display:block">'
        '<table class="el-table__body" cellspacing="0" cellpadding="0" border="0" '
        f'style="table-layout:fixed;width:100%">{colgroup}<tbody>{"".join(rows)}</tbody>'
        "</table></div></div></div></div></div></div>"
    )


def _top_item(name: str, label: str) -> str:
    """A menu item outside the open group, with its icon."""
    return (
        f'<li class="el-menu-item" style="padding-left:20px"><i class="el-icon">{icon(name, 16)}'
        f"</i><span>{esc(label)}</span></li>"
    )


def _menu(ctx: Ctx) -> str:
    menu = ctx.menu()
    inline = "".join(
        f'<li class="el-menu-item{on(label, " is-active")}" '
        f'style="padding-left:40px">{esc(label)}</li>'
        for _, label in menu.grouped
    )
    rest = "".join(_top_item(name, label) for name, label in menu.rest)
    return (
        '<aside class="el-aside" style="width:210px">'
        f'<div class="logo">{icon("box", 22, "#409eff")}StockShot ERP</div>'
        '<ul class="el-menu el-menu--vertical side" role="menubar">'
        f"{_top_item(*menu.first)}"
        '<li class="el-sub-menu is-opened is-active"><div class="el-sub-menu__title" '
        f'style="padding-left:20px"><i class="el-icon">{icon("box", 16)}</i>'
        f"<span>{menu.group}</span></div>"
        f'<ul class="el-menu el-menu--inline">{inline}</ul></li>{rest}</ul></aside>'
    )


def _field(label: str, value: str, placeholder: bool, select: bool = False) -> str:
    inner = (
        '<span class="el-input__inner" style="color:var(--el-text-color-placeholder)">'
        f"{value}</span>"
        if placeholder
        else f'<span class="el-input__inner">{value}</span>'
    )
    if select:
        control = (
            '<div class="el-select"><div class="el-select__wrapper"><div '
            'class="el-select__selection">'
            f'<div class="el-select__selected-item"><span>{value}</span></div></div>'
            f'<div class="el-select__suffix">{icon("chevron-down", 14)}</div></div></div>'
        )
    else:
        control = f'<div class="el-input"><div class="el-input__wrapper">{inner}</div></div>'
    return (
        '<div class="el-form-item"><label class="el-form-item__label">'
        f'{label}</label><div class="el-form-item__content">{control}</div></div>'
    )


def erp(ctx: Ctx) -> Body:
    zh = ctx.zh
    crumbs = ctx.crumbs(
        ("首页", "库存管理", "库存查询") if zh else ("Home", "Inventory", "Stock query")
    )
    crumb_html = "".join(
        f'<span class="el-breadcrumb__item"><span class="el-breadcrumb__inner'
        f'{" is-link" if i < len(crumbs) - 1 else ""}">{c}</span>'
        f'<span class="el-breadcrumb__separator">/</span></span>'
        for i, c in enumerate(crumbs)
    )
    code, name, store = ("物料编码", "物料名称", "仓库") if zh else ("Code", "Name", "Warehouse")
    placeholder = "请输入" if zh else "Enter "
    form = _field(code, placeholder + ("" if zh else "code"), True) + _field(
        name, placeholder + ("" if zh else "name"), True
    )
    form += _field(
        store, ctx.if_cue("chip", ctx.cue_text(), "全部" if zh else "All"), False, select=True
    )
    query, reset = ("搜索", "重置") if zh else ("Search", "Reset")
    buttons = (
        f'<div class="el-form-item"><button class="el-button el-button--primary">'
        f"{icon('search', 14)}<span>{query}</span></button>"
        f'<button class="el-button">{icon("refresh", 14)}<span>{reset}</span></button></div>'
    )
    tools = (("新增", "primary"), ("修改", "success"), ("导出", "warning"), ("盘点", "info"))
    if not zh:
        tools = (("Add", "primary"), ("Edit", "success"), ("Export", "warning"), ("Count", "info"))
    toolbar = "".join(
        f'<button class="el-button el-button--{kind} el-button--small is-plain"><span>{t}</span>'
        "</button>"
        for t, kind in tools
    )
    title = ctx.if_cue(
        "heading",
        '<h3 style="margin:0 0 12px;font-size:18px;color:var(--el-text-color-primary)">'
        f"{ctx.heading(' · ')}</h3>",
    )
    total = ctx.n + ctx.spec.first_index + 40
    pager = "".join(
        f'<li class="number{" is-active" if p == ctx.page else ""}">{p}</li>' for p in range(1, 6)
    )
    total_text = f"共 {total} 条" if zh else f"Total {total}"
    size_text = "20条/页" if zh else "20/page"
    views = ("首页", "库存查询") if zh else ("Home", "Stock query")
    html = (
        f'<div class="app">{_menu(ctx)}<div class="main">'
        f'<div class="navbar">{icon("menu", 20)}<div class="el-breadcrumb" aria-label="Breadcrumb">'
        f'{crumb_html}</div><div class="right">{icon("search", 18)}{icon("bell", 18)}'
        "<span>admin</span></div></div>"
        f'<div class="tags-view"><span class="tag">{views[0]}</span>'
        f'<span class="tag active">{views[1]} ×</span></div>'
        f'<div class="content" data-scroll>{title}'
        f'<form class="el-form el-form--inline search">{form}{buttons}</form>'
        f'<div class="toolbar">{toolbar}</div>{_el_table(ctx)}'
        '<div class="pagination"><div class="el-pagination is-background">'
        f'<span class="el-pagination__total">{total_text}</span>'
        f'<span class="el-pagination__sizes"><span class="el-input__inner">{size_text}</span>'
        "</span>"
        f'<button class="btn-prev" disabled>{icon("chevron-left", 12)}</button>'
        f'<ul class="el-pager">{pager}</ul>'
        f'<button class="btn-next">{icon("chevron-right", 12)}</button></div></div>'
        "</div></div></div>"
    )
    return Body(html, css=CSS, html_attrs=' class="dark"' if ctx.spec.theme == "dark" else "")


PHONE = """
.phone{height:100vh;display:flex;flex-direction:column;background:var(--el-bg-color-page)}
.bar{display:flex;align-items:center;justify-content:space-between;padding:10px 16px;
  background:var(--el-bg-color);font-size:17px;font-weight:600;color:var(--el-text-color-primary)}
.filters{display:flex;gap:8px;padding:8px 12px;background:var(--el-bg-color);
  border-bottom:1px solid var(--el-border-color-lighter)}
.list{flex:1;overflow:hidden;padding:10px 12px}
.list .el-card{margin-bottom:6px}
.list .el-card__body{padding:7px 12px;line-height:1.35}
.list .name{font-size:15px;font-weight:600;color:var(--el-text-color-primary);
  display:flex;justify-content:space-between;gap:8px}
.list .code{font-size:13px;color:var(--el-text-color-secondary);margin-top:2px}
.list .meta{font-size:13px;color:var(--el-text-color-regular);margin-top:2px}
.tabs{display:flex;background:var(--el-bg-color);border-top:1px solid var(--el-border-color);
  padding:6px 0 24px}
.tabs span{flex:1;text-align:center;font-size:11px;color:var(--el-text-color-secondary)}
.tabs span.on{color:var(--el-color-primary)}
"""


def phone(ctx: Ctx) -> Body:
    dark = ctx.spec.theme == "dark"
    cards = [
        f'<div class="el-card is-never-shadow"{c.box}><div class="el-card__body">'
        f'<div class="name"><span{c.title_attrs}>{c.title}</span>{c.badge}</div>'
        f'<div class="code"{c.code_attrs}>{c.code}</div><div class="meta">{c.meta_line}</div>'
        "</div></div>"
        for c in ctx.cards(TAG)
    ]
    fg = "#e5eaf3" if dark else "#000"
    chip = ctx.if_cue(
        "chip",
        '<span class="el-tag el-tag--primary el-tag--light is-closable">'
        f'<span class="el-tag__content">{ctx.chip_text("：")}</span></span>',
    )
    tab_labels = ("首页", "库存", "单据", "我的") if ctx.zh else ("Home", "Stock", "Orders", "Me")
    tabs = base.phone_tabs(("home", "box", "doc", "user"), tab_labels)
    html = (
        '<div class="phone">'
        f"{base.phone_status_bar('10:24', fg, 'var(--el-bg-color)')}"
        f'<div class="bar">{icon("chevron-left", 22)}<span>{esc(ctx.spec.title)}</span>'
        f"{icon('search', 20)}</div>"
        f'<div class="filters">{chip}<span class="el-tag el-tag--info el-tag--light">'
        f'<span class="el-tag__content">{"低于安全库存" if ctx.zh else "Below minimum"}</span>'
        "</span>"
        "</div>"
        f'<div class="list" data-scroll>{"".join(cards)}<div style="height:240px"></div></div>'
        f'<div class="tabs">{tabs}</div>{base.phone_home(fg)}</div>'
    )
    return Body(html, css=PHONE_CSS + PHONE, html_attrs=' class="dark"' if dark else "")
