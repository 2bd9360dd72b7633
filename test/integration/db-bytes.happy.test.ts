import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// Db.queryBytes hands the API's JSON to the response as the bytes the driver received: they must
// be exactly the UTF-8 encoding of the text, on both drivers, in the statement's row order.
describe('Db.queryBytes', () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
    db = database.db;
  });
  after(() => database.drop());

  const texts = ['{"a":"plain"}', '{"name":"Ünïcødé ЖΩ 中文 🙂"}', '', '{"tab":"\\t","nl":"\\n"}'];

  it('returns each row’s first column as its exact UTF-8 bytes, in order', async () => {
    const rows = await db.queryBytes(
      'SELECT t, n FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n',
      [texts],
    );
    assert.deepEqual(
      rows.map((bytes) => bytes.toString('hex')),
      texts.map((text) => Buffer.from(text, 'utf8').toString('hex')),
    );
  });

  it('works inside a transaction too', async () => {
    const rows = await db.transaction((tx) => tx.queryBytes("SELECT 'ЖΩ'::text"));
    assert.deepEqual(rows, [Buffer.from('ЖΩ')]);
  });

  it('refuses a NULL first column instead of sending a broken body', async () => {
    await assert.rejects(db.queryBytes('SELECT NULL::text'), /non-NULL text/);
  });
});
