-- Dashboard sign-in: server-side sessions, and the log of failed sign-ins that throttles
-- password guessing. Both live in the database so that every instance sees the same state.

CREATE TABLE dashboard_sessions (
  -- ses_…: names the session in logs. The browser never sees it; it holds only the token.
  id           text PRIMARY KEY,
  -- SHA-256 (hex) of the random token in the session cookie. The token itself is never stored,
  -- so a copy of this table cannot be replayed as cookies.
  token_hash   text NOT NULL,
  user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  -- Idle expiry: refreshed at most once a minute while the session is used.
  last_seen_at timestamptz NOT NULL,
  -- Absolute expiry, fixed at sign-in: no amount of activity extends a session past it.
  expires_at   timestamptz NOT NULL
);
-- Every dashboard request: one lookup by the hash of the cookie's token.
CREATE UNIQUE INDEX dashboard_sessions_token_key ON dashboard_sessions (token_hash);
-- ON DELETE CASCADE from users, and signing a user out of every session.
CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id);
-- The sweep of expired sessions at sign-in.
CREATE INDEX dashboard_sessions_expires_idx ON dashboard_sessions (expires_at);

CREATE TABLE sign_in_failures (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- 'account:<sha256 of the lower-cased e-mail>' or 'address:<sha256 of the client address>'.
  -- Keyed by the e-mail as typed, not by user id, so throttling says nothing about whether an
  -- account exists; hashed so the table holds no addresses.
  bucket    text NOT NULL,
  failed_at timestamptz NOT NULL
);
-- The throttle check: failures of one bucket within the window.
CREATE INDEX sign_in_failures_bucket_idx ON sign_in_failures (bucket, failed_at);
-- The sweep of failures older than the window.
CREATE INDEX sign_in_failures_failed_at_idx ON sign_in_failures (failed_at);
