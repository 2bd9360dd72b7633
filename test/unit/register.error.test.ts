import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { MAX_LINE_BYTES, readJsonLines } from '../../src/register/jsonl.ts';
import { RecordFileError, readRecordFile } from '../../src/register/read-records.ts';
import { parseRegisterRecord, type RecordItem } from '../../src/register/record.ts';
import { readUsptoXml } from '../../src/register/uspto-xml.ts';
import { readWipoXml } from '../../src/register/wipo-xml.ts';
import { MAX_TEXT_RUN } from '../../src/register/xml-driver.ts';
import {
  chunked,
  collect,
  makeCaseFile,
  makeDailyFile,
  readFixtureText,
  records,
  recordsFixture,
  usptoFixture,
} from '../helpers/register-fixtures.ts';

const BROKEN = recordsFixture('broken.jsonl');

/** `[line, 'record' | message]` per item: compact enough to compare a whole file at once. */
const summary = (items: readonly RecordItem[]) =>
  items.map((item) => [
    item.line,
    'record' in item
      ? 'record'
      : 'error' in item
        ? item.error
        : 'skipped' in item
          ? `skipped: ${item.reason}`
          : 'deleted' in item
            ? `deleted: ${item.deleted.externalId}`
            : `party: ${item.party.key}`,
  ]);

const EXPECTED_BROKEN = [
  [1, 'record'],
  [2, /^invalid JSON: /],
  [3, 'record'],
  [4, 'markText: required'],
  [6, 'classes.1: must be an integer 1..45'],
  [7, 'record'],
  [8, 'filedAt: must be an ISO 8601 date (YYYY-MM-DD) or date-time'],
  [9, 'designations: required for jurisdiction WO (at least one country or EM)'],
  [10, 'record'],
] as const;

function assertBroken(items: readonly RecordItem[]) {
  const actual = summary(items);
  assert.equal(actual.length, EXPECTED_BROKEN.length, JSON.stringify(actual));
  EXPECTED_BROKEN.forEach(([line, expected], i) => {
    const [actualLine, message] = actual[i] ?? [];
    assert.equal(actualLine, line);
    if (typeof expected === 'string') assert.equal(message, expected);
    else assert.match(String(message), expected);
  });
}

const xmlItems = (text: string) => collect(readUsptoXml(chunked(text, 4096), 't.xml'));

