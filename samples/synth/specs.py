"""The samples, as data. One renderer walks this list; nothing here draws.

Displayed stock values equal the store's seed (the live view) unless a row gives the past
`on_hand` the screen showed, e.g. an item that looked low then and has been restocked since.
"""

from __future__ import annotations

from dataclasses import replace

from .model import (
    Capture,
    Chrome,
    Column,
    Formats,
    Generic,
    PageText,
    Photo,
    Shown,
    Spec,
    TableStyle,
    Theme,
)

# --- themes ----------------------------------------------------------------------------------

LIGHT = Theme(
    page_bg=(245, 247, 250),
    text=(31, 41, 55),
    muted=(107, 114, 128),
    accent=(37, 99, 235),
    accent_text=(255, 255, 255),
    border=(226, 229, 234),
    card_bg=(255, 255, 255),
    sidebar_bg=(30, 41, 59),
    sidebar_text=(203, 213, 225),
    sidebar_active_bg=(51, 65, 85),
    sidebar_active_text=(255, 255, 255),
    topbar_bg=(255, 255, 255),
    input_bg=(243, 244, 246),
    header_bg=(248, 249, 251),
    header_text=(75, 85, 99),
    stripe=(247, 248, 250),
    rule=(229, 231, 235),
    low_text=(200, 30, 30),
    bad=((254, 226, 226), (185, 28, 28)),
    good=((220, 252, 231), (21, 128, 61)),
    info=((219, 234, 254), (29, 78, 216)),
)
DARK = Theme(
    page_bg=(17, 20, 27),
    text=(229, 231, 235),
    muted=(148, 155, 168),
    accent=(99, 102, 241),
    accent_text=(255, 255, 255),
    border=(48, 54, 66),
    card_bg=(26, 30, 39),
    sidebar_bg=(12, 14, 20),
    sidebar_text=(170, 176, 190),
    sidebar_active_bg=(38, 42, 56),
    sidebar_active_text=(255, 255, 255),
    topbar_bg=(22, 25, 33),
    input_bg=(33, 37, 48),
    header_bg=(33, 37, 48),
    header_text=(196, 201, 212),
    stripe=(32, 36, 46),
    rule=(48, 54, 66),
    low_text=(248, 113, 113),
    bad=((76, 29, 29), (252, 165, 165)),
    good=((20, 61, 41), (134, 239, 172)),
    info=((30, 41, 80), (147, 197, 253)),
)
TEAL = replace(
    LIGHT,
    accent=(13, 148, 136),
    sidebar_bg=(255, 255, 255),
    sidebar_text=(55, 65, 81),
    sidebar_active_bg=(204, 251, 241),
    sidebar_active_text=(15, 118, 110),
    header_bg=(236, 246, 244),
    header_text=(17, 94, 89),
)
PURPLE = replace(
    LIGHT,
    page_bg=(250, 250, 252),
    accent=(124, 58, 237),
    sidebar_bg=(243, 241, 250),
    sidebar_text=(67, 56, 102),
    sidebar_active_bg=(221, 214, 254),
    sidebar_active_text=(76, 29, 149),
    border=(232, 230, 240),
)
GREEN = replace(
    LIGHT,
    accent=(22, 163, 74),
    sidebar_bg=(20, 83, 45),
    sidebar_text=(220, 252, 231),
    sidebar_active_bg=(22, 101, 52),
)
ORANGE = replace(
    LIGHT,
    page_bg=(250, 249, 247),
    accent=(234, 88, 12),
    sidebar_bg=(255, 255, 255),
    sidebar_text=(68, 64, 60),
    sidebar_active_bg=(255, 237, 213),
    sidebar_active_text=(194, 65, 12),
    header_bg=(255, 255, 255),
)
SLATE = replace(
    LIGHT,
    accent=(71, 85, 105),
    sidebar_bg=(248, 250, 252),
    sidebar_text=(51, 65, 85),
    sidebar_active_bg=(226, 232, 240),
    sidebar_active_text=(15, 23, 42),
    stripe=(241, 245, 249),
)
INDIGO = replace(
    LIGHT,
    accent=(67, 56, 202),
    sidebar_bg=(30, 27, 75),
    sidebar_text=(199, 210, 254),
    sidebar_active_bg=(55, 48, 163),
    header_bg=(238, 242, 255),
    header_text=(49, 46, 129),
)
ANT = replace(
    LIGHT,
    page_bg=(240, 242, 245),
    text=(38, 38, 38),
    muted=(140, 140, 140),
    accent=(22, 119, 255),
    sidebar_bg=(0, 21, 41),
    sidebar_text=(166, 173, 180),
    sidebar_active_bg=(22, 119, 255),
    header_bg=(250, 250, 250),
    header_text=(38, 38, 38),
    rule=(240, 240, 240),
    border=(235, 235, 235),
)
CYAN_TABLET = replace(
    ANT,
    accent=(0, 150, 136),
    sidebar_bg=(255, 255, 255),
    sidebar_text=(60, 60, 60),
    sidebar_active_bg=(224, 242, 241),
    sidebar_active_text=(0, 121, 107),
    stripe=(246, 250, 250),
)
CLASSIC = replace(
    LIGHT,
    page_bg=(240, 240, 240),
    text=(0, 0, 0),
    muted=(90, 90, 90),
    accent=(0, 84, 153),
    header_bg=(228, 228, 228),
    header_text=(0, 0, 0),
    rule=(200, 200, 200),
    stripe=(245, 245, 245),
)
# Rendered white on black; the black becomes alpha 0 and the white the ink colour.
OVERLAY = replace(
    LIGHT,
    page_bg=(0, 0, 0),
    text=(255, 255, 255),
    muted=(255, 255, 255),
    header_text=(255, 255, 255),
    rule=(255, 255, 255),
    low_text=(255, 255, 255),
)
WHITE: tuple[int, int, int] = (255, 255, 255)
BLACK: tuple[int, int, int] = (0, 0, 0)

