import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { connectPostgres, type Db, openDb } from '../../src/data/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';

// DATABASE_URL may name a Unix-domain socket directory as libpq does (`?host=/dir`); the service
// must then connect through that socket, not send `host` to the server as a setting.
describe('PostgreSQL over a Unix-domain socket (DATABASE_URL ?host=/dir)', {
  skip: postgresOnly('a Unix-domain socket of a PostgreSQL server'),
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

// connectPostgres reads only the query string: the authority goes to postgres.js as it was given.
describe('connectPostgres: URLs postgres.js accepts stay accepted', () => {
  it('a multi-host URL (which WHATWG URL refuses) still opens a client', async () => {
    const sql = connectPostgres('postgres://user@db1.invalid:5432,db2.invalid:5433/app', {
      max: 1,
    });
    try {
      assert.deepEqual(sql.options.host, ['db1.invalid', 'db2.invalid']);
      assert.deepEqual(sql.options.port, [5432, 5433]);
    } finally {
      await sql.end();
    }
  });

  it('?host=/dir becomes the socket path and the other parameters stay', async () => {
    const sql = connectPostgres(
      'postgres://user@localhost:5433/app?host=/tmp/sockets&application_name=probe',
      {
        max: 1,
      },
    );
    try {
      assert.equal(sql.options.path, '/tmp/sockets/.s.PGSQL.5433');
      assert.equal(sql.options.database, 'app');
      assert.equal(sql.options.connection.application_name, 'probe');
    } finally {
      await sql.end();
    }
  });
});