describe('JSON Lines: bad lines are reported with their line numbers', () => {
  test('broken.jsonl: each bad line is an error at its line, the good lines still come through', async () => {
    assertBroken(await collect(readJsonLines(createReadStream(BROKEN), BROKEN)));
  });

  test('the good lines of broken.jsonl are complete records', async () => {
    const items = await collect(readJsonLines(createReadStream(BROKEN), BROKEN));
    assert.deepEqual(
      records(items).map((r) => r.markText),
      ['ALPHA ONE', 'GAMMA THREE', 'ETA SEVEN', 'KAPPA TEN'],
    );
  });

  test('a JSON value that is not an object is an error', async () => {
    const items = await collect(readJsonLines(chunked('[1,2]\n"text"\nnull\n', 3), 'x'));
    assert.deepEqual(summary(items), [
      [1, 'record must be a JSON object'],
      [2, 'record must be a JSON object'],
      [3, 'record must be a JSON object'],
    ]);
  });

  test('a line over 1 MiB is one error, and the next line is read normally', async () => {
    const good = readFixtureText(recordsFixture('sample.jsonl')).split('\n')[0] ?? '';
    const huge = `{"markText": "${'x'.repeat(MAX_LINE_BYTES + 10)}"}`;
    const items = await collect(readJsonLines(chunked(`${huge}\n${good}\n`, 64 * 1024), 'x'));
    assert.deepEqual(summary(items), [
      [1, `line is longer than ${MAX_LINE_BYTES} bytes`],
      [2, 'record'],
    ]);
  });

  test('an over-long last line without a newline is reported too', async () => {
    const items = await collect(readJsonLines(chunked('x'.repeat(MAX_LINE_BYTES + 1), 1e5), 'x'));
    assert.deepEqual(summary(items), [[1, `line is longer than ${MAX_LINE_BYTES} bytes`]]);
  });

  test('invalid UTF-8 is an error of its line', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"markText": "'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n'),
    ]);
    const items = await collect(readJsonLines(chunked(bytes, 4), 'x'));
    assert.deepEqual(summary(items), [[1, 'invalid UTF-8']]);
  });

  test('a failing source ends the stream with a read error at the line reached', async () => {
    async function* failing() {
      yield Buffer.from(`${readFixtureText(recordsFixture('sample.jsonl')).split('\n')[0]}\n{"a":`);
      throw new Error('disk on fire');
    }
    const items = await collect(readJsonLines(failing(), 'x'));
    assert.deepEqual(summary(items), [
      [1, 'record'],
      [2, 'read failed: disk on fire'],
    ]);
  });

  test('several problems of one record are listed on one line', () => {
    const result = parseRegisterRecord({
      externalId: '',
      markText: 'X',
      ownerName: 'Y',
      ownerCountryCode: 'USA',
      jurisdiction: 'EU',
      filedAt: 'yesterday',
      status: 'filed',
      classes: [0, 3.5],
      logoUrl: 'javascript:alert(1)',
    });
    assert.deepEqual(result, {
      ok: false,
      error:
        'externalId: must not be empty; ownerCountryCode: must be a two-letter ST.3 code; ' +
        'jurisdiction: EU is not an office code: use EM for the EUIPO; ' +
        'filedAt: must be an ISO 8601 date (YYYY-MM-DD) or date-time; ' +
        'classes.0: must be an integer 1..45 (and 2 more)',
    });
  });
});

describe('USPTO XML: malformed input', () => {
  const wrapper = readFixtureText(usptoFixture('DERIVED_apc_wrapper_3records.xml'));

  test('a file cut inside a case-file: the earlier items, then an error at that case-file', async () => {
    const cut = wrapper.slice(0, wrapper.indexOf('<mark-identification>SUVENEER'));
    assert.deepEqual(summary(await xmlItems(cut)), [
      [10, 'record'],
      [122, 'skipped: serial 60172053: no mark-identification (no word element)'],
      [184, 'the file ends inside this <case-file>: truncated?'],
    ]);
  });

  test('a file cut between case-files: all records, then an error that the root is not closed', async () => {
    const cut = wrapper.slice(0, wrapper.indexOf('</action-keys>', wrapper.indexOf('SUVENEER')));
    const items = summary(await xmlItems(cut));
    assert.deepEqual(
      items.slice(0, 3).map(([line]) => line),
      [10, 122, 184],
    );
    assert.deepEqual(items[3], [
      cut.split('\n').length,
      'the file ends before </trademark-applications-daily>: truncated?',
    ]);
  });

  test('a malformed case-file is an error at its start line and the next case-file is still read', async () => {
    const broken = makeCaseFile({ serial: '97000001', extra: '<note>a</wrong>' });
    const good = makeCaseFile({ serial: '97000002' });
    const xml = makeDailyFile([broken, good]);
    const items = summary(await xmlItems(xml));
    const lineOf = (index: number) => xml.slice(0, index).split('\n').length;
    const brokenLine = lineOf(xml.indexOf('<case-file>'));
    const goodLine = lineOf(xml.indexOf('<case-file>', xml.indexOf('</wrong>')));
    assert.deepEqual(
      items.map(([line]) => line),
      [brokenLine, goodLine],
    );
    assert.match(
      String(items[0]?.[1]),
      /^malformed XML at line \d+, column \d+: unexpected close tag/,
    );
    assert.equal(items[1]?.[1], 'record');
  });

  test('case-files concatenated without a wrapper are each read', async () => {
    const xml = makeCaseFile({ serial: '97000001' }) + makeCaseFile({ serial: '97000002' });
    const items = await xmlItems(xml);
    assert.deepEqual(
      records(items).map((r) => r.externalId),
      ['US500000097000001', 'US500000097000002'],
    );
    assert.equal(items.length, 2);
  });

  test('an impossible filing date is an error of that case-file, not a skip', async () => {
    const items = await xmlItems(makeCaseFile({ filingDate: '20240231' }));
    assert.deepEqual(summary(items), [[1, 'filing-date: "20240231" is not a YYYYMMDD date']]);
  });

  test('a missing or malformed serial number is an error', async () => {
    const items = await xmlItems(
      makeDailyFile([makeCaseFile({ serial: '' }), makeCaseFile({ serial: '12A' })]),
    );
    assert.deepEqual(
      summary(items).map(([, message]) => message),
      ['serial-number: missing', 'serial-number: "12A" is not an 8-digit serial'],
    );
  });

  test('an undefined entity is an error of its case-file', async () => {
    const items = await xmlItems(makeCaseFile({ mark: 'CAF&eacute;' }));
    assert.equal(items.length, 1);
    assert.match(String(summary(items)[0]?.[1]), /undefined entity/);
  });

  test('XML that is not a USPTO file stops at its root element', async () => {
    const items = await xmlItems('<?xml version="1.0"?>\n<Transaction><case-file/></Transaction>');
    assert.deepEqual(summary(items), [
      [2, 'not a USPTO trademark-applications-daily file: root element <Transaction>'],
    ]);
  });

  test('the DTD prolog alone has no root element', async () => {
    const items = await collect(
      readRecordFile(usptoFixture('tmterminal_prolog-application-v2-current.xml')),
    );
    assert.deepEqual(summary(items), [
      [
        readFixtureText(usptoFixture('tmterminal_prolog-application-v2-current.xml')).split('\n')
          .length,
        'no root element: expected <trademark-applications-daily> or <case-file>',
      ],
    ]);
  });
});

