-- A record the office deletes from its register while alerts still show it. Until now the mark's
-- row went and the alerts on it stayed as they were: the hit kept the record's last status, the
-- severity could stay high, and no scan ever looked at the alert again (a scan reassesses the
-- alerts whose records changed, found by the marks' change_seq, and a deleted row has none).
--
-- Each deletion now leaves the record as it was last held, under a change_seq of its own from the
-- marks' sequence: the next scan of every watch with an alert on it finds it in its range, marks
-- the hit as removed from the register (hits.removed_at), makes the alert low with a rationale
-- that says so, and sends alert.updated. Should the office publish the record again, its new row
-- is a change like any other, and the hit is written as the record is then (removed_at NULL).
CREATE TABLE mark_removals (
  source_code  text NOT NULL,
  external_id  text NOT NULL,
  -- Taken from marks_change_seq when the deletion commits; imports delete under the import lock,
  -- so these values commit in order with the marks' own, as 002 requires of the sequence.
  change_seq   bigint NOT NULL DEFAULT nextval('marks_change_seq'),
  -- When the mirror took the office's deletion (the service's own clock, not an office date).
  removed_at   timestamptz NOT NULL DEFAULT now_ms(),
  -- The marks row as it was deleted (to_jsonb): what the alert is assessed again from.
  record       jsonb NOT NULL,
  PRIMARY KEY (source_code, external_id)
);
CREATE INDEX mark_removals_change_seq_idx ON mark_removals (change_seq);

-- 035's trigger, which takes a deleted mark's keys and band along, now also keeps the removal.
-- Every deletion is kept (deletions are rare: an office's corrections), whether or not a hit
-- shows it: hits have no index by record alone, and a later alert may not exist yet anyway.
CREATE OR REPLACE FUNCTION mark_rows_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM mark_keys k USING old_marks o WHERE k.id = o.id;
  DELETE FROM mark_band b USING old_marks o WHERE b.id = o.id;
  INSERT INTO mark_removals AS r (source_code, external_id, record)
  SELECT o.source_code, o.external_id, to_jsonb(o) FROM old_marks o
  ON CONFLICT (source_code, external_id) DO UPDATE
    SET change_seq = nextval('marks_change_seq'), removed_at = now_ms(), record = excluded.record;
  RETURN NULL;
END $$;

-- When the mirror took the deletion of the hit's record; NULL while the register holds it.
ALTER TABLE hits ADD COLUMN removed_at timestamptz;

-- The alert's API JSON gains hit.removedAt, after hit.opposition (the rest as 033 builds it).
CREATE OR REPLACE FUNCTION alerts_set_api_json()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  SELECT row_to_json(r)::text
    INTO NEW.api_json
    FROM (SELECT NEW.id AS "id",
                 NEW.watch_id AS "watchId",
                 NEW.state AS "state",
                 NEW.severity AS "severity",
                 NEW.rationale AS "rationale",
                 to_char(NEW.rationale_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "rationaleAt",
                 to_char(NEW.emailed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "emailedAt",
                 to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
                 (SELECT row_to_json(x) FROM (SELECT
                    h.id AS "id",
                    h.entity_type AS "entityType",
                    h.source_code AS "sourceCode",
                    h.external_id AS "externalId",
                    h.display_name AS "displayName",
                    h.owner_name AS "ownerName",
                    h.owner_country_code AS "ownerCountryCode",
                    h.jurisdiction AS "jurisdiction",
                    to_char(h.filed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "filedAt",
                    to_char(h.registered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "registeredAt",
                    to_char(h.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt",
                    h.status AS "status",
                    h.live AS "live",
                    h.classes AS "classes",
                    jsonb_compact_text(h.raw_payload)::json AS "rawPayload",
                    to_char(h.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "publishedAt",
                    jsonb_compact_text(h.opposition)::json AS "opposition",
                    to_char(h.removed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "removedAt") x) AS "hit"
            FROM hits h
           WHERE h.id = NEW.hit_id) r;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'alert % refers to hit %, which is not recorded', NEW.id, NEW.hit_id;
  END IF;
  RETURN NEW;
END
$$;

-- Every alert's JSON rebuilt with hit.removedAt (null: no record was kept as removed before).
UPDATE alerts SET api_json = api_json;