# --- page text -------------------------------------------------------------------------------

EN_PAGE = PageText(
    brand="Stockroom",
    nav=(
        "Dashboard",
        "Inventory",
        "Stock levels",
        "Transfers",
        "Purchase orders",
        "Suppliers",
        "Warehouses",
        "Reports",
        "Settings",
    ),
    active=2,
    search="Search items, orders, suppliers…",
    user="Li Wei",
    breadcrumb=("Inventory", "Stock levels"),
    title="Stock levels",
    subtitle="Live quantities per warehouse",
    actions=("Export", "+ New item"),
    chips=("Category: All", "Status: Any"),
    footer="Showing 1–{n} of {n} items",
    pager=("‹", "1", "›"),
)
ZH_PAGE = PageText(
    brand="云仓 WMS",
    nav=(
        "工作台",
        "库存管理",
        "库存查询",
        "入库单",
        "出库单",
        "调拨单",
        "采购订单",
        "供应商",
        "报表中心",
        "系统设置",
    ),
    active=2,
    search="搜索商品、单号…",
    user="王磊",
    breadcrumb=("首页", "库存管理", "库存查询"),
    title="库存查询",
    subtitle="南方仓（深圳）",
    actions=("导出", "+ 新建商品"),
    chips=("仓库：WH-03 南方仓", "状态：全部", "分类：全部"),
    footer="共 {n} 条",
    pager=("‹", "1", "›"),
    toolbar=("列设置",),
)
CLASSIC_PAGE = replace(
    EN_PAGE,
    title="WMS Pro 7.2 - [Stock List]",
    subtitle="Selection",
    menu=("File", "Edit", "View", "Inventory", "Purchasing", "Reports", "Window", "Help"),
    toolbar=("New", "Open", "Save", "Print", "Refresh", "Export"),
    fields=(("Warehouse:", "WH-02 North hub"), ("Item group:", "<All>"), ("Status:", "All")),
    status=("Ready", "{n} records", "User: ZHANG.M", "DB: PROD01"),
)

# --- chrome and table styles -----------------------------------------------------------------

ROBOTO_UI = Chrome(regular="roboto", bold="roboto-bold")
OPEN_SANS_UI = Chrome(regular="open-sans", bold="open-sans-bold")
LATO_UI = Chrome(regular="lato", bold="lato-bold", sidebar_w=248)
LIBERATION_UI = Chrome(regular="liberation-sans", bold="liberation-sans-bold", size=13)
DEJAVU_UI = Chrome(regular="dejavu-sans", bold="dejavu-sans-bold", size=13)
CJK_UI = Chrome(regular="noto-cjk", bold="noto-cjk-bold", sidebar_w=208)
CLASSIC_UI = Chrome(regular="liberation-sans", bold="liberation-sans-bold", size=12)
OVERLAY_UI = Chrome(regular="dejavu-sans", bold="dejavu-sans-bold", margin=24)


def _rows(warehouse: str, skus: str, shown: dict[str, int] | None = None) -> tuple[Shown, ...]:
    """Rows of one warehouse by SKU number, with the past on-hand values the screen showed."""
    past = shown or {}
    return tuple(Shown(f"SKU-{n}", warehouse, past.get(n)) for n in skus.split())


WH01_ALL = (
    "10231 10232 10233 10240 10244 10310 10311 10318 10402 10403 10410 10415 10501 10502 10510"
    " 10511 10520"
)
WH02_ALL = (
    "10231 10232 10310 10318 10402 10501 10601 10602 10603 10610 10611 10620 10621 10701 10702"
)
WH03_ALL = "20101 20102 20103 20110 20111 20120 20121 20130 20131 20140 20150"


def _cols(*pairs: tuple[str, str]) -> tuple[Column, ...]:
    return tuple(Column(header, field) for header, field in pairs)  # type: ignore[arg-type]


