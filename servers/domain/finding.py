"""Finding items by whatever a screen or a person identifies them by.

`match_items` is pure, over the catalogue's items: a query is compared, tier by tier, with
every item's SKU, codes (barcodes, part numbers, aliases) and name, and the first tier that
matches anything answers:

1. a SKU, byte for byte;
2. a code, byte for byte (so `shirt-variant-1-7` and `SHIRT-VARIANT-1-7` stay two codes when
   both exist);
3. a SKU or a code, normalised: case, width (full-width forms), spaces and punctuation set
   aside (`sku 10402`, `ＳＫＵ－１０４０２`);
4. a name, normalised the same way, in any script (`hex bolt m8x40, box of 100`);
5. a near match, marked `near`: a SKU, barcode or part number within a small edit distance
   (never an all-digit one: a barcode one digit off is another item), or a name or an alias
   within a small edit distance or whose words hold every word of the query.

One item found is `one`, more than one is `several` (every candidate listed, best first), none
is `none`. A near match is only a candidate: the caller confirms it before acting on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from servers.lookup import edit_distance
from servers.models import Closeness, FoundItem, FoundItems, MatchedBy
from store.models import Item
from store.protocol import Store

__all__ = ["KIND_WORDS", "code_owners", "find_items", "match_items", "normalised", "words"]

_MAX_CANDIDATES = 10
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def normalised(text: str) -> str:
    """`text` with case, width, spaces and punctuation set aside: `Hex bolt M8x40 (box)` and
    `HEX BOLT M8X40 box` are the same; so are `SKU-10402` and `ｓｋｕ １０４０２`."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in folded if unicodedata.category(c)[0] in "LN")


def words(text: str) -> set[str]:
    """The words of `text`, normalised: runs of letters and digits, and in Chinese (written
    without spaces) each pair of neighbouring characters."""
    found: set[str] = set()
    folded = unicodedata.normalize("NFKC", text).casefold()
    for run in re.split(r"[^\w]+|_", folded):
        if not run:
            continue
        parts = re.split(f"({_HAN.pattern}+)", run)
        for part in parts:
            if not part:
                continue
            if _HAN.match(part):
                found.update(part[i : i + 2] for i in range(max(1, len(part) - 1)))
            else:
                found.add(part)
    return found


@dataclass(frozen=True)
class _Key:
    """One thing an item is known by."""

    item: Item
    matched_by: MatchedBy
    text: str


def _keys(items: Sequence[Item]) -> list[_Key]:
    keys: list[_Key] = []
    for item in items:
        keys.append(_Key(item, "sku", item.sku))
        keys += [_Key(item, code.kind, code.code) for code in item.codes]
        keys.append(_Key(item, "name", item.name))
    return keys


def _code_bound(text: str) -> int:
    """How many edits a code of this length may be off and still be near: none for short or
    all-digit codes."""
    if len(text) < 5 or text.isdigit():
        return 0
    return 1 if len(text) < 10 else 2


def _within(a: str, b: str, bound: int) -> bool:
    """Whether `a` and `b` are at most `bound` edits apart (lengths checked first)."""
    return abs(len(a) - len(b)) <= bound and edit_distance(a, b) <= bound


def _name_near(query: str, name: str) -> bool:
    q, n = normalised(query), normalised(name)
    if len(q) >= 6 and _within(q, n, max(1, len(n) // 10)):
        return True
    asked, has = words(query), words(name)
    return len(asked) >= 2 and asked <= has


def _tiers(query: str, keys: Sequence[_Key]) -> Iterable[tuple[Closeness, list[_Key]]]:
    """Each tier's matches, in order (computed only as far as they are asked for)."""
    codes = [k for k in keys if k.matched_by != "name"]
    names = [k for k in keys if k.matched_by == "name"]
    wanted = normalised(query)
    yield "exact", [k for k in codes if k.matched_by == "sku" and k.text == query]
    yield "exact", [k for k in codes if k.matched_by != "sku" and k.text == query]
    yield "normalised", [k for k in codes if wanted and normalised(k.text) == wanted]
    yield "normalised", [k for k in names if wanted and normalised(k.text) == wanted]
    bound = _code_bound(wanted)
    near_codes = [
        k
        for k in codes
        if k.matched_by != "alias"
        and bound
        and not normalised(k.text).isdigit()
        and _within(wanted, normalised(k.text), bound)
    ]
    named = [k for k in keys if k.matched_by in ("alias", "name")]
    yield "near", near_codes + [k for k in named if wanted and _name_near(query, k.text)]


def _ranked(query: str, found: Sequence[_Key]) -> list[_Key]:
    """One key per item, the closest first (by edit distance of the normalised texts)."""
    wanted = normalised(query)
    best: dict[str, _Key] = {}
    for key in sorted(found, key=lambda k: edit_distance(wanted, normalised(k.text))):
        best.setdefault(key.item.sku, key)
    return list(best.values())


def match_items(query: str, items: Sequence[Item]) -> FoundItems:
    """The items `query` names: one, several (best first) or none."""
    keys = _keys(items)
    for closeness, found in _tiers(query, keys):
        if found:
            ranked = _ranked(query, found)
            listed = [
                FoundItem(
                    sku=k.item.sku,
                    name=k.item.name,
                    matched_by=k.matched_by,
                    matched=k.text,
                    closeness=closeness,
                )
                for k in ranked[:_MAX_CANDIDATES]
            ]
            return FoundItems(
                query=query,
                answer="one" if len(ranked) == 1 else "several",
                items=listed,
                message=_message(query, listed, len(ranked)),
            )
    return FoundItems(
        query=query,
        answer="none",
        message=f"no item matches {query!r} by SKU, barcode, part number, alias or name",
    )


KIND_WORDS: dict[MatchedBy, str] = {
    "sku": "SKU",
    "barcode": "barcode",
    "part_number": "part number",
    "alias": "alias",
    "name": "name",
}


def _message(query: str, listed: Sequence[FoundItem], total: int) -> str:
    first = listed[0]
    if total == 1 and first.closeness != "near":
        what = KIND_WORDS[first.matched_by]
        if first.matched_by == "sku" and first.closeness == "exact":
            return f"{first.sku} is the SKU of {first.name!r}"
        return f"{query!r} is the {what} of {first.sku} ({first.name!r}); use the SKU {first.sku}"
    shown = "; ".join(
        f"{f.sku} ({f.name!r}, by {KIND_WORDS[f.matched_by]} {f.matched!r})" for f in listed
    )
    more = f", and {total - len(listed)} more" if total > len(listed) else ""
    if total == 1:
        return (
            f"no item is {query!r} exactly; a near match: {shown}. Confirm it before using its SKU"
        )
    how = " only nearly" if first.closeness == "near" else ""
    return (
        f"{query!r} matches {total} items{how}: {shown}{more}. It names none of them for "
        "sure: ask which one is meant"
    )


def code_owners(value: str, items: Sequence[Item]) -> str | None:
    """What `value` is when it is exactly an item code (`the barcode of SKU-10402`), so that a
    code sent where a SKU or a warehouse id belongs is named as what it is; None otherwise."""
    owners = [
        f"the {KIND_WORDS[code.kind]} of {item.sku}"
        for item in items
        for code in item.codes
        if code.code == value
    ]
    return " and ".join(owners) or None


def find_items(store: Store, query: str) -> FoundItems:
    """The items `query` names in the store's catalogue (see `match_items`)."""
    with store.reading() as tx:
        items = tx.items()
    return match_items(query.strip(), items)
