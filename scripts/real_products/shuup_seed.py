"""Fill a fresh Shuup shop (its workbench project on SQLite) through its own models, then read back
what its admin shows.

Run with the Shuup environment's Python (Shuup 3.1 runs on Python 3.8) after its migrate and
shuup_init, SHUUP_SITE_DIR set and this folder on sys.path. Each location is a supplier with Shuup's
simple stock module; stock is put in place by the supplier's own stock adjustments. Prints one JSON
object: the staff session cookie and, read back from the shop's database, every product and every
stock count.
"""

from __future__ import annotations

import json
import os
from decimal import Decimal

import django  # type: ignore[import-not-found]

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shuup_site.settings")
django.setup()

from django.contrib.auth import get_user_model  # type: ignore[import-not-found]  # noqa: E402
from django.test import Client  # type: ignore[import-not-found]  # noqa: E402
from items import LOCATIONS, items  # noqa: E402
from shuup.core.models import (  # type: ignore[import-not-found]  # noqa: E402
    Product,
    ProductType,
    SalesUnit,
    Shop,
    ShopProduct,
    Supplier,
    SupplierModule,
    TaxClass,
)
from shuup.simple_supplier.models import StockCount  # type: ignore[import-not-found]  # noqa: E402

UNITS = {"pc": ("pcs", 0), "kg": ("kg", 2), "m": ("m", 2), "l": ("l", 2)}


def seed() -> None:
    user = get_user_model().objects.create_superuser("staff", "staff@example.com", "staff-render")
    shop = Shop.objects.first()
    kind = ProductType.objects.first() or ProductType.objects.create(name="Ware")
    tax = TaxClass.objects.first() or TaxClass.objects.create(name="Standard")
    module, _ = SupplierModule.objects.get_or_create(module_identifier="simple_supplier")
    suppliers = {}
    for name in LOCATIONS:
        sup = Supplier.objects.create(name=name, enabled=True, stock_managed=True)
        sup.supplier_modules.add(module)
        sup.shops.add(shop)
        suppliers[name] = sup
    units = {
        k: SalesUnit.objects.create(identifier=k, decimals=d, name=s, symbol=s)
        for k, (s, d) in UNITS.items()
    }
    for it in items():
        sku = it["code"] or it["barcode"] or f"SKU-{1000 + it['n']}"
        product = Product.objects.create(
            sku=sku,
            barcode=it["barcode"] or "",
            name=it["name"],
            type=kind,
            tax_class=tax,
            sales_unit=units[it["unit"]],
        )
        sp = ShopProduct.objects.create(product=product, shop=shop, default_price_value=2 + it["n"])
        for loc, qty in it["stock"].items():
            sup = suppliers[loc]
            sp.suppliers.add(sup)
            sup.adjust_stock(product.id, Decimal(str(qty)))
            count = StockCount.objects.get(product=product, supplier=sup)
            count.alert_limit = it["threshold"]
            count.save()
    client = Client()
    client.force_login(user)
    stock = [
        {
            "sku": c.product.sku,
            "name": c.product.name,
            "supplier": c.supplier.name,
            "physical_count": float(c.physical_count),
            "logical_count": float(c.logical_count),
            "alert_limit": float(c.alert_limit or 0),
            "unit": c.product.sales_unit.symbol,
            "stock_managed": c.stock_managed,
        }
        for c in StockCount.objects.select_related("product", "supplier").order_by("id")
    ]
    products = [
        {"sku": p.sku, "name": p.name, "barcode": p.barcode or None}
        for p in Product.objects.all().order_by("id")
    ]
    out = {"sessionid": client.cookies["sessionid"].value, "stock": stock, "products": products}
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    seed()
