// What a feed's zip may unzip to (REGISTER_MAX_ENTRY_MB, REGISTER_MAX_UNZIPPED_MB), and how its
// entries reach the importer: one at a time, never the whole archive on disk. The zips are built
// here with yazl, zip bombs included.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { listRegisterFiles } from '../../src/data/repositories/register-files.ts';
import { type FeedServer, zipOfBuffers } from '../helpers/feed-server.ts';
import { sync, syncTestContext } from '../helpers/register-sync.ts';

const MIB = 1024 * 1024;
const USPTO = 'test/fixtures/uspto';

/** A zip bomb: `mb` MiB of spaces (what the reported 3 MB → 3 GB file held), a few KB zipped. */
const bomb = (mb: number, entries = 1) =>
  zipOfBuffers(
    Object.fromEntries(
      Array.from({ length: entries }, (_, i) => [`apc-${i + 1}.xml`, Buffer.alloc(mb * MIB, ' ')]),
    ),
  );

describe('register sync: unzip limits and entries one at a time', () => {
  const context = syncTestContext();
  let db: Db;
  let server: FeedServer;
  // The sync's temporary folders, apart from other test files': what is on disk can be looked at.
  let scratch: string;
  let savedTmp: string | undefined;
  before(() => {
    db = context.db;
    server = context.server;
    scratch = mkdtempSync(join(tmpdir(), 'tmw-unzip-'));
    savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
  });
  after(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(scratch, { recursive: true, force: true });
  });

  const limits = { maxEntryBytes: MIB, maxTotalBytes: 2 * MIB };

  it('an entry over the limit fails the file before anything is extracted, with the reason; the next sync tries it again', async () => {
    const zip = await bomb(8);
    assert.ok(zip.length < 64 * 1024, `the bomb is ${zip.length} bytes zipped`);
    server.files.set('apc260101.zip', { kind: 'file', body: zip });
    const report = await sync(db, server, { limits });
    assert.deepEqual(
      report.files.map((f) => [f.status, f.reason]),
      [
        [
          'failed',
          `apc-1.xml unzips to ${8 * MIB} bytes, over the limit of 1 MB per entry (REGISTER_MAX_ENTRY_MB)`,
        ],
      ],
    );
    const [row] = await listRegisterFiles(db);
    assert.deepEqual([row?.status, row?.attempts], ['failed', 1]);
    assert.match(row?.reason ?? '', /REGISTER_MAX_ENTRY_MB/);
    assert.deepEqual(readdirSync(scratch), [], 'no temporary file is left');

    // A failed file is loaded again by the next sync: with the limit raised, it is unzipped and
    // read, and fails again for what it is (nothing but whitespace), never "loaded".
    const again = await sync(db, server, {
      limits: { maxEntryBytes: 16 * MIB, maxTotalBytes: 16 * MIB },
    });
    assert.equal(again.files[0]?.status, 'failed');
    assert.match(
      again.files[0]?.reason ?? '',
      /^no record could be read: apc-1\.xml: unknown format/,
    );
    const [retried] = await listRegisterFiles(db);
    assert.deepEqual([retried?.status, retried?.attempts], ['failed', 2]);
  });

  it('a file within the limits of which not one record can be read fails with the reason, in bounded memory, and is tried again', async () => {
    // One case-file whose text is 8 MB long: over the reader's bound for a text, in a zip of a few
    // KB. The text is dropped as it streams, the record is an error, and nothing else is there.
    const huge = Buffer.concat([
      Buffer.from(
        '<?xml version="1.0"?>\n<trademark-applications-daily><application-information><file-segments><action-keys><case-file><serial-number>',
      ),
      Buffer.alloc(8 * MIB, 'A'),
      Buffer.from(
        '</serial-number></case-file></action-keys></file-segments></application-information></trademark-applications-daily>\n',
      ),
    ]);
    server.files.set('apc260104.zip', {
      kind: 'file',
      body: await zipOfBuffers({ 'huge-text.xml': huge }),
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const report = await sync(db, server, {
      limits: { maxEntryBytes: 16 * MIB, maxTotalBytes: 16 * MIB },
    });
    const [file] = report.files;
    assert.equal(file?.status, 'failed');
    assert.match(
      file?.reason ?? '',
      /^no record could be read: huge-text\.xml line 2: .*a text of more than 1048576 characters/,
    );
    assert.ok(
      process.memoryUsage().heapUsed - heapBefore < 64 * MIB,
      'the text was not accumulated',
    );
    const [row] = await listRegisterFiles(db);
    assert.deepEqual([row?.status, row?.attempts], ['failed', 1]);
    const again = await sync(db, server, {
      limits: { maxEntryBytes: 16 * MIB, maxTotalBytes: 16 * MIB },
    });
    assert.equal(again.files[0]?.status, 'failed');
    assert.equal((await listRegisterFiles(db))[0]?.attempts, 2, 'tried again by the next sync');
  });

  it('entries each under the limit but over it together fail the file (the limit per file)', async () => {
    server.files.set('apc260102.zip', { kind: 'file', body: await bomb(0.75, 3) });
    const report = await sync(db, server, { limits });
    assert.equal(report.files[0]?.status, 'failed');
    assert.equal(
      report.files[0]?.reason,
      'the archive unzips to more than 2 MB, the limit per file (REGISTER_MAX_UNZIPPED_MB)',
    );
    assert.equal((await db.query('SELECT 1 FROM marks')).length, 0, 'nothing was imported');
  });

  it('a zip of many XML files is imported entry by entry, one on disk at a time, images left out', async () => {
    const names = readdirSync(USPTO).filter(
      (name) => name.startsWith('tmterminal_') && !name.includes('prolog'),
    );
    const entries: Record<string, Buffer> = {};
    for (const name of names) entries[`records/${name}`] = readFileSync(join(USPTO, name));
    // CIPO's zips carry an image per figurative mark beside its XML: not a record, not an error.
    entries['images/1057613.png'] = Buffer.from('\x89PNG\r\n\x1a\nnot really an image');
    entries['records/'] = Buffer.alloc(0);
    server.files.set('apc260103.zip', { kind: 'file', body: await zipOfBuffers(entries) });
    let mostOnDisk = 0;
    const onDisk = () =>
      readdirSync(scratch)
        .flatMap((dir) => readdirSync(join(scratch, dir)))
        .filter((name) => name.startsWith('entry-')).length;
    const report = await sync(db, server, {
      onProgress: (progress) => {
        if (progress.phase === 'import') mostOnDisk = Math.max(mostOnDisk, onDisk());
      },
    });
    const [file] = report.files;
    assert.equal(file?.status, 'loaded', file?.reason);
    assert.equal(file?.errors, 0, 'the image and the folder are not read as records');
    assert.equal((file?.imported ?? 0) + (file?.updated ?? 0) + (file?.skipped ?? 0), names.length);
    assert.equal(mostOnDisk, 1, 'one extracted entry at a time');
    assert.deepEqual(readdirSync(scratch), []);
  });
});
