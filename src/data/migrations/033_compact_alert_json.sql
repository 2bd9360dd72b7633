-- GET /alerts sends each alert's stored JSON (api_json, migration 004) as the bytes of its page.
-- Since answers became compact (no whitespace between tokens), every page was compacted in Node,
-- a pass over every byte of 50-200 alerts that took a third of the server's CPU for a page not
-- kept from an earlier request (docs/benchmarks.md). The JSON is now stored compact, built once
-- when the alert is written, and pages copy it as it is.

-- The text of a jsonb value without whitespace between its tokens: jsonb prints `{"a": [1, 2]}`.
-- json_strip_nulls re-prints JSON compactly with the same escaping as jsonb, but drops members
-- whose value is null; a value with such members (jsonb_strip_nulls changes it) is printed member
-- by member instead, in jsonb's order, each member's value by this function again.
CREATE FUNCTION jsonb_compact_text(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF j = jsonb_strip_nulls(j) THEN
    RETURN json_strip_nulls(j::text::json)::text;
  ELSIF jsonb_typeof(j) = 'object' THEN
    RETURN '{' || coalesce((SELECT string_agg(to_json(e.key)::text || ':' || jsonb_compact_text(e.value),
                                              ',' ORDER BY e.n)
                              FROM jsonb_each(j) WITH ORDINALITY AS e(key, value, n)), '') || '}';
  ELSE
    RETURN '[' || coalesce((SELECT string_agg(jsonb_compact_text(e.value), ',' ORDER BY e.n)
                              FROM jsonb_array_elements(j) WITH ORDINALITY AS e(value, n)), '') || ']';
  END IF;
END
$$;

-- The alert's API JSON as migration 028 built it, members in the same order, compact: row_to_json
-- prints `{"id":"alt_…",…}`, and the hit's jsonb members go in as compact json text.
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
                    jsonb_compact_text(h.opposition)::json AS "opposition") x) AS "hit"
            FROM hits h
           WHERE h.id = NEW.hit_id) r;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'alert % refers to hit %, which is not recorded', NEW.id, NEW.hit_id;
  END IF;
  RETURN NEW;
END
$$;

-- The origin after the other members (migration 030), compact too.
CREATE OR REPLACE FUNCTION alerts_add_origin_json() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.api_json := left(NEW.api_json, -1) || ',"origin":' || to_json(NEW.origin)::text || '}';
  RETURN NEW;
END
$$;

-- Every alert's JSON rebuilt compact by the triggers above; its members and their values are
-- unchanged.
UPDATE alerts SET api_json = api_json;
