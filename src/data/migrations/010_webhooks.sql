-- Webhooks: endpoints that receive signed events (Standard Webhooks), and the transactional outbox
-- of their deliveries. A delivery row is written in the same transaction as the alert (or the
-- alert's state change) it tells about, so an event is never lost (the alert commits, so does its
-- delivery) and never invented (a rolled-back scan leaves no delivery either).

CREATE TABLE webhooks (
  id              text COLLATE "C" PRIMARY KEY,
  -- usr_… or org_…: like a watch, a webhook belongs to the organization of its creator.
  owner_id        text COLLATE "C" NOT NULL,
  created_by      text COLLATE "C" NOT NULL REFERENCES users (id),
  url             text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
  events          text[] NOT NULL,
  description     text CHECK (char_length(description) <= 500),
  -- whsec_… (base64 of 32 random bytes). Needed in clear to sign; shown to the client once.
  secret          text NOT NULL,
  active          boolean NOT NULL DEFAULT true,
  -- Set when the service turned the endpoint off after days of failed deliveries.
  disabled_at     timestamptz,
  disabled_reason text,
  -- The first failed attempt since the last successful one; NULL while deliveries succeed.
  failing_since   timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now_ms(),
  updated_at      timestamptz NOT NULL DEFAULT now_ms()
);
-- GET /webhooks: owner's webhooks newest first, keyset on (created_at, id); also the lookup of an
-- owner's subscribed endpoints when an event is recorded.
CREATE INDEX webhooks_owner_list_idx ON webhooks (owner_id, created_at DESC, id DESC);

CREATE TABLE webhook_deliveries (
  id              text COLLATE "C" PRIMARY KEY,
  webhook_id      text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  -- The webhook-id header: one per event, the same on every attempt (receivers de-duplicate on it).
  event_id        text COLLATE "C" NOT NULL,
  event_type      text NOT NULL,
  -- The request body, fixed when the event happened: {"type","timestamp","data"}.
  body            text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now_ms(),
  -- The lease of the process sending it (the pattern of scans and e-mail).
  claimed_until   timestamptz,
  last_status     integer,
  last_error      text,
  last_attempt_at timestamptz,
  delivered_at    timestamptz,
  failed_at       timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now_ms(),
  CONSTRAINT webhook_deliveries_event_once UNIQUE (webhook_id, event_id)
);
-- Senders' claim: deliveries still to send, by due time.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE delivered_at IS NULL AND failed_at IS NULL;
-- GET /webhooks/{id}/deliveries: newest first, keyset on (created_at, id).
CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
