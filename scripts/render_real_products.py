"""Rebuild corpus/real-products: real inventory products' own screens, rendered here, truth from
their databases.

Usage: python3 scripts/render_real_products.py ENV_DIR [--out DIR] [--only oscar,tryton,shuup]

Each product is installed from its registry into its own virtual environment under ENV_DIR
(django-oscar from PyPI; Tryton's server trytond with its product and stock modules from PyPI and
its web client tryton-sao from npm; Shuup 3.1 from PyPI, which needs a python3.8 on PATH), run on
SQLite, filled through its own models with the items in scripts/real_products/items.py, and its
pages are screenshotted with Playwright driving /usr/bin/chromium at several window sizes. For
every screenshot the rows fully inside the window are found in the page (by the record each row
links to or names), and truth.json is read back for exactly those rows from the product's own
database. Nothing on a screen is drawn by this project.

Network is needed only for the pip and npm installs (the first run, or when ENV_DIR is fresh);
seeding and rendering run offline against 127.0.0.1. Not part of `make test`. The output format is
that of ../shared/data/real-screens (truth.json, SOURCES.md), so its score.py scores it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SITES = HERE / "real_products"
CHROMIUM = "/usr/bin/chromium"
PYTHON = "python3.11"
RENDER_PACKAGES = ("playwright==1.65.3", "pillow")
BRACKET_CODE = re.compile(r"^\[([^\]]+)\]\s*(.*)$")

Row = dict[str, Any]


def split_code(title: str) -> tuple[str | None, str]:
    """`[CODE] Name` -> (CODE, Name); a title without a leading bracketed code -> (None, title)."""
    m = BRACKET_CODE.match(title)
    return (m.group(1), m.group(2)) if m else (None, title)


def truth_row(
    sku: str,
    name: str,
    on_hand: float | None = None,
    reorder_point: float | None = None,
    warehouse_id: str | None = None,
    unit: str | None = None,
) -> Row:
    """One row in the real-screens truth format; numbers as they mean (2.0 -> 2)."""

    def num(v: float | None) -> float | int | None:
        return int(v) if isinstance(v, float) and v.is_integer() else v

    return {
        "sku": sku,
        "name": name,
        "on_hand": num(on_hand),
        "reorder_point": num(reorder_point),
        "warehouse_id": warehouse_id,
        "unit": unit,
    }


# -------------------------------------------------------------------------------------------------
# environments and servers


def venv(env_dir: Path, name: str, packages: tuple[str, ...], python: str = PYTHON) -> Path:
    """A virtual environment under ENV_DIR with the packages installed (once); its python."""
    py = env_dir / name / "bin" / "python"
    stamp = env_dir / name / ".installed"
    if stamp.exists() and stamp.read_text() == "\n".join(packages):
        return py
    if not py.exists():
        subprocess.run([python, "-m", "venv", str(env_dir / name)], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", *packages], check=True)
    stamp.write_text("\n".join(packages))
    return py


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, seconds: float = 120) -> None:
    import urllib.error
    import urllib.request

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=5):  # noqa: S310 (127.0.0.1 only)
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"{url} did not answer within {seconds:.0f} s")


@contextlib.contextmanager
def server(cmd: list[str], env: dict[str, str], url: str, log: Path) -> Iterator[None]:
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=SITES)
        try:
            wait_http(url)
            yield
        finally:
            proc.terminate()
            proc.wait(timeout=30)


# -------------------------------------------------------------------------------------------------
# cases and the page


@dataclass
class Case:
    """One screenshot: where, at what size, what it shows, and how its visible rows become truth."""

    file: str
    url: str
    viewport: tuple[int, int]
    product: str
    version: str
    page: str
    kind: str  # the page kind the split is made by
    language: str
    layout: str
    shown: list[str]
    sku_column: str | None
    rows_css: str  # the page's row elements; those fully inside the window are the case's rows
    truth: Callable[[list[Any]], list[Row]]
    notes: str
    prepare: Callable[[Any], None] | None = None
    scroll_to: str | None = (
        None  # an element scrolled to the top of the window first, as a person would
    )
    columns: dict[str, str] = field(
        default_factory=dict
    )  # field -> header text that must be fully visible


VISIBLE_JS = """
(sel) => {
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight
      && r.left >= 0 && r.right <= window.innerWidth;
  };
  return Array.from(document.querySelectorAll(sel)).filter((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  }).map((el) => ({
    text: el.innerText,
    hrefs: Array.from(el.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')),
    inputs: Object.fromEntries(Array.from(el.querySelectorAll('input,select'))
      .map((i) => [i.name, i.value])),
    cut: Array.from(el.querySelectorAll('input')).filter((i) => i.scrollWidth > i.clientWidth + 1)
      .map((i) => i.name),
    cells: Array.from(el.querySelectorAll('td')).map((td) => ({text: td.innerText, seen:
    inside(td)})),
  }));
}
"""

HEADERS_JS = """
() => Array.from(document.querySelectorAll('th')).filter((th) => th.getBoundingClientRect().height >
0)
  .map((th) => {
    const r = th.getBoundingClientRect();
    return {text: th.innerText.trim(), seen: r.top >= 0 && r.bottom <= window.innerHeight
      && r.left >= 0 && r.right <= window.innerWidth};
  })
