import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRegisterRecord, parseWithSchema } from '../../src/register/record.ts';

// parseRegisterRecord checks the common record by hand and leaves the rest to the Zod schema: for
// every input both must give the same record, or the same error message.

const base: Record<string, unknown> = {
  externalId: 'EM500000018127518',
  markText: 'YAYBYC',
  ownerName: 'Big Real Ltd',
  ownerCountryCode: 'DK',
  jurisdiction: 'EM',
  filedAt: '2019-09-23',
  registeredAt: '2020-01-02',
  expiresAt: '2030-01-02',
  status: 'registered',
  classes: [9, 42],
};

const texts: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  '  ACME  ',
  'X'.repeat(50),
  'X'.repeat(51),
  'X'.repeat(100),
  'X'.repeat(101),
  'X'.repeat(1000),
  'X'.repeat(1001),
  // Longer than the limit in UTF-16 units, not in code points: Zod counts code points.
  '😀'.repeat(60),
  '😀'.repeat(501),
  'A\r\nB',
  'A\u0085B',
  'A\u202EB',
  'A\u2028B',
  '\u00A0Ünïcödé\u00A0',
  5,
  [],
];
const codes: unknown[] = [undefined, null, '', 'DE', 'de', ' DE', 'EU', 'EM', 'WO', 'XX', 'xx'];
const moreCodes: unknown[] = ['D', 'DEU', 'Dé', 'ß', 1, 'A1'];
const dates: unknown[] = [
  undefined,
  null,
  '',
  '2024-02-29',
  '2023-02-29',
  '0099-01-01',
  '2024-01-01T10:00',
  '2024-01-01T10:00:00.123456+02:00',
  '2024-1-1',
  ' 2024-01-01',
  '2024-04-31',
  20240101,
];
const classLists: unknown[] = [
  undefined,
  null,
  [],
  [45, 1, 1],
  [1, 2, 3],
  [0],
  [46],
  [1.5],
  ['1'],
  [null],
  'x',
];
const designations: unknown[] = [
  undefined,
  null,
  [],
  ['DE'],
  ['FR', 'DE', 'FR'],
  ['EU'],
  ['de'],
  'DE',
  [1],
];
const urls: unknown[] = [
  undefined,
  null,
  '',
  'http://example.com/a.png',
  ' https://example.com/x ',
  'ftp://example.com',
  'notaurl',
  `https://${'a'.repeat(2000)}.com`,
];

const goodsLists: unknown[] = [
  undefined,
  null,
  [],
  'x',
  [null],
  [{ class: 9, text: 'Software', language: 'en' }],
  [{ class: 9, text: 'Software' }],
  [{ class: 9, text: 'Software', language: null }],
  [{ class: 9, text: ' Software ', language: 'EN' }],
  [{ class: 9, text: 'Software', language: 'english' }],
  [{ class: 9, text: 'a\nb' }],
  [{ class: 9, text: '' }],
  [{ class: 0, text: 'x' }],
  [{ class: '9', text: 'x' }],
  [{ class: 9, text: 'X'.repeat(100_001) }],
  [{ class: 9, text: 5 }],
  [
    { class: 42, text: 'SaaS', language: 'en' },
    { class: 9, text: 'Logiciels', language: 'fr' },
  ],
];

const variants: Record<string, unknown[]> = {
  externalId: texts,
  markText: texts,
  ownerName: texts,
  status: texts,
  ownerCountryCode: [...codes, ...moreCodes],
  jurisdiction: [...codes, ...moreCodes],
  designations,
  filedAt: dates,
  registeredAt: dates,
  expiresAt: dates,
  publishedAt: dates,
  classes: classLists,
  logoUrl: urls,
  goods: goodsLists,
};

function assertSame(input: Record<string, unknown>) {
  assert.deepEqual(
    parseRegisterRecord(input),
    parseWithSchema(input, input),
    JSON.stringify(input),
  );
}

describe('parseRegisterRecord: its fast path agrees with the schema', () => {
  test('each field given each kind of value, absent or null', () => {
    for (const [field, values] of Object.entries(variants)) {
      for (const value of values) {
        const input = { ...base, [field]: value };
        if (value === undefined) delete input[field];
        assertSame(input);
      }
    }
  });

  test('designations with and without jurisdiction WO', () => {
    for (const jurisdiction of ['WO', 'EM']) {
      for (const value of designations) assertSame({ ...base, jurisdiction, designations: value });
    }
  });

  test('an accepted record keeps the object read as its raw payload', () => {
    const result = parseRegisterRecord(base);
    assert.ok(result.ok);
    assert.equal(result.record.rawPayload, base);
  });
});
