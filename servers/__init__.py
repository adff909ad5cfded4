"""MCP tool servers for inventory, orders and warehouses, over one store.

`servers.factory.build_server(group, store)` builds a server; `servers.domain` holds the
rules as plain functions; `servers.store` is the store interface, `servers.stores` opens one
by URL: `servers.sql.store.SqlStore`, one implementation over SQLAlchemy Core for a SQLite file
(embedded, the default) and for PostgreSQL (to share between machines), with one schema
(`servers.sql.schema`) and one migration history (`servers.sql.migrations`).
"""
