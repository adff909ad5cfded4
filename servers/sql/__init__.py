"""The SQL store: one schema, one implementation and one migration history for SQLite and
PostgreSQL.

- `schema`: the tables (SQLAlchemy Core metadata) and the two column types whose storage the
  databases differ on (moments, JSON);
- `store`: `SqlStore`, the store protocol (`servers.store`) with every statement written once;
- `dialects`: the few things SQLite and PostgreSQL do their own way (transactions, the row
  lock, telling an insert from an update, what a driver error means);
- `migrate` and `migrations/`: the Alembic history, applied when a store opens.
"""
