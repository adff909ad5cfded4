"""A column mapping a person gives or confirms, and the signature it is kept by.

`stockshot ingest --columns 'on_hand=Free stock,reorder_point=Reorder level'`, the dashboard and
the API give a mapping as schema field -> the header of the column that holds it. Saved, it is
a profile keyed by the table's *header signature* (its headers normalised, in order), so the
next screenshot of the same screen maps the same way. One module owns the format both ways
(`parse_columns` / `format_columns`). Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from pipeline.errors import InputError
from pipeline.table.headers import FIELDS, normalise_header
from pipeline.table.schema import ColumnRole

__all__ = [
    "format_columns",
    "header_signature",
    "parse_columns",
    "roles_from_mapping",
]


def header_signature(header: Sequence[str]) -> str:
    """The signature of a table's headers: SHA-256 of the normalised headers in order (a
    screen shows the same headers every time; OCR case and punctuation do not count)."""
    joined = "\x1f".join(normalise_header(h) for h in header)
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()[:32]


def parse_columns(text: str) -> dict[str, str]:
    """`on_hand=Free stock,reorder_point=Reorder level` -> {field: header}; a field that is
    not in the schema, or given twice, is the caller's mistake."""
    mapping: dict[str, str] = {}
    for item in (p for p in text.split(",") if p.strip()):
        field, sep, header = item.partition("=")
        field, header = field.strip(), header.strip()
        if not sep or not header:
            raise InputError(
                f"--columns takes field=header pairs (like on_hand=Free stock), got {item!r}"
            )
        if field not in FIELDS:
            raise InputError(f"unknown field {field!r} in --columns; fields: {', '.join(FIELDS)}")
        if field in mapping:
            raise InputError(f"--columns gives {field} twice")
        mapping[field] = header
    if not mapping:
        raise InputError("--columns is empty; give field=header pairs")
    return mapping


def format_columns(mapping: Mapping[str, str]) -> str:
    return ",".join(f"{field}={header}" for field, header in mapping.items())


def roles_from_mapping(
    header: Sequence[str],
    mapping: Mapping[str, str],
    typed: Sequence[ColumnRole],
    *,
    source: str,
) -> tuple[list[ColumnRole], list[str]]:
    """The typed roles with `mapping` laid over them: each field given goes to the column with
    that header (compared normalised); a column taken by a given field loses its typed role,
    and a field given elsewhere leaves the column it was typed to. Returns the roles and the
    fields whose header the table does not have."""
    by_header = {normalise_header(h): i for i, h in enumerate(header)}
    given: dict[int, str] = {}
    missing: list[str] = []
    for field, wanted in mapping.items():
        index = by_header.get(normalise_header(wanted))
        if index is None:
            missing.append(field)
        else:
            given[index] = field
    roles: list[ColumnRole] = []
    for role in typed:
        if role.index in given:
            roles.append(
                ColumnRole(
                    role.index,
                    role.header,
                    given[role.index],
                    1.0,
                    f"{source}: {given[role.index]} is {role.header!r}",
                    role.unit,
                )
            )
        elif role.maps_to is not None and role.maps_to in given.values():
            roles.append(
                ColumnRole(
                    role.index,
                    role.header,
                    None,
                    0.0,
                    f"{source}: {role.maps_to} is another column",
                    role.unit,
                )
            )
        else:
            roles.append(role)
    return roles, missing
