import type { Db } from '../../data/db.ts';
import { highestChangeSeq } from '../../data/repositories/marks.ts';
import {
  changedRecordsBehindAlerts,
  findRecordByExternalId,
  queryCandidates,
  readRecordsInRange,
  type SeqRange,
} from '../../data/repositories/mirror-candidates.ts';
import { conflictCandidates } from '../../matching/candidates.ts';
import type { PreparedWatch } from '../../matching/decide.ts';
import { MIRROR_SOURCE } from '../../register/sources.ts';
import { createRecentChanges, RANGE_MAX_ROWS } from './recent-changes.ts';
import type { SourceAdapter } from './source-adapter.ts';

/**
 * The register mirror (table marks) as the `global_trademark_database` source. Candidates follow
 * the one candidate rule (src/matching/candidates.ts): a recent range of changes is matched in
 * memory (recent-changes.ts), where only the candidates that may be conflicts are read in full
 * (conflictCandidates), anything else by the indexed query of
 * data/repositories/mirror-candidates.ts. Each adapter keeps its own cache of recently read
 * ranges, per database.
 */
export function createRegisterMirror(): SourceAdapter {
  const recent = createRecentChanges();
  return {
    code: MIRROR_SOURCE,

    currentSeq: highestChangeSeq,

    async findCandidates(db: Db, watch: PreparedWatch, range: SeqRange) {
      if (range.fromSeq > 0 && range.toSeq - range.fromSeq <= RANGE_MAX_ROWS) {
        const ids = conflictCandidates(await recent.changedIndex(db, range), watch);
        if (ids.length === 0) return [];
        return readRecordsInRange(db, ids, range);
      }
      return queryCandidates(db, watch, range);
    },

    findByExternalId: findRecordByExternalId,

    findAlertedChanges: changedRecordsBehindAlerts,

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
        live: record.live,
        classes: record.classes,
        rawPayload: record.rawPayload,
        publishedAt: record.publishedAt,
        removedAt: record.removedAt ?? null,
      };
    },
  };
}
