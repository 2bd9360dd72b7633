import type { Db, Queryable } from '../../data/db.ts';
import { highestChangeSeq } from '../../data/repositories/marks.ts';
import { coverageSearch } from '../../matching/coverage.ts';
import type { PreparedWatch } from '../../matching/decide.ts';
import { MIRROR_SOURCE } from '../../register/import.ts';
import type { CandidateRecord, SeqRange, SourceAdapter } from './source-adapter.ts';

const RECORD_COLUMNS = `m.external_id AS "externalId", m.mark_text AS "markText",
  m.owner_name AS "ownerName", m.owner_country_code AS "ownerCountryCode",
  m.jurisdiction, m.designations, iso_ms(m.filed_at) AS "filedAt",
  iso_ms(m.registered_at) AS "registeredAt", iso_ms(m.expires_at) AS "expiresAt",
  m.status, m.classes, m.logo_url AS "logoUrl", m.raw_payload AS "rawPayload"`;

/**
 * The register mirror (table marks) as the `global_trademark_database` source. Candidates are
 * records sharing a Nice class and any of the watch's search keys, each served by an index
 * (see 002_register_mirror.sql and docs/matching.md): tokens and phonetic codes through GIN
 * array indexes, and for long brands trigram similarity of the compact text through pg_trgm.
 */
export const globalTrademarkDatabase: SourceAdapter = {
  code: MIRROR_SOURCE,

  currentSeq: highestChangeSeq,

  async findCandidates(db: Db, watch: PreparedWatch, range: SeqRange) {
    const keys = watch.search;
    // Territory prefilter; the pure module still decides coverage exactly (coverage.ts).
    const territory = coverageSearch(watch.designations);
    const params: unknown[] = [
      [...watch.classes],
      range.fromSeq,
      range.toSeq,
      keys.tokens,
      keys.phonetic,
      keys.compact,
      territory.jurisdictions,
      territory.woDesignations,
    ];
    const textMatch = ['m.tokens && $4::text[]', 'm.phonetic && $5::text[]', 'm.compact_text = $6'];
    if (keys.useTrigram) {
      // `%` uses pg_trgm.similarity_threshold, which the caller's transaction sets (set_config).
      textMatch.push('m.compact_text % $6');
    }
    const sql = `SELECT ${RECORD_COLUMNS}
       FROM marks m
      WHERE m.source_code = '${MIRROR_SOURCE}'
        AND m.classes && $1::int[]
        AND m.change_seq > $2 AND m.change_seq <= $3
        AND (m.jurisdiction = ANY($7::text[])
             OR (m.jurisdiction = 'WO' AND m.designations && $8::text[]))
        AND (${textMatch.join(' OR ')})`;
    if (!keys.useTrigram) return db.query<CandidateRecord>(sql, params);
    // The threshold is a setting, so it must be set on the connection that runs the query: a
    // transaction pins both to one connection, and `set_config(…, true)` ends with it.
    return db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('pg_trgm.similarity_threshold', $1, true)`, [
        String(keys.trigramThreshold),
      ]);
      return tx.query<CandidateRecord>(sql, params);
    });
  },

  async findByExternalId(db, externalId) {
    const rows = await db.query<CandidateRecord>(
      `SELECT ${RECORD_COLUMNS} FROM marks m WHERE m.source_code = $1 AND m.external_id = $2`,
      [MIRROR_SOURCE, externalId],
    );
    return rows[0] ?? null;
  },

  toHit(record) {
    return {
      sourceCode: MIRROR_SOURCE,
      externalId: record.externalId,
      entityType: 'trademark',
      displayName: record.markText,
      ownerName: record.ownerName,
      ownerCountryCode: record.ownerCountryCode,
      jurisdiction: record.jurisdiction,
      filedAt: record.filedAt,
      registeredAt: record.registeredAt,
      expiresAt: record.expiresAt,
      status: record.status,
      classes: record.classes,
      rawPayload: record.rawPayload,
    };
  },
};
