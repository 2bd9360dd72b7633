import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../data/db.ts';
import { finishRegisterFile, startRegisterFile } from '../data/repositories/register-files.ts';
import type { ListedFile } from '../register/listing.ts';
import {
  DownloadError,
  type Downloaded,
  downloadToFile,
  type HeadersFor,
  type HttpOptions,
} from './http-download.ts';
import { errorCount, type ImportSummary, importRecordFiles } from './import.ts';
import {
  displayUrl,
  INTERRUPTED,
  oneLine,
  type SyncFileReport,
  type SyncOptions,
} from './sync-types.ts';
import { surveyZip, type UnzipLimits, ZipError, zipEntries } from './zip-entries.ts';

/** What loading one file needs besides the file: the feed's settings for this sync. */
export type FileLoad = {
  db: Db;
  feedName: string;
  http: HttpOptions;
  headersFor: HeadersFor;
  limits: UnzipLimits;
  options: SyncOptions;
  /** The sync loads into an empty mirror as an initial load, which it finishes (sync.ts). */
  initial: boolean;
};

/** A downloaded file of which not one record could be read. */
class UnreadableFileError extends Error {}

/**
 * Whether a file that failed this way may load if tried again in a while. Not when the server
 * answered that it has no such file or refuses it (404, 403…), nor when what it sent is not a
 * sound archive or unzips to more than the limits: the same request would get the same answer, and
 * the office's download quota (per file and key) would pay for it.
 */
function mayPass(error: unknown): boolean {
  if (error instanceof DownloadError) return error.retryable;
  return !(error instanceof ZipError || error instanceof UnreadableFileError);
}

/**
 * Unzips the downloaded file entry by entry into the importer: the central directory's sizes are
 * checked against the limits first (nothing is extracted from a file over them), then each record
 * entry is extracted, imported and removed before the next (a zip of a hundred thousand XML files
 * holds one on disk at a time). The import's progress is in unzipped bytes of the whole archive.
 */
async function importZip(
  load: FileLoad,
  file: ListedFile,
  zipPath: string,
  dir: string,
): Promise<ImportSummary> {
  const { signal, onProgress } = load.options;
  const survey = await surveyZip(zipPath, load.limits);
  if (survey.entries === 0) throw new ZipError('the zip archive holds no register file');
  let done = 0;
  let current = { index: -1, bytes: 0 };
  // The importer names an entry by where it was extracted (entry-N); a reason names it as the
  // archive does.
  const names = new Map<string, string>();
  const summary = await importRecordFiles(
    load.db,
    (async function* () {
      for await (const entry of zipEntries(zipPath, dir, signal)) {
        names.set(entry.path, entry.name);
        yield entry.path;
      }
    })(),
    {
      // Records that do not say which day's version they are take the file's date.
      asOf: file.date,
      signal,
      partOfInitialLoad: load.initial,
      onProgress: ({ bytesRead, totalBytes, fileIndex }) => {
        if (fileIndex !== current.index) {
          done += current.bytes;
          current = { index: fileIndex, bytes: totalBytes };
        }
        const bytes = done + bytesRead;
        onProgress?.({ phase: 'import', file: file.name, bytes, total: survey.totalBytes });
      },
    },
  );
  const read = summary.imported + summary.updated + summary.skipped + (summary.deleted ?? 0);
  const [first] = summary.errors;
  if (read === 0 && first !== undefined) {
    // Not one record, only errors (a file of nothing but whitespace, one text too long to be a
    // field): a failure, recorded with its reason and loaded again by the next sync, not a file
    // "loaded" with an error that nothing would ever retry.
    const where = names.get(first.file) ?? first.file;
    const line = first.line === null ? '' : ` line ${first.line}`;
    throw new UnreadableFileError(`no record could be read: ${where}${line}: ${first.message}`);
  }
  return summary;
}

/** Downloads the file (verified: status, length) into `dir`, telling of retries and progress. */
function download(load: FileLoad, file: ListedFile, path: string): Promise<Downloaded> {
  const { options, feedName } = load;
  const attempts = load.http.retries + 1;
  return downloadToFile(file.url, path, load.http, {
    headersFor: load.headersFor,
    onProgress: (bytes, total) =>
      options.onProgress?.({ phase: 'download', file: file.name, bytes, total }),
    onRetry: (error, retry, waitMs) => {
      // Info, not a warning: a retry that succeeds is no failure, and a one-shot sync logs only
      // warnings. The command line says it on stderr through onRetry.
      options.logger.info(
        { feed: feedName, file: file.name, attempt: retry + 1, reason: error.message },
        'retrying',
      );
      options.onRetry?.({
        what: `file ${file.name}`,
        url: displayUrl(file.url),
        reason: error.message,
        attempt: retry + 1,
        attempts,
        waitMs,
      });
    },
  });
}

/** The failure of a file, recorded and reported; the sync goes on with the next file. */
async function fileFailed(
  load: FileLoad,
  file: ListedFile,
  downloaded: Downloaded | null,
  error: unknown,
): Promise<SyncFileReport> {
  const { options, feedName } = load;
  const reason = options.signal?.aborted
    ? INTERRUPTED
    : oneLine((error as Error).message || String(error));
  await finishRegisterFile(load.db, feedName, file.name, {
    status: 'failed',
    bytes: downloaded?.bytes ?? null,
    sha256: downloaded?.sha256 ?? null,
    imported: null,
    updated: null,
    skipped: null,
    errors: null,
    reason,
  });
  options.logger.warn({ feed: feedName, file: file.name, reason }, 'register file failed');
  options.onFileFailed?.(file.name, mayPass(error));
  const { bytes = null } = downloaded ?? {};
  return {
    name: file.name,
    status: 'failed',
    bytes,
    imported: 0,
    updated: 0,
    skipped: 0,
    errors: 0,
    reason,
  };
}

/** Downloads, verifies and imports one file; records the outcome. Never throws for the file. */
export async function loadFile(load: FileLoad, file: ListedFile): Promise<SyncFileReport> {
  const { db, feedName } = load;
  await startRegisterFile(db, {
    feed: feedName,
    name: file.name,
    url: file.url,
    fileDate: file.date,
  });
  const dir = await mkdtemp(join(tmpdir(), 'tmwatch-sync-'));
  let downloaded: Downloaded | null = null;
  try {
    const zipPath = join(dir, 'download');
    downloaded = await download(load, file, zipPath);
    const summary = await importZip(load, file, zipPath, dir);
    const counts = {
      imported: summary.imported,
      updated: summary.updated,
      skipped: summary.skipped,
      errors: errorCount(summary),
    };
    await finishRegisterFile(db, feedName, file.name, {
      status: 'loaded',
      bytes: downloaded.bytes,
      sha256: downloaded.sha256,
      ...counts,
      reason: null,
    });
    const report: SyncFileReport = {
      name: file.name,
      status: 'loaded',
      bytes: downloaded.bytes,
      ...counts,
      // As `marks import` says it: only when the office deleted records (EUIPO's Delete).
      ...(summary.deleted ? { deleted: summary.deleted } : {}),
    };
    load.options.logger.info({ feed: feedName, ...report }, 'register file loaded');
    return report;
  } catch (error) {
    // A broken file is reported and the sync goes on; its records already imported stay, and
    // loading it again later upserts the same records (the importer is idempotent). A stopped
    // sync's file is recorded the same way, so the next sync loads it again.
    return await fileFailed(load, file, downloaded, error);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
