-- What the EUIPO's and CIPO's records bring that the mirror did not hold (docs/register-formats.md).

-- The goods and services texts of a mark, as its office publishes them: a JSON array of
-- {"niceClass": n, "text": "…", "language": "en" | null}, one element per class and text (English
-- where the office gives it, else its first language). Empty when the source publishes none. The
-- default fills the marks stored before this migration without rewriting the table.
ALTER TABLE marks ADD COLUMN goods jsonb NOT NULL DEFAULT '[]';

-- The EUIPO names a mark's applicant by a key of its own; the name is in its applicant files,
-- loaded before or after the marks (src/mirror/import.ts). The key is kept so that the owner's
-- name can be filled in whichever comes first, and changed when the applicant's record changes.
-- NULL for every office that names its applicants (the USPTO, CIPO, TSDR…): the index holds only
-- the keyed marks, so it costs the other imports nothing.
ALTER TABLE marks ADD COLUMN owner_key text;
CREATE INDEX marks_owner_key_idx ON marks (jurisdiction, owner_key) WHERE owner_key IS NOT NULL;

-- The parties an office publishes apart from its marks, by the office's own key: the EUIPO's
-- applicant files (APPLICANTS_*, DIFF_APPLICANTS_*) and representative files (REPS_*,
-- DIFF_REPS_*). `name` and `country_code` are NULL when the record does not give them. A record the
-- office deletes (operationCode Delete) is deleted here, and the marks it named lose that name.
CREATE TABLE register_parties (
  office       text NOT NULL,
  role         text NOT NULL CHECK (role IN ('applicant', 'representative')),
  party_key    text NOT NULL,
  name         text,
  country_code text,
  raw_payload  jsonb NOT NULL,
  -- As marks.as_of (migration 019): the day of the office's version, so that a file loaded out of
  -- date order never writes an older version over a newer one (mark_supersedes).
  as_of        date,
  updated_at   timestamptz NOT NULL DEFAULT now_ms(),
  PRIMARY KEY (office, role, party_key)
);
