-- How many marks of the mirror hold each word, per office: the register's own measure of how
-- common a word is (src/matching/word-weights.ts). The word '' counts the office's marks.
-- Kept current by every import in the same statement batch that writes the marks
-- (src/data/repositories/marks.ts, mergeStagedMarks): never recounted in full.
CREATE TABLE mark_words (
  -- A word of the mark's normalized text (norm_text), as the text holds it.
  word   text NOT NULL,
  -- The mark's jurisdiction (US, EM, WO…).
  office text NOT NULL,
  marks  integer NOT NULL,
  PRIMARY KEY (word, office)
);

INSERT INTO mark_words (word, office, marks)
SELECT w, m.jurisdiction, count(*)::int
  FROM marks m,
       LATERAL (SELECT DISTINCT x AS w
                  FROM unnest(array_append(string_to_array(m.norm_text, ' '), '')) AS x) AS words
 GROUP BY w, m.jurisdiction;

-- The service never deletes a mark; an operator (or a test) who does keeps the counts right.
CREATE FUNCTION mark_words_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE mark_words c SET marks = c.marks - gone.n
    FROM (SELECT w AS word, o.jurisdiction AS office, count(*)::int AS n
            FROM old_marks o,
                 LATERAL (SELECT DISTINCT x AS w
                            FROM unnest(array_append(string_to_array(o.norm_text, ' '), '')) AS x) AS words
           GROUP BY w, o.jurisdiction) AS gone
   WHERE c.word = gone.word AND c.office = gone.office;
  RETURN NULL;
END $$;

CREATE TRIGGER marks_forget_words AFTER DELETE ON marks
  REFERENCING OLD TABLE AS old_marks FOR EACH STATEMENT EXECUTE FUNCTION mark_words_forget();
