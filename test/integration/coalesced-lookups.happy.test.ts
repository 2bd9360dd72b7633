import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/data/db.ts';
import { createPrincipalLookup } from '../../src/data/repositories/accounts.ts';
import { createWatchJsonLookup } from '../../src/data/repositories/watches.ts';
import { createAccountService } from '../../src/domain/accounts.ts';
import { hashApiKey } from '../../src/domain/api-keys.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories, principalFor } from '../helpers/factories.ts';

// Lookups asked for together go to the database as one statement (src/data/coalesce.ts), and each
// caller gets its own row (or null), never a neighbour's.
describe('coalesced lookups: concurrent lookups share a statement', () => {
  let database: TestDatabase;
  let statements = 0;
  let counting: Queryable;
  before(async () => {
    database = await createTestDatabase();
    const db = database.db;
    counting = {
      query: (text, params) => {
        statements += 1;
        return db.query(text, params);
      },
      queryBytes: (text, params) => db.queryBytes(text, params),
      exec: (script) => db.exec(script),
      copyFrom: (target, data) => db.copyFrom(target, data),
    };
  });
  after(() => database.drop());

  describe('API keys by hash', () => {
    it('20 lookups in one turn of the event loop: one statement, each its own answer', async () => {
      const accounts = createAccountService(database.db);
      const keys = [];
      for (let i = 0; i < 6; i += 1) {
        const user = await accounts.createUser({ email: `lookup${i}@example.com`, tier: 'team' });
        keys.push(
          await accounts.createKey({ userId: user.id, name: `k${i}`, scopes: ['alerts:read'] }),
        );
      }
      const [revoked] = keys.splice(5, 1);
      if (!revoked) throw new Error('no key');
      await accounts.revokeKey(revoked.id);
      const lookup = createPrincipalLookup(counting);
      const asked = [
        ...keys.map((k) => ({ hash: hashApiKey(k.key), keyId: k.id as string | null })),
        ...keys.map((k) => ({ hash: hashApiKey(k.key), keyId: k.id as string | null })),
        { hash: hashApiKey(revoked.key), keyId: null },
        ...Array.from({ length: 9 }, (_, i) => ({
          hash: hashApiKey(`tmw_unknown_${i}`),
          keyId: null,
        })),
      ];
      assert.equal(asked.length, 20);
      statements = 0;
      const answers = await Promise.all(asked.map((a) => lookup(a.hash)));
      assert.equal(statements, 1);
      assert.deepEqual(
        answers.map((row) => row?.keyId ?? null),
        asked.map((a) => a.keyId),
      );
      for (const [i, row] of answers.entries()) {
        if (row) assert.equal(row.userId, keys[i % keys.length]?.userId);
      }
    });

    it('lookups in different turns each read the database again: a revocation in between counts', async () => {
      const accounts = createAccountService(database.db);
      const user = await accounts.createUser({ email: 'again@example.com', tier: 'team' });
      const key = await accounts.createKey({ userId: user.id, name: 'k', scopes: [] });
      const lookup = createPrincipalLookup(counting);
      statements = 0;
      assert.equal((await lookup(hashApiKey(key.key)))?.keyId, key.id);
      await accounts.revokeKey(key.id);
      assert.equal(await lookup(hashApiKey(key.key)), null);
      assert.equal(statements, 2);
    });
  });

  describe('watches by id', () => {
    it('each (owner, id) pair gets its own watch, or null when that owner does not own it', async () => {
      const make = factories(database.db);
      const owners: string[] = [];
      const made: { ownerId: string; id: string }[] = [];
      for (let i = 0; i < 3; i += 1) {
        const user = await make.accounts.createUser({
          email: `owner${i}@example.com`,
          tier: 'team',
        });
        owners.push(user.id);
        for (let n = 0; n < 3; n += 1) {
          const { id } = await make.makeWatch(principalFor(user, 'team'), { name: `Brand ${n}` });
          made.push({ ownerId: user.id, id });
        }
      }
      const lookup = createWatchJsonLookup(counting);
      const asked = made.flatMap((watch, n) => [
        { key: watch, own: true },
        {
          key: { ownerId: owners[(owners.indexOf(watch.ownerId) + 1) % 3] ?? '', id: watch.id },
          own: false,
        },
        ...(n === 0 ? [{ key: { ownerId: watch.ownerId, id: 'wat_none' }, own: false }] : []),
      ]);
      statements = 0;
      const answers = await Promise.all(asked.map((a) => lookup(a.key)));
      assert.equal(statements, 1);
      for (const [i, json] of answers.entries()) {
        const a = asked[i];
        if (a?.own)
          assert.equal((JSON.parse(json ?? 'null') as { id: string } | null)?.id, a.key.id);
        else assert.equal(json, null);
      }
    });
  });
});
