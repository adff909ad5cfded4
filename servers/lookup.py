"""Checks that an id names something that exists, with messages that help fix it.

Pure functions over lists of known ids. An id "looks like" a SKU or a warehouse id when
its letter prefix matches the known ids of that kind (`SKU-12345` → `SKU`), so a swapped
argument is named as such instead of reported as merely unknown.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from servers.errors import InvalidArgument

__all__ = [
    "check_not_swapped",
    "check_sku",
    "check_warehouse_id",
    "closest",
    "edit_distance",
    "listing",
    "looks_like",
    "prefix_of",
]

_PREFIX = re.compile(r"\s*([A-Za-z]+)")
_LISTED = 20
_LOAD_HINT = " (load some with `stockshot store seed` or `stockshot store import`)"


def prefix_of(value: str) -> str:
    """`SKU-10402` → `SKU`; `wh01` → `WH`; no leading letters → ``."""
    match = _PREFIX.match(value)
    return match.group(1).upper() if match else ""


def looks_like(value: str, kind: Sequence[str], other: Sequence[str]) -> bool:
    """Whether `value` is, or is shaped like, one of `kind` rather than one of `other`."""
    if value in kind:
        return True
    prefix = prefix_of(value)
    kind_prefixes = {prefix_of(k) for k in kind}
    other_prefixes = {prefix_of(o) for o in other}
    return bool(prefix) and prefix in kind_prefixes and prefix not in other_prefixes


def closest(value: str, candidates: Sequence[str], n: int = 3) -> list[str]:
    """Up to `n` candidates most similar to `value`, ignoring case.

    difflib finds the similar ones; they are ranked by edit distance, then by the length of
    the prefix they share with `value` (ids differ at their end), then by their order.
    """
    by_upper = {c.upper(): c for c in candidates}
    target = value.strip().upper()
    similar = difflib.get_close_matches(target, list(by_upper), n=max(n, 10), cutoff=0.6)
    similar.sort(key=lambda c: (edit_distance(target, c), -_shared_prefix(target, c), c))
    return [by_upper[c] for c in similar[:n]]


def edit_distance(a: str, b: str) -> int:
    """The Levenshtein distance: single-character insertions, deletions and substitutions."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            )
        previous = current
    return previous[-1]


def _shared_prefix(a: str, b: str) -> int:
    length = 0
    for char_a, char_b in zip(a, b, strict=False):
        if char_a != char_b:
            break
        length += 1
    return length


def listing(values: Sequence[str]) -> str:
    shown = ", ".join(values[:_LISTED])
    if len(values) > _LISTED:
        shown += f", … ({len(values)} in all)"
    return shown


def check_warehouse_id(value: str, warehouses: Sequence[str], skus: Sequence[str]) -> None:
    """Raise `InvalidArgument` unless `value` is a known warehouse id."""
    if value in warehouses:
        return
    details = {"valid": list(warehouses)}
    if not warehouses:
        raise InvalidArgument(
            f"unknown warehouse id {value!r}: the store has no warehouses yet{_LOAD_HINT}",
            code="unknown_warehouse",
            field="warehouse_id",
            details=details,
        )
    valid = f"warehouses: {listing(warehouses)}"
    if looks_like(value, skus, warehouses):
        raise InvalidArgument(
            f"{value!r} looks like a SKU, not a warehouse id; {valid}",
            code="wrong_kind",
            field="warehouse_id",
            details=details,
        )
    near = closest(value, warehouses, n=1)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise InvalidArgument(
        f"unknown warehouse id {value!r}{hint}; {valid}",
        code="unknown_warehouse",
        field="warehouse_id",
        details=details,
    )


def check_not_swapped(
    sku: str, warehouse_id: str, skus: Sequence[str], warehouses: Sequence[str]
) -> None:
    """Raise `InvalidArgument` when the SKU and the warehouse id were passed the wrong way round."""
    if sku in skus or warehouse_id in warehouses:
        return
    if looks_like(sku, warehouses, skus) and looks_like(warehouse_id, skus, warehouses):
        raise InvalidArgument(
            f"sku {sku!r} and warehouse_id {warehouse_id!r} look swapped; "
            f"did you mean sku={warehouse_id!r}, warehouse_id={sku!r}?",
            code="swapped_ids",
            field="sku",
            details={"sku": warehouse_id, "warehouse_id": sku},
        )


def check_sku(
    value: str,
    skus: Sequence[str],
    warehouses: Sequence[str],
    *,
    nearby: Sequence[str] = (),
) -> None:
    """Raise `InvalidArgument` unless `value` is a known SKU.

    Suggestions come from `nearby` (say, the SKUs of the warehouse in question) first,
    then from every SKU.
    """
    if value in skus:
        return
    if not skus:
        raise InvalidArgument(
            f"unknown SKU {value!r}: the store has no items yet{_LOAD_HINT}",
            code="unknown_sku",
            field="sku",
            details={"suggestions": []},
        )
    examples = f"SKUs look like {', '.join(skus[:3])}"
    if looks_like(value, warehouses, skus):
        raise InvalidArgument(
            f"{value!r} looks like a warehouse id, not a SKU; {examples}",
            code="wrong_kind",
            field="sku",
            details={"suggestions": []},
        )
    near = closest(value, nearby) or closest(value, skus)
    if near:
        message = f"unknown SKU {value!r}; closest known SKUs: {', '.join(near)}"
    else:
        message = f"unknown SKU {value!r} and no known SKU is close; {examples}"
    raise InvalidArgument(message, code="unknown_sku", field="sku", details={"suggestions": near})
