"""The store: every table, every statement and the one migration history, for SQLite and
PostgreSQL. It imports neither the pipeline nor the tool servers (an import contract says so);
both use it.

- `protocol`: the store the domain rules depend on (`Store`, its reading and writing
  transactions), and `stores`: one opened by URL (`open_store`), the only way in for an entry
  point;
- `models`: the rows as stored and read (warehouses, items, stock, orders, proposals, audit,
  column profiles, webhook deliveries);
- `schema`: the tables (SQLAlchemy Core metadata) and the two column types whose storage the
  databases differ on (moments, JSON);
- `sql`: `SqlStore`, the store protocol with every statement written once; `outbox`: the
  statements on events and their webhook deliveries;
- `dialects`: the few things SQLite and PostgreSQL do their own way (transactions, the row
  lock, telling an insert from an update, what a driver error means);
- `migrate` and `migrations/`: the Alembic history, applied when a store opens;
- `errors`: `StoreError`, what a driver's error becomes, once.
"""
