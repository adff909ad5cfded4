"""Column profiles: a mapping a person confirmed for one screen, kept in the store by the
header signature of that screen's table (`pipeline.table.profiles`).

`StoreProfiles` is the `ProfileLookup` ingest consults, and the service every surface (CLI,
API, dashboard) saves, lists, shows and deletes profiles through. Built by the entry points,
with their store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from pipeline.errors import InputError
from pipeline.table import FIELDS, header_signature, normalise_header
from store.models import ColumnProfile
from store.protocol import Store

__all__ = ["StoreProfiles"]


class StoreProfiles:
    def __init__(self, store: Store, *, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock

    def mapping(self, signature: str) -> Mapping[str, str] | None:
        with self.store.reading() as tx:
            found = tx.profile(signature)
        return found.mapping if found is not None else None

    def save(
        self,
        headers: Sequence[str],
        mapping: Mapping[str, str],
        *,
        name: str = "",
        by: str | None = None,
    ) -> ColumnProfile:
        """Keep `mapping` (field -> header) for tables with these headers; every field must be
        the schema's and every header one of the table's."""
        unknown = [f for f in mapping if f not in FIELDS]
        if unknown:
            raise InputError(f"unknown field(s) {', '.join(unknown)}; fields: {', '.join(FIELDS)}")
        known = {normalise_header(h) for h in headers}
        absent = [h for h in mapping.values() if normalise_header(h) not in known]
        if absent:
            raise InputError(
                f"no column headed {', '.join(repr(h) for h in absent)}; headers: "
                f"{', '.join(h for h in headers if h)}"
            )
        now = self.clock()
        signature = header_signature(headers)
        with self.store.writing() as tx:
            earlier = tx.profile(signature)
            profile = ColumnProfile(
                signature=signature,
                name=name or (earlier.name if earlier else ""),
                headers=tuple(headers),
                mapping=dict(mapping),
                created_at=earlier.created_at if earlier else now,
                updated_at=now,
                created_by=by,
            )
            tx.put_profile(profile)
        return profile

    def list(self) -> list[ColumnProfile]:
        with self.store.reading() as tx:
            return tx.profiles()

    def get(self, signature: str) -> ColumnProfile | None:
        with self.store.reading() as tx:
            return tx.profile(signature)

    def delete(self, signature: str) -> bool:
        with self.store.writing() as tx:
            return tx.delete_profile(signature)
