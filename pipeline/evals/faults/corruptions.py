"""Arguments corrupted the way small models get them wrong: a wrong or missing field name, a
SKU and a warehouse id swapped, numbers as strings or in full-width forms; and the retry that
changes something other than the field a refusal named."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.evals.faults.kinds import FIELD_NAME, NUMBER_FORMAT, SWAP
from pipeline.jsonread import items
from pipeline.models import JsonObject, JsonValue

__all__ = ["corrupt", "full_width", "unrelated_change", "variants"]


def full_width(text: str) -> str:
    """ASCII digits and punctuation as their full-width forms (`20.09` -> `２０．０９`)."""
    return "".join(
        chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" and not ch.isalpha() else ch for ch in text
    )


def variants(kind: str, arguments: Mapping[str, JsonValue]) -> list[str]:
    found: list[str] = []
    if kind == FIELD_NAME:
        if "warehouse_id" in arguments:
            found += ["warehouse_id->warehouse", "drop warehouse_id"]
        if "sku" in arguments:
            found.append("sku->sku_id")
    elif kind == SWAP:
        if "warehouse_id" in arguments and ("sku" in arguments or arguments.get("skus")):
            found.append("sku<->warehouse_id")
    elif kind == NUMBER_FORMAT:
        if isinstance(arguments.get("quantity"), int):
            found += ["quantity as a string", "quantity in full-width digits"]
        if isinstance(arguments.get("observed_on_hand"), int):
            found.append("observed_on_hand in full-width digits")
        if isinstance(arguments.get("observed_at"), str):
            found.append("observed_at with full-width punctuation")
        if isinstance(arguments.get("warehouse_id"), str):
            found.append("warehouse_id with a full-width hyphen")
        if isinstance(arguments.get("sku"), str):
            found.append("sku with a full-width hyphen")
    return found


def unrelated_change(arguments: Mapping[str, JsonValue]) -> JsonObject:
    """A retry that changes something, but not what the refusal named: a new idempotency key,
    or the optional `skus` or `observed_at` left out."""
    out = dict(arguments)
    key = out.get("idempotency_key")
    if isinstance(key, str):
        out["idempotency_key"] = key + "-retry"
    elif "skus" in out:
        out.pop("skus")
    elif "observed_at" in out:
        out.pop("observed_at")
    return out


def corrupt(variant: str, arguments: Mapping[str, JsonValue]) -> JsonObject:
    out = dict(arguments)
    if variant == "warehouse_id->warehouse":
        out = {("warehouse" if k == "warehouse_id" else k): v for k, v in arguments.items()}
    elif variant == "drop warehouse_id":
        out.pop("warehouse_id")
    elif variant == "sku->sku_id":
        out = {("sku_id" if k == "sku" else k): v for k, v in arguments.items()}
    elif variant == "sku<->warehouse_id":
        if "sku" in arguments:
            out["sku"], out["warehouse_id"] = arguments["warehouse_id"], arguments["sku"]
        else:
            skus = items(arguments["skus"])
            out["warehouse_id"] = skus[0]
            out["skus"] = [arguments["warehouse_id"], *skus[1:]]
    elif variant == "quantity as a string":
        out["quantity"] = str(arguments["quantity"])
    elif variant == "quantity in full-width digits":
        out["quantity"] = full_width(str(arguments["quantity"]))
    elif variant == "observed_on_hand in full-width digits":
        out["observed_on_hand"] = full_width(str(arguments["observed_on_hand"]))
    elif variant == "observed_at with full-width punctuation":
        text = str(arguments["observed_at"])
        out["observed_at"] = "".join(full_width(ch) if ch in "-:.+" else ch for ch in text)
    elif variant == "warehouse_id with a full-width hyphen":
        out["warehouse_id"] = str(arguments["warehouse_id"]).replace("-", "－")
    elif variant == "sku with a full-width hyphen":
        out["sku"] = str(arguments["sku"]).replace("-", "－")
    return out