def _grid(text: str) -> tuple[tuple[str, ...], ...]:
    """Rows written one per line with `|` between cells."""
    lines = text.strip().splitlines()
    return tuple(tuple(cell.strip() for cell in line.split("|")) for line in lines)


SHIPMENT_ROWS = """
SHP-24811 | SF Express      | Ningbo       | Shanghai DC  | 2026-11-27 | 6  | 1,240  | In transit
SHP-24812 | Deppon          | Suzhou       | Shanghai DC  | 2026-11-27 | 2  | 380    | Delivered
SHP-24815 | COSCO Logistics | Qingdao      | Tianjin hub  | 2026-11-28 | 14 | 6,920  | In transit
SHP-24816 | ZTO Freight     | Hangzhou     | Shanghai DC  | 2026-11-28 | 1  | 96     | Booked
SHP-24820 | JD Logistics    | Guangzhou    | Shenzhen hub | 2026-11-29 | 4  | 1,015  | Delayed
SHP-24821 | SF Express      | Dongguan     | Shenzhen hub | 2026-11-29 | 3  | 744    | In transit
SHP-24824 | Sinotrans       | Tianjin port | Tianjin hub  | 2026-11-30 | 20 | 11,480 | Booked
SHP-24825 | Deppon          | Wuxi         | Shanghai DC  | 2026-11-30 | 5  | 1,102  | In transit
SHP-24829 | YTO Express     | Xiamen       | Shenzhen hub | 2026-12-01 | 2  | 410    | Booked
SHP-24830 | COSCO Logistics | Dalian       | Tianjin hub  | 2026-12-01 | 9  | 3,275  | Delayed
SHP-24833 | JD Logistics    | Hefei        | Shanghai DC  | 2026-12-02 | 7  | 2,060  | Booked
SHP-24834 | ZTO Freight     | Foshan       | Shenzhen hub | 2026-12-02 | 1  | 120    | Booked
"""

SUPPLIER_ROWS = """
Hangzhou Fastener Co.  | Zhou Min  | +86 571 8802 1147 | sales@hzfastener.example   | Hangzhou  | 7
Ningbo Packaging Ltd   | Chen Hao  | +86 574 8733 2096 | chen.hao@nbpack.example    | Ningbo    | 5
Shenzhen PowerCell     | Lin Xue   | +86 755 2661 7310 | orders@pwrcell.example     | Shenzhen  | 10
Tianjin SafeWear       | Wang Jun  | +86 22 2318 4452  | wang.jun@safewear.example  | Tianjin   | 6
Suzhou CableTech       | Xu Lei    | +86 512 6588 0913 | xu.lei@cabletech.example   | Suzhou    | 8
Qingdao LabelPrint     | Sun Yue   | +86 532 8577 6621 | service@labelprint.example | Qingdao   | 4
Guangzhou FilmPack     | He Jing   | +86 20 3882 1905  | he.jing@filmpack.example   | Guangzhou | 9
Wuxi Tools & Lights    | Zhao Peng | +86 510 8290 3348 | zhao.peng@wxtools.example  | Wuxi      | 12
Dongguan Wheels Mfg    | Liang Bo  | +86 769 2278 6150 | sales@dgwheels.example     | Dongguan  | 14
Xiamen Cartons         | Gao Lin   | +86 592 5710 2284 | gao.lin@xmcartons.example  | Xiamen    | 3
Shanghai Ribbon Supply | Ma Qian   | +86 21 6433 9071  | ma.qian@ribbon.example     | Shanghai  | 5
Foshan Glove Works     | Deng Hui  | +86 757 8630 4415 | deng.hui@fsglove.example   | Foshan    | 11
Hefei ElectroParts     | Yu Tao    | +86 551 6512 7738 | yu.tao@hfparts.example     | Hefei     | 9
Dalian Stretch Film    | Kong Wei  | +86 411 8479 2063 | kong.wei@dlfilm.example    | Dalian    | 7
"""


# --- the samples -----------------------------------------------------------------------------

LIGHT_DEMO = Spec(
    file="erp-light-wh01.png",
    kind="light",
    description="Light ERP stock table for WH-01 inside a full admin page (the main demo).",
    notes=(
        "Full page clutter around a ruled table; SKU-10402 shows 60 but was restocked since "
        "(live 310); SKU-10403 is low but covered by an open order; five items low on screen "
        "and live."
    ),
    layout="sidebar",
    view=(1920, 1080),
    theme=LIGHT,
    table=TableStyle(
        regular="roboto", bold="roboto-bold", size=14, row_h=38, header_h=42, highlight_low=True
    ),
    chrome=ROBOTO_UI,
    page=replace(
        EN_PAGE,
        brand="Northwind ERP",
        breadcrumb=("Inventory", "Stock levels", "WH-01"),
        subtitle="Main distribution centre · Shanghai",
        chips=("Warehouse: WH-01", "Category: All", "Status: Any"),
    ),
    capture=Capture("png-text", "2026-11-28T10:05:00"),
    seed=101,
    columns=_cols(
        ("SKU", "sku"),
        ("Product", "name"),
        ("Warehouse", "warehouse"),
        ("On hand", "on_hand"),
        ("Reorder point", "reorder"),
        ("Status", "status"),
        ("Last updated", "updated"),
    ),
    rows=_rows("WH-01", WH01_ALL, {"10402": 60}),
    page_warehouse="WH-01",
)

