import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { buildApp } from '../app.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';
import { RedisRateLimitStore } from '../http/rate-limit/redis-store.ts';
import { MemoryRateLimitStore, type RateLimitStore } from '../http/rate-limit/store.ts';
import { logFailure } from '../outage.ts';
import { withTimeout } from '../timeout.ts';
import { startScheduler } from './background.ts';
import { firstStartSteps, isFirstStart, runFirstStart } from './first-start.ts';
import { openDatabase, openReads, shutdownSignal, warnWithoutPublicUrl } from './runtime.ts';

/**
 * How long in-flight requests get to finish after SIGTERM before their connections are cut. Below
 * the 30 s most process managers (Kubernetes, systemd, Docker) wait before they kill.
 */
export const SHUTDOWN_GRACE_MS = 25_000;

const REDIS_CONNECT_TIMEOUT_MS = 5_000;

export type RunningServer = {
  app: FastifyInstance;
  db: Db;
  /** Where the server answers, e.g. http://localhost:3000. */
  url: string;
  /** Lines for the console from the first start (empty on later starts). */
  firstStart: string[];
  /** Stops accepting, lets in-flight requests finish, then closes scheduler, Redis and database. */
  close(): Promise<void>;
};

/** Fails fast, with one clear message, when Redis is not there at start. */
async function checkRedis(url: string): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // Without a listener ioredis prints every failure itself; the message below says it once.
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await withTimeout(
      client.connect().then(() => client.ping()),
      REDIS_CONNECT_TIMEOUT_MS,
      'no answer',
    );
  } catch (error) {
    const cause = lastError ?? (error as Error);
    throw new Error(`cannot reach Redis (REDIS_URL): ${cause.message}`);
  } finally {
    client.disconnect();
  }
}

async function openRateLimitStore(config: Config, logger: Logger): Promise<RateLimitStore> {
  if (!config.redisUrl) return new MemoryRateLimitStore();
  await checkRedis(config.redisUrl);
  return new RedisRateLimitStore(config.redisUrl, (error) =>
    logger.warn(
      { reason: error.message },
      'Redis connection trouble; rate-limited requests fail until it is back',
    ),
  );
}

function displayUrl(config: Config, address: AddressInfo): string {
  // A wildcard address is reachable as localhost from this machine, which is what a reader wants.
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${address.port}`;
}

/** The API and dashboard on HOST:PORT, with the scheduler when it is on. Does not handle signals. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logFailure(logger, error, {}, 'error while shutting down');
      }
    }
  };
  try {
    const db = await openDatabase(config, logger);
    cleanups.push(() => db.close());
    const rateLimit = await openRateLimitStore(config, logger);
    cleanups.push(() => rateLimit.close());
    const context = { config, db, logger, clock: systemClock };
    const reads = await openReads(context, 'the API reads its lists');
    cleanups.push(() => reads.close());
    const app = await buildApp({
      db,
      reads,
      logger,
      rateLimit,
      rateLimitPerMinute: config.rateLimitPerMinute,
      alertListCacheBytes: config.alertListCacheBytes,
      webhookAllowPrivateUrls: config.webhookAllowPrivateUrls,
      publicUrl: config.publicUrl,
      clock: systemClock,
      trustProxy: config.trustProxy,
      requestTimeoutMs: config.requestTimeoutMs,
      maxConnections: config.maxConnections,
      statementTimeoutMs: config.statementTimeoutMs,
      failedAuthPerMinute: config.failedAuthPerMinute,
      scanPollSeconds: config.scanPollSeconds,
    });
    // Closing the app stops accepting connections and waits for the requests in flight.
    cleanups.push(async () => {
      const closed = app.close();
      // Fastify closes the connections idle at this moment; a keep-alive connection whose request
      // was still in flight would then linger until its keep-alive timeout, so close such
      // connections as soon as their response is out.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
      try {
        await closed;
      } finally {
        clearInterval(sweep);
      }
    });
    await app.listen({ port: config.port, host: config.host });
    const url = displayUrl(config, app.server.address() as AddressInfo);

    const firstStart = (await isFirstStart(db))
      ? await runFirstStart({ ...context, baseUrl: url }, firstStartSteps)
      : [];

    if (config.scheduler) {
      const scheduler = startScheduler(context);
      // Stopped first: no scan starts while the server drains.
      cleanups.push(() => scheduler.stop());
    }
    return { app, db, url, firstStart, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** `tmwatch serve`: runs until SIGTERM or SIGINT, then shuts down gracefully. Returns the exit status. */
export async function runServe(config: Config, logger: Logger): Promise<number> {
  const signal = shutdownSignal(logger);
  warnWithoutPublicUrl(config, logger);
  const server = await startServer(config, logger);
  logger.info(
    { url: server.url, database: server.db.kind },
    `Trademark Watch listening on ${server.url}`,
  );
  // The banner is for the person at the console; stdout stays free like for every command.
  const banner = [`Trademark Watch is running at ${server.url}`, ...server.firstStart];
  process.stderr.write(`\n${banner.join('\n')}\n\n`);

  const received = await signal;
  logger.info({ signal: received }, 'shutting down: finishing the requests in flight');
  let status = 0;
  const deadline = setTimeout(() => {
    logger.error(
      { graceMs: SHUTDOWN_GRACE_MS },
      'requests still in flight: closing their connections',
    );
    status = 1;
    server.app.server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  deadline.unref();
  await server.close();
  clearTimeout(deadline);
  logger.info('stopped');
  return status;
}
