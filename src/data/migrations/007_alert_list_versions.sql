-- A version number for each owner's alerts, raised by every transaction that writes any of them.
-- The API keeps the pages of GET /alerts it has sent (src/domain/alert-pages.ts) and answers a
-- repeated request from memory only while the owner's version is still the one the page was read
-- at: the version is read from the database by every request after it arrived, so a request still
-- sees every write committed before it, and a page's cost drops to one indexed probe.
--
-- Why a counter row and not max() of a sequence stamped on the alerts: sequence values are taken
-- in one order and committed in another, so a reader could see the later value before the earlier
-- transaction's rows and never notice them. Writers of one owner queue on its row instead, which
-- makes the version change with every commit that touches the owner's alerts.

CREATE TABLE alert_list_versions (
  owner_id text COLLATE "C" PRIMARY KEY,
  version  bigint NOT NULL,
  -- The transaction that raised the version last: one that writes many alerts of an owner (a scan's
  -- findings) raises it once.
  xact     bigint NOT NULL
);

-- Owners that already have alerts start at 1; an owner with no row is at 0.
INSERT INTO alert_list_versions (owner_id, version, xact)
SELECT DISTINCT owner_id, 1, 0 FROM alerts;

-- PL/pgSQL, not SQL: its statement plans are kept for the session, and scans run this per alert.
CREATE FUNCTION alerts_raise_list_version() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  owners text[];
  owner text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    owners := ARRAY[NEW.owner_id];
  ELSIF TG_OP = 'DELETE' THEN
    owners := ARRAY[OLD.owner_id];
  ELSIF OLD.owner_id = NEW.owner_id THEN
    owners := ARRAY[NEW.owner_id];
  ELSE
    -- The alert left one owner's list for another's: both lists changed.
    owners := ARRAY[OLD.owner_id, NEW.owner_id];
  END IF;
  FOREACH owner IN ARRAY owners LOOP
    INSERT INTO alert_list_versions AS v (owner_id, version, xact)
    VALUES (owner, 1, txid_current())
    ON CONFLICT (owner_id) DO UPDATE SET version = v.version + 1, xact = excluded.xact
      WHERE v.xact <> excluded.xact;
  END LOOP;
  RETURN NULL;
END
$$;

-- Deferred to the commit: the owner's row is then locked only while the transaction commits, not
-- from its first alert write on. A transaction that holds the row while it waits for an alert row
-- locked by another (which in turn waits for the version row) would otherwise deadlock.
CREATE CONSTRAINT TRIGGER alerts_list_version AFTER INSERT OR UPDATE OR DELETE ON alerts
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION alerts_raise_list_version();
-- Also under session_replication_role = replica (bulk loads, as in migration 004).
ALTER TABLE alerts ENABLE ALWAYS TRIGGER alerts_list_version;

CREATE FUNCTION alerts_truncated_raise_list_versions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE alert_list_versions SET version = version + 1, xact = txid_current();
  RETURN NULL;
END
$$;

CREATE TRIGGER alerts_list_version_truncate AFTER TRUNCATE ON alerts
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_truncated_raise_list_versions();
ALTER TABLE alerts ENABLE ALWAYS TRIGGER alerts_list_version_truncate;
