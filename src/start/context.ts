import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';

/** What every process role is given: configuration, the open (migrated) database, the logger, the clock. */
export type RoleContext = { config: Config; db: Db; logger: Logger; clock: Clock };

/** Something running in the background of a process; stopped before the database closes. */
export type BackgroundTask = { stop(): Promise<void> };
