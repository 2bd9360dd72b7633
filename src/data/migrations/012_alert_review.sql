-- The dashboard's review desk: a note per alert, and the text search of the alert list.

-- GET /alerts?q=…: the mark's text compared case- and accent-insensitively (Müller finds MULLER).
CREATE EXTENSION IF NOT EXISTS unaccent;

-- One note per alert, shared by everyone who sees the alert (the owner: a user, or the members of
-- an organization). A dashboard feature only: the alert's API JSON (migration 004) leaves it out,
-- so writing a note changes neither api_json nor the owner's list version (migration 007).
-- Deleted with its alert; the author's id stays when the author leaves (the e-mail is looked up).
CREATE TABLE alert_notes (
  alert_id   text COLLATE "C" PRIMARY KEY REFERENCES alerts (id) ON DELETE CASCADE,
  owner_id   text COLLATE "C" NOT NULL,
  note       text NOT NULL CHECK (note <> '' AND char_length(note) <= 2000),
  author_id  text COLLATE "C" NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now_ms()
);
