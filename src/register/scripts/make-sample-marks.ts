// Rebuilds src/register/assets/sample-marks.jsonl, the bundled sample of real register records.
//
//   node --import tsx src/register/scripts/make-sample-marks.ts \
//     --euipo path/to/Trademark2020_validation.json [--out path/to/sample-marks.jsonl]
//
// Inputs: the real USPTO case-files in test/fixtures/uspto/ (converted by the USPTO XML reader)
// and the EUIPO dataset file named by --euipo (where to get it: src/register/assets/README.md).
// Output: one normalized record per line, US records first, then EM records by EUTM number.
// The same inputs give the same file byte for byte.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readRecordFile } from '../read-records.ts';
import type { RegisterRecord } from '../record.ts';
import { parseRegisterRecord } from '../record.ts';
import { type EuipoDatasetEntry, euipoSampleLines, SAMPLE_MARKS_PATH } from '../sample-marks.ts';

const EUIPO_TARGET = 300;
const USPTO_DIR = fileURLToPath(new URL('../../../test/fixtures/uspto/', import.meta.url));

const { values } = parseArgs({
  options: { euipo: { type: 'string' }, out: { type: 'string', default: SAMPLE_MARKS_PATH } },
});
if (!values.euipo) {
  process.stderr.write('usage: make-sample-marks.ts --euipo Trademark2020_validation.json\n');
  process.exit(2);
}

/** The USPTO records of the fixtures; of two versions of one case, the later transaction wins. */
async function usptoLines(): Promise<Record<string, unknown>[]> {
  const latest = new Map<string, RegisterRecord>();
  const files = readdirSync(USPTO_DIR).filter((name) => name.endsWith('.xml'));
  for (const name of files.sort()) {
    for await (const item of readRecordFile(join(USPTO_DIR, name))) {
      if (!('record' in item)) continue;
      const { record } = item;
      const previous = latest.get(record.externalId);
      const date = (r: RegisterRecord) => String(r.rawPayload.transactionDate ?? '');
      if (!previous || date(record) > date(previous)) latest.set(record.externalId, record);
    }
  }
  return [...latest.values()]
    .sort((a, b) => a.externalId.localeCompare(b.externalId))
    .map(({ rawPayload, ...fields }) => ({
      ...fields,
      filedAt: fields.filedAt.slice(0, 10),
      registeredAt: fields.registeredAt?.slice(0, 10) ?? null,
      provenance: rawPayload,
    }));
}

const dataset = JSON.parse(readFileSync(values.euipo, 'utf8')) as Record<string, EuipoDatasetEntry>;
const lines = [...(await usptoLines()), ...euipoSampleLines(dataset, EUIPO_TARGET)];
for (const line of lines) {
  const result = parseRegisterRecord(line);
  if (!result.ok) throw new Error(`${String(line.externalId)}: ${result.error}`);
}
writeFileSync(values.out, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
process.stderr.write(`wrote ${lines.length} records to ${values.out}\n`);
