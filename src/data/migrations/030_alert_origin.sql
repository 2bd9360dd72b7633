-- Every alert says whether its record is a new filing or a mark that was already on the register
-- when the watch started looking for it (src/domain/alerts/origin.ts, docs/matching.md "New
-- filings and existing marks"). A watch's first scan searches the whole mirror: what it finds is
-- the register as it stood, and the owner gets one summary e-mail of those, not a "newly filed"
-- e-mail per mark.

-- When the watch last changed what it looks for: its name or its Nice classes. NULL: not since it
-- was created, so the watch has been looking since created_at. Changes made before this version
-- were not recorded: those watches look from their creation.
ALTER TABLE watches ADD COLUMN criteria_changed_at timestamptz;

-- The alerts' list-version triggers (007) are deferred to the commit, and PostgreSQL alters no
-- table with pending trigger events (an earlier migration's upgrade step, in the same
-- transaction, may have left some): they run at once while this migration alters the table (as
-- in the upgrade step of 008), and wait for the commit again at its end.
SET CONSTRAINTS alerts_list_version, alerts_list_version_update IMMEDIATE;

ALTER TABLE alerts
  ADD COLUMN origin text CHECK (origin IN ('new_filing', 'existing_mark'));

-- The origin is part of the alert's API JSON (and so of the webhooks' payloads). It is added by a
-- trigger of its own that runs after alerts_api_json (triggers of one event fire in name order),
-- so that the function that builds the hit's JSON stays the one place that does.
CREATE FUNCTION alerts_add_origin_json() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- json_build_object's spelling: `, "key" : value` before the closing brace.
  NEW.api_json := left(NEW.api_json, -1) || ', "origin" : ' || to_json(NEW.origin)::text || '}';
  RETURN NEW;
END
$$;

CREATE TRIGGER alerts_api_json_origin BEFORE INSERT OR UPDATE ON alerts
  FOR EACH ROW EXECUTE FUNCTION alerts_add_origin_json();
-- As alerts_api_json (migration 004): derived data, kept under session_replication_role = replica.
ALTER TABLE alerts ENABLE ALWAYS TRIGGER alerts_api_json_origin;

-- The alerts raised before this version, by the same rule as a scan applies now: a new filing if
-- the record was filed, or published for opposition, on or after the day (UTC) the watch was
-- created; otherwise a mark that was on the register already. The update also rebuilds api_json.
UPDATE alerts a
   SET origin = CASE
         WHEN (h.filed_at AT TIME ZONE 'UTC')::date >= (w.created_at AT TIME ZONE 'UTC')::date
           OR (h.published_at AT TIME ZONE 'UTC')::date >= (w.created_at AT TIME ZONE 'UTC')::date
         THEN 'new_filing' ELSE 'existing_mark' END
  FROM hits h, watches w
 WHERE h.id = a.hit_id AND w.id = a.watch_id;

ALTER TABLE alerts ALTER COLUMN origin SET NOT NULL;

-- GET /alerts?origin=… (and the dashboard's filter): one index range per owner and origin.
CREATE INDEX alerts_owner_origin_idx ON alerts (owner_id, origin, created_at DESC, id DESC);

SET CONSTRAINTS alerts_list_version, alerts_list_version_update DEFERRED;
