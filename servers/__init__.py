"""MCP tool servers for inventory, orders and warehouses, over one store.

`servers.factory.build_server(group, store)` builds a server whose tools (module-level
functions in `inventory`, `orders`, `warehouses`) read the store and settings from its
lifespan context; `servers.domain` holds the rules as plain functions, `servers.approvals` the
writes held for a person, `servers.models` the tools' answers. The store itself is the `store`
package (its protocol, its rows, its tables and migrations), which the servers use and which
knows nothing of them.
"""
