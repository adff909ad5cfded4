"""The store's schema history (Alembic), one for SQLite and PostgreSQL.

`versions/` holds one revision per schema version, numbered `0001`, `0002`, …; append, never
edit a released one. `store.migrate` applies them when a store opens. To write the next
one: `alembic -c store/alembic.ini revision -m "what it adds" --rev-id 0006`.
"""
