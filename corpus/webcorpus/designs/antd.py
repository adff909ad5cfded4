"""An Ant Design Pro style Chinese ERP page: dark sider, search form card, table with tags."""

from __future__ import annotations

from html import escape

from ..data import TableData
from ..markup import Cell, render_table
from ..model import Spec
from .common import Page, badge, icon, plain_cell, status_of, stock_markup, styled_page

MENU = (
    ("home", "首页", ()),
    ("box", "库存管理", ("库存查询", "入库单", "出库单", "库存盘点")),
    ("truck", "采购管理", ()),
    ("user", "供应商", ()),
    ("chart", "报表中心", ()),
    ("gear", "系统设置", ()),
)
SELECTED = "库存查询"

CSS = """
body{background:#f5f5f5;color:rgba(0,0,0,.88);font-size:14px;line-height:1.5715}
.sider{position:fixed;left:0;top:0;bottom:0;width:208px;background:#001529;
  color:rgba(255,255,255,.65)}
.logo{height:64px;display:flex;align-items:center;gap:10px;padding:0 24px;color:#fff;
  font-size:18px;font-weight:700}
.logo i{width:28px;height:28px;border-radius:6px;background:#1677ff;display:inline-block}
.menu{list-style:none;margin:4px 0;padding:0}
.menu li{height:40px;display:flex;align-items:center;gap:10px;padding:0 24px;margin:4px 4px;
  border-radius:8px}
.menu li.sub{padding-left:48px;background:transparent}
.menu li.on{background:#1677ff;color:#fff}
.menu .caret{margin-left:auto}
.sub-wrap{background:#000c17;margin:0;padding:2px 0;list-style:none}
.main{margin-left:208px}
.header{height:56px;background:#fff;display:flex;align-items:center;padding:0 24px;gap:16px;
  box-shadow:0 1px 4px rgba(0,21,41,.08)}
.header .right{margin-left:auto;display:flex;align-items:center;gap:18px;
  color:rgba(0,0,0,.65)}
.avatar{width:28px;height:28px;border-radius:50%;background:#87d068;color:#fff;display:flex;
  align-items:center;justify-content:center;font-size:13px}
.crumbs{color:rgba(0,0,0,.45)}
.crumbs b{color:rgba(0,0,0,.88);font-weight:400}
.content{padding:16px 24px}
.title{font-size:20px;font-weight:700;margin:0 0 12px}
.card{background:#fff;border-radius:8px;padding:20px 24px;margin-bottom:16px}
.form{display:flex;gap:24px;align-items:center;white-space:nowrap}
.item{display:flex;align-items:center;gap:8px}
.input{flex:none;width:180px;height:32px;border:1px solid #d9d9d9;border-radius:6px;display:flex;
  align-items:center;padding:0 11px;color:rgba(0,0,0,.25)}
.input.filled{color:rgba(0,0,0,.88)}
.input .caret{margin-left:auto;color:rgba(0,0,0,.25)}
.btn{flex:none;height:32px;padding:0 15px;border-radius:6px;border:1px solid #d9d9d9;
  background:#fff;display:inline-flex;align-items:center;gap:6px}
.btn-primary{background:#1677ff;border-color:#1677ff;color:#fff}
.form .btns{margin-left:auto;display:flex;gap:8px}
.toolbar{display:flex;align-items:center;margin-bottom:16px}
.toolbar h3{font-size:16px;font-weight:700;margin:0}
.toolbar .btns{margin-left:auto;display:flex;gap:8px}
table.ant{width:100%}
.ant th{background:#fafafa;font-weight:700;text-align:left;padding:12px 16px;
  border-bottom:1px solid #f0f0f0;white-space:nowrap;position:relative}
.ant th+th::before{content:"";position:absolute;left:0;top:50%;height:22px;margin-top:-11px;
  width:1px;background:#f0f0f0}
.ant td{padding:12px 16px;border-bottom:1px solid #f0f0f0;white-space:nowrap}
.ant .num{text-align:right}
.ant th:first-child{border-radius:8px 0 0 0}
.ant th:last-child{border-radius:0 8px 0 0}
.tag{display:inline-block;padding:0 7px;font-size:12px;line-height:20px;border-radius:4px;
  border:1px solid}
.tag-bad{color:#cf1322;background:#fff1f0;border-color:#ffa39e}
.tag-good{color:#389e0d;background:#f6ffed;border-color:#b7eb8f}
.link{color:#1677ff}
.pager{display:flex;justify-content:flex-end;align-items:center;gap:8px;margin-top:16px}
.pager span{min-width:32px;height:32px;display:inline-flex;align-items:center;
  justify-content:center;border-radius:6px}
.pager span.on{border:1px solid #1677ff;color:#1677ff}
.pager span.size{border:1px solid #d9d9d9;padding:0 11px;gap:8px}
.low{color:#cf1322}
"""