describe('reading files: compression and unknown formats', () => {
  const dir = mkdtempSync(join(tmpdir(), 'register-error-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  test('a gzip file of broken.jsonl gives the same errors at the same lines', async () => {
    const path = write('broken.jsonl.gz', gzipSync(readFileSync(BROKEN)));
    const items = await collect(readRecordFile(path));
    assertBroken(items);
    assert.ok(items.every((item) => item.file === path));
  });

  test('a truncated gzip file: the lines before the cut, then a read error', async () => {
    const sample = readFileSync(recordsFixture('sample.jsonl'));
    const big = Buffer.concat(Array.from({ length: 200 }, () => sample));
    const gz = gzipSync(big);
    const path = write('cut.jsonl.gz', gz.subarray(0, Math.floor(gz.length * 0.8)));
    const items = await collect(readRecordFile(path));
    const last = items.at(-1);
    assert.ok(last && 'error' in last, JSON.stringify(last));
    assert.match(last.error, /^read failed: /);
    assert.ok(records(items).length > 100);
  });

  const rejects = async (path: string, reason: RegExp) => {
    await assert.rejects(collect(readRecordFile(path)), (err: unknown) => {
      assert.ok(err instanceof RecordFileError);
      assert.equal(err.file, path);
      assert.match(err.reason, reason);
      return true;
    });
  };

  test('an unknown format is refused before anything is read', async () => {
    await rejects(write('notes.txt', '\n\nhello world\n'), /^unknown format: /);
  });

  test('a JSON array is refused with a hint about JSON Lines', async () => {
    await rejects(write('array.json', '[{"markText": "X"}]'), /JSON array is not JSON Lines/);
  });

  test('a ZIP archive is refused with a clear message', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]);
    await rejects(write('apc240925.zip', zip), /^ZIP archives are not supported/);
  });

  test('UTF-16 text is refused', async () => {
    await rejects(write('utf16.jsonl', Buffer.from('\uFEFF{"a":1}', 'utf16le')), /UTF-16/);
  });

  test('a missing file and a directory are refused', async () => {
    await rejects(join(dir, 'nope.jsonl'), /^file not found$/);
    await rejects(dir, /is a directory/);
  });
});

