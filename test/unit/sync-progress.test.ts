import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { type ProgressStream, retryLine, syncProgressBars } from '../../src/cli/sync-progress.ts';

/** A stream that keeps what is written to it and says whether it is a terminal. */
function stream(isTTY: boolean) {
  const out = new PassThrough() as PassThrough & ProgressStream;
  if (isTTY) Object.assign(out, { isTTY: true, columns: 100 });
  let written = '';
  out.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  return { out, written: () => written };
}

const MB = 1024 * 1024;

describe('the progress bars of registers sync', () => {
  it('are drawn on a terminal: one bar per file and phase, in MB', () => {
    const { out, written } = stream(true);
    const bars = syncProgressBars(out);
    assert.ok(bars);
    bars.onProgress({ phase: 'download', file: 'apc260101.zip', bytes: 2 * MB, total: 4 * MB });
    bars.onProgress({ phase: 'download', file: 'apc260101.zip', bytes: 4 * MB, total: 4 * MB });
    bars.onProgress({ phase: 'import', file: 'apc260101.zip', bytes: 12 * MB, total: 12 * MB });
    bars.stop();
    const text = written();
    assert.match(text, /apc260101\.zip download \[[^\]]+\] 100% \| 4\/4 MB/);
    assert.match(text, /apc260101\.zip import \[[^\]]+\] 100% \| 12\/12 MB/);
  });

  it('a download of undeclared length shows the MB received, not a bar towards 0 MB', () => {
    const { out, written } = stream(true);
    const bars = syncProgressBars(out);
    bars?.onProgress({ phase: 'download', file: 'apc260102.zip', bytes: MB, total: null });
    bars?.onProgress({ phase: 'download', file: 'apc260102.zip', bytes: 3 * MB, total: null });
    bars?.stop();
    assert.match(written(), /apc260102\.zip download \| 3 MB/);
    assert.doesNotMatch(written(), /\/0 MB|%/);
  });

  it("show the listing as it arrives, and an API's marks as a count of marks, not MB", () => {
    const { out, written } = stream(true);
    const bars = syncProgressBars(out);
    bars?.onProgress({ phase: 'listing', file: 'cipo-weekly', bytes: 0, total: null });
    bars?.onProgress({ phase: 'listing', file: 'cipo-weekly', bytes: 2 * MB, total: null });
    bars?.onProgress({
      phase: 'marks',
      file: 'changes_2026-03-03_2026-03-10',
      bytes: 200,
      total: 250,
    });
    bars?.stop();
    assert.match(written(), /cipo-weekly listing \| 2 MB/);
    assert.match(written(), /changes_2026-03-03_2026-03-10 marks \[[^\]]+\] 80% \| 200\/250 marks/);
  });

  it('a retry is one line: what, where, why, the wait and the attempt', () => {
    assert.equal(
      retryLine({
        what: 'the listing of feed cipo-weekly',
        url: 'https://ised-isde.canada.ca/x',
        reason: 'no connection within 10000 ms',
        attempt: 2,
        attempts: 4,
        waitMs: 5000,
      }),
      'tmwatch: the listing of feed cipo-weekly at https://ised-isde.canada.ca/x: no connection within 10000 ms; trying again in 5 s (attempt 2 of 4)',
    );
  });

  it('are not drawn at all when the stream is not a terminal (a pipe, a file, a log collector)', () => {
    const { out, written } = stream(false);
    assert.equal(syncProgressBars(out), null);
    assert.equal(written(), '');
  });
});
