import type { Db, Queryable } from '../../data/db.ts';
import type { NewHit } from '../../data/repositories/alerts.ts';
import type {
  AlertedChange,
  CandidateRecord,
  SeqRange,
} from '../../data/repositories/mirror-candidates.ts';
import type { PreparedWatch } from '../../matching/decide.ts';

export type { AlertedChange };

/**
 * An upstream source a watch is scanned against. The adapter finds candidates cheaply (indexes,
 * never the whole source); the pure matching module makes the final decision.
 */
export interface SourceAdapter {
  readonly code: string;
  /** Highest change sequence committed now: the upper bound of a scan starting now. */
  currentSeq(db: Queryable): Promise<number>;
  findCandidates(db: Db, watch: PreparedWatch, range: SeqRange): Promise<CandidateRecord[]>;
  /** The record with this source id, if any (logoSt13 lookups). */
  findByExternalId(db: Queryable, externalId: string): Promise<CandidateRecord | null>;
  /**
   * For each of `watches`, the records changed in (its `fromSeq`, `toSeq`] that are behind alerts
   * of the watch and no longer what their hits show: their alerts are assessed again
   * (domain/alerts/reassess.ts). One call for a claimed batch of watches.
   */
  findAlertedChanges(
    db: Queryable,
    watches: readonly { watchId: string; fromSeq: number }[],
    toSeq: number,
  ): Promise<AlertedChange[]>;
  toHit(record: CandidateRecord): Omit<NewHit, 'id' | 'watchId' | 'opposition'>;
}
