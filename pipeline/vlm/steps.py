"""Structured steps: one JSON step per request, under a schema the endpoint applies as a grammar.

For models without reliable native tool calls. Each request carries a JSON Schema for one step
(a `oneOf` over `{"tool": <name>, "arguments": <that tool's input schema>}` for the offered
tools, `{"final": text}` and `{"question": text}`), and the reply is validated against it
before anything runs. The prompt stays the same across steps: the system prompt gains a fixed
catalogue of every tool and the reply format once; only the schema, which the server turns
into a grammar, changes from step to step.

The schema is shaped from what the conversation says (the task contract, the screens, the tool
results), each narrowing switchable:
- `writes_after_read`: a write appears only once the SKUs it would write were read live in this
  run (cancels once the orders were listed, or the task names them);
- `id_enums`: id fields take only the values valid now: the screens' SKUs in the contract's
  scope, warehouse ids from the screens, the task or `warehouses_list`, order ids listed;
- `quantity_bounds`: a write carries exactly the quantity the task asks (or its rule gives from
  the live numbers), or none, so the server's documented policy decides; never a number the
  model made up;
- `needed_reads`: a read appears while the task still needs it: the live read of the SKUs it
  is about that has not happened yet, `inventory_get_item` for a SKU the screen does not place,
  `warehouses_list` when a row has no warehouse, `orders_list` before a cancel.
The host's `screen_view` appears whenever the host offers it, whatever the narrowing.
With `id_enums` each write is one alternative per order it could make (SKU and warehouse as
constants), plus, for a warehouse with several SKUs to order at the same quantity, one that
orders them all in one call (a step per warehouse, not per SKU). An invalid, premature or
repeated call then cannot be produced at all by a server that enforces the schema.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.contract import TaskContract, contract_in
from pipeline.models import JsonObject, JsonValue, Message, ToolSpec
from pipeline.screentext import ScreenRow, ScreenText, placement_problem, screens_in
from pipeline.toolfacts import (
    CANCEL_TOOL,
    CREATE_TOOL,
    GET_ITEM_TOOL,
    LIST_ORDERS_TOOL,
    LIST_WAREHOUSES_TOOL,
    QUERY_TOOL,
    VIEW_TOOL,
    Facts,
    from_messages,
    read_facts,
)

__all__ = ["Narrowing", "step_schema"]


@dataclass(frozen=True)
class Narrowing:
    writes_after_read: bool = True
    id_enums: bool = True
    quantity_bounds: bool = True
    needed_reads: bool = True


# ---- the schema


@dataclass(frozen=True)
class _View:
    contract: TaskContract
    screens: list[ScreenText]
    facts: Facts

    def rows(self) -> list[tuple[str, str | None, ScreenRow, ScreenText]]:
        """Every screen row in the contract's scope: (SKU, warehouse or None, row, screen)."""
        out = []
        for screen in self.screens:
            for row in screen.rows:
                warehouse = screen.warehouse_of(row)
                if row.sku is None or not self.contract.allows_sku(row.sku):
                    continue
                if warehouse is not None and not self.contract.allows_warehouse(warehouse):
                    continue
                out.append((row.sku, warehouse, row, screen))
        return out

    def targets(self) -> list[tuple[str, str | None]]:
        """What the task is about: the SKUs it names, else the rows the screens show low."""
        if self.contract.skus:
            found: list[tuple[str, str | None]] = [
                (sku, w) for sku, w, _, _ in self.rows() if sku in self.contract.skus and w
            ]
            for sku in self.contract.skus:
                if not any(s == sku for s, _ in found):
                    homes: list[str | None] = [*self.contract.warehouses] or [None]
                    found += [(sku, w) for w in homes]
            return sorted(set(found), key=lambda t: (t[0], t[1] or ""))
        return list(dict.fromkeys((sku, w) for sku, w, row, _ in self.rows() if row.low))

    def screen_skus(self) -> list[str]:
        return list(dict.fromkeys([s for s, _, _, _ in self.rows()] + list(self.contract.skus)))

    def warehouses(self) -> list[str]:
        found = [w for _, w, _, _ in self.rows() if w is not None]
        found += [w for screen in self.screens if (w := screen.page_warehouse) is not None]
        found += list(self.contract.warehouses) + list(self.facts.warehouses or [])
        return sorted({w for w in found if self.contract.allows_warehouse(w)})

    def read(self, sku: str, warehouse: str | None) -> bool:
        """Read live already, or not readable (its warehouse's read failed, it is not there)."""
        if warehouse is None:
            return sku in self.facts.located or sku in self.facts.item_errors
        return (
            (sku, warehouse) in self.facts.live
            or (sku, warehouse) in self.facts.missing
            or warehouse in self.facts.query_errors
        )


