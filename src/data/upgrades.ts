// Upgrade steps written in TypeScript: data a SQL migration cannot compute. Each runs right after
// the SQL migration of the same version, in the same transaction (migrate.ts), so a database is
// never left half upgraded. What comes from the matching module (match keys) is computed here;
// what needs the domain's rules (assessing alerts again) is handed in by the caller, from above
// the domain (src/start/database.ts): the SQL stays here.
import { MATCH_KEYS_VERSION, matchKeys } from '../matching/normalize.ts';
import type { Db, Queryable } from './db.ts';
import type { ReassessSelection } from './repositories/alert-assessments.ts';

const BATCH = 2_000;

/**
 * Gives every stored mark the keys of the current MATCH_KEYS_VERSION, after the migrations, one
 * transaction per batch of marks in id order (keyset), each recording the last id done in
 * match_keys_state: a re-key stopped halfway continues from there on the next start, and no
 * transaction holds the whole mirror. The state row is locked per batch, so processes that start
 * together take turns; code older than the recorded version leaves it alone.
 * change_seq is left alone: the record did not change, and re-scanning the whole mirror for every
 * watch would raise alerts on marks filed long ago. The new rules apply to records imported from
 * now on and to every full scan. A mark whose text an import changed meanwhile is skipped: the
 * import stored the current keys.
 * Scans may run while it works: version 6 removed keys that no rule reads (anchors of word pairs
 * and whole marks, skeletons of common words) and added only what two new rules read (the spoken
 * form of a mark with a digit, compound keys), so a mark not yet re-keyed is found by every rule
 * but `digits_as_words` and `compound`. Version 7 only added keys (contraction and anagram keys of
 * one-word marks, shape keys of 11-letter ones, sound codes of NIX): a mark of version 6 is found by
 * every rule but `contraction` and `rearranged` (and `same_shape` or `phonetic`, for an 11-letter
 * mark or a 3-letter one with an X). Version 8 only added keys (the whole mark's skeleton keys), and
 * its code runs no scan before the re-key is done (migrate.ts awaits it at start): a process of
 * version 7 still running finds every mark by the sound codes it sends, which are unchanged.
 */
export async function rekeyStoredMarks(
  db: Db,
  options: { batchSize?: number; afterBatch?: (rekeyedThrough: number) => void } = {},
): Promise<void> {
  const batchSize = options.batchSize ?? BATCH;
  let written = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const [state] = await tx.query<{ version: number; through: number | null }>(
        'SELECT version, rekeyed_through AS through FROM match_keys_state FOR UPDATE',
      );
      if (state === undefined || state.version > MATCH_KEYS_VERSION) return null;
      if (state.version === MATCH_KEYS_VERSION && state.through === null) return null;
      const after = state.version === MATCH_KEYS_VERSION ? Number(state.through) : 0;
      const done = await rekeyBatch(tx, after, batchSize);
      await tx.query('UPDATE match_keys_state SET version = $1, rekeyed_through = $2', [
        MATCH_KEYS_VERSION,
        done.last,
      ]);
      return done;
    });
    if (batch === null) break;
    written += batch.written;
    if (batch.last === null) break;
    options.afterBatch?.(batch.last);
  }
  // Every row rewritten left a dead row and a second index entry: until VACUUM the candidate query
  // reads both (measured after a re-key of 500,000 marks: 89 ms at p50 against 3 ms after VACUUM,
  // docs/benchmarks.md). The start-up waits for it, as for the re-key, rather than let the first
  // scans pay until autovacuum comes.
  if (written > 0) await db.exec('VACUUM (ANALYZE) mark_keys');
}

/**
 * Re-keys the next marks after id `after`; returns the last id done (null when none was left) and
 * how many rows it wrote. A mark whose keys the new version leaves as they were is not written:
 * every row written is a dead row and a new index entry until VACUUM, across a mirror of millions.
 */
async function rekeyBatch(
  tx: Queryable,
  after: number,
  size: number,
): Promise<{ last: number | null; written: number }> {
  const rows = await tx.query<{ id: number; markText: string }>(
    'SELECT id, mark_text AS "markText" FROM marks WHERE id > $1 ORDER BY id LIMIT $2',
    [after, size],
  );
  if (rows.length === 0) return { last: null, written: 0 };
  const keys = rows.map((r) => {
    const k = matchKeys(r.markText);
    return { id: r.id, markText: r.markText, tokens: k.tokens, soundCodes: k.soundCodes };
  });
  const updated = await tx.query(
    `UPDATE mark_keys mk SET tokens = k.tokens, sound_codes = k."soundCodes"
       FROM jsonb_to_recordset($1::text::jsonb)
            AS k(id bigint, "markText" text, tokens text[], "soundCodes" text[]), marks m
      WHERE mk.id = k.id AND m.id = k.id AND m.mark_text = k."markText"
        AND (mk.tokens, mk.sound_codes) IS DISTINCT FROM (k.tokens, k."soundCodes")
      RETURNING 1`,
    [JSON.stringify(keys)],
  );
  return { last: Number((rows.at(-1) as { id: number }).id), written: updated.length };
}

/** What the upgrade steps need from above the data layer. */
export type UpgradeHooks = {
  /** Assesses the selected alerts again (domain/alerts/reassess.ts). */
  reassessAlerts(tx: Queryable, which: ReassessSelection): Promise<unknown>;
};

export type UpgradeStep = (tx: Queryable) => Promise<void>;

/** The TypeScript step of each migration version that has one. */
export function upgradeSteps(hooks: UpgradeHooks): Readonly<Record<string, UpgradeStep>> {
  return {
    // Every alert's JSON gains hit.live (the no-op update runs the trigger); the alerts on dead
    // records are assessed again (never high), and so are those whose window was computed for a
    // publication from before its office's rule came into force (now null, the rationale says why).
    // Then the alerts' list-version triggers run now, as in 008, so that a later migration of the
    // same transaction may alter the table.
    '028_live_or_dead': async (tx) => {
      await tx.exec('UPDATE alerts SET state = state');
      await hooks.reassessAlerts(tx, { kind: 'dead-or-before-rule' });
      await tx.exec(`SET CONSTRAINTS alerts_list_version, alerts_list_version_update IMMEDIATE;
      SET CONSTRAINTS alerts_list_version, alerts_list_version_update DEFERRED`);
    },
    // The alerts of the hits migration 014 corrected (table invented_hits): their rationale quoted
    // an owner, country or classes the source never gave, and their severity was set with classes
    // that were made up.
    '014_no_invented_values': async (tx) => {
      await hooks.reassessAlerts(tx, { kind: 'corrected-hits' });
      await tx.exec('DROP TABLE invented_hits');
    },
    '008_alert_assessment': async (tx) => {
      // The keys of version 4 come with rekeyStoredMarks, which migrate() runs after the migrations.
      // Alerts recorded before severities existed get theirs.
      await hooks.reassessAlerts(tx, { kind: 'unassessed' });
      // The alerts' list-version triggers (007) are deferred to the commit, and PostgreSQL alters no
      // table with pending trigger events: they run now (once per owner, as at a commit), and the
      // triggers are deferred again for whatever the transaction does next.
      await tx.exec(`SET CONSTRAINTS alerts_list_version, alerts_list_version_update IMMEDIATE;
      ALTER TABLE alerts
        ALTER COLUMN severity SET NOT NULL,
        ALTER COLUMN rationale SET NOT NULL,
        ALTER COLUMN rationale_at SET NOT NULL;
      SET CONSTRAINTS alerts_list_version, alerts_list_version_update DEFERRED`);
    },
  };
}
