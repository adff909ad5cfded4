"""The shop's items under its other item-code schemes, which the store's seed does not hold.

Packaging bought by the piece carries codes like `BX-310-K` (WH-02); the materials of the
Chinese ERP carry dotted codes like `01.02.0035` (WH-03, with English names for the English
screens of the same ERP). Quantities are as the screens showed them that day.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CatalogItem:
    code: str
    name: str
    name_zh: str
    warehouse: str
    on_hand: int
    reorder: int
    on_order: int
    unit: str
    unit_zh: str
    price: float


_ITEMS = """
BX-310-K   | WH-02 |    12 |    40 |  200 | pcs/个 |     0.86 | Kraft mailer box 310x220
BX-250-K   | WH-02 |   148 |    60 |    0 | pcs/个 |     0.64 | Kraft mailer box 250x180
BX-420-K   | WH-02 |    36 |    30 |    0 | pcs/个 |     1.22 | Kraft mailer box 420x310
BX-310-W   | WH-02 |     0 |    25 |  100 | pcs/个 |     1.05 | White mailer box 310x220
BX-600-D   | WH-02 |  1450 |   400 |    0 | pcs/个 |     2.40 | Double-wall carton 600x400x400
EN-C5-P    | WH-02 |    64 |    20 |    0 | packs/包 |    14.90 | Padded envelope C5 (pack of 50)
EN-A4-P    | WH-02 |    18 |    20 |   40 | packs/包 |    12.50 | Padded envelope A4 (pack of 25)
TP-48-C    | WH-02 |   240 |    60 |    0 | rolls/卷 |     1.35 | Clear packing tape 48 mm
TP-48-B    | WH-02 |    95 |    60 |    0 | rolls/卷 |     1.35 | Brown packing tape 48 mm
TP-50-F    | WH-02 |    22 |    24 |   48 | rolls/卷 |     2.10 | Fragile tape 50 mm
FL-500-S   | WH-02 |    41 |    16 |    0 | rolls/卷 |     9.80 | Stretch film 500 mm x 300 m
FL-100-B   | WH-02 |     9 |     6 |    0 | rolls/卷 |    18.40 | Bubble wrap 100 cm x 50 m
LB-100-T   | WH-02 |  1204 |   300 |    0 | rolls/卷 | 6.75 | Thermal labels 100x150 (roll of 500)
DV-050-P   | WH-02 |    27 |    10 |    0 | rolls/卷 |    11.20 | Void fill paper 50 m
PL-120-W   | WH-02 |    60 |    20 |    0 | pcs/个 |    14.00 | Wooden pallet 1200x800
BX-200-K   | WH-02 |  2310 |   500 |    0 | pcs/个 |     0.48 | Kraft mailer box 200x150
01.02.0035 | WH-03 |  1450 |   400 |  500 | pcs/件 |     0.32 | Hex bolt M10x50
01.02.0036 | WH-03 |  2380 |   600 |    0 | pcs/件 |     0.08 | Hex nut M10
01.02.0041 | WH-03 |   960 |   500 |    0 | pcs/件 |     0.03 | Spring washer M10
01.03.0112 | WH-03 |   318 |   400 | 1000 | pcs/件 |     0.05 | Flat washer M12
01.03.0120 | WH-03 |    75 |   120 |  200 | pcs/件 |     0.55 | Expansion bolt M8x80
02.01.0008 | WH-03 |   420 |   300 |    0 | pcs/个 |     3.10 | 5-ply carton 600x400x400
02.01.0011 | WH-03 |    14 |    10 |    0 | rolls/卷 |    26.00 | Bubble film 1.2 m x 50 m
02.02.0003 | WH-03 |    96 |   120 |  240 | rolls/卷 |     1.20 | Sealing tape 48 mm clear
02.02.0007 | WH-03 |    33 |    20 |    0 | rolls/卷 |     8.60 | Stretch wrap 500 mm
03.04.0021 | WH-03 |   210 |    80 |    0 | rolls/卷 |     2.30 | Industrial tape 48 mm
03.05.0002 | WH-03 |   640 |   300 |    0 | pairs/双 |     1.10 | Anti-static gloves M
04.01.0015 | WH-03 |    52 |    40 |    0 | rolls/卷 |     6.20 | Thermal labels 100x150
04.01.0016 | WH-03 |     8 |    12 |   24 | rolls/卷 |    15.50 | Ribbon 110 mm x 300 m
05.01.0003 | WH-03 |     2 |     1 |    0 | pcs/个 |   980.00 | Forklift battery 48 V
05.02.0010 | WH-03 |     4 |     2 |    0 | pcs/个 |  1250.00 | Hand pallet truck 2.5 t
06.01.0001 | WH-03 |    27 |    15 |    0 | pcs/个 |    38.00 | LED work light 30 W
06.01.0004 | WH-03 |    11 |     6 |    0 | pcs/个 |    64.00 | Extension reel 25 m
07.03.0009 | WH-03 |    85 |    50 |    0 | pcs/个 |     9.50 | Safety helmet white
07.03.0012 | WH-03 |   130 |    60 |    0 | pcs/个 |     4.20 | Reflective vest L
08.02.0005 | WH-03 |  3600 |  1000 |    0 | pcs/个 |     0.02 | Cable tie 300 mm black
"""
"""Code | warehouse | on hand | reorder point | on order | unit (English/Chinese) | unit price |
English name."""

_NAMES_ZH = {
    "BX-310-K": "牛皮纸飞机盒 310x220",
    "BX-250-K": "牛皮纸飞机盒 250x180",
    "BX-420-K": "牛皮纸飞机盒 420x310",
    "BX-310-W": "白色飞机盒 310x220",
    "BX-600-D": "双层瓦楞纸箱 600x400x400",
    "EN-C5-P": "气泡信封 C5（50只装）",
    "EN-A4-P": "气泡信封 A4（25只装）",
    "TP-48-C": "透明封箱胶带 48mm",
    "TP-48-B": "棕色封箱胶带 48mm",
    "TP-50-F": "易碎品警示胶带 50mm",
    "FL-500-S": "缠绕膜 500mm x 300m",
    "FL-100-B": "气泡膜 100cm x 50m",
    "LB-100-T": "热敏标签 100x150（500张/卷）",
    "DV-050-P": "填充牛皮纸 50m",
    "PL-120-W": "木托盘 1200x800",
    "BX-200-K": "牛皮纸飞机盒 200x150",
    "01.02.0035": "六角螺栓 M10x50",
    "01.02.0036": "六角螺母 M10",
    "01.02.0041": "弹簧垫圈 M10",
    "01.03.0112": "平垫圈 M12",
    "01.03.0120": "膨胀螺栓 M8x80",
    "02.01.0008": "五层瓦楞纸箱 600x400x400",
    "02.01.0011": "气泡膜 1.2m x 50m",
    "02.02.0003": "封箱胶带 48mm 透明",
    "02.02.0007": "缠绕膜 500mm",
    "03.04.0021": "工业胶带 48mm",
    "03.05.0002": "防静电手套 M码",
    "04.01.0015": "热敏标签 100x150",
    "04.01.0016": "碳带 110mm x 300m",
    "05.01.0003": "叉车电池 48V",
    "05.02.0010": "手动液压搬运车 2.5吨",
    "06.01.0001": "LED 工作灯 30W",
    "06.01.0004": "电缆卷盘 25米",
    "07.03.0009": "安全帽 白色",
    "07.03.0012": "反光背心 L码",
    "08.02.0005": "尼龙扎带 300mm 黑色",
}


def _parse(line: str) -> CatalogItem:
    code, warehouse, on_hand, reorder, on_order, units, price, name = (
        part.strip() for part in line.split("|")
    )
    unit, unit_zh = units.split("/")
    return CatalogItem(
        code=code,
        name=name,
        name_zh=_NAMES_ZH[code],
        warehouse=warehouse,
        on_hand=int(on_hand),
        reorder=int(reorder),
        on_order=int(on_order),
        unit=unit,
        unit_zh=unit_zh,
        price=float(price),
    )


CATALOG: tuple[CatalogItem, ...] = tuple(_parse(line) for line in _ITEMS.strip().splitlines())
BY_CODE = {(item.code, item.warehouse): item for item in CATALOG}
