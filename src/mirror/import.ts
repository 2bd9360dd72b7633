import type { Db } from '../data/db.ts';
import {
  beginInitialLoad,
  finishInitialLoad,
  initialLoadInProgress,
} from '../data/repositories/initial-load.ts';
import {
  deleteMarks,
  foldPendingWordCounts,
  MarkBatch,
  type MarkUpsert,
  mergeStagedMarks,
  pruneMarkRemovals,
  settleMarkIndexes,
  stageMarks,
} from '../data/repositories/marks.ts';
import { type PartyUpsert, writeParties } from '../data/repositories/register-parties.ts';
import { ApiError } from '../domain/errors.ts';
import { matchKeys } from '../matching/normalize.ts';
import { type ReadProgress, RecordFileError, readRecordFile } from '../register/read-records.ts';
import type { RecordItem, RegisterRecord } from '../register/record.ts';
import { MIRROR_SOURCE } from '../register/sources.ts';

export type ImportError = { file: string; line: number | null; message: string };

export type ImportSummary = {
  imported: number;
  updated: number;
  skipped: number;
  /** The first MAX_LISTED_ERRORS errors; `moreErrors` counts the others. */
  errors: ImportError[];
  /** Errors beyond those listed; absent when every error is listed. */
  moreErrors?: number;
  /** Records the office deleted and the mirror deleted with them; absent when there were none. */
  deleted?: number;
};

export type ImportOptions = {
  batchSize?: number;
  /** `fileCount` is null when the files come one at a time (a zip's entries, as extracted). */
  onProgress?: (progress: ReadProgress & { fileIndex: number; fileCount: number | null }) => void;
  /**
   * The day (YYYY-MM-DD) of the register the files are a copy of (a feed's file date): the as-of
   * date of their records that do not give their own. Without either, the last import wins.
   */
  asOf?: string;
  /**
   * Stops the import between two batches (the process is shutting down): the batches written
   * stay, as after any failure, and importing the files again completes them.
   */
  signal?: AbortSignal | undefined;
  /**
   * A first load into an empty mirror (`marks import --initial`): the candidate indexes are
   * dropped before and built after, the words counted once at the end; scans wait until it has
   * finished. Run again after an interruption, it resumes (see beginInitialLoad).
   */
  initial?: boolean;
  /**
   * The records go into an initial load that the caller began and finishes (a feed's first sync,
   * sync.ts): written as `initial` writes them, the load neither begun nor finished here.
   */
  partOfInitialLoad?: boolean;
};

/**
 * Errors an import lists: enough to see what is wrong with a file, not the 180 KB of JSON that a
 * file of 180,000 unreadable records would print. The others are counted in `moreErrors`.
 */
export const MAX_LISTED_ERRORS = 100;

/** How many errors an import met, listed or not. */
export const errorCount = (summary: ImportSummary): number =>
  summary.errors.length + (summary.moreErrors ?? 0);

export function toMarkUpsert(record: RegisterRecord, asOf: string | null = null): MarkUpsert {
  const keys = matchKeys(record.markText);
  // Spelt out rather than spread: `{ ...record }` cost ~14 us per record (V8's generic copy of a
  // 13-property object), more than computing the match keys.
  return {
    externalId: record.externalId,
    markText: record.markText,
    ownerName: record.ownerName,
    ownerCountryCode: record.ownerCountryCode,
    jurisdiction: record.jurisdiction,
    designations: record.designations,
    filedAt: record.filedAt,
    registeredAt: record.registeredAt,
    expiresAt: record.expiresAt,
    publishedAt: record.publishedAt,
    status: record.status,
    live: record.live,
    classes: record.classes,
    logoUrl: record.logoUrl,
    goods: record.goods,
    rawPayload: record.rawPayload,
    ownerKey: record.ownerKey ?? null,
    sourceCode: MIRROR_SOURCE,
    normText: keys.normalized,
    compactText: keys.compact,
    compactLength: keys.compact.length,
    tokens: keys.tokens,
    soundCodes: keys.soundCodes,
    asOf,
  };
}

/**
 * While a batch is being written, the loop below lets I/O callbacks run every this many records.
 * Records buffered in the file stream are handed over in microtasks only, so without this the
 * driver would see the in-flight transaction's replies (BEGIN, COPY, upsert, COMMIT: one round
 * trip each) only when the next 64 KiB chunk is read, ~200 records later, and the database would
 * sit idle between them.
 */
const YIELD_EVERY = 64;

/**
 * Every this many batches, the batch's transaction also folds the word counts' changes into
 * mark_words (foldWordCounts): the counts scans read trail a running import by at most this many
 * batches, and each word is updated once per fold instead of once per batch.
 */
