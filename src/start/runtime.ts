import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { type Db, openDb } from '../data/db.ts';
import { openReadReplica, primaryOnly, type ReadReplica } from '../data/replica.ts';
import type { RoleContext } from './context.ts';
import { migrateDatabase } from './database.ts';

/** Opens the configured database (PGlite in DATA_DIR or PostgreSQL) and brings its schema up to date. */
export async function openDatabase(config: Config, logger: Logger): Promise<Db> {
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const migrations = await migrateDatabase(db);
    if (migrations.length > 0) logger.info({ migrations }, 'applied database migrations');
  } catch (error) {
    await db.close();
    throw error;
  }
  logger.debug({ database: db.kind }, 'database ready');
  return db;
}

/**
 * Where the scans of this process read the register mirror, or its API its lists: the standby of
 * DATABASE_REPLICA_URL (connected on first use, so a standby that is down delays nothing at
 * start), or the primary. `what` says which, in the log line.
 */
export async function openReads(
  context: RoleContext,
  what = 'scans read the register mirror',
): Promise<ReadReplica> {
  const { config, db, logger, clock } = context;
  if (config.databaseReplicaUrl === undefined) return primaryOnly(db);
  logger.info(
    { maxLagSeconds: config.replicaMaxLagSeconds },
    `${what} from the standby (DATABASE_REPLICA_URL)`,
  );
  return openReadReplica({
    primary: db,
    url: config.databaseReplicaUrl,
    maxLagSeconds: config.replicaMaxLagSeconds,
    clock,
    logger,
  });
}

/**
 * Resolves on the first SIGTERM or SIGINT, so the caller can shut down gracefully. A second signal
 * means the operator does not want to wait: the process exits at once with status 1.
 */
export function shutdownSignal(logger: Logger): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (received) {
        logger.warn({ signal }, 'second signal: exiting without waiting');
        process.exit(1);
      }
      received = true;
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/**
 * E-mail links are built from PUBLIC_URL; its default (http://localhost:PORT) only works on this
 * machine and only while the server runs on that port, so a process that sends e-mail says so.
 */
export function warnWithoutPublicUrl(config: Config, logger: Logger): void {
  if (config.publicUrlSet) return;
  logger.warn(
    { publicUrl: config.publicUrl },
    'PUBLIC_URL is not set: links in alert e-mails point at this default; set PUBLIC_URL to the address users reach the service at',
  );
}
