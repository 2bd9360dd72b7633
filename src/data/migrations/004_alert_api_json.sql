-- The API's JSON of each alert, kept on the alert row. GET /alerts is the hottest read of the
-- service, and building 50 alert objects with their hits on every request was most of its cost
-- (docs/benchmarks.md): a hit never changes once recorded, and an alert changes only through an
-- UPDATE of its own row, so the JSON is built once per write instead of once per read.
--
-- A trigger keeps it true whoever writes the row (scans, the API, the e-mail sender, tests): no
-- code path can update an alert and forget its JSON. The object is exactly what the read path
-- built before (same keys, order and timestamp format: iso_ms() of migration 001, whose cost
-- matters only on the read path, see isoMs in json-sql.ts).

ALTER TABLE alerts ADD COLUMN api_json text;

CREATE FUNCTION alerts_set_api_json() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT json_build_object(
           'id', NEW.id,
           'watchId', NEW.watch_id,
           'state', NEW.state,
           'severity', NEW.severity,
           'rationale', NEW.rationale,
           'rationaleAt', iso_ms(NEW.rationale_at),
           'emailedAt', iso_ms(NEW.emailed_at),
           'createdAt', iso_ms(NEW.created_at),
           'hit', json_build_object(
             'id', h.id,
             'entityType', h.entity_type,
             'sourceCode', h.source_code,
             'externalId', h.external_id,
             'displayName', h.display_name,
             'ownerName', h.owner_name,
             'ownerCountryCode', h.owner_country_code,
             'jurisdiction', h.jurisdiction,
             'filedAt', iso_ms(h.filed_at),
             'registeredAt', iso_ms(h.registered_at),
             'expiresAt', iso_ms(h.expires_at),
             'status', h.status,
             'classes', h.classes,
             'rawPayload', h.raw_payload))::text
    INTO NEW.api_json
    FROM hits h
   WHERE h.id = NEW.hit_id;
  -- The hit is written first (in the same statement, as insertHitsWithAlerts does, is fine).
  IF NOT FOUND THEN
    RAISE EXCEPTION 'alert % refers to hit %, which is not recorded', NEW.id, NEW.hit_id;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER alerts_api_json BEFORE INSERT OR UPDATE ON alerts
  FOR EACH ROW EXECUTE FUNCTION alerts_set_api_json();
-- Also under session_replication_role = replica (bulk loads that skip foreign-key checks): the
-- column is derived data, never to be left unset.
ALTER TABLE alerts ENABLE ALWAYS TRIGGER alerts_api_json;

-- Existing rows: the trigger fills the column on this no-op update.
UPDATE alerts SET state = state;
ALTER TABLE alerts ALTER COLUMN api_json SET NOT NULL;
