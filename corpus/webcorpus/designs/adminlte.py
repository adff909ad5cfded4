"""An AdminLTE / Bootstrap 4 admin page: dark sidebar, white navbar, a card with a striped table."""

from __future__ import annotations

from html import escape

from ..data import TableData
from ..markup import Cell, render_table
from ..model import Spec
from .common import Page, badge, icon, plain_cell, status_of, stock_markup, styled_page

FONTS = ("lato",)
NAV = (
    ("home", "Dashboard"),
    ("box", "Inventory"),
    ("truck", "Purchase orders"),
    ("list", "Shipments"),
    ("user", "Suppliers"),
    ("chart", "Reports"),
    ("gear", "Settings"),
)

CSS = """
body{background:#f4f6f9;color:#212529;font-size:15px;line-height:1.5}
.sidebar{position:fixed;left:0;top:0;bottom:0;width:250px;background:#343a40;color:#c2c7d0;
  box-shadow:0 14px 28px rgba(0,0,0,.25)}
.brand{display:flex;align-items:center;gap:10px;height:57px;padding:0 16px;font-size:20px;
  color:rgba(255,255,255,.85);border-bottom:1px solid #4b545c}
.logo{width:33px;height:33px;border-radius:50%;background:#e8edf3;color:#343a40;display:flex;
  align-items:center;justify-content:center;font-weight:700;font-size:14px}
.userpanel{display:flex;align-items:center;gap:10px;padding:14px 16px;
  border-bottom:1px solid #4b545c}
.avatar{width:34px;height:34px;border-radius:50%;background:#6c757d;color:#fff;display:flex;
  align-items:center;justify-content:center;font-size:13px}
.nav{list-style:none;margin:8px 8px;padding:0}
.nav li{display:flex;align-items:center;gap:12px;padding:8px 16px;border-radius:4px;
  margin-bottom:3px}
.nav li.active{background:#007bff;color:#fff;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.nav .head{font-size:12px;color:#8f969d;padding:12px 16px 4px;letter-spacing:.3px}
.main{margin-left:250px}
.navbar{height:57px;background:#fff;border-bottom:1px solid #dee2e6;display:flex;
  align-items:center;padding:0 16px;gap:22px;color:rgba(0,0,0,.5)}
.navbar .right{margin-left:auto;display:flex;gap:22px;align-items:center}
.pill{position:relative}
.pill b{position:absolute;top:-7px;right:-9px;background:#ffc107;color:#1f2d3d;font-size:10px;
  padding:1px 4px;border-radius:4px}
.header{display:flex;align-items:baseline;padding:18px 24px 10px}
.header h1{font-size:28px;font-weight:400;margin:0}
.crumbs{margin-left:auto;font-size:15px;color:#6c757d}
.crumbs a{color:#007bff}
.content{padding:0 24px}
.card{background:#fff;border-radius:4px;box-shadow:0 0 1px rgba(0,0,0,.13),0 1px 3px rgba(0,0,0,.2)}
.card-header{display:flex;align-items:center;padding:12px 20px;border-bottom:1px solid #e9ecef}
.card-title{font-size:18px;margin:0}
.tools{margin-left:auto;display:flex;gap:8px;align-items:center}
.input{display:flex;align-items:center;gap:6px;border:1px solid #ced4da;border-radius:4px;
  height:31px;padding:0 10px;width:220px;color:#939ba2;font-size:14px}
.btn{height:31px;padding:0 12px;border-radius:4px;border:1px solid #ced4da;background:#f8f9fa;
  display:flex;align-items:center;gap:6px;font-size:14px;color:#444}
.btn-primary{background:#007bff;border-color:#007bff;color:#fff}
table.stock{width:100%}
.stock th,.stock td{padding:9px 20px;text-align:left;border-top:1px solid #dee2e6;
  white-space:nowrap}
.stock th{border-bottom:2px solid #dee2e6;border-top:0;font-weight:700}
.stock tbody tr:nth-child(odd){background:rgba(0,0,0,.05)}
.stock .num{text-align:right}
.badge{display:inline-block;padding:3px 7px;font-size:12px;font-weight:700;border-radius:4px;
  line-height:1.2}
.badge-bad{background:#dc3545;color:#fff}
.badge-good{background:#28a745;color:#fff}
.card-footer{display:flex;align-items:center;padding:12px 20px;background:rgba(0,0,0,.03);
  border-top:1px solid rgba(0,0,0,.125);font-size:14px;color:#6c757d}
.pager{margin-left:auto;display:flex}
.pager span{border:1px solid #dee2e6;padding:5px 11px;margin-left:-1px;color:#007bff;
  background:#fff}
.pager span.on{background:#007bff;border-color:#007bff;color:#fff}
.pager span.off{color:#6c757d}
.footer{padding:14px 24px;color:#869099;font-size:14px}
"""


def _cell(table: TableData, r: int, c: int) -> Cell:
    if status_of(table, c):
        text = table.cells[r][c]
        return Cell(text, html=badge(text, table.is_low(r)), at=(r + 1, c))
    return plain_cell(table, r, c)


def _sidebar() -> str:
    items = "".join(
        f'<li class="{"active" if label == "Inventory" else ""}">{icon(name, 17)}{label}</li>'
        for name, label in NAV
    )
    return (
        '<aside class="sidebar"><div class="brand"><span class="logo">SS</span>'
        "StockShot ERP</div>"
        '<div class="userpanel"><span class="avatar">ML</span>Mei Lin</div>'
        f'<ul class="nav"><li class="head">MAIN NAVIGATION</li>{items}</ul></aside>'
    )


def page(spec: Spec, table: TableData) -> Page:
    markup = stock_markup(table, _cell, classes="stock")
    shown = len(table.cells)
    where = spec.page_warehouse or "all warehouses"
    body = (
        _sidebar() + '<div class="main">'
        f'<nav class="navbar">{icon("menu", 18)}<span>Home</span><span>Contact</span>'
        f'<div class="right">{icon("search", 17)}'
        f'<span class="pill">{icon("bell", 18)}<b>3</b></span>{icon("user", 18)}</div></nav>'
        f'<div class="header"><h1>{escape(spec.title)}</h1><div class="crumbs">'
        f"<a>Home</a> / <a>Inventory</a> / Stock levels</div></div>"
        '<div class="content"><div class="card"><div class="card-header">'
        f'<h3 class="card-title">Current stock: {escape(where)}</h3><div class="tools">'
        f'<span class="input">{icon("search", 14)}Search SKU or name</span>'
        f'<span class="btn">{icon("download", 14)}Export</span>'
        f'<span class="btn btn-primary">{icon("plus", 14)}New item</span></div></div>'
        f"{render_table(markup)}"
        f'<div class="card-footer">Showing 1 to {shown} of {shown + 4} entries'
        '<div class="pager"><span class="off">Previous</span><span class="on">1</span>'
        "<span>2</span><span>Next</span></div></div></div></div>"
        '<div class="footer"><b>Copyright © 2026 StockShot.</b> All rights reserved.</div>'
        "</div>"
    )
    return styled_page(spec, "en", FONTS, CSS, body, markup)
