// What the scan benchmark led to, written under the measured figures in docs/benchmarks.md. These are
// the development measurements (same machine, PostgreSQL 15, 1,000,000 synthetic records), kept so
// that a reader of the figures knows what was changed, what was tried and why.
export const FINDINGS = `### What was changed for these figures, and what was tried

Measured while developing on the same 2-core machine (shared with other test suites, so wall
times vary; CPU times and buffer counts much less).

**Candidate query** (\`src/data/repositories/mirror-candidates.ts\`, indexes in
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
(128 MB here; the table is 0.9 GB). Three full runs on the earlier Intel Xeon host gave p50/p99
per watch of 15.8/93.2, 21.8/139.4 and 19.6/118.9 ms; on the AMD EPYC host this machine now is
the same queries took about half as long.

Match keys version 2 (see Import below) moved the one-edit expansion to the watch side and sent a
brand's ~380 one-edit texts as \`tokens\` keys. PostgreSQL's row estimate for \`tokens &&\` grows
with the number of keys (75,000 rows estimated for 69 read on a million records): the slowest
watch's query went over \`jit_above_cost\`, compiled (81 ms) and started two parallel workers for
2 ms of index work, and PGlite chose a sequential scan (its full-scan p99 went from 61 ms to
2.4 s). Version 3 looks those texts up in their own branch, \`compact_len BETWEEN 4 AND 8 AND
compact_text = ANY(…)\` on a partial btree (migration 006), estimated from the column's distinct
values; the query's transaction also sets \`jit = off\` and \`max_parallel_workers_per_gather = 0\`.

GiST (\`gist_trgm_ops\`, exact at the leaves) read fewer heap rows but walked most of each index:
no faster. A BRIN index on change_seq made incremental bitmaps lossy and every row of a lossy page
was rechecked against the trigram condition: slower.

**Commit of a scan** (\`src/scan/scan-watch.ts\`): hits and alerts were inserted one statement per
hit; they now go in one statement (\`insertHitsWithAlerts\`). Full scan, back to back on a quiet
machine: commit p50/p99 8.7/21.8 → 6/15.5 ms, p50 per watch 20.6 → 17 ms, p99 112.5 → 100.5 ms.
The rest of the commit is its other statements (lease check, scan run, outbox, watch update) and
the WAL flush; \`synchronous_commit = off\` was not adopted: a crash could then lose a committed
scan whose e-mail had already gone out, and the rescan would send it again.

**Incremental run** (10,000 watches, 50,000 new records): every watch ran the candidate query
with a BitmapAnd on change_seq, ~6 ms of execution and ~1.5 ms of planning, dominated by the
trigram index scans, which cannot be narrowed to a sequence range: 67.7 s, 9.2 ms of PostgreSQL
CPU per watch. The adapter now reads the changed range's keys once per process (13 MB for 50,000
records, at most two ranges of up to 100,000 sequence values kept, dropped after 10 minutes
unused), matches each watch's keys in memory and reads only the matching records in full,
re-checking the range: 19.7 s, 1.4 ms of PostgreSQL CPU per watch, the same alerts, and the same
candidates as the SQL query for 400 watches over a 100,000-record range.

**Import** (\`src/mirror/import.ts\`, \`src/data/repositories/marks.ts\`, \`src/matching/normalize.ts\`).
Earlier: one batch written while the next is read, validated and keyed; the GIN pending lists
merged and the table analysed at the end of a large import; the btree on external_id dropped (the
unique key starts with it). That gave 3,600–4,200 records/s on a million records with ~126 µs of
Node CPU and ~142 µs of PostgreSQL CPU per record (the figures before this round: 3,880 records/s;
JS steps JSON.parse 4.0, validation 24.6, match keys 53.2, batch JSON 7.1 µs). This round, measured
as CPU µs per record (Node / PostgreSQL backend) on 100,000 records into an empty mirror, then on
the full run:

| step | Node | PostgreSQL |
|---|---:|---:|
| as found (100k) | 110 | 120–136 |
| match keys version 2: a record of 4–8 Latin capitals stores one one-edit key (\`~\` + itself) instead of its deletion neighbourhood, the watch sends every text one edit away spelt with A–Z (records with other characters keep the neighbourhood); no per-word affix stems (no rule compares them) and no per-word Double Metaphone codes (column \`phonetic\`, read by nothing, dropped by migration 005). Tokens per record 8.2 → 5.9 (version 3, after the runs below: the one-edit texts looked up on a btree of compact_text instead, 5.5 tokens) | 84 | 97 |
| batches COPY-ed into a temporary staging table (\`ON COMMIT DELETE ROWS\`), then one \`INSERT … SELECT … ON CONFLICT\` returning two counts, instead of a JSON parameter through \`jsonb_to_recordset\` (rows alone: 25 → 12 µs in PostgreSQL; the COPY text costs Node ~8 µs where the JSON cost ~7) | 92 | 72–81 |
| Node: plain dates checked without \`Date\` objects (2.3 → 0.2 µs per date), \`toMarkUpsert\` spelling out its fields instead of \`{ ...record }\` (the spread alone cost ~14 µs), one Double Metaphone run for marks that are their own skeleton; validation 14 → 8 µs, keys 26 → 11 µs in isolation | 60–74 | 74–81 |
| the read loop yields to the event loop every 64 records while a batch is written: records buffered in the file stream are handed over in microtasks, so the driver saw the in-flight transaction's replies (BEGIN, COPY, upsert, COMMIT) only at the next 64 KiB read and PostgreSQL idled between round trips (100k, same load: 4,400 → 5,700 records/s) | — | — |
| full runs, 1,000,000 records (three runs under load average 5–10; the last with match keys version 3) | 50–59 | 68–76 |

Where PostgreSQL's time goes now (100k, by dropping indexes one at a time): heap, btrees, COPY,
upsert and the final ANALYZE 37 µs; token GIN 25 µs (5.9 keys); sound-code GIN 11 µs (1.2 keys);
trigram GIN 7 µs. A perf profile of the backend shows most GIN time in the pending-list merge
(\`ginInsertCleanup\`), much of it comparing text keys through the C.UTF-8 collation (strcoll).

Tried and dropped: the batch as one text[] parameter per column through \`unnest\` (PostgreSQL
13.5–17.5 µs per row, but postgres.js spent 30–39 µs serialising the arrays); a bigger pending
list per import transaction (\`SET LOCAL gin_pending_list_limit = '64MB', work_mem = '256MB'\`:
81–85 µs, no gain); earlier, GIN \`fastupdate = off\` (96 → 229 µs), \`json\` instead of
\`jsonb\`. \`COLLATE "C"\` on \`tokens\` and \`sound_codes\` measured 81 → 75 µs, inside the
±4 µs noise of these runs, and needs a migration rebuilding both GIN indexes under an ACCESS
EXCLUSIVE lock: not done.

Building the indexes after the load instead of maintaining them: on 100k records the twelve GIN
builds cost 38 µs per record with the default \`maintenance_work_mem\` (64 MB) and 28 µs with 1 GB,
against ~43 µs to maintain them during the load; the build also scans the table once per partial
trigram index. Not kept, because it is not safe for a live service: \`DROP INDEX\` takes an ACCESS
EXCLUSIVE lock, which queues every reader behind any running scan; during the load every candidate
query becomes a sequential scan of the growing mirror (the scheduler keeps scanning); \`CREATE
INDEX\` then blocks writers for the build; and an import that dies in between leaves the mirror
without its indexes until someone rebuilds them. It would save ~15 µs of ~125, not enough for the
target anyway.

Import rate and hardware. On the Intel Xeon host of the earlier runs the full runs used 118–135 µs
of CPU per record (Node 50–59, PostgreSQL 68–76), against 268 before this work (126 + 142), and
measured 6,500–7,600 records/s: PostgreSQL alone capped the rate at ~13,000–15,000 records/s (one
backend: the advisory lock serialises the batches). On the AMD EPYC host this machine now is,
through the Unix-domain socket and with the importer of that time (not \`--initial\`): 23 + 33 µs
per record; two runs gave 20,128 and 20,048 records/s with one batch in flight. The importer now stages the next batch (COPY into the
session's staging table, no lock) on a second connection while the previous one merges under the
import lock; a batch merges only after the one before it committed, so file order still decides
(\`src/mirror/import.ts\`): 20,048 → 25,378 records/s back to back. What would move it further: fewer
GIN entries (the token index is a third of PostgreSQL's time: e.g. the look-alike form instead of
the compact form where they differ, words and joins only where a rule can use them), the index
builds above for a first load into an empty mirror done as an explicit offline operation, or more
cores (COPY and key computation parallelise; the upsert does not).
`;
