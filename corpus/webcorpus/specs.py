"""The corpus, as data: twelve browser renders of six designs, and six photos of some of them.

Displayed stock values equal the store's seed (the live view) unless a row gives the past
`on_hand` the screen showed, e.g. an item that looked low then and has been restocked since.
Everything random (update times, photo geometry noise) is drawn from `SEED`.
"""

from __future__ import annotations

from .model import Capture, Column, Field, Formats, Photo, Screen, Shown, Spec

SEED = 20261201

WH01 = (
    "SKU-10231", "SKU-10232", "SKU-10233", "SKU-10240", "SKU-10244", "SKU-10310",
    "SKU-10311", "SKU-10318", "SKU-10402", "SKU-10403", "SKU-10410", "SKU-10415",
    "SKU-10501", "SKU-10502", "SKU-10510", "SKU-10511", "SKU-10520",
)  # fmt: skip
WH02 = (
    "SKU-10231", "SKU-10232", "SKU-10310", "SKU-10318", "SKU-10402", "SKU-10501",
    "SKU-10601", "SKU-10602", "SKU-10603", "SKU-10610", "SKU-10611", "SKU-10620",
    "SKU-10621", "SKU-10701", "SKU-10702",
)  # fmt: skip
WH03 = (
    "SKU-20101", "SKU-20102", "SKU-20103", "SKU-20110", "SKU-20111", "SKU-20120",
    "SKU-20121", "SKU-20130", "SKU-20131", "SKU-20140", "SKU-20150",
)  # fmt: skip


def rows(warehouse: str, skus: tuple[str, ...], **past: int) -> tuple[Shown, ...]:
    """Seed rows of one warehouse; `past` maps a SKU (with `_` for `-`) to a past on-hand."""
    shown = {k.replace("_", "-"): v for k, v in past.items()}
    return tuple(Shown(sku, warehouse, shown.get(sku)) for sku in skus)


def cols(*pairs: tuple[str, Field]) -> tuple[Column, ...]:
    return tuple(Column(header, field) for header, field in pairs)


ZH = Formats(low="库存不足", ok="正常", action="编辑", price="¥{:.2f}", language="zh")

