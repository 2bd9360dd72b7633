// The benchmark's server process: the real app (buildApp) on a seeded database, and beside it a
// bare Fastify route that answers the same JSON body from memory. Its own process, so that the
// load generator does not share its event loop and so that it can be profiled on its own.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { openDb } from '../../src/data/db.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { createLogger } from '../../src/logger.ts';
import { migrateDatabase } from '../../src/start/database.ts';
import type { FromServer, ServerConfig, ToServer } from './protocol.ts';
import { seed } from './seed.ts';

function send(message: FromServer) {
  process.send?.(message);
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

async function main() {
  const raw = process.env.BENCH_SERVER;
  if (!raw || !process.send) throw new Error('bench/api/server.ts is started by bench/api.ts');
  const config = JSON.parse(raw) as ServerConfig;

  const db = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    maxConnections: config.poolSize,
  });
  await migrateDatabase(db);
  const seeded = await seed(db, config.seed, (line) => send({ type: 'progress', line }));
  const version = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");

  const logger = createLogger(
    config.logLevel,
    pino.destination({ dest: config.logFile, sync: true }),
  );
  const rateLimit = new MemoryRateLimitStore();
  const app = await buildApp({
    db,
    logger,
    rateLimit,
    rateLimitPerMinute: config.rateLimitPerMinute,
    alertListCacheBytes: config.alertListCacheBytes,
  });
  const port = await listen(app);

  // The baseline: the body of a real GET /alerts?limit=50, captured once, answered from memory.
  const first = seeded.users[0];
  if (!first) throw new Error('nothing seeded');
  const captured = await app.inject({
    method: 'GET',
    url: '/api/v1/alerts?limit=50',
    headers: { authorization: `Bearer ${first.key}` },
  });
  if (captured.statusCode !== 200) {
    throw new Error(`GET /api/v1/alerts answered ${captured.statusCode}: ${captured.body}`);
  }
  const body = captured.body;
  const bare = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  bare.get('/bare', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(body),
  );
  const barePort = await listen(bare);

  let session: Session | undefined;
  process.on('message', (message: ToServer) => {
    void (async () => {
      switch (message.type) {
        case 'log-level':
          logger.level = message.level;
          break;
        case 'profile-start':
          session = new Session();
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.start');
          break;
        case 'profile-stop': {
          if (!session) break;
          const { profile } = await session.post('Profiler.stop');
          writeFileSync(message.file, JSON.stringify(profile));
          session.disconnect();
          session = undefined;
          break;
        }
        case 'stop':
          // A load run ends by dropping its connections; let the requests still being handled
          // finish before the database closes under them.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          await bare.close();
          await app.close();
          await rateLimit.close();
          await db.close();
          send({ type: 'done', request: message.type });
          process.disconnect();
          return;
      }
      send({ type: 'done', request: message.type });
    })().catch((error: unknown) => send({ type: 'failed', message: String(error) }));
  });

  send({
    type: 'ready',
    port,
    barePort,
    users: seeded.users,
    counts: seeded.counts,
    seedSeconds: seeded.seconds,
    bodyBytes: Buffer.byteLength(body),
    databaseVersion: version[0]?.v ?? 'unknown',
  });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  // The benchmark ends this process when it hears of the failure; exit anyway if it cannot hear.
  if (
    !process.send?.({ type: 'failed', message } satisfies FromServer, undefined, {}, () =>
      process.exit(1),
    )
  )
    process.exit(1);
});