def _cell(table: TableData, r: int, c: int) -> Cell:
    text = table.cells[r][c]
    field = table.fields[c]
    if status_of(table, c):
        return Cell(text, html=badge(text, table.is_low(r), "tag"), at=(r + 1, c))
    if field == "action":
        return Cell(text, html=f'<span class="link">{escape(text)}</span>', at=(r + 1, c))
    if field == "on_hand" and table.is_low(r):
        return Cell(text, classes="num low", at=(r + 1, c))
    return plain_cell(table, r, c)


def _menu() -> str:
    out = []
    for name, label, subs in MENU:
        caret = f'<span class="caret">{icon("chevron-down", 12)}</span>' if subs else ""
        out.append(f"<li>{icon(name, 15)}{label}{caret}</li>")
        if subs:
            items = "".join(
                f'<li class="sub{" on" if s == SELECTED else ""}">{s}</li>' for s in subs
            )
            out.append(f'<ul class="sub-wrap">{items}</ul>')
    return "".join(out)


def page(spec: Spec, table: TableData) -> Page:
    fonts = ("roboto", spec.font or "noto-cjk-sc")
    markup = stock_markup(table, _cell, classes="ant")
    warehouse = spec.page_warehouse or "全部仓库"
    shown = len(table.cells)
    body = (
        f'<aside class="sider"><div class="logo"><i></i>库存管理系统</div>'
        f'<ul class="menu">{_menu()}</ul></aside><div class="main">'
        f'<header class="header">{icon("menu", 18)}<span class="crumbs">库存管理 / '
        f'<b>{SELECTED}</b></span><div class="right">{icon("search", 16)}{icon("bell", 16)}'
        '<span class="avatar">王</span>王磊</div></header><div class="content">'
        f'<h2 class="title">{escape(spec.title)}</h2>'
        '<div class="card"><div class="form">'
        '<div class="item">商品编码：<span class="input">请输入商品编码</span></div>'
        f'<div class="item">仓库：<span class="input filled">{escape(warehouse)}'
        f'<span class="caret">{icon("chevron-down", 12)}</span></span></div>'
        '<div class="item">库存状态：<span class="input filled">全部'
        f'<span class="caret">{icon("chevron-down", 12)}</span></span></div>'
        '<div class="btns"><span class="btn">重置</span>'
        f'<span class="btn btn-primary">{icon("search", 14)}查询</span></div></div></div>'
        '<div class="card"><div class="toolbar"><h3>库存列表</h3><div class="btns">'
        f'<span class="btn">{icon("download", 14)}导出</span>'
        f'<span class="btn btn-primary">{icon("plus", 14)}新建</span></div></div>'
        f"{render_table(markup)}"
        f'<div class="pager">共 {shown} 条<span>{icon("chevron-left", 12)}</span>'
        f'<span class="on">1</span><span>{icon("chevron-right", 12)}</span>'
        f'<span class="size">20 条/页{icon("chevron-down", 12)}</span></div></div>'
        "</div></div>"
    )
    return styled_page(spec, "zh-CN", fonts, CSS, body, markup)
