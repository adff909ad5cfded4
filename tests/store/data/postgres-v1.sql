-- A store database's schema as stockshot wrote it at version 1 (before its migrations moved to Alembic).
CREATE TABLE stockshot_schema (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE warehouses (
            warehouse_id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            city TEXT NOT NULL DEFAULT ''
        );
CREATE TABLE items (
            sku TEXT PRIMARY KEY,
            name TEXT NOT NULL
        );
CREATE TABLE stock (
            sku TEXT NOT NULL REFERENCES items (sku),
            warehouse_id TEXT NOT NULL REFERENCES warehouses (warehouse_id),
            on_hand INTEGER NOT NULL CHECK (on_hand >= 0),
            reorder_point INTEGER NOT NULL CHECK (reorder_point >= 0),
            on_order INTEGER NOT NULL DEFAULT 0 CHECK (on_order >= 0),
            updated_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (sku, warehouse_id)
        );
CREATE TABLE orders (
            number BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            sku TEXT NOT NULL,
            warehouse_id TEXT NOT NULL,
            quantity INTEGER NOT NULL CHECK (quantity > 0),
            status TEXT NOT NULL CHECK (status IN ('open', 'cancelled')),
            created_at TIMESTAMPTZ NOT NULL,
            cancelled_at TIMESTAMPTZ,
            idempotency_key TEXT,
            run_id TEXT,
            observed_on_hand INTEGER,
            observed_at TEXT,
            FOREIGN KEY (sku, warehouse_id) REFERENCES stock (sku, warehouse_id)
        );
CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key);
CREATE INDEX orders_by_stock ON orders (sku, warehouse_id, status);
CREATE TABLE audit_log (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            at TIMESTAMPTZ NOT NULL,
            action TEXT NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('accepted', 'refused')),
            reason TEXT NOT NULL,
            arguments JSONB NOT NULL,
            order_id TEXT,
            run_id TEXT
        );
INSERT INTO stockshot_schema (version) VALUES (1);
