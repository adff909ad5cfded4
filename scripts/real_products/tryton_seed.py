"""Fill a fresh Tryton database (modules product and stock activated) through its own models, then
read back what its screens show.

Run with the Tryton environment's Python: tryton_seed.py CONFIG DATABASE, this folder on sys.path.
Stock is put in place by stock moves from the lost-and-found location, done as Tryton does them.
Prints one JSON object: the warehouses and their bins with their ids, every product with its code
and name as Tryton names them, and the quantity of every product in every location as Tryton
computes it (children included).
"""

import datetime as dt
import json
import sys
from typing import Any

from trytond import config  # type: ignore[import-not-found]

config.update_etc(sys.argv[1])

from items import LOCATIONS, items  # noqa: E402
from trytond.pool import Pool  # type: ignore[import-not-found]  # noqa: E402
from trytond.transaction import Transaction  # type: ignore[import-not-found]  # noqa: E402

BINS = {
    "Lager Berlin": ("Regal A-01", "Regal B-02"),
    "上海仓": ("一货架二层", "A区-03"),
    "Leeds Warehouse": ("Aisle 4 / Bay 2",),
    "Dublin Shop": ("Back room",),
}
UOMS = {"pc": "uom_unit", "kg": "uom_kilogram", "m": "uom_meter", "l": "uom_liter"}


def seed(db: str) -> None:
    pool = Pool(db)
    pool.init()
    with Transaction().start(db, 0, context={}) as tx:
        data = pool.get("ir.model.data")
        currency = pool.get("currency.currency")
        party = pool.get("party.party")
        company_m = pool.get("company.company")
        user_m = pool.get("res.user")
        (eur,) = currency.create([{"name": "Euro", "code": "EUR", "symbol": "€"}])
        (owner,) = party.create([{"name": "Stock Demo GmbH"}])
        (company,) = company_m.create([{"party": owner.id, "currency": eur.id}])
        admin = user_m(data.get_id("res", "user_admin"))
        user_m.write([admin], {"companies": [("add", [company.id])], "company": company.id})
        wizard_item = pool.get("ir.module.config_wizard.item")
        wizard_item.write(
            wizard_item.search([]), {"state": "done"}
        )  # no set-up wizard at first login
        with tx.set_context(company=company.id):
            stock(pool, data, company)
        tx.commit()
    with Transaction().start(db, 0, context={}):
        print(json.dumps(dump(pool), ensure_ascii=False))


def stock(pool: Pool, data: Any, company: Any) -> None:
    location = pool.get("stock.location")
    template = pool.get("product.template")
    move = pool.get("stock.move")
    lost = location(data.get_id("stock", "location_lost_found"))
    first = location(data.get_id("stock", "location_warehouse"))
    bins = {}
    for i, name in enumerate(LOCATIONS):
        if i == 0:
            wh = first
            location.write([wh], {"name": name, "code": "BER"})
        else:
            zones = location.create(
                [
                    {"name": f"{name} Input", "type": "storage"},
                    {"name": f"{name} Output", "type": "storage"},
                    {"name": f"{name} Storage", "type": "storage"},
                ]
            )
            (wh,) = location.create(
                [
                    {
                        "name": name,
                        "code": ("SH", "LDS", "DUB")[i - 1],
                        "type": "warehouse",
                        "input_location": zones[0].id,
                        "output_location": zones[1].id,
                        "storage_location": zones[2].id,
                    }
                ]
            )
        bins[name] = location.create(
            [{"name": b, "type": "storage", "parent": wh.storage_location.id} for b in BINS[name]]
        )
    moves = []
    for it in items():
        uom = data.get_id("product", UOMS[it["unit"]])
        product: dict[str, Any] = {"suffix_code": it["code"]} if it["code"] else {}
        if it["barcode"]:
            product["identifiers"] = [("create", [{"type": "ean", "code": it["barcode"]}])]
        (tpl,) = template.create(
            [
                {
                    "name": it["name"],
                    "type": "goods",
                    "default_uom": uom,
                    "list_price": 2 + it["n"] * 1.75,
                    "products": [("create", [product])],
                }
            ]
        )
        (prod,) = tpl.products
        for k, (loc, qty) in enumerate(it["stock"].items()):
            if not qty:
                continue
            where = bins[loc][(it["n"] + k) % len(bins[loc])]
            moves.append(
                {
                    "product": prod.id,
                    "from_location": lost.id,
                    "to_location": where.id,
                    "quantity": qty,
                    "unit": uom,
                    "company": company.id,
                    "effective_date": dt.date.today(),
                }
            )
    move.do(move.create(moves))


def dump(pool: Pool) -> dict[str, Any]:
    location = pool.get("stock.location")
    product_m = pool.get("product.product")
    places = location.search([])
    products = product_m.search([])
    quantities: dict[str, dict[str, float]] = {}
    for loc in places:
        with Transaction().set_context(locations=[loc.id], with_childs=True):
            for p in product_m.browse([p.id for p in products]):
                if p.quantity:
                    quantities.setdefault(str(loc.id), {})[str(p.id)] = p.quantity
    data = pool.get("ir.model.data")
    return {
        "location_quantity_view": data.get_id("stock", "location_quantity_view_tree"),
        "locations": {
            str(loc.id): {
                "name": loc.name,
                "rec_name": loc.rec_name,
                "type": loc.type,
                "warehouse": loc.warehouse.name if loc.warehouse else None,
            }
            for loc in places
        },
        "products": {
            str(p.id): {
                "code": p.code,
                "name": p.name,
                "rec_name": p.rec_name,
                "barcode": next((i.code for i in p.identifiers), None),
                "unit": p.default_uom.symbol,
                "digits": p.default_uom.digits,
            }
            for p in products
        },
        "quantities": quantities,
    }


if __name__ == "__main__":
    seed(sys.argv[2])
