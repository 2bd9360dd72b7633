import type { Db } from '../data/db.ts';
import {
  foldPendingWordCounts,
  MarkBatch,
  type MarkUpsert,
  mergeStagedMarks,
  settleMarkIndexes,
  stageMarks,
} from '../data/repositories/marks.ts';
import { matchKeys } from '../matching/normalize.ts';
import { type ReadProgress, RecordFileError, readRecordFile } from '../register/read-records.ts';
import type { RegisterRecord } from '../register/record.ts';
import { MIRROR_SOURCE } from '../register/sources.ts';

export type ImportError = { file: string; line: number | null; message: string };

export type ImportSummary = {
  imported: number;
  updated: number;
  skipped: number;
  errors: ImportError[];
};

export type ImportOptions = {
  batchSize?: number;
  onProgress?: (progress: ReadProgress & { fileIndex: number; fileCount: number }) => void;
  /** Errors listed in the summary; further ones are counted in a last entry. */
  maxListedErrors?: number;
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
};

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
    classes: record.classes,
    logoUrl: record.logoUrl,
    rawPayload: record.rawPayload,
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

/**
 * Streams register files into the mirror in batches, one transaction per batch: memory stays flat
 * whatever the file size, and a bad record is reported with its file and line without stopping
 * the rest. Importing an externalId again updates the record and bumps its change sequence, unless
 * the stored version is as of a later day than the one imported (see `asOf`): that record is
 * counted as skipped and nothing of it changes, so files loaded out of date order (a failed file
 * loaded again after newer ones) leave the mirror as if they had been loaded in order.
 */
export async function importRecordFiles(
  db: Db,
  paths: string[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 2000;
  const maxListed = options.maxListedErrors ?? 1000;
  const summary: ImportSummary = { imported: 0, updated: 0, skipped: 0, errors: [] };
  let unlisted = 0;
  const report = (error: ImportError) => {
    if (summary.errors.length < maxListed) summary.errors.push(error);
    else unlisted++;
  };
  // Keyed by externalId: a batch may not touch one row twice, and the later line wins anyway.
  let batch = new MarkBatch();
  // Batches are written while the next ones are read, parsed and keyed, each in its own
  // transaction, two at a time: while one is merged into the mirror (holding the import lock), the
  // next is staged (COPY) on another connection. A batch merges only after the one before it has
  // committed, so batches commit in file order (the later line of an externalId wins, change_seq
  // follows the file) and memory stays at three batches.
  let previous: Promise<void> | null = null;
  let older: Promise<void> | null = null;
  let failure: { error: unknown } | null = null;
  let batches = 0;
  const settle = async () => {
    await older;
    await previous;
    older = previous = null;
    if (failure !== null) throw failure.error;
  };
  const flush = async () => {
    await older;
    older = null;
    if (failure !== null) throw failure.error;
    options.signal?.throwIfAborted();
    if (batch.size === 0) return;
    const rows = batch;
    batch = new MarkBatch();
    summary.skipped += rows.stale;
    const before = previous;
    batches++;
    const foldWordCounts = batches % FOLD_EVERY === 0;
    // The failure is kept, not left as a rejected promise nobody awaits yet: it is thrown at the
    // next flush, or at the end. A batch staged behind a failed one rolls back without a word.
    const current = writeBatch(db, rows, before, foldWordCounts, () => failure !== null).then(
      (result) => {
        summary.imported += result.inserted;
        summary.updated += result.updated;
        // Versions older than the one stored (a file loaded out of date order) are left out.
        summary.skipped += result.stale;
      },
      (error: unknown) => {
        if (!(error instanceof EarlierBatchFailed)) failure ??= { error };
      },
    );
    older = before;
    previous = current;
  };

  try {
    for (const [fileIndex, path] of paths.entries()) {
      try {
        const items = readRecordFile(path, {
          onProgress: (p) => options.onProgress?.({ ...p, fileIndex, fileCount: paths.length }),
        });
        for await (const item of items) {
          if ('record' in item) {
            batch.add(toMarkUpsert(item.record, item.asOf ?? options.asOf ?? null));
            if (batch.size >= batchSize) await flush();
            else if (previous !== null && batch.size % YIELD_EVERY === 0) await yieldToIo();
          } else if ('error' in item) {
            report({ file: item.file, line: item.line, message: item.error });
          } else {
            summary.skipped++;
          }
        }
      } catch (error) {
        if (!(error instanceof RecordFileError)) throw error;
        report({ file: error.file, line: null, message: error.reason });
      }
    }
    await flush();
    await settle();
  } catch (error) {
    // Whatever went wrong, the batches in flight end before the caller may close the database.
    await older;
    await previous;
    // The batches that did commit have their word counts' changes waiting: folded now if the
    // database still answers, else by the next import or the next start.
    await foldPendingWordCounts(db).catch(() => {});
    throw error;
  }
  return finishImport(db, summary, { batches, unlisted });
}

/**
 * One batch's transaction: staged (COPY) at once, merged into the mirror once the batch before it
 * has committed; rolled back when an earlier batch failed.
 */
function writeBatch(
  db: Db,
  rows: MarkBatch,
  before: Promise<void> | null,
  foldWordCounts: boolean,
  earlierFailed: () => boolean,
) {
  return db.transaction(async (tx) => {
    await stageMarks(tx, rows);
    await before;
    if (earlierFailed()) throw new EarlierBatchFailed();
    return mergeStagedMarks(tx, { foldWordCounts });
  });
}

/** What an import does once every batch has committed: word counts, indexes, the error count. */
async function finishImport(
  db: Db,
  summary: ImportSummary,
  done: { batches: number; unlisted: number },
): Promise<ImportSummary> {
  const written = summary.imported + summary.updated;
  if (done.batches % FOLD_EVERY !== 0) await foldPendingWordCounts(db);
  if (written > 0) await settleMarkIndexes(db, written);
  if (done.unlisted > 0) {
    summary.errors.push({
      file: '',
      line: null,
      message: `${done.unlisted} more errors not listed`,
    });
  }
  return summary;
}