describe('memory stays bounded on large inputs', () => {
  // A forced collection before each sample measures what the reader keeps, not the garbage V8
  // has not collected yet (which alone can exceed the bound on a fast machine).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const retainedHeap = () => {
    gc();
    return process.memoryUsage().heapUsed;
  };

  test('a 50 MB JSON Lines stream is parsed with < 50 MB heap growth', async () => {
    const line = (i: number) =>
      `${JSON.stringify({
        externalId: `EM5000000${String(i).padStart(8, '0')}`,
        markText: `MARK NUMBER ${i} ${'Q'.repeat(i % 200)}`,
        ownerName: 'Memory Test Holdings B.V.',
        ownerCountryCode: 'NL',
        jurisdiction: 'EM',
        filedAt: '2020-01-01',
        status: 'registered',
        classes: [9, 35, 42],
        padding: 'p'.repeat(150),
      })}\n`;
    const target = 50 * 1024 * 1024;
    async function* generate() {
      let produced = 0;
      let i = 0;
      while (produced < target) {
        let chunk = '';
        while (chunk.length < 64 * 1024) chunk += line(i++);
        produced += chunk.length;
        yield Buffer.from(chunk);
      }
    }
    const baseline = retainedHeap();
    let peak = baseline;
    let count = 0;
    for await (const item of readJsonLines(Readable.from(generate()), 'big.jsonl')) {
      assert.ok('record' in item);
      count += 1;
      if (count % 10_000 === 0) peak = Math.max(peak, retainedHeap());
    }
    const growthMb = (peak - baseline) / 1024 / 1024;
    assert.ok(count > 100_000, `${count} records`);
    assert.ok(growthMb < 50, `heap grew by ${growthMb.toFixed(1)} MB`);
  });
  test('a 25 MB USPTO XML stream holds one case-file at a time', async () => {
    const caseFile = readFixtureText(usptoFixture('tmterminal_daily-ib-72269147.xml'));
    const copies = Math.ceil((25 * 1024 * 1024) / Buffer.byteLength(caseFile));
    async function* generate() {
      yield Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<trademark-applications-daily>\n');
      for (let i = 0; i < copies; i += 1) yield Buffer.from(caseFile);
      yield Buffer.from('</trademark-applications-daily>\n');
    }
    const baseline = retainedHeap();
    let peak = baseline;
    let count = 0;
    for await (const item of readUsptoXml(generate(), 'big.xml')) {
      assert.ok('record' in item);
      count += 1;
      if (count % 200 === 0) peak = Math.max(peak, retainedHeap());
    }
    assert.equal(count, copies);
    assert.ok(peak - baseline < 50 * 1024 * 1024, `heap grew by ${(peak - baseline) >> 20} MB`);
  });

  // The resident size, sampled while a generator streams far more than the bound: a reader that
  // accumulated the input would grow by about its size (it did: 698 MB for 1 GB of whitespace).
  const MB = 1024 * 1024;
  async function* stream(head: string, bytes: number, fill: string, tail: string) {
    yield Buffer.from(head);
    const chunk = Buffer.from(fill.repeat(Math.ceil((64 * 1024) / fill.length)));
    for (let n = 0; n < bytes; n += chunk.length) yield chunk;
    yield Buffer.from(tail);
  }
  async function rssGrowth<T>(items: AsyncIterable<T>): Promise<{ items: T[]; growthMb: number }> {
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    const out: T[] = [];
    try {
      for await (const item of items) {
        out.push(item);
        peak = Math.max(peak, process.memoryUsage.rss());
      }
    } finally {
      clearInterval(timer);
    }
    return { items: out, growthMb: (peak - baseline) / MB };
  }

  test('256 MB of whitespace between two case-files is streamed, not accumulated', async () => {
    const head = `<trademark-applications-daily>${makeCaseFile({ serial: '97000001' })}`;
    const input = stream(
      head,
      256 * MB,
      `${' '.repeat(1023)}\n`,
      `${makeCaseFile({ serial: '97000002' })}</trademark-applications-daily>`,
    );
    const { items, growthMb } = await rssGrowth(readUsptoXml(input, 'spaces.xml'));
    // The lines of the whitespace the reader let go still count: the second case-file's is right.
    const spaceLines = ((256 * MB) / (64 * 1024)) * 64;
    const second = 1 + head.split('\n').length - 1 + spaceLines;
    assert.deepEqual(summary(items), [
      [1, 'record'],
      [second, 'record'],
    ]);
    assert.ok(growthMb < 64, `resident size grew by ${growthMb.toFixed(0)} MB`);
  });

  test('an overlong text is an error of its case-file, and the next one is read', async () => {
    const overlong = makeCaseFile({ serial: '97000001', mark: 'ACME' }).replace(
      '<mark-identification>ACME',
      `<mark-identification>${'ACME '.repeat(MAX_TEXT_RUN / 4)}`,
    );
    const items = await collect(
      readUsptoXml(
        chunked(makeDailyFile([overlong, makeCaseFile({ serial: '97000002' })]), 64 * 1024),
      ),
    );
    assert.deepEqual(summary(items), [
      [6, `a text of more than ${MAX_TEXT_RUN} characters`],
      [22, 'record'],
    ]);
  });

  test('WIPO XML: 128 MB of text in one element is an error of that mark only', async () => {
    const ns = 'http://www.wipo.int/standards/XMLSchema/trademarks';
    const mark = (n: string, text: string) =>
      `<TradeMark><RegistrationOfficeCode>US</RegistrationOfficeCode><ApplicationNumber>${n}</ApplicationNumber><ApplicationDate>2020-01-01</ApplicationDate><WordMarkSpecification><MarkVerbalElementText>${text}`;
    const input = stream(
      `<Transaction xmlns="${ns}"><TradeMarkDetails>${mark('97000001', '')}`,
      128 * MB,
      'Q',
      `</MarkVerbalElementText></WordMarkSpecification></TradeMark>${mark('97000002', 'ACME')}</MarkVerbalElementText></WordMarkSpecification></TradeMark></TradeMarkDetails></Transaction>`,
    );
    const { items, growthMb } = await rssGrowth(readWipoXml(input, 'st66', 'big.xml'));
    assert.deepEqual(summary(items), [
      [1, `a text of more than ${MAX_TEXT_RUN} characters`],
      [1, 'record'],
    ]);
    assert.ok(growthMb < 64, `resident size grew by ${growthMb.toFixed(0)} MB`);
  });

  test('nesting, attributes and names past their bounds stop the file with the reason', async () => {
    const cases: [string, string][] = [
      [`<case-file>${'<a>'.repeat(20_000)}`, 'elements nested more than 10000 deep'],
      [
        `<case-file><a ${Array.from({ length: 20_000 }, (_, i) => `x${i}="1"`).join(' ')}>`,
        'an element with more than 10000 attributes',
      ],
      [`<case-file><${'n'.repeat(100_000)}>`, 'a name longer than 65536 characters'],
    ];
    for (const [xml, reason] of cases) {
      const items = await collect(readUsptoXml(chunked(xml, 16 * 1024), 'hostile.xml'));
      assert.deepEqual(summary(items), [[1, `the file holds ${reason}`]], reason);
    }
  });

  test('JSON Lines: a 128 MB line is an error of its own, in bounded memory', async () => {
    const good = JSON.stringify({
      externalId: 'EM500000018000001',
      markText: 'ACME',
      jurisdiction: 'EM',
      filedAt: '2020-01-01',
      status: null,
      classes: [],
    });
    const input = stream(`${good}\n`, 128 * MB, ' ', `\n${good}\n`);
    const { items, growthMb } = await rssGrowth(readJsonLines(input, 'long.jsonl'));
    assert.deepEqual(summary(items), [
      [1, 'record'],
      [2, `line is longer than ${MAX_LINE_BYTES} bytes`],
      [3, 'record'],
    ]);
    assert.ok(growthMb < 64, `resident size grew by ${growthMb.toFixed(0)} MB`);
  });
});
