-- Accounts, keys, watches, hits and alerts. Timestamps are truncated to milliseconds at write
-- time because the API shows milliseconds and keyset cursors must compare exactly what they show.
-- Ids use the "C" collation: lists order ties by id, and that order must be plain byte order on
-- every server, whatever its default collation.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

-- ISO 8601 UTC with milliseconds, the API's timestamp format.
CREATE FUNCTION iso_ms(ts timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

CREATE FUNCTION now_ms() RETURNS timestamptz
  LANGUAGE sql VOLATILE
  RETURN date_trunc('milliseconds', clock_timestamp());

CREATE TABLE organizations (
  id         text COLLATE "C" PRIMARY KEY,
  name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  tier       text NOT NULL CHECK (tier IN ('free', 'solo', 'team', 'enterprise')),
  created_at timestamptz NOT NULL DEFAULT now_ms()
);

CREATE TABLE users (
  id              text COLLATE "C" PRIMARY KEY,
  email           text NOT NULL,
  -- Personal plan; while organization_id is set the organization's tier applies instead.
  tier            text NOT NULL CHECK (tier IN ('free', 'solo', 'team', 'enterprise')),
  organization_id text COLLATE "C" REFERENCES organizations (id),
  password_hash   text,
  created_at      timestamptz NOT NULL DEFAULT now_ms()
);
-- Sign-in and `users create` look users up by e-mail, case-insensitively.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
-- Members of an organization (quota and e-mail recipients of organization-owned watches).
CREATE INDEX users_organization_idx ON users (organization_id) WHERE organization_id IS NOT NULL;

CREATE TABLE api_keys (
  id           text COLLATE "C" PRIMARY KEY,
  user_id      text COLLATE "C" NOT NULL REFERENCES users (id),
  name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  prefix       text NOT NULL,
  -- SHA-256 of the plaintext key, hex. The plaintext is never stored.
  hash         text NOT NULL,
  scopes       text[] NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now_ms(),
  revoked_at   timestamptz,
  -- Written at most once a minute per key, not on every request.
  last_used_at timestamptz
);
-- Authentication: one lookup per request by hash.
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (hash);
-- The dashboard's key list of a user.
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at DESC);

CREATE TABLE watches (
  id              text COLLATE "C" PRIMARY KEY,
  -- usr_… or org_…: an organization member's watches belong to the organization.
  owner_id        text COLLATE "C" NOT NULL,
  created_by      text COLLATE "C" NOT NULL REFERENCES users (id),
  watch_type      text NOT NULL CHECK (watch_type IN ('trademark')),
  name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  attributes      jsonb NOT NULL,
  sources         text[] NOT NULL,
  scan_cadence    text NOT NULL CHECK (scan_cadence IN ('hourly', 'daily', 'weekly')),
  active          boolean NOT NULL DEFAULT true,
  logo_url        text,
  logo_st13       text,
  created_at      timestamptz NOT NULL DEFAULT now_ms(),
  updated_at      timestamptz NOT NULL DEFAULT now_ms(),
  -- Scan bookkeeping: when the next scan is due, and whether it must read the whole mirror.
  next_scan_at    timestamptz NOT NULL DEFAULT now_ms(),
  needs_full_scan boolean NOT NULL DEFAULT true
);
-- GET /watches: owner's watches newest first, keyset on (created_at, id).
CREATE INDEX watches_owner_list_idx ON watches (owner_id, created_at DESC, id DESC);
-- Quota check: count of the owner's active watches.
CREATE INDEX watches_owner_active_idx ON watches (owner_id) WHERE active;

CREATE TABLE hits (
  id                 text COLLATE "C" PRIMARY KEY,
  watch_id           text COLLATE "C" NOT NULL REFERENCES watches (id),
  source_code        text NOT NULL,
  external_id        text NOT NULL,
  entity_type        text NOT NULL,
  display_name       text NOT NULL,
  owner_name         text NOT NULL,
  owner_country_code text NOT NULL,
  jurisdiction       text NOT NULL,
  filed_at           timestamptz NOT NULL,
  registered_at      timestamptz,
  expires_at         timestamptz,
  status             text NOT NULL,
  classes            integer[] NOT NULL,
  raw_payload        jsonb NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now_ms(),
  -- A rescan can never record the same upstream record twice for one watch.
  CONSTRAINT hits_watch_source_external_key UNIQUE (watch_id, source_code, external_id)
);

CREATE TABLE alerts (
  id           text COLLATE "C" PRIMARY KEY,
  watch_id     text COLLATE "C" NOT NULL REFERENCES watches (id),
  -- Each alert wraps exactly one hit, and each hit has at most one alert.
  hit_id       text COLLATE "C" NOT NULL UNIQUE REFERENCES hits (id),
  -- Copied from the watch so that the alert list is one index range per owner.
  owner_id     text COLLATE "C" NOT NULL,
  state        text NOT NULL DEFAULT 'unread' CHECK (state IN ('unread', 'read', 'dismissed')),
  severity     text CHECK (severity IN ('low', 'medium', 'high')),
  rationale    text,
  rationale_at timestamptz,
  emailed_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now_ms()
);
-- GET /alerts: owner's alerts newest first, keyset on (created_at, id).
CREATE INDEX alerts_owner_list_idx ON alerts (owner_id, created_at DESC, id DESC);
-- GET /alerts?state=…, and the unread badge count.
CREATE INDEX alerts_owner_state_idx ON alerts (owner_id, state, created_at DESC, id DESC);
-- GET /alerts?watchId=…
CREATE INDEX alerts_watch_list_idx ON alerts (watch_id, created_at DESC, id DESC);
