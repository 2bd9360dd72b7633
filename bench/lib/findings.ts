// What the scan benchmark led to, written under the measured figures in docs/benchmarks.md. These are
// the development measurements (same machine, PostgreSQL 15, 1,000,000 synthetic records), kept so
// that a reader of the figures knows what was changed, what was tried and why.
export const FINDINGS = `### What was changed for these figures, and what was tried

Measured while developing on the same 2-core machine (shared with other test suites, so wall
times vary; CPU times and buffer counts much less).

**Candidate query** (\`src/scan/sources/global-trademark-database.ts\`, indexes in
\`002_register_mirror.sql\`), full scan of 200 watches on 1,000,000 records:

| step | query time p50 / p99 | buffers read p50 / p99 |
|---|---:|---:|
| as found: postgres.js prepares the statement and after five executions PostgreSQL switches to a generic plan, which cannot see the sequence range and walks the change_seq index over the whole mirror | 1.4 s / 4.4 s | — |
| custom plans (\`plan_cache_mode = force_custom_plan\` in the query's transaction); the redundant \`compact_text = $compact\` branch dropped (tokens hold the compact forms) | 66 / 487 ms | 4,185 / 33,113 |
| GIN on whole-mark phonetic codes only (\`sound_codes\`; the per-word codes in \`phonetic\`, which no rule compares, matched ~60,000 rows for codes such as A or AS); the trigram index split into partial indexes by compact length, for the two-edit band only (both texts 8+ characters, lengths within 2); the band's threshold raised to (n − 8)/(n + 8) where that is higher than the rule's (two edits change at most 8 of the brand's n trigrams, so no accepted pair is lost; checked on 340,000 random pairs in JS and in pg_trgm) | 6.3 / 104 ms (execution) | 567 / 6,600 |
| one trigram index per length for 8–13 characters, where the band reads the most rows (measured back to back with the row above: p99 98.5 → 81 ms, buffers p99 6,826 → 6,319) | 5.2 / 81 ms (execution) | 603 / 6,319 |

Planning took 2–6 ms per watch (p50/p90 for brands of 8+ characters: 3.3/6.2 ms): for \`%\`,
pg_trgm estimates selectivity by computing the similarity of every most-common value and histogram
entry of compact_text, once per OR branch. With the column's statistics target at 10 (nothing else
filters on it): 1.1/1.3 ms, same plans.

The remaining p99 is the two-edit band of 8–11-character brands: at the rule's thresholds (0.12,
0.16) a few thousand records of nearby lengths share enough trigrams to be read and rechecked, and
most of the slowest queries' time is reading those heap pages, which are not in shared_buffers
(128 MB here; the table is 0.9 GB). Three full runs on this shared machine gave p50/p99 per watch
of 15.8/93.2, 21.8/139.4 and 19.6/118.9 ms.

GiST (\`gist_trgm_ops\`, exact at the leaves) read fewer heap rows but walked most of each index:
no faster. A BRIN index on change_seq made incremental bitmaps lossy and every row of a lossy page
was rechecked against the trigram condition: slower.

**Incremental run** (10,000 watches, 50,000 new records): every watch ran the candidate query
with a BitmapAnd on change_seq, ~6 ms of execution and ~1.5 ms of planning, dominated by the
trigram index scans, which cannot be narrowed to a sequence range: 67.7 s, 9.2 ms of PostgreSQL
CPU per watch. The adapter now reads the changed range's keys once per process (13 MB for 50,000
records, at most two ranges of up to 100,000 sequence values kept, dropped after 10 minutes
unused), matches each watch's keys in memory and reads only the matching records in full,
re-checking the range: 19.7 s, 1.4 ms of PostgreSQL CPU per watch, the same alerts, and the same
candidates as the SQL query for 400 watches over a 100,000-record range.

**Import** (\`src/register/import.ts\`, \`src/data/repositories/marks.ts\`): one batch is written
while the next is read, validated and keyed (it was strictly one after the other); the GIN
pending lists are merged and the table analysed at the end of a large import (each candidate
query otherwise read the 4 MB pending list of every GIN index, ~300 pages each, until autovacuum
came by); the btree on external_id is gone (the unique key now starts with it). PostgreSQL CPU
per record went from 174 to 130–150 µs (fewer and narrower GIN entries) and the rate on a million
records from 1,940 to 3,600–4,200 records/s (under different loads); the Node side stays at
~110 µs (zod validation ~25 µs, match keys ~60 µs: \`src/register/record.ts\`,
\`src/matching/normalize.ts\`). Where PostgreSQL's time goes, inserting 20,000 rows into the
million-row table: heap and btrees 12 µs per row, the token and phonetic GIN indexes ~95 µs (8.2
and 3.4 keys per record), the trigram GIN ~21 µs (before the length buckets), turning the JSON
batch into rows ~35 µs. With ~240 µs of CPU per record on two cores, 20,000 records/s is out of
reach here: even perfectly overlapped the ceiling is ~8,000. Tried and dropped: GIN
\`fastupdate = off\` (PostgreSQL CPU 96 → 229 µs per record), a 64 MB pending list (same CPU, then
a 32 s merge), dropping the GIN indexes for the load and building them after (the same total CPU:
the three builds cost ~73 µs per row), \`json\` instead of \`jsonb\` for the batch (no gain),
\`COLLATE "C"\` on the token arrays (the database is C.UTF-8 already: 9% off the index build). What
would move it: fewer keys per record in \`matchKeys\` (the one-deletion neighbourhood is most of
the tokens), cheaper validation, or a third core.
`;
