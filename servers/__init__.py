"""MCP tool servers for inventory, orders and warehouses, over one store.

`servers.factory.build_server(group, store)` builds a server; `servers.domain` holds the
rules as plain functions; `servers.store` is the store interface, `servers.stores` opens one
by URL: `servers.sqlite_store.SqliteStore` (embedded, the default) or
`servers.postgres_store.PostgresStore` (PostgreSQL, to share between machines).
"""
