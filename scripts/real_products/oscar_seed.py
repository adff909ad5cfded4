"""Fill a fresh django-oscar shop through its own models, then read back what its dashboard shows.

Run with the oscar environment's Python, OSCAR_SITE_DIR set and this folder on sys.path. Prints one
JSON object: the staff session cookie and, read back from the shop's database, every product, stock
record and stock alert.
"""

import json
import os

import django  # type: ignore[import-not-found]

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "oscar_site.settings")
django.setup()

from django.contrib.auth import get_user_model  # type: ignore[import-not-found]  # noqa: E402
from django.contrib.sites.models import Site  # type: ignore[import-not-found]  # noqa: E402
from django.core.management import call_command  # type: ignore[import-not-found]  # noqa: E402
from django.test import Client  # type: ignore[import-not-found]  # noqa: E402
from items import items  # noqa: E402
from oscar.core.loading import get_model  # type: ignore[import-not-found]  # noqa: E402

Product = get_model("catalogue", "Product")
ProductClass = get_model("catalogue", "ProductClass")
Partner = get_model("partner", "Partner")
StockRecord = get_model("partner", "StockRecord")
StockAlert = get_model("partner", "StockAlert")

PARTNER_PREFIX = {
    "Lager Berlin": "BER",
    "上海仓": "SH",
    "Leeds Warehouse": "LDS",
    "Dublin Shop": "DUB",
}


def seed() -> None:
    call_command("migrate", verbosity=0)
    Site.objects.update_or_create(pk=1, defaults={"domain": "127.0.0.1", "name": "Stock demo"})
    user = get_user_model().objects.create_superuser("staff", "staff@example.com", "staff-render")
    goods = ProductClass.objects.create(name="Ware", track_stock=True, requires_shipping=True)
    partners = {name: Partner.objects.create(name=name) for name in PARTNER_PREFIX}
    for it in items():
        code, barcode, name = it["code"], it["barcode"], it["name"]
        # An item with a code and no barcode carries its code in its title, as many shops do.
        title = f"[{code}] {name}" if code and not barcode else name
        product = Product.objects.create(
            title=title,
            upc=barcode or "",
            product_class=goods,
            structure="standalone",
            is_public=True,
        )
        for loc, qty in it["stock"].items():
            allocated = 2 if it["n"] % 7 == 3 and qty >= 2 else 0
            record = StockRecord.objects.create(
                product=product,
                partner=partners[loc],
                partner_sku=code or barcode or f"{PARTNER_PREFIX[loc]}-{1000 + it['n']}",
                price_currency="EUR",
                price=f"{2 + it['n'] * 1.75:.2f}",
                num_in_stock=round(qty),
                num_allocated=allocated,
                low_stock_threshold=it["threshold"],
            )
            # oscar raises its low-stock alerts when a stock record changes, not when it is made
            record.save()
    client = Client()
    client.force_login(user)
    print(
        json.dumps({"sessionid": client.cookies["sessionid"].value, **dump()}, ensure_ascii=False)
    )


def dump() -> dict[str, object]:
    return {
        "products": {
            str(p.pk): {"title": p.title, "upc": p.upc or None} for p in Product.objects.all()
        },
        "stockrecords": [
            {
                "id": s.pk,
                "product": str(s.product_id),
                "partner": s.partner.display_name,
                "partner_sku": s.partner_sku,
                "num_in_stock": s.num_in_stock,
                "num_allocated": s.num_allocated,
                "net_stock_level": s.net_stock_level,
                "low_stock_threshold": s.low_stock_threshold,
            }
            for s in StockRecord.objects.select_related("partner").order_by("id")
        ],
        "alerts": StockAlert.objects.count(),
    }


if __name__ == "__main__":
    seed()
