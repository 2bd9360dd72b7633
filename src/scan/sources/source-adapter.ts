import type { Db, Queryable } from '../../data/db.ts';
import type { NewHit } from '../../data/repositories/alerts.ts';
import type { PreparedWatch } from '../../matching/decide.ts';
import type { RegisterRecord } from '../../register/record.ts';

/**
 * A register record as a source returns it for the final decision: the normalized record, and the
 * words its office says are disclaimed (USPTO disclaimers, from the raw payload; empty otherwise).
 */
export type CandidateRecord = RegisterRecord & { disclaimed?: string[] };

/** A range of the source's change sequence: (fromSeq, toSeq]. A full scan starts at 0. */
export type SeqRange = { fromSeq: number; toSeq: number };

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
  toHit(record: CandidateRecord): Omit<NewHit, 'id' | 'watchId' | 'opposition'>;
}
