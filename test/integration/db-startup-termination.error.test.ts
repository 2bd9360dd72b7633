import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Db, openDb } from '../../src/data/db.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { postgresOnly } from '../helpers/postgres-only.ts';

// A connection whose backend is terminated while it starts up: postgres.js asks each new
// connection for the server's array types before it runs the first statement, and a termination
// at that moment (a failover, a restart, pg_terminate_backend while the pool refills) left the
// driver's own query unanswered. On the next connection it then failed the caller's statement with
// the dead backend's error and raised an unhandled rejection, which ends a Node process
// (porsager/postgres#1192, #1223; patches/postgres+3.4.9.patch). A proxy in front of the real
// server plays the termination at exactly that moment: it answers the driver's array-types query
// with the ErrorResponse pg_terminate_backend sends, then closes the connection.

/** The FATAL ErrorResponse of a backend terminated by pg_terminate_backend (SQLSTATE 57P01). */
function terminationMessage(): Buffer {
  const fields = [
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '57P01'],
    ['M', 'terminating connection due to administrator command'],
  ];
  const body = Buffer.concat([
    ...fields.map(([code, text]) => Buffer.from(`${code}${text}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A TCP proxy to the server that terminates the first connection at its array-types query. */
async function terminatingProxy(target: URL) {
  const sockets = new Set<Socket>();
  let connections = 0;
  let terminated = 0;
  const server: Server = createServer((client) => {
    const n = ++connections;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    for (const s of [client, upstream]) {
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk) => {
      if (n === 1 && chunk.includes('typcategory')) {
        terminated++;
        client.end(terminationMessage());
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    stats: () => ({ connections, terminated }),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a connection terminated while it starts up', {
  skip: postgresOnly('a proxy in front of the PostgreSQL server'),
}, () => {
  let database: TestDatabase;
  let proxy: Awaited<ReturnType<typeof terminatingProxy>>;
  let db: Db | undefined;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);

  before(async () => {
    database = await createTestDatabase({ migrated: false });
    proxy = await terminatingProxy(new URL(database.url as string));
    process.on('unhandledRejection', record);
  });
  after(async () => {
    process.off('unhandledRejection', record);
    await db?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('runs the first statement on a new connection, with arrays parsed, and leaves no unhandled rejection', async () => {
    const url = new URL(database.url as string);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    db = await openDb({ databaseUrl: url.toString(), dataDir: '' });
    const rows = await db.query<{ one: number; xs: number[] }>(
      'SELECT 1 AS one, ARRAY[2, 3]::int4[] AS xs',
    );
    assert.deepEqual(proxy.stats(), { connections: 2, terminated: 1 });
    assert.deepEqual(rows, [{ one: 1, xs: [2, 3] }]);
    // An unhandled rejection is reported once the microtasks of its turn have run: two turns of
    // the event loop later, any would have been.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      unhandled.map((reason) => String((reason as { code?: string }).code ?? reason)),
      [],
    );
  });
});
