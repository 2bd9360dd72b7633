import type { Db } from '../data/db.ts';
import { countUsers } from '../data/repositories/accounts.ts';
import { countMarks } from '../data/repositories/marks.ts';
import { createAccountService } from '../domain/accounts.ts';
import { SCOPES } from '../domain/api-keys.ts';
import { randomBase62 } from '../domain/ids.ts';
import { importRecordFiles } from '../mirror/import.ts';
import { SAMPLE_MARKS_PATH } from '../register/sample-marks.ts';
import type { RoleContext } from './context.ts';

/** What a first-start step also knows: the address the server answers on. */
export type FirstStartContext = RoleContext & { baseUrl: string };

/**
 * A step of the first start of an empty embedded database, run by `serve` once it listens.
 * The lines it returns are printed in the console banner.
 */
export type FirstStartStep = { name: string; run(context: FirstStartContext): Promise<string[]> };

export const DEMO_EMAIL = 'demo@example.com';

/**
 * A first start is a start of `serve` on an embedded database without any user: someone trying the
 * service with `npm start`. A PostgreSQL installation is set up by its operator with the CLI
 * instead, and several servers may start on it at once, so it never gets a demo account.
 */
export async function isFirstStart(db: Db): Promise<boolean> {
  return db.kind === 'pglite' && (await countUsers(db)) === 0;
}

/** Runs the steps in order and returns the banner lines they produced. */
export async function runFirstStart(
  context: FirstStartContext,
  steps: readonly FirstStartStep[],
): Promise<string[]> {
  const lines: string[] = [];
  for (const step of steps) {
    context.logger.info({ step: step.name }, 'first start');
    lines.push(...(await step.run(context)));
  }
  return lines;
}

/** A Team user who can log in to the dashboard and an API key with every scope. */
export const demoAccountStep: FirstStartStep = {
  name: 'demo account',
  async run({ db, baseUrl }) {
    const accounts = createAccountService(db);
    const password = randomBase62(16);
    const user = await accounts.createUser({ email: DEMO_EMAIL, password, tier: 'team' });
    const key = await accounts.createKey({ userId: user.id, name: 'demo', scopes: [...SCOPES] });
    return [
      'A demo account was created (shown only this once):',
      `  Dashboard:  ${baseUrl}/`,
      `  Login:      ${DEMO_EMAIL}`,
      `  Password:   ${password}`,
      `  API key:    ${key.key}   (Team plan, all scopes)`,
      `  Try it:     curl -H "Authorization: Bearer ${key.key}" ${baseUrl}/api/v1/me`,
      `  Lost it?    tmwatch users update ${user.id} --password NEW  (with the server stopped)`,
    ];
  },
};

/** The bundled sample of real records, so that a newcomer's first watch finds something. */
export const sampleMarksStep: FirstStartStep = {
  name: 'register sample',
  async run({ db }) {
    if ((await countMarks(db)) > 0) return [];
    const summary = await importRecordFiles(db, [SAMPLE_MARKS_PATH]);
    return [
      `Loaded ${summary.imported} sample trademark records (real USPTO cases: a sample, not a register) into the register mirror.`,
    ];
  },
};

/**
 * Run in this order on the first start. "First" means the embedded database has no user yet, so
 * the demo account, which creates the first user, must stay the last step: a start that fails
 * in an earlier step is retried in full on the next start. (Loading the register sample goes
 * before it.)
 */
export const firstStartSteps: readonly FirstStartStep[] = [sampleMarksStep, demoAccountStep];
