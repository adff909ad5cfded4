"""Stores chosen by URL: the scheme picks the implementation.

    STORES = {"sqlite": SQLite file, "postgresql": PostgreSQL database}

A URL is either
- a path to a SQLite file (`/var/lib/stockshot/stockshot.db`, `stockshot.db`), or
  `sqlite:///relative/path.db` / `sqlite:////absolute/path.db` (SQLAlchemy's spelling), or
- a libpq URI, `postgresql://user:password@host:port/dbname?options` (`postgres://` too);
  it needs the `postgres` extra (psycopg 3 and its pool).

Entry points open the store here, never a concrete store module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from store.dialects import postgres_dialect, sqlite_dialect
from store.errors import StoreError, StoreUrlError
from store.protocol import OpenStore
from store.sql import SqlStore

__all__ = [
    "STORES",
    "StoreOptions",
    "describe_url",
    "migrate_url",
    "open_store",
    "sqlite_path",
    "sqlite_store",
    "store_scheme",
]


@dataclass(frozen=True)
class StoreOptions:
    busy_timeout_s: float = 10.0
    """How long a write waits for another writer of what it needs."""


def _sqlite(url: str, options: StoreOptions) -> OpenStore:
    path = sqlite_path(url)
    assert path is not None
    return sqlite_store(path, busy_timeout_s=options.busy_timeout_s)


def sqlite_store(path: Path, *, busy_timeout_s: float = 10.0) -> SqlStore:
    """The embedded store in the SQLite file `path` (its folder made if need be)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the store's folder {path.parent}: {exc}") from exc
    return SqlStore(sqlite_dialect(path, busy_timeout_s=busy_timeout_s))


def _postgresql(url: str, options: StoreOptions) -> OpenStore:
    try:
        import psycopg  # noqa: F401
    except ModuleNotFoundError as exc:
        if exc.name != "psycopg":
            raise
        raise StoreError(
            f"{exc.name} is not installed, and a postgresql:// store needs it: "
            "pip install 'stockshot[postgres]'"
        ) from exc
    dialect = postgres_dialect(url, where=describe_url(url), busy_timeout_s=options.busy_timeout_s)
    return SqlStore(dialect)


def describe_url(url: str) -> str:
    """A PostgreSQL URL with its password left out, for messages and logs."""
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except ProgrammingError:
        return "postgresql://…"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


STORES: dict[str, Callable[[str, StoreOptions], OpenStore]] = {
    "sqlite": _sqlite,
    "postgresql": _postgresql,
}

_ALIASES = {"postgres": "postgresql"}


def store_scheme(url: str) -> str:
    """The registry key of `url`: its scheme, or `sqlite` for a plain path."""
    scheme, sep, _ = url.partition("://")
    if not sep:
        return "sqlite"
    scheme = _ALIASES.get(scheme.lower(), scheme.lower())
    if scheme not in STORES:
        raise StoreUrlError(
            f"unknown store URL scheme {scheme!r} in STOCKSHOT_DATABASE_URL; "
            f"known: {', '.join(STORES)} (or a plain SQLite path)"
        )
    return scheme


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL or path; None for any other store."""
    if store_scheme(url) != "sqlite":
        return None
    if "://" not in url:
        return Path(url)
    rest = url.partition("://")[2]
    if not rest.startswith("/") or len(rest) < 2:
        raise StoreUrlError(
            f"a SQLite URL names a file: sqlite:///relative.db or sqlite:////absolute.db, "
            f"not {url!r}"
        )
    return Path(rest[1:])


def open_store(url: str, options: StoreOptions | None = None) -> OpenStore:
    """Open (and migrate) the store `url` names; the caller closes it."""
    return STORES[store_scheme(url)](url, options or StoreOptions())


def migrate_url(url: str) -> None:
    """Open the store `url` names, which migrates it (the `alembic` command line's way in)."""
    open_store(url).close()