"""


def shoot(page: Any, case: Case, out: Path) -> dict[str, Any] | None:
    """Render one case: its truth entry, or None (saying why) when no row is fully visible."""
    page.set_viewport_size({"width": case.viewport[0], "height": case.viewport[1]})
    page.goto(case.url, wait_until="networkidle")
    page.wait_for_timeout(1500)
    if case.prepare:
        case.prepare(page)
    if case.scroll_to:
        page.eval_on_selector(case.scroll_to, "(el) => el.scrollIntoView(true)")
    page.wait_for_timeout(400)
    shown = list(case.shown)
    if case.columns:
        headers = {h["text"]: h["seen"] for h in page.evaluate(HEADERS_JS)}
        for fld, header in case.columns.items():
            if not headers.get(header, False) and fld in shown:
                shown.remove(fld)
    for _ in range(60):  # a client that loads its rows after the page: wait for them
        seen = page.evaluate(VISIBLE_JS, case.rows_css)
        rows = case.truth(seen)
        if rows:
            page.wait_for_timeout(500)  # and for the rest of them
            seen = page.evaluate(VISIBLE_JS, case.rows_css)
            rows = case.truth(seen)
            break
        page.wait_for_timeout(500)
    if not rows or "sku" not in shown:
        if os.environ.get("RENDER_DEBUG"):
            page.screenshot(path=str(out / f"debug-{case.file}"))
            print(json.dumps(seen, ensure_ascii=False)[:1500])
        print(f"  {case.file}: no row fully visible (or identifier cut); left out")
        return None
    raw = out / (case.file + ".raw.png")
    for _ in range(10):  # the rows read must be the rows in the picture: read again after it
        page.screenshot(path=str(raw), full_page=False)
        after = page.evaluate(VISIBLE_JS, case.rows_css)
        if after == seen:
            break
        seen, rows = after, case.truth(after)
        page.wait_for_timeout(500)
    else:
        raw.unlink()
        print(f"  {case.file}: the page kept changing; left out")
        return None
    if not rows:
        raw.unlink()
        print(f"  {case.file}: no row fully visible once settled; left out")
        return None
    optimise(raw, out / case.file)
    size = f"{case.viewport[0]}x{case.viewport[1]}"
    entry = {
        "file": case.file,
        "source": f"{case.product} {case.version}: {case.page} at {size}",
        "product": case.product,
        "version": case.version,
        "language": case.language,
        "layout": case.layout,
        "kind": case.kind,
        "viewport": f"{case.viewport[0]}x{case.viewport[1]}",
        "shown": shown,
        "sku_column": case.sku_column,
        "rows": rows,
        "notes": case.notes,
    }
    print(f"  {case.file}: {len(rows)} rows, shown {shown}")
    return entry


def optimise(raw: Path, dest: Path) -> None:
    """The screenshot losslessly recompressed (same pixels)."""
    from PIL import Image

    with Image.open(raw) as im:
        im.convert("RGB").save(dest, optimize=True)
    raw.unlink()


# -------------------------------------------------------------------------------------------------
# django-oscar


OSCAR_PACKAGES = ("django-oscar==4.2.1", "sorl-thumbnail")
PRODUCT_PK = re.compile(r"/dashboard/catalogue/products/(\d+)/")


def oscar_cases(base: str, db: dict[str, Any], version: str) -> list[Case]:
    products: dict[str, dict[str, Any]] = db["products"]
    records: dict[str, dict[str, Any]] = {str(r["id"]): r for r in db["stockrecords"]}

    def product_pk(row: dict[str, Any]) -> str | None:
        for h in row["hrefs"]:
            m = PRODUCT_PK.search(h)
            if m:
                return m.group(1)
        return None

    def ident(title: str, upc: str | None) -> tuple[str, str]:
        code, name = split_code(title)
        return (upc or code or name), name

    def product_list(rows: list[dict[str, Any]]) -> list[Row]:
        out = []
        for r in rows:
            pk = product_pk(r)
            if pk is None:
                continue
            p = products[pk]
            sku, name = ident(p["title"], p["upc"])
            out.append(truth_row(sku, name))
        return out

    def alerts(rows: list[dict[str, Any]]) -> list[Row]:
        out = []
        for r in rows:
            pk = product_pk(r)
            if pk is None:
                continue
            partner = r["cells"][1]["text"].strip()
            rec = next(
                s for s in db["stockrecords"] if s["product"] == pk and s["partner"] == partner
            )
            code, name = split_code(products[pk]["title"])
            out.append(
                truth_row(
                    code or name,
                    name,
                    on_hand=rec["net_stock_level"],
                    reorder_point=rec["low_stock_threshold"],
                    warehouse_id=rec["partner"],
                )
            )
        return out

    def stock_tab(rows: list[dict[str, Any]]) -> list[Row]:
        out = []
        for r in rows:
            rid = next((v for k, v in r["inputs"].items() if k.endswith("-id") and v), None)
            if rid is None or any(k.endswith("-partner_sku") for k in r["cut"]):
                continue  # an empty form row, or one whose SKU box is too narrow to show it whole
            rec = records[rid]
            _, name = split_code(products[rec["product"]]["title"])
            out.append(
                truth_row(
                    rec["partner_sku"],
                    name,
                    on_hand=rec["num_in_stock"],
                    reorder_point=rec["low_stock_threshold"],
                    warehouse_id=rec["partner"],
                )
            )
        return out

    def open_stock_tab(page: Any) -> None:
        page.click("a[href='#product_stock']")

    common: dict[str, Any] = {
        "product": "django-oscar",
        "version": version,
        "language": "en, de, zh",
    }
    plist_note = (
        "Dashboard > Catalogue > Products (django-tables2 grid: Title, UPC, thumbnail "
        "placeholder, product type, "
        "variants, number of stock records, public, date). The identifier is the UPC (an EAN-13) "
        "where the "
        "product has one; otherwise the code in brackets at the start of the title; otherwise the"
        " title. `name` "
        "is the title without a leading bracketed code. Titles are English, German and Chinese."
    )
    alert_note = (
        "Dashboard > Catalogue > Stock alerts: Product (title), Partner (the stock location), Low"
        " stock threshold, "
        "Current available stock (in stock minus allocated), date, status. No code column: the "
        "identifier is "
        "the code in brackets at the start of the title, or the title; `name` is the title "
        "without that code."
    )
    tab_note = (
        "Product edit form, Stock and pricing tab: a form over a table of stock records, one per "
        "partner "
        "(stock location), each with partner select, partner SKU, num in stock, num allocated, "
        "low stock "
        "threshold, currency and price inputs, and two empty rows for new records. `on_hand` is "
        "the num in "
        "stock input; the product's title is in the form, not in the rows."
    )
    plist_cols = {"sku": "UPC", "name": "Title"}
    alert_cols = {
        "warehouse_id": "Partner",
        "reorder_point": "Low stock threshold",
        "on_hand": "Current available stock",
        "sku": "Product",
    }
    tab_cols = {
        "warehouse_id": "Partner",
        "sku": "SKU",
        "on_hand": "Num in stock",
        "reorder_point": "Low stock threshold",
    }
    many = sorted(
        {r["product"] for r in db["stockrecords"]},
        key=lambda pk: (-sum(r["product"] == pk for r in db["stockrecords"]), int(pk)),
    )
    product_list_page: dict[str, Any] = dict(
        kind="product-list",
        layout="table",
        shown=["sku", "name"],
        sku_column="UPC",
        rows_css="table tbody tr",
        truth=product_list,
        notes=plist_note,
        columns=plist_cols,
        **common,
    )
    alerts_page: dict[str, Any] = dict(
        kind="stock-alerts",
        layout="table",
        shown=["sku", "on_hand", "reorder_point", "warehouse_id"],
        sku_column=None,
        rows_css="table tr",
        truth=alerts,
        notes=alert_note,
        columns=alert_cols,
        **common,
    )
    products_title, catalogue = "Dashboard > Catalogue > Products", f"{base}/dashboard/catalogue"
    alerts_title = "Dashboard > Catalogue > Stock alerts"
    cases = [
        Case(
            "oscar-products-1280.png",
            f"{catalogue}/",
            (1280, 800),
            page=f"{products_title}, page 1",
            scroll_to="table caption",
            **product_list_page,
        ),
        Case(
            "oscar-products-1920.png",
            f"{catalogue}/?page=2",
            (1920, 1080),
            page=f"{products_title}, page 2",
            **product_list_page,
        ),
        Case(
            "oscar-products-narrow.png",
            f"{catalogue}/?page=2",
            (820, 1180),
            page=f"{products_title}, page 2",
            **product_list_page,
        ),
        Case(
            "oscar-stock-alerts-1440.png",
            f"{catalogue}/stock-alerts/",
            (1440, 900),
            page=f"{alerts_title}, page 1",
            **alerts_page,
        ),
        Case(
            "oscar-stock-alerts-1920.png",
            f"{catalogue}/stock-alerts/?page=2",
            (1920, 1080),
            page=f"{alerts_title}, page 2",
            **alerts_page,
        ),
    ]
    sizes = [(1280, 800), (1440, 900), (1920, 1080), (1366, 768), (1600, 900)]
    for pk, size in zip(many[:5], sizes, strict=True):
        cases.append(
            Case(
                f"oscar-stock-records-{pk}-{size[0]}.png",
                f"{base}/dashboard/catalogue/products/{pk}/",
                size,
                page="Dashboard > Catalogue > Products > edit > Stock and pricing tab",
                kind="stock-records-form",
                layout="form+table",
                shown=["sku", "on_hand", "reorder_point", "warehouse_id"],
                sku_column="SKU",
                rows_css="#product_stock table tbody tr",
                truth=stock_tab,
                notes=tab_note,
                prepare=open_stock_tab,
                columns=tab_cols,
                **common,
            )
        )
    return cases


def render_oscar(env_dir: Path, out: Path, page: Any) -> list[dict[str, Any]]:
    py = venv(env_dir, "oscar", OSCAR_PACKAGES)
    site = env_dir / "oscar-site"
    shutil.rmtree(site, ignore_errors=True)
    site.mkdir(parents=True)
    env = dict(
        os.environ,
        OSCAR_SITE_DIR=str(site),
        PYTHONPATH=str(SITES),
        DJANGO_SETTINGS_MODULE="oscar_site.settings",
        PYTHONWARNINGS="ignore",
    )
    seeded = subprocess.run(
        [str(py), str(SITES / "oscar_seed.py")], env=env, check=True, capture_output=True, text=True
    )
    db = json.loads(seeded.stdout)
    version = subprocess.run(
        [str(py), "-c", "import oscar; print(oscar.get_version())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [str(py), "-m", "django", "runserver", "--noreload", "--nothreading", f"127.0.0.1:{port}"]
    entries = []
    with server(cmd, env, base + "/dashboard/", site / "server.log"):
        page.context.add_cookies([{"name": "sessionid", "value": db["sessionid"], "url": base}])
        for case in oscar_cases(base, db, version):
            entry = shoot(page, case, out)
            if entry:
                entries.append(entry)
    return entries


# -------------------------------------------------------------------------------------------------
# Shuup (its admin; Shuup 3.1 pins Babel 2.5 and Django 2.2, which do not run on Python 3.10+)


SHUUP_PYTHON = "python3.8"
SHUUP_PACKAGES = ("shuup==3.1.0", "markupsafe<2.1")  # its Jinja2 2.x needs a MarkupSafe before 2.1


def shuup_cases(base: str, db: dict[str, Any]) -> list[Case]:
    stock: list[dict[str, Any]] = db["stock"]
    products = {p["sku"]: p for p in db["products"]}

    def row_sku(row: dict[str, Any]) -> str | None:
        return next(
            (c["text"].strip() for c in row["cells"] if c["text"].strip() in products), None
        )

    def stock_rows(rows: list[dict[str, Any]]) -> list[Row]:
        out = []
        for r in rows:
            sku = row_sku(r)
            supplier = str(r["cells"][2]["text"]).strip() if len(r["cells"]) > 2 else ""
            rec = next((s for s in stock if s["sku"] == sku and s["supplier"] == supplier), None)
            if rec is None:
                continue
            out.append(
                truth_row(
                    rec["sku"],
                    rec["name"],
                    on_hand=rec["physical_count"],
                    reorder_point=rec["alert_limit"],
                    warehouse_id=rec["supplier"],
                    unit=rec["unit"],
                )
            )
        return out

    def product_rows(rows: list[dict[str, Any]]) -> list[Row]:
        out = []
        for r in rows:
            sku = row_sku(r)
            if sku is not None:
                out.append(truth_row(sku, products[sku]["name"]))
        return out

    common: dict[str, Any] = {"product": "Shuup", "version": "3.1.0", "language": "en, de, zh"}
    stock_note = (
        "Admin > Stock management (simple supplier module): one row per product and supplier (a "
        "supplier is a stock location here) with SKU (a badge), Name, Supplier, and the stock "
        "information as stacked cards (Physical count (unit), Logical count (unit), Value per "
        "unit, "
        "Total value, Alert limit (unit)) beside an adjust-stock form. `on_hand` is the physical "
        "count, `reorder_point` the alert limit, `unit` the sales unit in the card titles."
    )
    product_note = (
        "Admin > Products list (picotable): Primary Image, Name, SKU, Barcode, Mode, Primary "
        "Category, Categories, Suppliers. SKUs are internal codes, EAN-13 barcodes, or SKU-10xx."
    )
    stock_shown = ["sku", "name", "on_hand", "reorder_point", "warehouse_id", "unit"]
    stock_url = f"{base}/sa/stocks/"
    products_url = f"{base}/sa/products/"
    return [
        Case(
            "shuup-stock-1440.png",
            stock_url,
            (1440, 900),
            page="Admin > Stock management",
            kind="stock-cards",
            layout="table",
            shown=stock_shown,
            sku_column="SKU",
            rows_css="table tbody tr",
            truth=stock_rows,
            notes=stock_note,
            **common,
        ),
        Case(
            "shuup-stock-1920.png",
            stock_url,
            (1920, 1080),
            page="Admin > Stock management",
            kind="stock-cards",
            layout="table",
            shown=stock_shown,
            sku_column="SKU",
            rows_css="table tbody tr",
            truth=stock_rows,
            notes=stock_note,
            scroll_to="table tbody tr:nth-child(6)",
            **common,
        ),
        Case(
            "shuup-products-1280.png",
            products_url,
            (1280, 800),
            page="Admin > Products",
            kind="product-list",
            layout="table",
            shown=["sku", "name"],
            sku_column="SKU",
            rows_css="table tbody tr",
            truth=product_rows,
            notes=product_note,
            **common,
        ),
        Case(
            "shuup-products-1920.png",
            products_url,
            (1920, 1080),
            page="Admin > Products",
            kind="product-list",
            layout="table",
            shown=["sku", "name"],
            sku_column="SKU",
            rows_css="table tbody tr",
            truth=product_rows,
            notes=product_note,
            **common,
        ),
    ]


def render_shuup(env_dir: Path, out: Path, page: Any) -> list[dict[str, Any]]:
    py = venv(env_dir, "shuup38", SHUUP_PACKAGES, python=SHUUP_PYTHON)
    site = env_dir / "shuup-site"
    shutil.rmtree(site, ignore_errors=True)
    site.mkdir(parents=True)
    env = dict(
        os.environ,
        SHUUP_SITE_DIR=str(site),
        PYTHONPATH=str(SITES),
        DJANGO_SETTINGS_MODULE="shuup_site.settings",
        PYTHONWARNINGS="ignore",
    )
    manage = [str(py), "-m", "django"]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=SITES)
    subprocess.run([*manage, "shuup_init"], env=env, check=True, cwd=SITES)
    seeded = subprocess.run(
        [str(py), str(SITES / "shuup_seed.py")],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=SITES,
    )
    db = json.loads(seeded.stdout)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"]
    entries = []
    with server(cmd, env, base + "/sa/", site / "server.log"):
        page.context.add_cookies([{"name": "sessionid", "value": db["sessionid"], "url": base}])
        for case in shuup_cases(base, db):
            entry = shoot(page, case, out)
            if entry:
                entries.append(entry)
    return entries


# -------------------------------------------------------------------------------------------------
# Tryton (trytond server, sao web client)


TRYTON_PACKAGES = ("trytond>=8.0,<8.1", "trytond-product>=8.0,<8.1", "trytond-stock>=8.0,<8.1")
SAO_VERSION = "8.0.11"  # the web client's series must match the server's
TRYTON_PASSWORD = "admin-render"  # noqa: S105 (a throwaway local database)
SAO_ROWS = "#tabcontent div.treeview table.tree tbody tr"
SAO_EXPAND_JS = """
() => {
  window.renderOpened = window.renderOpened || new Set();
  const todo = Array.from(document.querySelectorAll('#tabcontent div.treeview table.tree tbody tr'))
    .filter((tr) => {
      const e = tr.querySelector('span.expander');
      return e && e.style.visibility === 'visible' && !window.renderOpened.has(tr.innerText);
    });
  todo.forEach((tr) => {
    window.renderOpened.add(tr.innerText);
    tr.querySelector('span.expander img').click();
  });
  return todo.length;
}
"""


def sao_client(env_dir: Path) -> Path:
    """tryton-sao from npm, built as its Gruntfile builds it (concatenated JS and compiled LESS)."""
    root = env_dir / f"sao-{SAO_VERSION}"
    if (root / "package" / "dist" / "tryton-sao.js").exists():
        return root / "package"
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "pack", f"tryton-sao@{SAO_VERSION}"], cwd=root, check=True)
    subprocess.run(["tar", "xzf", f"tryton-sao-{SAO_VERSION}.tgz"], cwd=root, check=True)
    pkg = root / "package"
    subprocess.run(
        ["npm", "install", "--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"],
        cwd=pkg,
        check=True,
    )
    subprocess.run(["npx", "grunt", "concat", "less"], cwd=pkg, check=True)
    return pkg


def tryton_cases(base: str, db: dict[str, Any]) -> list[Case]:
    products: dict[str, dict[str, Any]] = db["products"]
    by_rec = {p["rec_name"]: pid for pid, p in products.items()}
    locations: dict[str, dict[str, Any]] = db["locations"]
    by_loc_name = {loc["name"]: lid for lid, loc in locations.items()}
    quantities: dict[str, dict[str, float]] = db["quantities"]

    def q(value: object) -> str:
        import urllib.parse

        return urllib.parse.quote(json.dumps(value, ensure_ascii=False))

    def cell(row: dict[str, Any], index: int) -> str:
        cells = row["cells"]
        return str(cells[index]["text"]).strip() if len(cells) > index else ""

    def products_at(loc_id: str) -> Callable[[list[Any]], list[Row]]:
        def truth(rows: list[dict[str, Any]]) -> list[Row]:
            out = []
            for r in rows:
                pid = by_rec.get(cell(r, 2))
                if pid is None:
                    continue
                p = products[pid]
                out.append(
                    truth_row(
                        p["code"] or p["name"],
                        p["name"],
                        on_hand=quantities.get(loc_id, {}).get(pid, 0.0),
                        unit=p["unit"],
                    )
                )
            return out

        return truth

    def locations_of(pid: str) -> Callable[[list[Any]], list[Row]]:
        p = products[pid]

        def truth(rows: list[dict[str, Any]]) -> list[Row]:
            out = []
            for r in rows:
                lid = by_loc_name.get(cell(r, 2))
                if lid is None:
                    continue
                out.append(
                    truth_row(
                        p["code"] or p["name"],
                        p["name"],
                        on_hand=quantities.get(lid, {}).get(pid, 0.0),
                        warehouse_id=locations[lid]["name"],
                        unit=p["unit"],
                    )
                )
            return out

        return truth

    def expand(page: Any) -> None:
        page.wait_for_selector(SAO_ROWS)
        opened = 0
        for _ in range(8):
            n = page.evaluate(SAO_EXPAND_JS)
            if opened and not n:
                return
            opened += n
            page.wait_for_timeout(800)

    common: dict[str, Any] = {
        "product": "Tryton (trytond + sao)",
        "version": f"trytond 8.0, sao {SAO_VERSION}",
        "language": "en, de, zh",
        "sku_column": "Product ([code] name)",
    }
    pbl_note = (
        "Products by Locations for one location (the list a location's 'Products' relate opens: "
        "only products "
        "with a quantity or forecast there), under the location's context form (At Date, "
        "Company). Columns: "
        "Product as Tryton names it ('[CODE] Name', or the name where the product has no code), "
        "Quantity and "
        "Forecast Quantity with the unit symbol ('12.00 m', '169 u'), Cost Value. `sku` is the "
        "code inside the "
        "brackets, or the name; `on_hand` is Quantity (children locations included), `unit` its "
        "symbol. The "
        "location itself appears only in the tab's title."
    )
    tree_note = (
        "Stock Locations Tree for one product (a product's 'Locations' relate): the location "
        "tree, expanded, "
        "with the product's Quantity and Forecast Quantity in each location (parents include "
        "their children; "
        "lost-and-found is negative where stock was put in by moves from it). The product appears"
        " only in the "
        "tab title ('[CODE] Name'); every row is that product, `warehouse_id` is the location's "
        "name."
    )
    cases: list[Case] = []
    sizes = [(1280, 800), (1440, 900), (1920, 1080), (820, 1180)]
    for (name, lid), size in zip(
        sorted(((v["name"], k) for k, v in locations.items() if v["type"] == "warehouse")),
        sizes,
        strict=True,
    ):
        title = locations[lid]["rec_name"]
        domain = ["OR", ["quantity", "!=", 0.0], ["forecast_quantity", "!=", 0.0]]
        url = (
            f"{base}/#stock/model/stock.products_by_locations"
            f";context={q({'locations': [int(lid)]})}"
            f"&context_model=stock.products_by_locations.context&domain={q(domain)}"
            f"&name={q('Products @ ' + title)}"
        )
        slug = {
            "Lager Berlin": "berlin",
            "上海仓": "shanghai",
            "Leeds Warehouse": "leeds",
            "Dublin Shop": "dublin",
        }.get(name, lid)
        cases.append(
            Case(
                f"tryton-products-by-location-{slug}-{size[0]}.png",
                url,
                size,
                page=f"Products by Locations: {title}",
                kind="products-by-location",
                layout="table",
                shown=["sku", "on_hand", "unit"],
                rows_css=SAO_ROWS,
                truth=products_at(lid),
                notes=pbl_note,
                **common,
            )
        )
    codes = [pid for pid, p in sorted(products.items(), key=lambda kv: int(kv[0])) if p["code"]]
    named = [pid for pid, p in sorted(products.items(), key=lambda kv: int(kv[0])) if not p["code"]]
    for pid, size in ((codes[0], (1440, 900)), (named[2], (1280, 800)), (codes[5], (1920, 1080))):
        view = q([db["location_quantity_view"]])
        url = (
            f"{base}/#stock/model/stock.location;views={view}&context={q({'product': int(pid)})}"
            f"&domain={q([['parent', '=', None]])}&name={q(products[pid]['rec_name'])}"
        )
        cases.append(
            Case(
                f"tryton-locations-of-product-{pid}-{size[0]}.png",
                url,
                size,
                page=f"Stock Locations Tree: {products[pid]['rec_name']}",
                kind="locations-tree",
                layout="tree",
                shown=["sku", "on_hand", "warehouse_id", "unit"],
                rows_css=SAO_ROWS,
                truth=locations_of(pid),
                notes=tree_note,
                prepare=expand,
                **common,
            )
        )
    return cases


def sao_login(page: Any, base: str) -> None:
    page.goto(base + "/", wait_until="networkidle")
    page.fill("input#login", "admin")
    page.click("button[type=submit]")
    page.wait_for_selector("input[type=password]")
    page.fill("input[type=password]", TRYTON_PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("input[type=password]", state="detached")
    page.wait_for_timeout(2000)


def render_tryton(env_dir: Path, out: Path, page: Any) -> list[dict[str, Any]]:
    py = venv(env_dir, "tryton", TRYTON_PACKAGES)
    sao = sao_client(env_dir)
    site = env_dir / "tryton-site"
    shutil.rmtree(site, ignore_errors=True)
    site.mkdir(parents=True)
    port = free_port()
    conf = site / "trytond.conf"
    conf.write_text(
        f"[database]\nuri = sqlite://\npath = {site}\n"
        f"[web]\nlisten = 127.0.0.1:{port}\nroot = {sao}\n"
    )
    (site / "stock.sqlite").touch()
    (site / "admin-password").write_text(TRYTON_PASSWORD)
    env = dict(
        os.environ,
        TRYTONPASSFILE=str(site / "admin-password"),
        PYTHONPATH=str(SITES),
        PYTHONWARNINGS="ignore",
    )
    admin = [str(py), str(py.parent / "trytond-admin"), "-c", str(conf), "-d", "stock"]
    subprocess.run([*admin, "--all", "--email", "admin@example.com"], env=env, check=True)
    subprocess.run([*admin, "-u", "stock", "--activate-dependencies"], env=env, check=True)
    seeded = subprocess.run(
        [str(py), str(SITES / "tryton_seed.py"), str(conf), "stock"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    db = json.loads(seeded.stdout)
    base = f"http://127.0.0.1:{port}"
    # -d loads the database's modules at start (without it the first login finds no models)
    cmd = [str(py), str(py.parent / "trytond"), "-c", str(conf), "-d", "stock"]
    entries = []
    with server(cmd, env, base + "/", site / "server.log"):
        for case in tryton_cases(base, db):
            fresh = page.context.browser.new_context(
                device_scale_factor=1, locale="en-GB"
            ).new_page()
            fresh.set_viewport_size({"width": case.viewport[0], "height": case.viewport[1]})
            sao_login(fresh, base)
            entry = shoot(fresh, case, out)
            fresh.context.close()
            if entry:
                entries.append(entry)
    return entries


# -------------------------------------------------------------------------------------------------

# The split is made by page kind: a kind of page is either tuned on or kept sealed, for every
# product.
SEALED_KINDS = ("stock-alerts", "locations-tree", "stock-cards")


def write_split(out: Path, entries: list[dict[str, Any]]) -> None:
    split = {
        "about": (
            "Real products' own screens rendered here (truth.json, SOURCES.md beside this file; "
            "score with ../shared/data/real-screens/score.py). Split by page kind before any "
            "reading "
            f"was looked at: the kinds {', '.join(SEALED_KINDS)} are sealed (read only to judge, "
            "never "
            "opened while tuning), every other kind is tuned on."
        ),
        "sealed_kinds": list(SEALED_KINDS),
        "tuning": [e["file"] for e in entries if e["kind"] not in SEALED_KINDS],
        "sealed": [e["file"] for e in entries if e["kind"] in SEALED_KINDS],
    }
    (out / "split.json").write_text(json.dumps(split, ensure_ascii=False, indent=2) + "\n")


def write_sources(out: Path, entries: list[dict[str, Any]]) -> None:
    lines = [
        "# Real products' own screens, rendered here",
        "",
        "Each screenshot is a page of a real inventory product installed from its registry, run on "
        "SQLite on this machine, filled through its own models (`scripts/real_products/`), and "
        "screenshotted by Playwright with Chromium at the window size given. `truth.json` is read"
        " back "
        "from the product's own database for exactly the rows fully inside the window (the rows "
        "are "
        "found in the page by the record each one links to or names); nothing on a screen is "
        "drawn by "
        "this project. Rebuild: `python3 scripts/render_real_products.py ENV_DIR` (network for "
        "the pip "
        "and npm installs only). Conventions are those of `../shared/data/real-screens`: `shown` "
        "lists "
        "the fields the screen shows per row; where a row has no code, `sku` is the name as "
        "printed; a "
        "code written in brackets before a name (`[AB-12] Hex bolt`) is the row's `sku` and the "
        "rest its "
        "`name`; quantities are numbers (`2,343 u` is 2343 with unit `u`, `12.00 m` is 12 with "
        "unit `m`).",
        "",
        "Products and licences: django-oscar (BSD-3-Clause, PyPI `django-oscar`), Tryton "
        "(GPL-3.0-or-later: PyPI `trytond`, `trytond-product`, `trytond-stock`; npm `tryton-sao`), "
        "Shuup 3.1.0 (OSL-3.0, PyPI `shuup`, run on Python 3.8).",
        "",
        "| file | product | version | page | window | kind | rows | shown |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in entries:
        page = e["source"].split(": ", 1)[1].rsplit(" at ", 1)[0]
        lines.append(
            f"| {e['file']} | {e['product']} | {e['version']} | {page} | {e['viewport']} | "
            f"{e['kind']} | {len(e['rows'])} | {', '.join(e['shown'])} |"
        )
    lines += ["", "Notes per page kind:", ""]
    for kind in sorted({e["kind"] for e in entries}):
        note = next(e["notes"] for e in entries if e["kind"] == kind)
        lines.append(f"- **{kind}**: {note}")
    (out / "SOURCES.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


RENDERERS: dict[str, Callable[[Path, Path, Any], list[dict[str, Any]]]] = {
    "oscar": render_oscar,
    "tryton": render_tryton,
    "shuup": render_shuup,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "env_dir", type=Path, help="folder for the products' environments and databases"
    )
    ap.add_argument("--out", type=Path, default=HERE.parent / "corpus" / "real-products")
    ap.add_argument(
        "--only", default=",".join(RENDERERS), help="comma-separated: " + ", ".join(RENDERERS)
    )
    args = ap.parse_args()
    env_dir = args.env_dir.resolve()
    env_dir.mkdir(parents=True, exist_ok=True)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # run again under the render environment, which has Playwright and Pillow
        py = venv(env_dir, "render", RENDER_PACKAGES)
        os.execv(str(py), [str(py), *sys.argv])  # noqa: S606 (the same script, another Python)
    args.out.mkdir(parents=True, exist_ok=True)
    unknown = set(args.only.split(",")) - set(RENDERERS)
    if unknown:
        raise SystemExit(f"unknown product(s) {sorted(unknown)}; known: {', '.join(RENDERERS)}")
    truth_path = args.out / "truth.json"
    kept = json.loads(truth_path.read_text(encoding="utf-8")) if truth_path.exists() else []
    entries: list[dict[str, Any]] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        for name in args.only.split(","):
            print(f"{name}:")
            page = browser.new_context(device_scale_factor=1, locale="en-GB").new_page()
            entries += RENDERERS[name](env_dir, args.out, page)
            page.context.close()
        browser.close()
    done = {e["file"] for e in entries}
    prefixes = tuple(n + "-" for n in args.only.split(","))
    kept = [e for e in kept if e["file"] not in done and not e["file"].startswith(prefixes)]
    all_entries = sorted(kept + entries, key=lambda e: e["file"])
    truth_path.write_text(
        json.dumps(all_entries, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    write_split(args.out, all_entries)
    write_sources(args.out, all_entries)
    print(f"{len(entries)} screenshots written; truth.json holds {len(all_entries)}")


if __name__ == "__main__":
    main()
