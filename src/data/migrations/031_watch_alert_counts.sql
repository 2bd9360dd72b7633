-- GET /watches and GET /watches/{id} give each watch's alerts counted by state (alertCounts, the
-- ALERT_COUNTS expression of src/data/repositories/json-sql.ts): with the state in the index the
-- count reads the index only, not every alert row of the watch.
CREATE INDEX alerts_watch_state_idx ON alerts (watch_id, state);
