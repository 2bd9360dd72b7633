-- The register mirror, scan bookkeeping and the alert e-mail outbox.

-- Incremental scans follow this sequence, not a clock: every insert or update of a mark takes the
-- next value. Imports serialise on an advisory lock, so values commit in order and a scan that
-- reads up to max(change_seq) can never later find a smaller, late-committing value.
CREATE SEQUENCE marks_change_seq;

CREATE TABLE marks (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_code        text NOT NULL,
  external_id        text NOT NULL,
  mark_text          text NOT NULL,
  owner_name         text NOT NULL,
  owner_country_code text NOT NULL,
  jurisdiction       text NOT NULL,
  -- Countries (or EM) designated by a WO international registration; empty otherwise.
  designations       text[] NOT NULL DEFAULT '{}',
  filed_at           timestamptz NOT NULL,
  registered_at      timestamptz,
  expires_at         timestamptz,
  status             text NOT NULL,
  classes            integer[] NOT NULL,
  logo_url           text,
  raw_payload        jsonb NOT NULL,
  -- Match keys derived from mark_text by src/matching (normalize.ts, matchKeys).
  norm_text          text NOT NULL,
  compact_text       text NOT NULL,
  -- Length of compact_text as the matching rules count it (JavaScript string length).
  compact_len        smallint NOT NULL,
  tokens             text[] NOT NULL,
  phonetic           text[] NOT NULL,
  -- The Double Metaphone codes the phonetic rule compares: of the whole mark and of its spelling
  -- skeleton (wholeMarkPhoneticCodes), empty below the rule's 4 letters. `phonetic` also holds
  -- each word's codes, which no rule compares and which would make the search read ~8x more rows.
  sound_codes        text[] NOT NULL,
  change_seq         bigint NOT NULL DEFAULT nextval('marks_change_seq'),
  imported_at        timestamptz NOT NULL DEFAULT now_ms(),
  updated_at         timestamptz NOT NULL DEFAULT now_ms(),
  -- external_id first: the same index serves lookups by ST.13 number alone (dashboard alert
  -- detail, logo fill), so no second btree has to be maintained on every insert.
  CONSTRAINT marks_source_external_key UNIQUE (external_id, source_code)
);
-- Candidate search (src/scan/sources/register-mirror.ts and src/matching/candidates.ts; docs/matching.md). Every index serves one
-- branch of the candidate query, and is as narrow as the rules it serves allow.
-- Shared tokens (compact forms, words, word runs, affix stems, deletion neighbourhood).
CREATE INDEX marks_tokens_idx ON marks USING gin (tokens);
-- Shared whole-mark Double Metaphone codes (phonetic rule).
CREATE INDEX marks_sound_idx ON marks USING gin (sound_codes);
-- Trigram similarity of the compact text, for the two-edit band of the edit-distance rule only:
-- both texts have 8 or more characters and their lengths differ by at most 2. One partial index
-- per length bucket (one length each where marks are most frequent and the band is widest), so
-- that a search reads only the lengths around the brand's instead of every record sharing a few
-- trigrams (ten times fewer rows on a million records); records under 8 characters are in none.
-- The buckets are listed again in TRIGRAM_BUCKETS of
-- src/matching/candidates.ts: change both together.
CREATE INDEX marks_trgm_8_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len = 8;
CREATE INDEX marks_trgm_9_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len = 9;
CREATE INDEX marks_trgm_10_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len = 10;
CREATE INDEX marks_trgm_11_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len = 11;
CREATE INDEX marks_trgm_12_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len = 12;
CREATE INDEX marks_trgm_13_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len = 13;
CREATE INDEX marks_trgm_14_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len BETWEEN 14 AND 16;
CREATE INDEX marks_trgm_17_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len BETWEEN 17 AND 20;
CREATE INDEX marks_trgm_21_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len BETWEEN 21 AND 26;
CREATE INDEX marks_trgm_27_idx ON marks USING gin (compact_text gin_trgm_ops)
  WHERE compact_len >= 27;
-- Planning cost: for `%`, pg_trgm estimates selectivity by computing the similarity of every
-- most-common value and histogram entry of the column, once per branch of the candidate query
-- (~2-5 ms of planning per watch at the default target). Nothing else filters on compact_text.
ALTER TABLE marks ALTER COLUMN compact_text SET STATISTICS 10;
-- Incremental scans: records changed after the watch's last scanned sequence value.
CREATE INDEX marks_change_seq_idx ON marks (change_seq);

ALTER TABLE watches
  -- Highest marks.change_seq that the last successful scan covered.
  ADD COLUMN scanned_seq bigint NOT NULL DEFAULT 0,
  ADD COLUMN last_scanned_at timestamptz,
  -- A claim on the watch by one worker; it expires so that a crashed worker's scan is taken over.
  ADD COLUMN lease_owner text,
  ADD COLUMN lease_expires_at timestamptz;
-- The scheduler's question: which active watches are due?
CREATE INDEX watches_due_idx ON watches (next_scan_at) WHERE active;

CREATE TABLE scan_runs (
  id                  text PRIMARY KEY,
  watch_id            text NOT NULL REFERENCES watches (id),
  mode                text NOT NULL CHECK (mode IN ('full', 'incremental')),
  worker              text NOT NULL,
  started_at          timestamptz NOT NULL,
  finished_at         timestamptz NOT NULL DEFAULT now_ms(),
  from_seq            bigint NOT NULL,
  to_seq              bigint NOT NULL,
  candidates_examined integer NOT NULL,
  hits_created        integer NOT NULL,
  alerts_created      integer NOT NULL,
  error               text
);
-- A watch's scan history, newest first.
CREATE INDEX scan_runs_watch_idx ON scan_runs (watch_id, started_at DESC);

CREATE TABLE email_outbox (
  id              text PRIMARY KEY,
  owner_id        text NOT NULL,
  scan_run_id     text NOT NULL REFERENCES scan_runs (id),
  recipients      text[] NOT NULL,
  alert_ids       text[] NOT NULL,
  subject         text NOT NULL,
  body_text       text NOT NULL,
  body_html       text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now_ms(),
  -- A sender's claim; expires so that a crashed sender's message is retried.
  claimed_until   timestamptz,
  sent_at         timestamptz,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now_ms()
);
-- The sender's question: which unsent messages are due?
CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at) WHERE sent_at IS NULL;
