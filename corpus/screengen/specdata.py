"""Screen specifications kept as data: a JSON file of entries, each a dataclass's fields by name
(a field left out takes its default), validated into the dataclasses when loaded.

Objects several entries share (a theme, a page's texts) are written once under `shared` and
named where they are used: `"@light"` stands for `shared.light`, and `{"@": "en_page", "brand":
"Northwind ERP"}` for `shared.en_page` with `brand` changed. A shared object may be named in a
later one.

A value of the wrong kind, a field an entry lacks and has no default for, or a field the
dataclass does not have is a `SpecDataError` naming the file, the entry and the field, so that a
typo in a hand-edited file never falls back to a default unnoticed.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

__all__ = ["SpecDataError", "entries", "read_data", "seed_of"]

T = TypeVar("T")


class SpecDataError(ValueError):
    """A specification file that does not describe its entries."""


def read_data(path: Path) -> dict[str, Any]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecDataError(f"{path}: cannot read the specifications: {exc}") from exc
    if not isinstance(loaded, dict):
        raise SpecDataError(f"{path}: the specifications are not a JSON object")
    return loaded


def seed_of(doc: Mapping[str, Any], path: Path) -> int:
    """The whole number `doc["seed"]` that a file's random choices are drawn from."""
    seed = doc.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SpecDataError(f"{path}: 'seed' is not a whole number")
    return seed


def entries(doc: Mapping[str, Any], key: str, kind: type[T], path: Path) -> list[T]:
    """The list `doc[key]`, each entry validated into `kind`."""
    shared = doc.get("shared", {})
    if not isinstance(shared, dict):
        raise SpecDataError(f"{path}: 'shared' is not an object of named values")
    raw = _resolve(doc.get(key), shared, path, ())
    if not isinstance(raw, list):
        raise SpecDataError(f"{path}: {key!r} is not a list of entries")
    for n, entry in enumerate(raw):
        unknown = _unknown(entry, kind, f"{key}[{n}]")
        if unknown:
            raise SpecDataError(f"{path}: no such field: {', '.join(unknown)}")
    try:
        return TypeAdapter(list[kind]).validate_python(raw)  # type: ignore[valid-type]
    except ValidationError as exc:
        raise SpecDataError(f"{path}: {key}: {exc}") from exc


def _resolve(value: Any, shared: Mapping[str, Any], path: Path, seen: tuple[str, ...]) -> Any:
    """`value` with every `"@name"` and `{"@": name, ...}` replaced by the shared value."""
    if isinstance(value, str) and value.startswith("@"):
        name = value[1:]
        if name not in shared:
            known = ", ".join(sorted(shared)) or "none"
            raise SpecDataError(f"{path}: no shared value {name!r} (shared: {known})")
        if name in seen:
            raise SpecDataError(f"{path}: shared value {name!r} names itself")
        return _resolve(shared[name], shared, path, (*seen, name))
    if isinstance(value, list):
        return [_resolve(v, shared, path, seen) for v in value]
    if not isinstance(value, dict):
        return value
    changed = {k: _resolve(v, shared, path, seen) for k, v in value.items() if k != "@"}
    if "@" not in value:
        return changed
    base = _resolve(f"@{value['@']}", shared, path, seen)
    if not isinstance(base, dict):
        raise SpecDataError(f"{path}: shared value {value['@']!r} is not an object to change")
    return {**base, **changed}


def _unknown(value: Any, kind: Any, where: str) -> list[str]:
    """Fields named in `value` that the dataclass `kind` (or those nested in it) lacks."""
    if isinstance(value, list):
        args = [a for a in typing.get_args(kind) if a is not Ellipsis]
        if len(args) == 1:
            return [u for n, v in enumerate(value) for u in _unknown(v, args[0], f"{where}[{n}]")]
        return []
    if not dataclasses.is_dataclass(kind):
        # An optional dataclass (`Photo | None`) is checked as that dataclass.
        kind = next((a for a in typing.get_args(kind) if dataclasses.is_dataclass(a)), None)
    if kind is None or not isinstance(value, dict):
        return []
    hints = typing.get_type_hints(kind)
    found = [f"{where}.{name}" for name in value if name not in hints]
    for name, inner in value.items():
        if name in hints:
            found += _unknown(inner, hints[name], f"{where}.{name}")
    return found