DARK_WH02 = Spec(
    file="erp-dark-wh02.png",
    kind="dark",
    description="Dark-theme stock table for WH-02 with zebra stripes and a unit price column.",
    notes=(
        "Light text on a dark page; Item code/Description/Qty/Min/WH headers; two rows restocked "
        "since."
    ),
    layout="sidebar",
    view=(1920, 1080),
    theme=DARK,
    table=TableStyle(
        regular="open-sans", bold="open-sans-bold", size=14, row_h=40, header_h=44, grid="striped"
    ),
    chrome=OPEN_SANS_UI,
    page=replace(
        EN_PAGE,
        brand="Cargo WMS",
        nav=("Overview", "Inventory", "Items", "Receiving", "Shipping", "Cycle counts", "Reports"),
        breadcrumb=("Inventory", "Items"),
        title="Items",
        subtitle="North hub · Tianjin",
        chips=("Warehouse: North hub (WH-02)", "Active items"),
        actions=("Import", "Export", "Add item"),
    ),
    capture=Capture("png-text", "Sat, 28 Nov 2026 11:20:00 +0800"),
    seed=202,
    columns=_cols(
        ("Item code", "sku"),
        ("Description", "name"),
        ("WH", "warehouse"),
        ("Qty", "on_hand"),
        ("Min", "reorder"),
        ("Unit price", "price"),
    ),
    rows=_rows("WH-02", WH02_ALL, {"10232": 84, "10318": 12}),
    page_warehouse="WH-02",
)

HIDPI_WH01 = Spec(
    file="Screenshot 2026-11-27 at 09.14.52.png",
    kind="hidpi",
    description="HiDPI 2x export (3840x2160) of a borderless WH-01 table; macOS screenshot name.",
    notes=(
        "Everything drawn at 2x; Part number/Item name/Location/Stock/Threshold; capture time "
        "only in the file name."
    ),
    layout="sidebar",
    view=(1920, 1080),
    scale=2.0,
    theme=PURPLE,
    table=TableStyle(
        regular="lato",
        bold="lato-bold",
        size=15,
        row_h=40,
        header_h=44,
        grid="borderless",
        header_shaded=False,
        badges=False,
    ),
    chrome=LATO_UI,
    page=replace(
        EN_PAGE,
        brand="InvenTrack",
        breadcrumb=("Warehouses", "WH-01", "Stock"),
        title="Stock on hand",
        subtitle="WH-01 · Main distribution centre",
        chips=("Location: WH-01", "Hide zero stock"),
        user="Anna Chen",
    ),
    capture=Capture("filename"),
    seed=303,
    columns=_cols(
        ("Part number", "sku"),
        ("Item name", "name"),
        ("Category", "category"),
        ("Location", "warehouse"),
        ("Stock", "on_hand"),
        ("Threshold", "reorder"),
    ),
    rows=_rows(
        "WH-01",
        "10231 10232 10233 10240 10244 10310 10318 10402 10403 10410 10501 10502 10510 10520",
        {"10240": 55},
    ),
    page_warehouse="WH-01",
)

JPEG_WH01 = Spec(
    file="erp-jpeg-wh01.jpg",
    kind="jpeg",
    description=(
        "JPEG (quality 60) of a WH-01 table with uppercase shaded headers; EXIF capture time."
    ),
    notes=(
        "Visible JPEG artefacts around text; UPPERCASE headers incl. REORDER PT; extra category "
        "and price columns."
    ),
    layout="sidebar",
    view=(1920, 1080),
    theme=TEAL,
    table=TableStyle(
        regular="liberation-sans",
        bold="liberation-sans-bold",
        size=13,
        row_h=36,
        header_h=40,
        header_upper=True,
        badges=False,
    ),
    chrome=LIBERATION_UI,
    page=replace(
        EN_PAGE,
        brand="Odin ERP",
        nav=("Home", "Sales", "Purchasing", "Inventory", "Manufacturing", "Accounting", "Reports"),
        active=3,
        breadcrumb=("Inventory", "Products"),
        title="Inventory",
        subtitle="All products with stock",
        chips=("Category: All", "Stock: Any"),
        user="Tom Becker",
    ),
    capture=Capture("exif", "2026:11:29 14:22:10"),
    seed=404,
    jpeg_quality=60,
    columns=_cols(
        ("SKU", "sku"),
        ("Item name", "name"),
        ("Category", "category"),
        ("On hand", "on_hand"),
        ("Reorder Pt", "reorder"),
        ("Warehouse", "warehouse"),
        ("Unit price", "price"),
    ),
    rows=_rows(
        "WH-01",
        "10231 10232 10233 10240 10310 10311 10318 10403 10410 10415 10501 10511 10520",
        {"10410": 31},
    ),
)

