-- The dashboard's review desk: a note per alert, and the text search of the alert list.

-- GET /alerts?q=…: the mark's text compared case- and accent-insensitively (Müller finds MULLER).
CREATE EXTENSION IF NOT EXISTS unaccent;

-- One note per alert, shared by everyone who sees the alert (the owner: a user, or the members of
-- an organization). A dashboard feature only: the alert's API JSON (migration 004) leaves it out,
-- so writing a note changes neither api_json nor the owner's list version (migration 007).
-- The author's id stays when the author leaves (the e-mail is looked up).
-- No foreign key to alerts: `TRUNCATE alerts` (which migration 007 supports) must keep working
-- without naming this table; the triggers below delete a note with its alert instead.
CREATE TABLE alert_notes (
  alert_id   text COLLATE "C" PRIMARY KEY,
  owner_id   text COLLATE "C" NOT NULL,
  note       text NOT NULL CHECK (note <> '' AND char_length(note) <= 2000),
  author_id  text COLLATE "C" NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now_ms()
);

CREATE FUNCTION alert_notes_follow_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM alert_notes WHERE alert_id = OLD.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER alert_notes_follow_delete AFTER DELETE ON alerts
  FOR EACH ROW EXECUTE FUNCTION alert_notes_follow_delete();

CREATE FUNCTION alert_notes_follow_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE alert_notes;
  RETURN NULL;
END
$$;
CREATE TRIGGER alert_notes_follow_truncate AFTER TRUNCATE ON alerts
  FOR EACH STATEMENT EXECUTE FUNCTION alert_notes_follow_truncate();
