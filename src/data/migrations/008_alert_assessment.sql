-- Alerts that explain themselves: every alert gets a severity and a Markdown rationale, every hit
-- the office's publication date and opposition window. The severity and rationale come from the
-- matching module (TypeScript), so the alerts recorded before this migration are assessed by the
-- upgrade step of the same name (src/data/upgrades.ts), which runs right after this file in the
-- same transaction and then makes the three alert columns NOT NULL. It also re-keys the mirror:
-- the match keys gained anchors and word sound codes (MATCH_KEYS_VERSION 4).

-- When the office published the application for opposition (USPTO: published-for-opposition-date),
-- null where the source does not say.
ALTER TABLE marks ADD COLUMN published_at timestamptz;

-- A hit keeps the record's publication date and the opposition window computed from it and the
-- office's rule when the hit was recorded ({office, closesAt, extendableUntil, rule}, or null).
ALTER TABLE hits ADD COLUMN published_at timestamptz, ADD COLUMN opposition jsonb;

-- The one-edit rule no longer compares compact texts through a btree: the texts one edit away are
-- compared with every run of a record (tokens), which also finds near forms inside longer marks.
DROP INDEX IF EXISTS marks_one_edit_idx;

-- GET /alerts?severity=…: the owner's alerts of some severities, newest first.
CREATE INDEX alerts_owner_severity_idx ON alerts (owner_id, severity, created_at DESC, id DESC);

-- The alert's API JSON gains the hit's publishedAt and opposition (additive fields).
CREATE OR REPLACE FUNCTION alerts_set_api_json() RETURNS trigger
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
             'rawPayload', h.raw_payload,
             'publishedAt', iso_ms(h.published_at),
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