SPECS: tuple[Spec, ...] = (
    Spec(
        file="erp-adminlte-wh01.png",
        design="adminlte",
        description="AdminLTE/Bootstrap stock table for WH-01, striped rows and status badges.",
        notes="Bootstrap card table at 1920x1080, 100%; one item shown low that has been "
        "restocked since; capture time in a PNG text chunk.",
        screen=Screen(1920, 1080, dpr=1, zoom=1.0),
        capture=Capture("png-text", "2026-12-01T09:12:44"),
        columns=cols(
            ("SKU", "sku"),
            ("Product", "name"),
            ("Warehouse", "warehouse"),
            ("On hand", "on_hand"),
            ("Reorder level", "reorder"),
            ("Status", "status"),
            ("Updated", "updated"),
        ),
        rows=rows("WH-01", WH01[:13], SKU_10402=60),
        title="Stock levels",
        page_warehouse="WH-01",
    ),
    Spec(
        file="Screenshot 2026-12-02 at 14.05.31.png",
        design="adminlte",
        description="AdminLTE table for WH-02 on a 2x display (2560x1440); no warehouse column.",
        notes="Device pixel ratio 2; the warehouse is stated only by the page; Item code/"
        "Description/Qty/Min. stock; capture time only in the macOS file name.",
        screen=Screen(2560, 1440, dpr=2, zoom=1.0),
        capture=Capture("filename"),
        columns=cols(
            ("Item code", "sku"),
            ("Description", "name"),
            ("Qty", "on_hand"),
            ("Min. stock", "reorder"),
            ("Unit price", "price"),
            ("Status", "status"),
        ),
        rows=rows("WH-02", WH02[7:15]),
        title="Stock levels · WH-02",
        page_warehouse="WH-02",
        formats=Formats(low="Reorder", ok="In stock"),
    ),
    Spec(
        file="erp-antd-wh03.png",
        design="antd",
        description="Ant Design Pro Chinese ERP stock query for WH-03 (商品编码/商品名称/…).",
        notes="Chinese UI and item names in Noto Sans CJK SC; tags 库存不足/正常, an edit link "
        "per row; capture time as an RFC 2822 PNG text.",
        screen=Screen(1920, 1080, dpr=1, zoom=1.0),
        capture=Capture("png-text", "Wed, 02 Dec 2026 10:21:07 +0800"),
        columns=cols(
            ("商品编码", "sku"),
            ("商品名称", "name"),
            ("当前库存", "on_hand"),
            ("警戒值", "reorder"),
            ("仓库", "warehouse"),
            ("状态", "status"),
            ("更新时间", "updated"),
            ("操作", "action"),
        ),
        rows=rows("WH-03", WH03, SKU_20111=8),
        title="库存查询",
        page_warehouse="WH-03",
        formats=ZH,
    ),
    Spec(
        file="stock_20261203-081522.png",
        design="antd",
        description="Chinese ERP page at 125% zoom, English item names from WH-01 and WH-02.",
        notes="Browser zoom 125% on a 1600x900 screen; WenQuanYi Micro Hei; mixed warehouses "
        "with a supplier and a unit price column; capture time in the file name.",
        screen=Screen(1600, 900, dpr=1, zoom=1.25),
        capture=Capture("filename"),
        columns=cols(
            ("商品编码", "sku"),
            ("商品名称", "name"),
            ("仓库", "warehouse"),
            ("当前库存", "on_hand"),
            ("警戒值", "reorder"),
            ("供应商", "supplier"),
            ("单价", "price"),
        ),
        rows=rows("WH-01", WH01[5:8]) + rows("WH-02", WH02[9:12]),
        title="库存查询",
        formats=ZH,
        font="wqy-microhei",
    ),
    Spec(
        file="sheet-wh02.png",
        design="sheet",
        description="Spreadsheet of WH-02 stock with gridlines, row numbers and a frozen header.",
        notes="Browser zoom 80% on a 1280x800 screen: small text; numbers without thousands "
        "separators; row numbers and column letters around the table.",
        screen=Screen(1280, 800, dpr=1, zoom=0.8),
        capture=Capture("png-text", "2026-12-02T16:48:09"),
        columns=cols(
            ("SKU", "sku"),
            ("Description", "name"),
            ("Warehouse", "warehouse"),
            ("Qty on hand", "on_hand"),
            ("Min qty", "reorder"),
            ("Supplier", "supplier"),
            ("Unit cost", "price"),
        ),
        rows=rows("WH-02", WH02),
        title="Stock count WH-02 (November)",
        formats=Formats(thousands=False, price="{:.2f}"),
    ),
    Spec(
        file="Screenshot_20261202-170248.png",
        design="sheet",
        description="Spreadsheet scrolled down under its frozen header, 2x display at 125%.",
        notes="Device pixel ratio 2 and zoom 125% (2560x1600); rows 2-8 are scrolled under the "
        "frozen header row, so row numbers start at 9; capture time in the file name.",
        screen=Screen(2560, 1600, dpr=2, zoom=1.25),
        capture=Capture("filename"),
        columns=cols(
            ("Item", "sku"),
            ("Name", "name"),
            ("On hand", "on_hand"),
            ("Reorder pt", "reorder"),
            ("Site", "warehouse"),
        ),
        rows=rows("WH-01", WH01[8:17]),
        title="WH-01 stock",
        formats=Formats(thousands=False),
        first_row=9,
    ),
    Spec(
        file="Screenshot 2026-12-01 at 16.40.12.png",
        design="dark",
        description="Dark operations dashboard for WH-01 on a 2x display at 80% zoom.",
        notes="Dark theme, uppercase headers, status dots and red low quantities; dpr 2 at 80% "
        "(2560x1440); capture time in the file name.",
        screen=Screen(2560, 1440, dpr=2, zoom=0.8),
        capture=Capture("filename"),
        columns=cols(
            ("SKU", "sku"),
            ("ITEM", "name"),
            ("SITE", "warehouse"),
            ("IN STOCK", "on_hand"),
            ("REORDER AT", "reorder"),
            ("ON ORDER", "on_order"),
            ("STATUS", "status"),
        ),
        rows=rows("WH-01", WH01[:12], SKU_10240=55),
        title="Inventory · WH-01",
        page_warehouse="WH-01",
        formats=Formats(low="Low", ok="Healthy"),
    ),
    Spec(
        file="ops-dark-wh02.png",
        design="dark",
        description="Dark dashboard for WH-02 at 110% zoom; the warehouse only in the page.",
        notes="Browser zoom 110% on 1760x990; Roboto; no warehouse column; supplier column; "
        "capture time in a PNG text chunk.",
        screen=Screen(1760, 990, dpr=1, zoom=1.1),
        capture=Capture("png-text", "2026-12-03T07:58:30"),
        columns=cols(
            ("SKU", "sku"),
            ("Item", "name"),
            ("On hand", "on_hand"),
            ("Reorder point", "reorder"),
            ("Status", "status"),
            ("Supplier", "supplier"),
        ),
        rows=rows("WH-02", WH02[:12]),
        title="Inventory · WH-02",
        page_warehouse="WH-02",
        formats=Formats(low="Below min", ok="OK"),
        font="roboto",
    ),
    Spec(
        file="grid-mixed.png",
        design="grid",
        description="Dense data grid of WH-01 and WH-02 at 80% zoom: checkboxes, actions, pages.",
        notes="Eleven columns at 13 px shown at 80% (about 10 px on screen); two rows selected; "
        "day-first dates; the checkbox column is not part of the truth cells.",
        screen=Screen(1920, 1080, dpr=1, zoom=0.8),
        capture=Capture("png-text", "2026-12-02T11:37:52"),
        columns=cols(
            ("SKU", "sku"),
            ("Product name", "name"),
            ("Warehouse", "warehouse"),
            ("On hand", "on_hand"),
            ("Reorder pt.", "reorder"),
            ("On order", "on_order"),
            ("Status", "status"),
            ("Supplier", "supplier"),
            ("Unit price", "price"),
            ("Last updated", "updated"),
            ("Actions", "action"),
        ),
        rows=rows("WH-01", WH01) + rows("WH-02", WH02),
        title="Warehouse console",
        formats=Formats(date="%d/%m/%Y %H:%M"),
    ),
    Spec(
        file="Screenshot 2026-12-03 091733.png",
        design="grid",
        description="Dense data grid of WH-02 at 90% zoom in Roboto Condensed; Windows file name.",
        notes="Browser zoom 90% on 1440x900; Location/Qty/Reorder headers; a category column; "
        "capture time only in the file name.",
        screen=Screen(1440, 900, dpr=1, zoom=0.9),
        capture=Capture("filename"),
        columns=cols(
            ("SKU", "sku"),
            ("Item", "name"),
            ("Location", "warehouse"),
            ("Qty", "on_hand"),
            ("Reorder", "reorder"),
            ("Status", "status"),
            ("Category", "category"),
            ("Actions", "action"),
        ),
        rows=rows("WH-02", WH02, SKU_10603=12),
        title="Warehouse console",
        formats=Formats(low="Low", ok="OK", action="Edit"),
        font="roboto-condensed",
    ),
    Spec(
        file="report-stock-status.png",
        design="report",
        description="ERP stock report of WH-01 and WH-02: two-row header, merged warehouse cells.",
        notes="Item and Quantity headers span two and three columns, Warehouse and Status span "
        "both header rows; each warehouse cell is merged over its rows (cells repeat it, "
        "table_html keeps the merge); zoom 150% on 1920x1200.",
        screen=Screen(1920, 1200, dpr=1, zoom=1.5),
        capture=Capture("png-text", "2026-12-01T17:05:00"),
        columns=cols(
            ("Warehouse", "warehouse"),
            ("SKU", "sku"),
            ("Description", "name"),
            ("On hand", "on_hand"),
            ("Reorder point", "reorder"),
            ("On order", "on_order"),
            ("Status", "status"),
        ),
        rows=rows("WH-01", WH01[8:14]) + rows("WH-02", WH02[6:12]),
        title="Stock status by warehouse",
        formats=Formats(low="Below minimum", ok="OK"),
        header_groups=((None, 1), ("Item", 2), ("Quantity", 3), (None, 1)),
    ),
    Spec(
        file="Screenshot 2026-12-03 at 11.02.40.png",
        design="report",
        description="Bilingual stock report of WH-02 and WH-03, merged cells, 2x display at 80%.",
        notes="Header groups Item (3 columns), Stock (2) and Value (1); warehouse cells merged; "
        "Chinese item names in Noto Sans CJK SC; dpr 2 at 80% (2560x1600).",
        screen=Screen(2560, 1600, dpr=2, zoom=0.8),
        capture=Capture("filename"),
        columns=cols(
            ("Warehouse", "warehouse"),
            ("SKU", "sku"),
            ("Item", "name"),
            ("Category", "category"),
            ("On hand", "on_hand"),
            ("Reorder point", "reorder"),
            ("Unit price", "price"),
        ),
        rows=rows("WH-02", WH02[:6]) + rows("WH-03", WH03[:6]),
        title="Stock valuation by warehouse",
        font="noto-cjk-sc",
        header_groups=((None, 1), ("Item", 3), ("Stock", 2), ("Value", 1)),
    ),
)


