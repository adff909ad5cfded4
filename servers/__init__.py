"""MCP tool servers for inventory, orders and warehouses, over one store.

`servers.factory.build_server(group, store)` builds a server; `servers.domain` holds the
rules as plain functions; `servers.store` is the store interface and
`servers.sqlite_store.SqliteStore` its embedded implementation.
"""
