-- Whether each record is live or dead at its office (docs/matching.md, "Live or dead"): true,
-- false, or NULL when the office's code says neither or the source gives no status. Every reader
-- sets it from the office's own table (src/register/liveness.ts); a scan raises no alert for a
-- dead record, and an alert on one is never high.
ALTER TABLE marks ADD COLUMN live boolean;
-- The hit keeps it as it keeps the status: what the record said when the alert was last assessed.
ALTER TABLE hits ADD COLUMN live boolean;

-- The mirror already stored: the same rules as the readers, from what each record kept. A USPTO
-- case-file keeps the office's Live/Dead indicator in its raw payload (statusLiveDead; the sample's
-- lines under provenance), which is finer than the status word (715 "cancelled - restored to
-- pendency" is Indifferent: neither); every other record is read from its status word, which its
-- reader took from the office's table. No change_seq is taken: the record did not change.
CREATE FUNCTION pg_temp.live_of(status text, raw jsonb) RETURNS boolean
  LANGUAGE sql IMMUTABLE
  RETURN CASE
    WHEN coalesce(raw->>'statusLiveDead', raw#>>'{provenance,statusLiveDead}') IS NOT NULL THEN
      CASE WHEN coalesce(raw->>'statusLiveDead', raw#>>'{provenance,statusLiveDead}') ~ '^Live(/|$)' THEN true
           WHEN coalesce(raw->>'statusLiveDead', raw#>>'{provenance,statusLiveDead}') ~ '^Dead(/|$)' THEN false
      END
    WHEN status IN ('filed', 'pending', 'published', 'opposed', 'registered') THEN true
    WHEN status IN ('abandoned', 'cancelled', 'expired') THEN false
  END;

UPDATE marks SET live = pg_temp.live_of(status, raw_payload)
 WHERE pg_temp.live_of(status, raw_payload) IS NOT NULL;
UPDATE hits SET live = pg_temp.live_of(status, raw_payload)
 WHERE pg_temp.live_of(status, raw_payload) IS NOT NULL;

-- The alert's API JSON gains hit.live, after hit.status (the rest as migration 017 wrote it).
CREATE OR REPLACE FUNCTION alerts_set_api_json()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  SELECT json_build_object(
           'id', NEW.id,
           'watchId', NEW.watch_id,
           'state', NEW.state,
           'severity', NEW.severity,
           'rationale', NEW.rationale,
           'rationaleAt', to_char(NEW.rationale_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'emailedAt', to_char(NEW.emailed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'hit', json_build_object(
             'id', h.id,
             'entityType', h.entity_type,
             'sourceCode', h.source_code,
             'externalId', h.external_id,
             'displayName', h.display_name,
             'ownerName', h.owner_name,
             'ownerCountryCode', h.owner_country_code,
             'jurisdiction', h.jurisdiction,
             'filedAt', to_char(h.filed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'registeredAt', to_char(h.registered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'expiresAt', to_char(h.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'status', h.status,
             'live', h.live,
             'classes', h.classes,
             'rawPayload', h.raw_payload,
             'publishedAt', to_char(h.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'opposition', h.opposition))::text
    INTO NEW.api_json
    FROM hits h
   WHERE h.id = NEW.hit_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'alert % refers to hit %, which is not recorded', NEW.id, NEW.hit_id;
  END IF;
  RETURN NEW;
END
$$;

-- The alerts' JSON is rebuilt (with their assessment) by this migration's upgrade step
-- (src/data/upgrades.ts): every alert gets hit.live, and those on dead records are assessed again.