def _exif(stamp: str) -> Capture:
    return Capture("exif", stamp, "+08:00")


PHOTOS: tuple[Photo, ...] = (
    Photo(
        file="photo-adminlte-wh01.jpg",
        source="erp-adminlte-wh01.png",
        description="Phone photo of the AdminLTE WH-01 page: keystone, glare, a monitor on a desk.",
        size=(2016, 1512),
        fill=0.82,
        pitch=8.0,
        yaw=-6.0,
        roll=1.5,
        shift=(0.0, -0.03),
        blur=0.9,
        noise=2.5,
        moire=0.05,
        glare=0.22,
        quality=85,
        capture=_exif("2026:12:01 09:14:05"),
    ),
    Photo(
        file="photo-antd-wh03.jpg",
        source="erp-antd-wh03.png",
        description="Phone photo of the Chinese ERP page, taken from the right and from below.",
        size=(2016, 1512),
        fill=0.8,
        pitch=-5.0,
        yaw=12.0,
        roll=-2.5,
        shift=(0.01, 0.0),
        blur=1.0,
        noise=3.0,
        moire=0.06,
        glare=0.18,
        quality=85,
        capture=_exif("2026:12:02 10:23:41"),
    ),
    Photo(
        file="photo-sheet-wh02.jpg",
        source="sheet-wh02.png",
        description="Phone photo of the WH-02 spreadsheet, strong vertical keystone.",
        size=(2016, 1512),
        fill=0.86,
        pitch=13.0,
        yaw=3.0,
        roll=0.8,
        shift=(0.0, -0.02),
        blur=0.8,
        noise=2.0,
        moire=0.08,
        glare=0.15,
        quality=85,
        capture=_exif("2026:12:02 16:50:12"),
    ),
    Photo(
        file="photo-dark-wh01.jpg",
        source="Screenshot 2026-12-01 at 16.40.12.png",
        description="Phone photo of the dark WH-01 dashboard from the left, tilted 3 degrees.",
        size=(2016, 1512),
        fill=0.8,
        pitch=4.0,
        yaw=-14.0,
        roll=3.0,
        shift=(-0.01, 0.0),
        blur=1.1,
        noise=3.5,
        moire=0.04,
        glare=0.3,
        quality=85,
        capture=_exif("2026:12:01 16:42:30"),
    ),
    Photo(
        file="photo-grid-wh02.jpg",
        source="Screenshot 2026-12-03 091733.png",
        description="Phone photo of the dense WH-02 grid, 15 degree keystone from above.",
        size=(2016, 1512),
        fill=0.84,
        pitch=15.0,
        yaw=0.0,
        roll=-1.0,
        shift=(0.0, 0.0),
        blur=0.9,
        noise=2.5,
        moire=0.07,
        glare=0.2,
        quality=85,
        capture=_exif("2026:12:03 09:18:05"),
    ),
    Photo(
        file="photo-report.jpg",
        source="report-stock-status.png",
        description="Phone photo of the merged-header report, from below left, a little blurred.",
        size=(2016, 1512),
        fill=0.8,
        pitch=-10.0,
        yaw=-8.0,
        roll=2.0,
        shift=(0.0, 0.02),
        blur=1.4,
        noise=3.0,
        moire=0.05,
        glare=0.25,
        quality=85,
        capture=_exif("2026:12:01 17:07:21"),
    ),
)