SMALL_TEXT = Spec(
    file="Screenshot 2026-11-30 081200.png",
    kind="small-text",
    description=(
        "Dense 11 px table on a 1280x720 screen, rows from WH-02 and WH-01; Windows screenshot "
        "name."
    ),
    notes=(
        "Small condensed text with 20 px rows; Available/Min stock headers; capture time only in "
        "the file name."
    ),
    layout="sidebar",
    view=(1280, 720),
    theme=LIGHT,
    table=TableStyle(
        regular="dejavu-condensed",
        bold="dejavu-condensed-bold",
        size=11,
        row_h=20,
        header_h=24,
        pad_x=10,
        grid="striped",
        badges=True,
    ),
    chrome=Chrome(
        regular="dejavu-condensed",
        bold="dejavu-condensed-bold",
        size=12,
        sidebar_w=176,
        topbar_h=40,
        margin=20,
        title_size=18,
    ),
    page=replace(
        EN_PAGE,
        brand="StockPilot",
        breadcrumb=("Inventory", "Availability"),
        title="Availability",
        subtitle="All warehouses",
        chips=("Warehouse: All", "Low stock first: off"),
        user="Sam Ortiz",
    ),
    capture=Capture("filename"),
    seed=505,
    formats=Formats(date="%d %b %Y"),
    columns=_cols(
        ("Item code", "sku"),
        ("Description", "name"),
        ("WH", "warehouse"),
        ("Available", "on_hand"),
        ("Min stock", "reorder"),
        ("Status", "status"),
        ("Updated", "updated"),
    ),
    rows=_rows("WH-02", WH02_ALL, {"10621": 18})
    + _rows("WH-01", "10232 10310 10318 10403 10501 10510 10520"),
)

CHINESE_WH03 = Spec(
    file="erp-chinese-wh03.png",
    kind="chinese",
    description="Chinese ERP page for WH-03 (南方仓): Chinese menu, headers and item names.",
    notes=(
        "商品编码/商品名称/当前库存/警戒值/仓库 headers with 库存不足 badges; "
        "SKU-20120 restocked since."
    ),
    layout="sidebar",
    view=(1920, 1080),
    theme=ANT,
    table=TableStyle(
        regular="noto-cjk", bold="noto-cjk-bold", size=14, row_h=44, header_h=46, highlight_low=True
    ),
    chrome=CJK_UI,
    page=ZH_PAGE,
    capture=Capture("png-text", "2026-11-29T09:30:00"),
    seed=606,
    formats=Formats(date="%Y-%m-%d %H:%M", low="库存不足", ok="正常", language="zh"),
    columns=_cols(
        ("商品编码", "sku"),
        ("商品名称", "name"),
        ("分类", "category"),
        ("仓库", "warehouse"),
        ("当前库存", "on_hand"),
        ("警戒值", "reorder"),
        ("状态", "status"),
        ("更新时间", "updated"),
    ),
    rows=_rows("WH-03", WH03_ALL, {"20120": 95}),
    page_warehouse="WH-03",
)

CHINESE_TABLET = Spec(
    file="Screenshot_20261129-101530.png",
    kind="chinese-tablet",
    description=(
        "Chinese stock page on an Android tablet (1.5x density, 1920x1200); Android screenshot "
        "name."
    ),
    notes=(
        "WenQuanYi font, name column first, 库存数量/最低库存 headers; "
        "capture time only in the file name."
    ),
    layout="sidebar",
    view=(1280, 800),
    scale=1.5,
    theme=CYAN_TABLET,
    table=TableStyle(regular="wqy", bold="wqy", size=14, row_h=40, header_h=44, grid="striped"),
    chrome=Chrome(regular="wqy", bold="wqy", sidebar_w=180, margin=24, title_size=20),
    page=replace(
        ZH_PAGE,
        brand="易库存",
        nav=("首页", "库存", "库存列表", "盘点", "补货建议", "我的"),
        breadcrumb=("库存", "库存列表"),
        title="库存列表",
        subtitle="WH-03 南方仓",
        actions=("筛选",),
        chips=("仓库：WH-03", "全部分类"),
        user="陈静",
    ),
    capture=Capture("filename"),
    seed=707,
    formats=Formats(language="zh"),
    columns=_cols(
        ("商品名称", "name"),
        ("商品编码", "sku"),
        ("库存数量", "on_hand"),
        ("最低库存", "reorder"),
        ("仓库", "warehouse"),
    ),
    rows=_rows("WH-03", "20101 20102 20103 20111 20121 20130 20131 20140 20150"),
    page_warehouse="WH-03",
)

