"""MCP tool servers for inventory, orders and warehouses, over one store.

`servers.factory.build_server(group, store)` builds a server; `servers.domain` holds the
rules as plain functions; `store.protocol` is the store interface, `store.stores` opens one
by URL: `store.sql.SqlStore`, one implementation over SQLAlchemy Core for a SQLite file
(embedded, the default) and for PostgreSQL (to share between machines), with one schema
(`store.schema`) and one migration history (`store.migrations`).
"""
