-- A record holds only what its source says. The owner, the owner's country and the status become
-- nullable in the mirror and in the hits that snapshot it, and the values earlier versions made up
-- where the source said nothing are taken out again:
-- - the owner "(not in source data)" and the country `XX` (ST.3 "unknown") become NULL;
-- - the status `filed` of the old EUIPO sample lines, whose source has no status
--   (provenance.statusInSource false), becomes NULL;
-- - their Nice class computed from the EUTM number (provenance.classesSynthetic) becomes the empty
--   list: the source publishes no class.
-- The alerts of the corrected hits are assessed again by the upgrade step of the same name
-- (src/data/upgrades.ts): their rationale quoted the made-up owner and classes.
--
-- change_seq is left alone, as the 008 re-key did: the register did not publish anything new, and
-- taking a new value would make every watch re-examine these records and raise alerts on marks
-- filed years ago. The corrected records are matched as they are now by every later full scan.

ALTER TABLE marks
  ALTER COLUMN owner_name DROP NOT NULL,
  ALTER COLUMN owner_country_code DROP NOT NULL,
  ALTER COLUMN status DROP NOT NULL;

ALTER TABLE hits
  ALTER COLUMN owner_name DROP NOT NULL,
  ALTER COLUMN owner_country_code DROP NOT NULL,
  ALTER COLUMN status DROP NOT NULL;

-- The hits to correct, kept for the upgrade step (dropped at the end of the transaction).
CREATE TEMP TABLE invented_hits ON COMMIT DROP AS
  SELECT id FROM hits
   WHERE owner_name = '(not in source data)'
      OR owner_country_code = 'XX'
      OR raw_payload #>> '{provenance,statusInSource}' = 'false'
      OR raw_payload #>> '{provenance,classesSynthetic}' = 'true';

UPDATE hits SET
    owner_name = CASE WHEN owner_name = '(not in source data)' THEN NULL ELSE owner_name END,
    owner_country_code = CASE WHEN owner_country_code = 'XX' THEN NULL ELSE owner_country_code END,
    status = CASE WHEN raw_payload #>> '{provenance,statusInSource}' = 'false' THEN NULL
                  ELSE status END,
    classes = CASE WHEN raw_payload #>> '{provenance,classesSynthetic}' = 'true' THEN '{}'
                   ELSE classes END
  WHERE id IN (SELECT id FROM invented_hits);

UPDATE marks SET
    owner_name = CASE WHEN owner_name = '(not in source data)' THEN NULL ELSE owner_name END,
    owner_country_code = CASE WHEN owner_country_code = 'XX' THEN NULL ELSE owner_country_code END,
    status = CASE WHEN raw_payload #>> '{provenance,statusInSource}' = 'false' THEN NULL
                  ELSE status END,
    classes = CASE WHEN raw_payload #>> '{provenance,classesSynthetic}' = 'true' THEN '{}'
                   ELSE classes END,
    updated_at = now_ms()
  WHERE owner_name = '(not in source data)'
     OR owner_country_code = 'XX'
     OR raw_payload #>> '{provenance,statusInSource}' = 'false'
     OR raw_payload #>> '{provenance,classesSynthetic}' = 'true';