OVERLAY_WHITE = Spec(
    file="overlay-white-wh01.png",
    kind="transparent-white",
    description=(
        "White text and rules on a fully transparent PNG: a WH-01 table exported as an overlay."
    ),
    notes=(
        "RGBA with alpha 0 background; dropping alpha naively leaves white text on black or on "
        "white."
    ),
    layout="overlay",
    view=(900, 420),
    theme=OVERLAY,
    table=TableStyle(
        regular="dejavu-sans",
        bold="dejavu-sans-bold",
        size=15,
        row_h=36,
        header_h=40,
        header_shaded=False,
        badges=False,
    ),
    chrome=OVERLAY_UI,
    page=EN_PAGE,
    capture=Capture("mtime"),
    seed=808,
    ink=WHITE,
    columns=_cols(
        ("SKU", "sku"),
        ("Product", "name"),
        ("Qty", "on_hand"),
        ("Reorder Pt", "reorder"),
        ("Warehouse", "warehouse"),
    ),
    rows=_rows("WH-01", "10232 10233 10310 10318 10402 10403 10501 10520"),
)

OVERLAY_BLACK = Spec(
    file="overlay-black-wh02.png",
    kind="transparent-black",
    description=(
        "Black monospaced text on a transparent PNG: WH-02 part numbers and quantities, no names."
    ),
    notes="RGBA with alpha 0 background; no name column; Part number/Location/On hand/Min headers.",
    layout="overlay",
    view=(640, 480),
    theme=OVERLAY,
    table=TableStyle(
        regular="liberation-mono",
        bold="liberation-mono-bold",
        size=14,
        row_h=32,
        header_h=36,
        grid="borderless",
        header_shaded=False,
        badges=False,
    ),
    chrome=OVERLAY_UI,
    page=EN_PAGE,
    capture=Capture("mtime"),
    seed=909,
    ink=BLACK,
    formats=Formats(thousands=False),
    columns=_cols(
        ("Part number", "sku"),
        ("Location", "warehouse"),
        ("On hand", "on_hand"),
        ("Min", "reorder"),
    ),
    rows=_rows("WH-02", "10231 10402 10601 10602 10603 10610 10611 10620 10701 10702"),
)

PHOTO_WH01 = Spec(
    file="photo-monitor-wh01.jpg",
    kind="photo",
    description=(
        "Phone photo of a monitor showing a WH-01 stock page: rotated, warped, blurred, noisy."
    ),
    notes=(
        "Perspective, about 2 degrees of rotation, blur, noise, vignette and a bezel; EXIF time "
        "with OffsetTimeOriginal +08:00; SKU-10511 restocked since."
    ),
    layout="sidebar",
    view=(1920, 1080),
    theme=GREEN,
    table=TableStyle(regular="open-sans", bold="open-sans-bold", size=17, row_h=48, header_h=52),
    chrome=Chrome(regular="open-sans", bold="open-sans-bold", size=15),
    page=replace(
        EN_PAGE,
        brand="GreenLine ERP",
        breadcrumb=("Inventory", "Stock levels", "WH-01"),
        subtitle="Main distribution centre",
        chips=("Warehouse: WH-01", "Status: Any"),
        user="Liu Yang",
    ),
    capture=Capture("exif", "2026:11:29 16:48:03", "+08:00"),
    seed=1010,
    photo=Photo(
        size=(1600, 1200),
        quad=((95, 250), (1505, 214), (1522, 1010), (84, 1046)),
        angle=1.8,
        blur=1.1,
        noise=3.0,
        quality=82,
    ),
    columns=_cols(
        ("SKU", "sku"),
        ("Product", "name"),
        ("On hand", "on_hand"),
        ("Reorder point", "reorder"),
        ("Warehouse", "warehouse"),
        ("Status", "status"),
    ),
    rows=_rows(
        "WH-01",
        "10232 10233 10310 10318 10402 10403 10501 10510 10511 10520",
        {"10511": 420},
    ),
    page_warehouse="WH-01",
)

SHIPMENTS = Spec(
    file="shipments-inbound.png",
    kind="no-schema",
    description="Inbound shipments table: headers match nothing of the stock schema.",
    notes="A generic grid with status badges and weights with thousands separators; no stock rows.",
    layout="sidebar",
    view=(1920, 1080),
    theme=LIGHT,
    table=TableStyle(
        regular="dejavu-sans", bold="dejavu-sans-bold", size=13, row_h=40, header_h=42
    ),
    chrome=DEJAVU_UI,
    page=replace(
        EN_PAGE,
        brand="Northwind ERP",
        active=3,
        nav=("Dashboard", "Inventory", "Stock levels", "Inbound", "Purchase orders", "Suppliers"),
        breadcrumb=("Logistics", "Inbound shipments"),
        title="Inbound shipments",
        subtitle="Expected this week",
        actions=("Export", "+ New shipment"),
        chips=("ETA: This week", "Carrier: All"),
        footer="Showing 1–{n} of {n} shipments",
    ),
    capture=Capture("mtime"),
    seed=1111,
    generic=Generic(
        header=(
            "Shipment",
            "Carrier",
            "Origin",
            "Destination",
            "ETA",
            "Pallets",
            "Weight (kg)",
            "Status",
        ),
        cells=_grid(SHIPMENT_ROWS),
        right=(5, 6),
        badge=7,
    ),
)