def _view(messages: Sequence[Message]) -> _View:
    return _View(contract_in(messages), screens_in(messages), read_facts(from_messages(messages)))


def _enum(values: Sequence[str]) -> JsonObject:
    return {"type": "string", "enum": list(values)}


def _object(properties: JsonObject, required: Sequence[str]) -> JsonObject:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def _read_arguments(tool: ToolSpec, view: _View, narrowing: Narrowing) -> JsonObject | None:
    """A read's arguments narrowed to what the task still needs; None: not needed now."""
    raw: JsonObject = copy.deepcopy(dict(tool.input_schema))
    if tool.name == VIEW_TOOL:
        # The host offers it only while there is a screenshot to see; its schema already
        # names them. Looking is never a step the task's progress rules out.
        return raw
    if not narrowing.id_enums and not narrowing.needed_reads:
        return raw
    unread = [(s, w) for s, w in view.targets() if not view.read(s, w)]
    if tool.name == QUERY_TOOL:
        by_warehouse: dict[str, list[str]] = {}
        for sku, warehouse in unread:
            if warehouse is not None:
                by_warehouse.setdefault(warehouse, []).append(sku)
        whole = not view.contract.screen_only and not view.contract.skus
        if whole:
            places = [w for w in view.warehouses() if w not in view.facts.queried]
            if narrowing.needed_reads and not places:
                return None
            return _object({"warehouse_id": _enum(places or view.warehouses())}, ["warehouse_id"])
        if narrowing.needed_reads and not by_warehouse:
            return None
        places = sorted(by_warehouse) or view.warehouses()
        skus = sorted({s for group in by_warehouse.values() for s in group}) or view.screen_skus()
        if not narrowing.id_enums or not places or not skus:
            return raw
        properties: JsonObject = {
            "warehouse_id": _enum(places),
            "skus": {"type": "array", "items": _enum(skus), "maxItems": len(skus)},
        }
        return _object(properties, ["warehouse_id", "skus"])
    if tool.name == GET_ITEM_TOOL:
        unplaced = sorted({s for s, w in unread if w is None})
        if narrowing.needed_reads and not unplaced:
            return None
        skus = unplaced or view.screen_skus()
        return _object({"sku": _enum(skus)}, ["sku"]) if narrowing.id_enums and skus else raw
    if tool.name == LIST_WAREHOUSES_TOOL:
        homeless = any(w is None for _, w in view.targets()) and not view.contract.warehouses
        needed = homeless and not view.facts.warehouses_listed
        return raw if needed or not narrowing.needed_reads else None
    if tool.name == LIST_ORDERS_TOOL:
        if view.contract.action != "cancel":
            return None if narrowing.needed_reads else raw
        skus = list(view.contract.skus)
        listed = view.facts.listings
        if narrowing.needed_reads and listed:
            return None
        if narrowing.id_enums and skus:
            return _object({"sku": _enum(skus), "status": _enum(["open"])}, ["sku", "status"])
        return _object({"status": _enum(["open"])}, ["status"]) if narrowing.id_enums else raw
    return None if narrowing.needed_reads else raw


def _write_options(
    tool: ToolSpec, view: _View, narrowing: Narrowing, max_quantity: int
) -> list[JsonObject]:
    """The arguments of each write the task allows now: one alternative per order (SKU and
    warehouse, and the quantity the task asks or its rule gives; none: the server's policy)."""
    raw: JsonObject = copy.deepcopy(dict(tool.input_schema))
    if tool.name == CANCEL_TOOL:
        targets = _cancellable(view)
        if narrowing.writes_after_read and not targets:
            return []
        if narrowing.id_enums and targets:
            return [_object({"order_id": _enum(targets)}, ["order_id"])]
        return [raw]
    if tool.name != CREATE_TOOL:
        return [raw]
    writable = _writable(view)
    if narrowing.writes_after_read and not writable:
        return []
    if not narrowing.id_enums:
        found = raw.get("properties")
        if narrowing.quantity_bounds and isinstance(found, dict) and "quantity" in found:
            found["quantity"] = {
                "anyOf": [
                    {"type": "integer", "minimum": 1, "maximum": max_quantity},
                    {"type": "null"},
                ]
            }
        return [raw]
    pairs = writable or [(s, w) for s in view.screen_skus() for w in view.warehouses()]
    options = _batches(view, writable) if narrowing.quantity_bounds else []
    for sku, warehouse in pairs:
        properties: JsonObject = {
            "sku": {"type": "string", "const": sku},
            "warehouse_id": {"type": "string", "const": warehouse},
        }
        required = ["sku", "warehouse_id"]
        quantity = _quantity(view, sku, warehouse) if narrowing.quantity_bounds else None
        if quantity is not None:
            properties["quantity"] = {"type": "integer", "const": quantity}
            required.append("quantity")
        elif not narrowing.quantity_bounds:
            properties["quantity"] = {"type": "integer", "minimum": 1}
        elif (cap := _cap(view)) is not None:
            properties["at_most"] = {"type": "integer", "const": cap}
            required.append("at_most")
        options.append(_object(properties, required))
    return options


