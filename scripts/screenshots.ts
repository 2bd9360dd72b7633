// Makes the review desk's screenshots in docs/ (README.md, docs/dashboard.md) again.
//
//   node --import tsx scripts/screenshots.ts      (npm run docs:screenshots)
//
// Starts the service in-process on an embedded in-memory database, as the browser tests do, loads
// real register records (the bundled USPTO sample and the EUIPO bulk fixtures), makes one user with
// a few watches, scans them with a clock standing on TODAY, signs in with Debian's chromium (or
// CHROMIUM_PATH) through playwright-core and writes docs/review-desk.png (1280 px) and
// docs/review-desk-phone.png (390 px). Nothing is left behind but the two images.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { createLogger } from '../src/logger.ts';
import { importRecordFiles } from '../src/mirror/import.ts';
import { createScanner } from '../src/scan/scanner.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.ts';
import { clockAt } from '../test/helpers/clock.ts';
import { importRecords } from '../test/helpers/register.ts';
import { startTestServer, type TestServer } from '../test/helpers/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = join(ROOT, 'docs');
const SAMPLE = join(ROOT, 'src/register/assets/sample-marks.jsonl');
const EUIPO_BULK = join(ROOT, 'test/fixtures/euipo-bulk');
const PASSWORD = 'correct horse battery staple';
const EMAIL = 'paralegal@example.test';
// "Today" of the pictures: THE ELLINGTON AT OVIEDO PARK, published on 2024-05-14, is still open
// to opposition, and every other window of the sample has closed.
const TODAY = '2024-06-01T09:00:00.000Z';
// The watches start looking on this day: what the office had before is an existing mark, what it
// filed or published since is a new filing.
const WATCHES_SINCE = '2024-01-15T09:00:00Z';
const WATCHES = [
  { name: 'Tusimple', niceClasses: [9, 12, 39, 42], designations: ['US'] },
  { name: 'Ellington Park', niceClasses: [36], designations: ['US'] },
  { name: 'Nitro Glisserin', niceClasses: [3, 32], designations: ['US'] },
  { name: 'Blonde Summer', niceClasses: [41], designations: ['US'] },
  { name: 'Qbert', niceClasses: [9, 41], designations: ['US'] },
  { name: 'Euroscrubby', niceClasses: [3, 21], designations: ['EU'] },
];
// BLONDE SUMMER (US serial 85017257) was registered on 2010-12-07 and cancelled under section 8
// on 2018-12-07 (its record's status date). The mirror first gets it as it stood while
// registered (the same record with the status of that time), a scan raises the alert, and then
// the office's present version, so the desk shows an alert whose record has died.
const DIES = 'US500000085017257';

type SampleRecord = { externalId: string; status: string } & Record<string, unknown>;

async function seed(server: TestServer) {
  const sample = readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SampleRecord);
  const dying = sample.find((record) => record.externalId === DIES);
  if (!dying) throw new Error(`${DIES} is no longer in the sample`);
  await importRecords(server.db, [
    ...sample.filter((record) => record !== dying),
    { ...dying, status: 'registered' },
  ]);
  const bulk = readdirSync(EUIPO_BULK).filter((name) => name.endsWith('.xml'));
  await importRecordFiles(
    server.db,
    bulk.map((name) => join(EUIPO_BULK, name)),
  );

  const org = await server.make.makeOrg({ tier: 'team', name: 'Example Trademark Counsel' });
  const user = await server.make.makeUser({ tier: 'team', orgId: org.id, password: PASSWORD });
  // A fixed address instead of the factory's random one: the header shows it, and two runs should
  // draw the same picture.
  await server.db.query('UPDATE users SET email = $1 WHERE id = $2', [EMAIL, user.id]);
  const key = await server.make.makeKey({ userId: user.id });
  const watchIds: string[] = [];
  for (const watch of WATCHES) {
    const res = await server.request('POST', '/api/v1/watches', {
      headers: key.auth,
      body: {
        watchType: 'trademark',
        name: watch.name,
        attributes: { niceClasses: watch.niceClasses, designations: watch.designations },
      },
    });
    if (res.status !== 201) throw new Error(`watch ${watch.name}: ${res.status} ${res.text}`);
    watchIds.push(res.body.data.id);
  }
  // As the tests do: the day a watch was made is all the alert origin reads of it.
  await server.db.query('UPDATE watches SET created_at = $1 WHERE id = ANY($2)', [
    WATCHES_SINCE,
    watchIds,
  ]);
  const scan = () =>
    createScanner({
      db: server.db,
      logger: createLogger('silent'),
      publicUrl: server.baseUrl,
      leaseSeconds: 60,
      clock: clockAt(TODAY),
    }).scan({ watchIds });
  await scan();
  await importRecords(server.db, [dying]);
  await scan();
  // The scanner's clock counts the windows; the alerts' own time is the database's, so it is set
  // to TODAY too, or the cards would say they were found on the day the script ran. A minute
  // apart, in a fixed order (the dead one newest), so that every run lists them alike.
  await server.db.query(
    `UPDATE alerts a SET created_at = $1::timestamptz - interval '2 hours' - o.n * interval '1 minute'
       FROM (SELECT a2.id, row_number() OVER (ORDER BY h.external_id = $3 DESC, h.external_id) AS n
               FROM alerts a2 JOIN hits h ON h.id = a2.hit_id
              WHERE a2.watch_id = ANY($2)) o
      WHERE a.id = o.id`,
    [TODAY, watchIds, DIES],
  );
  return EMAIL;
}

async function signIn(page: Page, baseUrl: string, email: string) {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}/`);
}

async function main() {
  // Always the embedded in-memory database and the in-process rate limiter, whatever the shell
  // exports: the pictures must not depend on (nor write to) a server's database.
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  const server = await startTestServer({ clock: clockAt(TODAY) });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const email = await seed(server);
    const shots = [
      // The top of the list: the filters, then the first cards (a new filing with an open window,
      // a dead existing mark with a closed one); on the phone the filters are folded above them.
      { file: 'review-desk.png', viewport: { width: 1280, height: 1240 } },
      { file: 'review-desk-phone.png', viewport: { width: 390, height: 1480 } },
    ];
    for (const shot of shots) {
      const context = await browser.newContext({ viewport: shot.viewport });
      const page = await context.newPage();
      await signIn(page, server.baseUrl, email);
      await page.goto(`${server.baseUrl}/alerts?sort=deadline`);
      await page.locator('.alert-item').first().waitFor();
      const path = join(DOCS, shot.file);
      await page.screenshot({ path });
      process.stdout.write(`${path}\n`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