SUPPLIERS = Spec(
    file="suppliers-contacts.png",
    kind="no-schema",
    description="Supplier contact list in a classic desktop ERP window: no stock columns at all.",
    notes="Boxed grid of names, phones and e-mails; must come back as a generic grid with no rows.",
    layout="classic",
    view=(1440, 900),
    theme=CLASSIC,
    table=TableStyle(
        regular="liberation-sans",
        bold="liberation-sans-bold",
        size=12,
        row_h=22,
        header_h=24,
        pad_x=6,
        grid="boxed",
        badges=False,
    ),
    chrome=CLASSIC_UI,
    page=replace(
        CLASSIC_PAGE,
        title="WMS Pro 7.2 - [Supplier Directory]",
        fields=(("Country:", "China"), ("Category:", "<All>")),
        status=("Ready", "{n} records", "User: ZHANG.M", "DB: PROD01"),
    ),
    capture=Capture("png-text", "2026-11-26T17:05:44"),
    seed=1212,
    generic=Generic(
        header=("Supplier", "Contact", "Phone", "Email", "City", "Lead time (days)"),
        cells=_grid(SUPPLIER_ROWS),
        right=(5,),
    ),
)

PAGE_WAREHOUSE = Spec(
    file="stock_20261128-143005.png",
    kind="page-warehouse",
    description="WH-02 stock page whose warehouse is stated only in the title and a filter chip.",
    notes="No warehouse column: rows get WH-02 from page context; Product first, Min before Stock.",
    layout="sidebar",
    view=(1920, 1080),
    theme=ORANGE,
    table=TableStyle(
        regular="roboto-condensed",
        bold="roboto-condensed-bold",
        size=15,
        row_h=42,
        header_h=44,
        header_shaded=False,
        highlight_low=True,
    ),
    chrome=Chrome(regular="roboto-condensed", bold="roboto-condensed-bold", size=15, sidebar_w=220),
    page=replace(
        EN_PAGE,
        brand="Hubspot WMS",
        breadcrumb=("Warehouses", "North hub", "Stock"),
        title="Warehouse: WH-02 North hub",
        subtitle="Tianjin · 15 active items",
        chips=("Warehouse: WH-02 North hub", "Status: Any"),
        user="Zhang Min",
    ),
    capture=Capture("filename"),
    seed=1313,
    formats=Formats(date="%d %b %Y"),
    columns=_cols(
        ("Product", "name"),
        ("SKU", "sku"),
        ("Min", "reorder"),
        ("Stock", "on_hand"),
        ("Last updated", "updated"),
    ),
    rows=_rows(
        "WH-02",
        "10231 10232 10310 10402 10601 10602 10603 10610 10620 10621 10701 10702",
        {"10603": 21},
    ),
    page_warehouse="WH-02",
)

COMPARE_AM = Spec(
    file="wh02-morning.png",
    kind="compare-am",
    description="WH-02 stock page at 09:02 (first of a morning/afternoon pair).",
    notes="Same page as wh02-afternoon.png; four quantities differ from the afternoon (live) view.",
    layout="sidebar",
    view=(1920, 1080),
    theme=SLATE,
    table=TableStyle(
        regular="lato", bold="lato-bold", size=14, row_h=40, header_h=44, grid="striped"
    ),
    chrome=Chrome(regular="lato", bold="lato-bold"),
    page=replace(
        EN_PAGE,
        brand="Stockroom",
        breadcrumb=("Inventory", "Stock levels", "WH-02"),
        subtitle="North hub · Tianjin",
        chips=("Warehouse: WH-02", "Status: Any"),
        user="Zhang Min",
    ),
    capture=Capture("png-text", "2026-11-30T09:02:00"),
    seed=1414,
    columns=_cols(
        ("SKU", "sku"),
        ("Description", "name"),
        ("WH", "warehouse"),
        ("On hand", "on_hand"),
        ("Min stock", "reorder"),
        ("Status", "status"),
    ),
    rows=_rows("WH-02", WH02_ALL, {"10231": 140, "10402": 150, "10602": 16, "10610": 90}),
    page_warehouse="WH-02",
)

COMPARE_PM = replace(
    COMPARE_AM,
    file="wh02-afternoon.png",
    kind="compare-pm",
    description="The same WH-02 stock page at 15:47 (second of the pair); shows the live values.",
    notes=(
        "Same page as wh02-morning.png; SKU-10231, 10402, 10602 and 10610 went down since the "
        "morning."
    ),
    capture=Capture("png-text", "2026-11-30T15:47:00"),
    rows=_rows("WH-02", WH02_ALL),
)

