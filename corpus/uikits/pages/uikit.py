"""UIkit pages: `uk-navbar`, a `uk-nav-default` sidebar, `uk-breadcrumb`, `uk-label`s and a
`uk-table uk-table-divider` in a `uk-card` (`uk-light` on a secondary background for dark)."""

from __future__ import annotations

from .base import Badge, Body, Ctx, esc, on

CSS = """
.shell{display:flex;height:100vh;overflow:hidden}
.shell aside{width:220px;flex:none;padding:24px 20px}
.shell main{flex:1;overflow:hidden;padding:0 30px}
"""


IS_ACTIVE = ' class="uk-active"'


LABEL = Badge(
    '<span class="uk-label {kind}"{attrs}>{text}</span>', "uk-label-danger", "uk-label-success"
)
WRAPS = {"sku": '<a class="uk-link-reset" href="#">{text}</a>'}


def admin(ctx: Ctx) -> Body:
    dark = ctx.spec.theme == "dark"
    links = "".join(
        f'<li{on(label, IS_ACTIVE)}><a href="#">{esc(label)}</a></li>' for _, label in ctx.nav()
    )
    crumbs = ctx.trail(
        '<li><a href="#">{text}</a></li>',
        "<li><span>{text}</span></li>",
    )
    title = ctx.heading(" · ")
    chip = ctx.if_cue(
        "chip",
        f'<span class="uk-label uk-margin-small-right">{ctx.chip_text()} ×</span>',
    )
    classes = ctx.switched(
        "uk-table uk-table-divider uk-table-hover uk-table-middle",
        striped=" uk-table-striped",
        small=" uk-table-small",
    )
    markup = ctx.table(
        classes=classes,
        numeric="uk-text-right",
        td_inner=lambda r, c: ctx.marked(r, c, LABEL, WRAPS),
    )
    surface = "uk-background-secondary uk-light" if dark else "uk-background-muted"
    card = "uk-card uk-card-secondary" if dark else "uk-card uk-card-default"
    html = (
        f'<div class="shell {surface}">'
        f'<aside class="{"uk-background-secondary" if dark else "uk-background-default"}">'
        '<div class="uk-text-large uk-margin-bottom">StockShot</div>'
        f'<ul class="uk-nav uk-nav-default"><li class="uk-nav-header">Menu</li>{links}</ul></aside>'
        "<main data-scroll>"
        '<nav class="uk-navbar-container uk-navbar-transparent uk-navbar" uk-navbar><div '
        'class="uk-navbar-left">'
        '<ul class="uk-navbar-nav"><li class="uk-active"><a href="#">Stock</a></li>'
        '<li><a href="#">Movements</a></li><li><a href="#">Counts</a></li></ul></div>'
        '<div class="uk-navbar-right"><div class="uk-navbar-item"><input class="uk-input '
        'uk-form-small uk-form-width-medium" placeholder="Search"></div></div></nav>'
        f'<ul class="uk-breadcrumb">{crumbs}</ul>'
        f'<h3 class="uk-margin-small-top uk-margin-small-bottom">{title}</h3>'
        f'<div class="uk-margin-small-bottom">{chip}<span class="uk-label uk-label-warning">'
        "Count due</span></div>"
        f'<div class="{card} uk-card-small uk-card-body">{markup}'
        '<div class="uk-flex uk-flex-between uk-flex-middle">'
        f'<span class="uk-text-meta">{ctx.count_text(ctx.n + 12)}</span>'
        '<ul class="uk-pagination uk-margin-remove"><li><a href="#">‹</a></li>'
        '<li class="uk-active"><span>1</span></li><li><a href="#">2</a></li>'
        '<li><a href="#">›</a></li></ul></div></div></main></div>'
    )
    return Body(html, css=CSS)
