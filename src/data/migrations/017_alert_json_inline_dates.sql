-- The alert's API JSON is built by its trigger on every write; a scan writes one row per alert it
-- raises, and the trigger was the largest part of a scan's commit (~150 µs an alert, 1.6 ms of the
-- ~4 ms that recording 11 alerts took on a million-record mirror). Seven of its calls were
-- iso_ms(), a SQL function that PostgreSQL never inlines here (IMMUTABLE around the STABLE
-- to_char), so each ran the SQL-function executor: the same expression is now written out, as
-- the read path already does (isoMs in src/data/repositories/json-sql.ts). Same output, byte for
-- byte: ~40% of the trigger's time.
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
$$

;
