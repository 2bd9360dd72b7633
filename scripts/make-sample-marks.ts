// Rebuilds src/register/assets/sample-marks.jsonl, the bundled sample of real register records.
//
//   node --import tsx scripts/make-sample-marks.ts [--out path/to/sample-marks.jsonl]
//
// Inputs: the real USPTO case-files in test/fixtures/uspto/ (the single case-file XML files and the
// daily-format zip seed-11-case-files.zip), converted by the USPTO XML reader. Nothing is added to
// what the office wrote: a field the case-file does not give stays empty. Output: one normalized
// record per line, by ST.13 number. The same inputs give the same file byte for byte.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { zipEntries } from '../src/mirror/zip-entries.ts';
import { readRecordFile } from '../src/register/read-records.ts';
import type { RegisterRecord } from '../src/register/record.ts';
import { parseRegisterRecord } from '../src/register/record.ts';
import { SAMPLE_MARKS_PATH } from '../src/register/sample-marks.ts';

const USPTO_DIR = fileURLToPath(new URL('../test/fixtures/uspto/', import.meta.url));

const { values } = parseArgs({
  options: { out: { type: 'string', default: SAMPLE_MARKS_PATH } },
});

/** The USPTO records of the fixtures; of two versions of one case, the later transaction wins. */
async function usptoLines(files: string[]): Promise<Record<string, unknown>[]> {
  const latest = new Map<string, RegisterRecord>();
  for (const file of files) {
    for await (const item of readRecordFile(file)) {
      if (!('record' in item)) continue;
      const { record } = item;
      const previous = latest.get(record.externalId);
      const date = (r: RegisterRecord) => String(r.rawPayload.transactionDate ?? '');
      if (!previous || date(record) > date(previous)) latest.set(record.externalId, record);
    }
  }
  return [...latest.values()]
    .sort((a, b) => a.externalId.localeCompare(b.externalId))
    .map(({ rawPayload, goods, ...fields }) => ({
      ...fields,
      filedAt: fields.filedAt.slice(0, 10),
      registeredAt: fields.registeredAt?.slice(0, 10) ?? null,
      // The JSON Lines format's shape of the goods texts (docs/register-formats.md).
      goods: goods.map((g) => ({ class: g.niceClass, text: g.text, language: g.language })),
      provenance: rawPayload,
    }));
}

const unzipped = mkdtempSync(join(tmpdir(), 'tmwatch-sample-'));
try {
  const xml = readdirSync(USPTO_DIR)
    .filter((name) => name.endsWith('.xml'))
    .sort()
    .map((name) => join(USPTO_DIR, name));
  // Each entry is removed when the next is extracted: the seed's are kept as copies.
  const seed: string[] = [];
  for await (const entry of zipEntries(join(USPTO_DIR, 'seed-11-case-files.zip'), unzipped)) {
    const kept = join(unzipped, `seed-${seed.length + 1}.xml`);
    copyFileSync(entry.path, kept);
    seed.push(kept);
  }
  const lines = await usptoLines([...xml, ...seed]);
  for (const line of lines) {
    const result = parseRegisterRecord(line);
    if (!result.ok) throw new Error(`${String(line.externalId)}: ${result.error}`);
  }
  writeFileSync(values.out, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  process.stderr.write(`wrote ${lines.length} records to ${values.out}\n`);
} finally {
  rmSync(unzipped, { recursive: true, force: true });
}
