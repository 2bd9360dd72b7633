import type { Db } from '../data/db.ts';
import { countUsers } from '../data/repositories/accounts.ts';
import { countMarks, countMarksByOffice } from '../data/repositories/marks.ts';
import { createAccountService } from '../domain/accounts.ts';
import { SCOPES } from '../domain/api-keys.ts';
import { randomBase62 } from '../domain/ids.ts';
import { importRecordFiles } from '../mirror/import.ts';
import { FEEDS } from '../register/feeds.ts';
import { officeName } from '../register/office-names.ts';
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

/**
 * The bundled sample of real records, so that a newcomer's first watch finds something; then what
 * the mirror holds, per office, and how to load a real register: a newcomer must not take 21
 * sample records for the register their watches are scanned against.
 */
export const sampleMarksStep: FirstStartStep = {
  name: 'register sample',
  async run({ db }) {
    const sample =
      (await countMarks(db)) > 0 ? null : await importRecordFiles(db, [SAMPLE_MARKS_PATH]);
    return [
      ...(sample === null
        ? []
        : [
            `Loaded ${sample.imported} sample trademark records (real USPTO cases: a sample, not a register) into the register mirror.`,
          ]),
      ...mirrorLines(await countMarksByOffice(db), sample !== null),
      ...realRegisterLines(),
    ];
  },
};

/** "The register mirror holds 21 records: 21 from the USPTO (US), the bundled sample." */
function mirrorLines(offices: { jurisdiction: string; n: number }[], sample: boolean): string[] {
  const total = offices.reduce((sum, o) => sum + o.n, 0);
  const from = offices
    .map((o) => `${o.n} from the ${officeName(o.jurisdiction)} (${o.jurisdiction})`)
    .join(', ');
  const where = sample ? ', the bundled sample' : '';
  return [
    total === 0
      ? 'The register mirror holds no records.'
      : `The register mirror holds ${total} ${total === 1 ? 'record' : 'records'}: ${from}${where}.`,
  ];
}

/**
 * The one command that loads a real register, with a feed that needs no key (an official location
 * and neither an API key nor anything else to set), and the others with what they want.
 */
function realRegisterLines(): string[] {
  const free = FEEDS.filter((f) => f.defaultUrl !== null && !f.apiKey && !f.needs);
  const others = FEEDS.filter((f) => !free.includes(f));
  const first = free[0];
  if (first === undefined) return [];
  return [
    `To load a real register (no key needed: ${free.map((f) => f.name).join(', ')}), stop the server and run:`,
    `  tmwatch registers sync --feed ${first.name}`,
    `  then start with REGISTER_FEEDS=${first.name} to keep it current every day.`,
    `  The other feeds want a key, a mirror or credentials: ${others.map((f) => `${f.name} (${wants(f)})`).join(', ')}.`,
  ];
}

/** What a feed wants before it can sync from its office. */
function wants(feed: (typeof FEEDS)[number]): string {
  if (feed.apiKey) return feed.apiKey.variable;
  if (feed.defaultUrl === null) return 'the URL of a mirror';
  return 'API credentials';
}

/**
 * Run in this order on the first start. "First" means the embedded database has no user yet, so
 * the demo account, which creates the first user, must stay the last step: a start that fails
 * in an earlier step is retried in full on the next start. (Loading the register sample goes
 * before it.)
 */
export const firstStartSteps: readonly FirstStartStep[] = [sampleMarksStep, demoAccountStep];
