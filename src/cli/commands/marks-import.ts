import { SingleBar } from 'cli-progress';
import { ApiError } from '../../domain/errors.ts';
import { errorCount, type ImportSummary, importRecordFiles } from '../../mirror/import.ts';
import { assertReadable } from '../../register/read-records.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'marks import',
  summary:
    'Import register records (normalized JSON Lines, USPTO XML, EUIPO bulk XML, CIPO ST.96, WIPO ST.96 or ST.66; optionally gzipped) into the register mirror',
  positionals: { name: 'FILE...', min: 1, max: Number.POSITIVE_INFINITY },
  options: {
    initial: {
      type: 'boolean',
      description:
        'a first load into an empty mirror: the candidate (GIN) indexes are dropped, the files loaded without them, then the indexes built and the words counted once, at the end. Scans wait (claim no watch; "tmwatch scan" refuses) and other imports are refused until it has finished. Interrupted, it leaves the mirror unindexed and marked as loading: run the same command again to resume it',
    },
  },
  prints:
    '{"imported":n,"updated":n,"skipped":n,"errors":[{"file","line","message"}]} (the first 100 errors; "moreErrors":n counts the others, "deleted":n the records the office deleted); exit 1 when no record could be imported',
  examples: [
    'tmwatch marks import records.jsonl',
    'tmwatch marks import apc240925.xml apc240926.xml.gz',
    'tmwatch marks import --initial apc18840407-20231231-01.xml apc18840407-20231231-02.xml',
  ],
  run: async ({ db, positionals, values }) => {
    // A file that cannot be read is the command's failure (exit 1, one line), checked before
    // anything is imported; a bad record inside a readable file is a line of the report.
    for (const path of positionals) await assertReadable(path);
    // A progress bar only on a terminal: stdout is the JSON summary, so the bar goes to stderr.
    const bar = process.stderr.isTTY
      ? new SingleBar({
          stream: process.stderr,
          format: '{file} [{bar}] {percentage}% | {value}/{total} MB',
          hideCursor: true,
        })
      : null;
    let current = -1;
    try {
      const summary = await importRecordFiles(db, positionals, {
        initial: values.initial ?? false,
        onProgress: ({ file, bytesRead, totalBytes, fileIndex }) => {
          if (!bar) return;
          const mb = (bytes: number) => Math.round(bytes / 10_485.76) / 100;
          if (fileIndex !== current) {
            if (current >= 0) bar.stop();
            current = fileIndex;
            bar.start(mb(totalBytes), 0, { file });
          }
          bar.update(mb(bytesRead), { file });
        },
      });
      // Thrown after the finally below has stopped the bar: the error line is the last on stderr.
      assertSomethingImported(summary, positionals.length);
      return summary;
    } finally {
      bar?.stop();
    }
  },
});

/**
 * An import whose every record failed is the command's failure (exit 1, one line on stderr): a
 * script must not take a file of an unknown format for an import that went well. Some bad records
 * among good ones are the report's, and an empty file imported nothing because it held nothing.
 */
function assertSomethingImported(summary: ImportSummary, fileCount: number): void {
  const errors = errorCount(summary);
  const done = summary.imported + summary.updated + summary.skipped + (summary.deleted ?? 0);
  const [first] = summary.errors;
  if (done > 0 || first === undefined) return;
  const files = fileCount === 1 ? 'this file' : 'these files';
  // Errors without a line are whole files that could not be read as records (their format).
  if (summary.errors.every((e) => e.line === null) && summary.moreErrors === undefined) {
    throw new ApiError(
      'validation_error',
      `no record in ${files} is in a known format (${first.file}: ${first.message})`,
    );
  }
  throw new ApiError(
    'validation_error',
    `no record of ${files} could be imported: ${errors} ${errors === 1 ? 'error' : 'errors'}, the first ${first.file} line ${first.line ?? '-'}: ${first.message}`,
  );
}