def _batches(view: _View, writable: Sequence[tuple[str, str]]) -> list[JsonObject]:
    """One alternative per warehouse that orders all its writable SKUs in one call, when they
    take the same quantity: eleven orders in two warehouses are two steps, not eleven."""
    by_warehouse: dict[str, list[str]] = {}
    for sku, warehouse in writable:
        by_warehouse.setdefault(warehouse, []).append(sku)
    options = []
    for warehouse, skus in sorted(by_warehouse.items()):
        quantities = {_quantity(view, sku, warehouse) for sku in skus}
        if len(skus) < 2 or len(quantities) != 1:
            continue
        properties: JsonObject = {
            "warehouse_id": {"type": "string", "const": warehouse},
            "skus": {"type": "array", "const": [*sorted(skus)]},
        }
        required = ["warehouse_id", "skus"]
        (quantity,) = quantities
        if quantity is not None:
            properties["quantity"] = {"type": "integer", "const": quantity}
            required.append("quantity")
        elif (cap := _cap(view)) is not None:
            properties["at_most"] = {"type": "integer", "const": cap}
            required.append("at_most")
        options.append(_object(properties, required))
    return options


def _quantity(view: _View, sku: str, warehouse: str) -> int | None:
    """The units the task asks for, or its rule gives with the live numbers; None: the server's
    policy decides (the task gives no number)."""
    asked = view.contract.quantity_for(sku)
    if asked is not None:
        return asked
    rule = view.contract.quantity_rule
    live = view.facts.live.get((sku, warehouse))
    level = rule.target(live.reorder_point) if rule is not None and live is not None else None
    if live is not None and level is not None:
        return max(1, level - live.projected)
    return None


def _cap(view: _View) -> int | None:
    """The most units each order may be for ("at most 20 each"), sent as `at_most` so the
    server's policy stays the one that decides below it."""
    rule = view.contract.quantity_rule
    return int(rule.value) if rule is not None and rule.kind == "at_most" else None


def _writable(view: _View) -> list[tuple[str, str]]:
    """(SKU, warehouse) pairs read live in this run that the task may still order."""
    contract, facts = view.contract, view.facts
    done = set(facts.created) | set(facts.refusals) | set(facts.proposed)
    out = []
    for (sku, warehouse), level in sorted(facts.live.items()):
        if (sku, warehouse) in done or not contract.allows_sku(sku):
            continue
        if not contract.allows_warehouse(warehouse) or not contract.allows_on_hand(level.on_hand):
            continue
        if contract.screen_only and not contract.skus:
            shown = {s for s, w in view.targets() if w in (warehouse, None)}
            if sku not in shown:
                continue
        if placement_problem(
            sku, warehouse, view.screens, contract.warehouses, contract.screen_only
        ):
            continue
        explicit = sku in contract.skus and contract.quantity_for(sku) is not None
        if level.needs_reorder or explicit:
            out.append((sku, warehouse))
    return out


def _cancellable(view: _View) -> list[str]:
    contract, facts = view.contract, view.facts
    done = set(facts.cancelled) | set(facts.cancel_errors) | set(facts.proposed_cancels)
    listed = [
        o.id
        for o in facts.orders.values()
        if o.status == "open"
        and (o.id in contract.order_ids or o.sku in contract.skus)
        and contract.allows_warehouse(o.warehouse_id)
    ]
    named = list(contract.order_ids)
    return [o for o in dict.fromkeys([*named, *listed]) if o not in done]


def step_schema(
    tools: Sequence[ToolSpec],
    messages: Sequence[Message],
    *,
    narrowing: Narrowing | None = None,
    max_quantity: int = 10_000,
) -> JsonObject:
    """The schema of the next step: the calls that make sense now, a final answer, a question."""
    narrowing = narrowing or Narrowing()
    view = _view(messages)
    options: list[JsonValue] = []
    for tool in tools:
        if tool.read_only:
            arguments = _read_arguments(tool, view, narrowing)
            choices = [] if arguments is None else [arguments]
        else:
            choices = _write_options(tool, view, narrowing, max_quantity)
        for arguments in choices:
            options.append(
                _object(
                    {"tool": {"type": "string", "const": tool.name}, "arguments": arguments},
                    ["tool", "arguments"],
                )
            )
    for key in ("final", "question"):
        # No maxLength: llama.cpp turns it into one nested optional per character and
        # refuses (or crashes on) the grammar; the step's max_tokens bounds the text.
        text: JsonObject = {"type": "string", "minLength": 1}
        options.append(_object({key: text}, [key]))
    return {"oneOf": options}