MULTI_WAREHOUSE = Spec(
    file="multi-warehouse.png",
    kind="multi-warehouse",
    description=(
        "One table across WH-01 and WH-02 with serif text, an Incoming column and uppercase "
        "headers."
    ),
    notes=(
        "Warehouse column first; same SKU in two warehouses; INCOMING (open orders) is not on hand."
    ),
    layout="sidebar",
    view=(1920, 1080),
    theme=INDIGO,
    table=TableStyle(
        regular="dejavu-serif",
        bold="dejavu-serif-bold",
        size=14,
        row_h=38,
        header_h=42,
        header_upper=True,
        badges=False,
    ),
    chrome=DEJAVU_UI,
    page=replace(
        EN_PAGE,
        brand="Meridian ERP",
        breadcrumb=("Inventory", "Network stock"),
        title="Network stock",
        subtitle="All warehouses",
        chips=("Warehouse: All", "Category: All"),
        user="Priya Nair",
    ),
    capture=Capture("png-text", "2026-11-27T16:10:00"),
    seed=1515,
    columns=_cols(
        ("Warehouse", "warehouse"),
        ("SKU", "sku"),
        ("Product", "name"),
        ("Category", "category"),
        ("On hand", "on_hand"),
        ("Incoming", "incoming"),
        ("Reorder point", "reorder"),
    ),
    rows=(
        *_rows("WH-01", "10231 10232 10233"),
        *_rows("WH-02", "10231 10232"),
        *_rows("WH-01", "10310 10311", {"10311": 85}),
        *_rows("WH-02", "10310"),
        *_rows("WH-01", "10318"),
        *_rows("WH-02", "10318"),
        *_rows("WH-01", "10402 10403"),
        *_rows("WH-02", "10402"),
        *_rows("WH-01", "10501"),
        *_rows("WH-02", "10501"),
        *_rows("WH-01", "10520"),
    ),
)

CLASSIC_WH02 = Spec(
    file="erp-classic-wh02.png",
    kind="classic",
    description="Classic desktop ERP window (1366x768) with a boxed grid of WH-02 stock.",
    notes=(
        "Menu bar, toolbar, selection panel and status bar around a boxed grid; US dates; no "
        "metadata."
    ),
    layout="classic",
    view=(1366, 768),
    theme=CLASSIC,
    table=TableStyle(
        regular="liberation-sans",
        bold="liberation-sans-bold",
        size=12,
        row_h=22,
        header_h=24,
        pad_x=6,
        grid="boxed",
        badges=False,
    ),
    chrome=CLASSIC_UI,
    page=CLASSIC_PAGE,
    capture=Capture("mtime"),
    seed=1616,
    formats=Formats(date="%m/%d/%Y", price="{:.2f}"),
    columns=_cols(
        ("Part number", "sku"),
        ("Description", "name"),
        ("Location", "warehouse"),
        ("Qty", "on_hand"),
        ("Reorder Pt", "reorder"),
        ("Unit price", "price"),
        ("Last updated", "updated"),
    ),
    rows=_rows("WH-02", WH02_ALL),
    page_warehouse="WH-02",
)

HEALTHY_WH01 = Spec(
    file="erp-healthy-wh01.png",
    kind="healthy",
    description="Teal ERP stock table for WH-01 filtered to items above their reorder point.",
    notes=(
        "Nothing on this screen is below its reorder point (and nothing is low live either): "
        "a replenishment request must write nothing."
    ),
    layout="sidebar",
    view=(1600, 900),
    theme=TEAL,
    table=TableStyle(
        regular="roboto", bold="roboto-bold", size=14, row_h=38, header_h=42, highlight_low=True
    ),
    chrome=ROBOTO_UI,
    page=replace(
        EN_PAGE,
        brand="Northwind ERP",
        breadcrumb=("Inventory", "Stock levels", "WH-01"),
        subtitle="Main distribution centre · Shanghai · in stock",
        chips=("Warehouse: WH-01", "Status: In stock"),
    ),
    capture=Capture("png-text", "2026-11-30T15:20:00"),
    seed=1701,
    columns=_cols(
        ("SKU", "sku"),
        ("Product", "name"),
        ("Warehouse", "warehouse"),
        ("On hand", "on_hand"),
        ("Reorder point", "reorder"),
        ("Status", "status"),
    ),
    rows=_rows("WH-01", "10231 10233 10240 10244 10311 10415 10502 10510 10511"),
    page_warehouse="WH-01",
)

SPECS: tuple[Spec, ...] = (
    LIGHT_DEMO,
    DARK_WH02,
    HIDPI_WH01,
    JPEG_WH01,
    SMALL_TEXT,
    CHINESE_WH03,
    CHINESE_TABLET,
    OVERLAY_WHITE,
    OVERLAY_BLACK,
    PHOTO_WH01,
    SHIPMENTS,
    SUPPLIERS,
    PAGE_WAREHOUSE,
    COMPARE_AM,
    COMPARE_PM,
    MULTI_WAREHOUSE,
    CLASSIC_WH02,
    HEALTHY_WH01,
)
