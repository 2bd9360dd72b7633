-- A version of each owner's alerts, changed by every transaction that writes any of them. The API
-- keeps GET /alerts pages asked for more than once (src/domain/page-cache.ts, used by
-- src/domain/alerts.ts) and answers a repeated request from memory only while the owner's version
-- is still the one the page was read at: every such request reads the version from the database
-- after it arrived, so it still sees every write committed before it, and a kept page costs one
-- indexed probe instead of the list query.
--
-- Why a row per owner and not max() of a sequence stamped on the alerts: sequence values are taken
-- in one order and committed in another, so a reader could see the later value before the earlier
-- transaction's rows and never notice them. Writers of one owner queue on its row instead, so the
-- version changes with every commit that touches the owner's alerts.

CREATE TABLE alert_list_versions (
  owner_id text COLLATE "C" PRIMARY KEY,
  -- How many transactions have changed the owner's alerts (for people and tests).
  version  bigint NOT NULL,
  -- A new random value on every change: what the caches compare. Unlike the count it never comes
  -- back after a restore or a failover to a standby that lost the last commits, so a page kept
  -- by a running process cannot pass for the restored data.
  token    uuid NOT NULL,
  -- The transaction that changed it last: one that writes many alerts of an owner (a scan's
  -- findings) changes it once.
  xact     bigint NOT NULL
);

-- Owners that already have alerts start at 1; an owner with no row has never had an alert written.
INSERT INTO alert_list_versions (owner_id, version, token, xact)
SELECT owner_id, 1, gen_random_uuid(), 0 FROM (SELECT DISTINCT owner_id FROM alerts) owners;

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
    INSERT INTO alert_list_versions AS v (owner_id, version, token, xact)
    VALUES (owner, 1, gen_random_uuid(), txid_current())
    ON CONFLICT (owner_id) DO UPDATE
      SET version = v.version + 1, token = excluded.token, xact = excluded.xact
      WHERE v.xact <> excluded.xact;
  END LOOP;
  RETURN NULL;
END
$$;

-- Deferred to the commit: the owner's row is then locked only while the transaction commits, not
-- from its first alert write on. A transaction that held it while waiting for an alert row locked
-- by another (itself waiting for the version row) would otherwise deadlock. The rows are raised in
-- the order the alerts were written, so two transactions that each write alerts of the same
-- several owners in opposite orders can still deadlock at commit (PostgreSQL then aborts one);
-- the service never writes alerts of two owners in one transaction.
CREATE CONSTRAINT TRIGGER alerts_list_version AFTER INSERT OR DELETE ON alerts
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION alerts_raise_list_version();
-- An update that changes nothing (PATCH to the state the alert already has) keeps the kept pages.
CREATE CONSTRAINT TRIGGER alerts_list_version_update AFTER UPDATE ON alerts
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*)
  EXECUTE FUNCTION alerts_raise_list_version();
-- Also under session_replication_role = replica (bulk loads, as in migration 004).
ALTER TABLE alerts ENABLE ALWAYS TRIGGER alerts_list_version;
ALTER TABLE alerts ENABLE ALWAYS TRIGGER alerts_list_version_update;

CREATE FUNCTION alerts_truncated_raise_list_versions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE alert_list_versions
     SET version = version + 1, token = gen_random_uuid(), xact = txid_current();
  RETURN NULL;
END
$$;

CREATE TRIGGER alerts_list_version_truncate AFTER TRUNCATE ON alerts
  FOR EACH STATEMENT EXECUTE FUNCTION alerts_truncated_raise_list_versions();
ALTER TABLE alerts ENABLE ALWAYS TRIGGER alerts_list_version_truncate;
