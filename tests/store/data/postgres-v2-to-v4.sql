-- What that stockshot's own migrations 2 to 4 added to it.
CREATE TABLE proposals (
            number BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            run_id TEXT,
            tool TEXT NOT NULL,
            arguments JSONB NOT NULL,
            arguments_sha256 TEXT NOT NULL,
            observation JSONB,
            live JSONB,
            status TEXT NOT NULL
                CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'failed')),
            created_at TIMESTAMPTZ NOT NULL,
            expires_at TIMESTAMPTZ NOT NULL,
            decided_by TEXT,
            decided_at TIMESTAMPTZ,
            reason TEXT,
            result JSONB,
            order_id TEXT
        );
CREATE INDEX proposals_by_status ON proposals (status, number);
CREATE INDEX proposals_by_run ON proposals (run_id);
INSERT INTO stockshot_schema (version) VALUES (2);
ALTER TABLE warehouses ADD COLUMN aliases TEXT NOT NULL DEFAULT '';
INSERT INTO stockshot_schema (version) VALUES (3);
CREATE TABLE column_profiles (
            signature TEXT PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            headers JSONB NOT NULL,
            mapping JSONB NOT NULL,
            created_at TIMESTAMPTZ NOT NULL,
            updated_at TIMESTAMPTZ NOT NULL,
            created_by TEXT
        );
INSERT INTO stockshot_schema (version) VALUES (4);