const FOLD_EVERY = 25;

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rolls back a batch staged behind one that failed: nothing after a failed batch is written. */
class EarlierBatchFailed extends Error {}

/** Writes the batches of one import, two at a time, in file order (see importRecordFiles). */
class BatchWriter {
  readonly summary: ImportSummary = { imported: 0, updated: 0, skipped: 0, errors: [] };
  #deleted = 0;
  #unlisted = 0;
  // Keyed by externalId: a batch may not touch one row twice, and the later line wins anyway.
  #batch = new MarkBatch();
  // Keyed by office, role and key, likewise.
  #parties = new Map<string, PartyUpsert>();
  #previous: Promise<void> | null = null;
  #older: Promise<void> | null = null;
  #failure: { error: unknown } | null = null;
  #batches = 0;

  constructor(
    private readonly db: Db,
    private readonly options: ImportOptions,
  ) {}

  get batches(): number {
    return this.#batches;
  }

  /** Part of an initial load: the words are counted once at its end, not batch by batch. */
  get #initial(): boolean {
    return this.options.initial === true || this.options.partOfInitialLoad === true;
  }

  report(error: ImportError): void {
    if (this.summary.errors.length < MAX_LISTED_ERRORS) {
      this.summary.errors.push(error);
    } else this.#unlisted++;
  }

  /** Adds one item of a file; writes the batch when it is full. */
  async take(item: RecordItem): Promise<void> {
    const asOf = ('asOf' in item ? item.asOf : undefined) ?? this.options.asOf ?? null;
    if ('record' in item) this.#batch.add(toMarkUpsert(item.record, asOf));
    else if ('deleted' in item) this.#batch.delete(item.deleted.externalId, asOf);
    else if ('party' in item) {
      const { office, role, key } = item.party;
      this.#parties.set(`${office}\u0000${role}\u0000${key}`, { ...item.party, asOf });
    } else if ('error' in item) {
      this.report({ file: item.file, line: item.line, message: item.error });
      return;
    } else {
      this.summary.skipped++;
      return;
    }
    const pending = this.#batch.pending + this.#parties.size;
    if (pending >= (this.options.batchSize ?? 2000)) await this.flush();
    else if (this.#previous !== null && pending % YIELD_EVERY === 0) await yieldToIo();
  }

  /**
   * Starts writing the batch held, once the one before the last has committed. A batch merges
   * only after the one before it has committed, so batches commit in file order (the later line of
   * an externalId wins, change_seq follows the file) and memory stays at three batches.
   */
  async flush(): Promise<void> {
    await this.#older;
    this.#older = null;
    if (this.#failure !== null) throw this.#failure.error;
    this.options.signal?.throwIfAborted();
    if (this.#batch.pending === 0 && this.#parties.size === 0) return;
    const rows = this.#batch;
    const parties = [...this.#parties.values()];
    this.#batch = new MarkBatch();
    this.#parties = new Map();
    this.summary.skipped += rows.stale;
    const before = this.#previous;
    this.#batches++;
    const foldWordCounts = this.#batches % FOLD_EVERY === 0;
    // The failure is kept, not left as a rejected promise nobody awaits yet: it is thrown at the
    // next flush, or at the end. A batch staged behind a failed one rolls back without a word.
    const current = this.db
      .transaction(async (tx) => {
        await stageMarks(tx, rows);
        await before;
        if (this.#failure !== null) throw new EarlierBatchFailed();
        const marks = await mergeStagedMarks(tx, {
          foldWordCounts: foldWordCounts && !this.#initial,
          countWords: !this.#initial,
        });
        const written = await writeParties(tx, parties);
        const deleted = await deleteMarks(tx, MIRROR_SOURCE, rows.deletions);
        return { marks, written, deleted };
      })
      .then(
        ({ marks, written, deleted }) => {
          this.summary.imported += marks.inserted + written.inserted;
          this.summary.updated += marks.updated + written.updated;
          // Versions older than the one stored (a file loaded out of date order) are left out.
          this.summary.skipped += marks.stale;
          this.#deleted += deleted + written.deleted;
        },
        (error: unknown) => {
          if (!(error instanceof EarlierBatchFailed)) this.#failure ??= { error };
        },
      );
    this.#older = before;
    this.#previous = current;
  }

  /** Waits for the batches in flight; throws the first failure. */
  async settle(): Promise<void> {
    await this.#older;
    await this.#previous;
    this.#older = this.#previous = null;
    if (this.#failure !== null) throw this.#failure.error;
  }

  /** Whatever went wrong, the batches in flight end before the caller may close the database. */
  async abandon(): Promise<void> {
    await this.#older;
    await this.#previous;
  }

  /** The summary as `marks import` prints it (`deleted` only when the office deleted some). */
  result(): ImportSummary {
    return {
      ...this.summary,
      ...(this.#unlisted > 0 ? { moreErrors: this.#unlisted } : {}),
      ...(this.#deleted > 0 ? { deleted: this.#deleted } : {}),
    };
  }

  /** How many records the import wrote (for settling the indexes). */
  get written(): number {
    return this.summary.imported + this.summary.updated;
  }
}

/**
 * The refusal of an import while an initial load has not finished, saying how to finish it: the
 * same command with its files (`feed` null), or the feed's sync that began it.
 */
export function unfinishedInitialLoad(feed: string | null): ApiError {
  return new ApiError(
    'conflict',
    feed === null
      ? 'an initial load of the register mirror (marks import --initial) has not finished: run it again with its files to complete it first'
      : `an initial load of the register mirror (the first sync of feed ${feed}) has not finished: run "tmwatch registers sync --feed ${feed}" again to complete it first`,
  );
}

/**
 * An initial load starts (or resumes) by dropping the candidate indexes of an empty mirror. Any
 * other import is refused while an initial load has not finished: the operator is told to finish
 * the load first rather than have records trickle into a mirror that scans cannot use yet. A part
 * of a load its caller began (partOfInitialLoad) was checked there.
 */
async function startLoad(db: Db, options: ImportOptions): Promise<void> {
  if (options.partOfInitialLoad) return;
  if (options.initial) {
    const begun = await beginInitialLoad(db);
    if (begun.outcome === 'busy') throw unfinishedInitialLoad(begun.feed);
    if (begun.outcome === 'not_empty') {
      throw new ApiError(
        'conflict',
        'marks import --initial loads an empty register mirror, and this one holds records: import without --initial',
      );
    }
    return;
  }
  const pending = await initialLoadInProgress(db);
  if (pending !== null) throw unfinishedInitialLoad(pending.feed);
}

/**
 * Streams register files into the mirror in batches, one transaction per batch: memory stays flat
 * whatever the file size, and a bad record is reported with its file and line without stopping
 * the rest. Importing an externalId again updates the record and bumps its change sequence, unless
 * the stored version is as of a later day than the one imported (see `asOf`): that record is
 * counted as skipped and nothing of it changes, so files loaded out of date order (a failed file
 * loaded again after newer ones) leave the mirror as if they had been loaded in order. A record
 * the office deleted is deleted from the mirror (counted in `deleted`), and an office's applicant
 * and representative records (EUIPO) are kept in register_parties, their names given to the marks
 * that name them by key (counted in `imported` and `updated` with the marks).
 *
 * Batches are written while the next ones are read, parsed and keyed, each in its own
 * transaction, two at a time: while one is merged into the mirror (holding the import lock), the
 * next is staged (COPY) on another connection.
 */
export async function importRecordFiles(
  db: Db,
  paths: readonly string[] | AsyncIterable<string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  await startLoad(db, options);
  const writer = new BatchWriter(db, options);
  try {
    const fileCount = Array.isArray(paths) ? paths.length : null;
    let fileIndex = -1;
    // One file at a time, even from an async source: the next one is asked for only once this
    // one's records are all read (a zip's entry is removed when the next is extracted).
    for await (const path of paths) {
      fileIndex++;
      const index = fileIndex;
      try {
        const items = readRecordFile(path, {
          onProgress: (p) => options.onProgress?.({ ...p, fileIndex: index, fileCount }),
        });
        for await (const item of items) await writer.take(item);
      } catch (error) {
        if (!(error instanceof RecordFileError)) throw error;
        writer.report({ file: error.file, line: null, message: error.reason });
      }
    }
    await writer.flush();
    await writer.settle();
  } catch (error) {
    await writer.abandon();
    // The batches that did commit have their word counts' changes waiting: folded now if the
    // database still answers, else by the next import or the next start.
    await foldPendingWordCounts(db).catch(() => {});
    throw error;
  }
  // A part of a feed's initial load is finished, and its indexes settled, by the sync.
  if (options.partOfInitialLoad) return writer.result();
  if (options.initial) await finishInitialLoad(db);
  else if (writer.batches % FOLD_EVERY !== 0) await foldPendingWordCounts(db);
  if (writer.written > 0) await settleMarkIndexes(db, writer.written);
  // The removals the watches' scans have all passed since the last import are of no more use
  // (pruneMarkRemovals); without this mark_removals would grow with every deletion ever taken.
  await pruneMarkRemovals(db);
  return writer.result();
}
