import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Db, openDb } from '../../src/data/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// DATABASE_URL may name a Unix-domain socket directory as libpq does (`?host=/dir`); the service
// must then connect through that socket, not send `host` to the server as a setting.
describe('PostgreSQL over a Unix-domain socket (DATABASE_URL ?host=/dir)', {
  skip: !process.env.DATABASE_URL && 'DATABASE_URL is not set',
}, () => {
  let database: TestDatabase;
  let socketDir: string | undefined;
  before(async () => {
    database = await createTestDatabase({ migrated: false });
    const [row] = await database.db.query<{ dirs: string }>(
      "SELECT current_setting('unix_socket_directories') AS dirs",
    );
    socketDir = row?.dirs
      .split(',')
      .map((dir) => dir.trim())
      .find((dir) => dir.startsWith('/') && existsSync(dir));
  });
  after(() => database.drop());

  it('connects through the socket to the database the URL names', async (t) => {
    if (!socketDir || !database.url) return t.skip('the server has no Unix-domain socket here');
    const url = new URL(database.url);
    url.hostname = 'localhost';
    url.searchParams.set('host', socketDir);
    const db: Db = await openDb({ databaseUrl: url.toString(), dataDir: '' });
    try {
      const [row] = await db.query<{ tcp: boolean; name: string }>(
        'SELECT inet_server_addr() IS NOT NULL AS tcp, current_database() AS name',
      );
      assert.deepEqual(row, { tcp: false, name: url.pathname.slice(1) });
    } finally {
      await db.close();
    }
  });

  it('the same URL without ?host reaches the server over TCP', async () => {
    const [row] = await database.db.query<{ tcp: boolean }>(
      'SELECT inet_server_addr() IS NOT NULL AS tcp',
    );
    assert.equal(row?.tcp, true);
  });
});
