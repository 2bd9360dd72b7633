import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CSV_COLUMNS } from '../../src/dashboard/alerts-csv.ts';
import { EXPORT_PAGE_SIZE } from '../../src/domain/alerts/review.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

// The review desk (docs/dashboard.md) in Debian's chromium, driven by playwright-core, as
// dashboard.browser.test.ts does; accessibility is checked with axe-core injected into each page.
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';
const SCREENSHOTS = join('test-results', 'screenshots');
const PASSWORD = 'correct horse battery staple';
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const haveChromium = existsSync(CHROMIUM);
const skip =
  haveChromium || IN_CI
    ? false
    : `chromium is not installed at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH); CI fails instead of skipping`;

const daysFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const openWindow = (closesAt: string) => ({
  office: 'EUIPO',
  closesAt,
  extendableUntil: null,
  rule: 'EUIPO: 3 months from publication of the application, not extendable.',
});

describe('the review desk in a browser', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    if (!haveChromium) {
      throw new Error(
        `Browser tests need Chromium at ${CHROMIUM}, and CI=${process.env.CI} does not allow skipping them.`,
      );
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    server = await startTestServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  async function newPage(viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport });
    context.setDefaultTimeout(20_000);
    contexts.push(context);
    return context.newPage();
  }

  const screenshot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  async function signInAs(page: Page, email: string) {
    await page.goto(`${server.baseUrl}/sign-in`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
  }

  /** A signed-in user of a new organization, an API key of theirs and a watch. */
  async function deskUser(page: Page, orgId?: string) {
    const org = orgId ?? (await server.make.makeOrg({ tier: 'team' })).id;
    const user = await server.make.makeUser({ tier: 'team', orgId: org, password: PASSWORD });
    const key = await server.make.makeKey({ userId: user.id });
    const watch = await server.request('POST', '/api/v1/watches', {
      headers: key.auth,
      body: validWatch({ name: `Acme ${user.id.slice(-4)}` }),
    });
    assert.equal(watch.status, 201);
    await signInAs(page, user.email);
    return { user, key, orgId: org, watchId: watch.body.data.id as string };
  }

  const listed = (page: Page) =>
    page.locator('.alert-item').evaluateAll((items) =>
      items.map((item) => ({
        id: (item as HTMLElement).dataset.alertId ?? '',
        severity: (item as HTMLElement).dataset.severity ?? '',
        mark: item.querySelector('.alert-item__title a')?.textContent ?? '',
      })),
    );

  it('filters by state, severity, watch and accent-free text, and orders by severity and deadline', async () => {
    const page = await newPage();
    const { watchId, key } = await deskUser(page);
    const make = (markText: string, options: Parameters<typeof server.make.makeAlert>[1] = {}) =>
      server.make.makeAlert(watchId, { markText, ...options });
    const low = await make('LOWLY', { severity: 'low', opposition: openWindow(daysFromNow(40)) });
    const high = await make('HIGHLAND', { severity: 'high' });
    const soon = await make('SOONER', {
      severity: 'medium',
      opposition: openWindow(daysFromNow(3)),
    });
    const later = await make('LATERAL', {
      severity: 'medium',
      opposition: openWindow(daysFromNow(20)),
    });
    const closed = await make('CLOSEDOWN', {
      severity: 'high',
      opposition: openWindow(daysFromNow(-5)),
    });
    const muller = await make('MÜLLER BRÄU', { severity: 'low' });
    const dismissed = await make('GONE', { severity: 'high' });
    await server.request('PATCH', `/api/v1/alerts/${dismissed}`, {
      headers: key.auth,
      body: { state: 'dismissed' },
    });

    await page.goto(`${server.baseUrl}/alerts`);
    // The form: only high, ordered by severity; the choice lands in the address.
    await page.getByRole('checkbox', { name: /^High/ }).check();
    await page.getByLabel('Order', { exact: true }).selectOption('severity');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/severity=high/);
    assert.deepEqual(
      (await listed(page)).map((a) => a.id).sort(),
      [high, closed].sort(),
      'the inbox’s high alerts; the dismissed one is not in the inbox',
    );
    // Counts for the current filter: states within "high", severities within the inbox.
    assert.match(
      (await page.locator('label[for="filter-state-dismissed"]').textContent()) ?? '',
      /1/,
    );
    assert.match(
      (await page.locator('label[for="filter-severity-medium"]').textContent()) ?? '',
      /2/,
    );
    await screenshot(page, 'review-desk-filtered');

    // A colleague opening the same address sees the same list: the filters are the URL.
    const shared = page.url();
    await page.goto(`${server.baseUrl}/alerts`);
    await page.goto(shared);
    assert.equal(await page.getByRole('checkbox', { name: /^High/ }).isChecked(), true);

    await page.goto(`${server.baseUrl}/alerts?state=dismissed`);
    assert.deepEqual(
      (await listed(page)).map((a) => a.id),
      [dismissed],
    );

    await page.goto(`${server.baseUrl}/alerts?q=muller%20brau`);
    assert.deepEqual(
      (await listed(page)).map((a) => a.id),
      [muller],
      'case and accents ignored',
    );

    await page.goto(`${server.baseUrl}/alerts?watch=${watchId}&sort=severity`);
    const bySeverity = (await listed(page)).map((a) => a.severity);
    assert.deepEqual(
      bySeverity,
      [...bySeverity].sort((a, b) => rank(a) - rank(b)),
    );
    assert.equal(bySeverity.length, 6);

    await page.goto(`${server.baseUrl}/alerts?sort=deadline`);
    const byDeadline = (await listed(page)).map((a) => a.id);
    assert.deepEqual(
      byDeadline.slice(0, 3),
      [soon, later, low],
      'open windows, closing soonest first',
    );
    assert.deepEqual(
      new Set(byDeadline.slice(3)),
      new Set([high, closed, muller]),
      'then the closed and unknown ones',
    );
    await screenshot(page, 'review-desk-deadline');

    // A bad value is explained on the page, never an error.
    const bad = await page.goto(`${server.baseUrl}/alerts?severity=urgent&sort=sideways`);
    assert.equal(bad?.status(), 200);
    await page.getByText('“urgent” is not a severity').waitFor();
    await page.getByText('“sideways” is not an order').waitFor();
  });

  it('keeps the filters in the pagination link', async () => {
    const page = await newPage();
    const { watchId } = await deskUser(page);
    for (let i = 0; i < 27; i++) {
      await server.make.makeAlert(watchId, { markText: `LOW${i}`, severity: 'low' });
    }
    await server.make.makeAlert(watchId, { markText: 'NOTLOW', severity: 'high' });
    await page.goto(`${server.baseUrl}/alerts?severity=low`);
    assert.equal((await listed(page)).length, 25);
    const next = page.getByRole('link', { name: 'Next page' });
    assert.match((await next.getAttribute('href')) ?? '', /severity=low/);
    await next.click();
    await page.waitForURL(/cursor=/);
    const rest = await listed(page);
    assert.equal(rest.length, 2);
    assert.ok(rest.every((a) => a.severity === 'low'));
  });

  it('marks the selected alerts with the keyboard alone, as PATCH would, and skips others’ ids', async () => {
    const page = await newPage();
    const { watchId, key } = await deskUser(page);
    const ids = [
      await server.make.makeAlert(watchId, { markText: 'ONE' }),
      await server.make.makeAlert(watchId, { markText: 'TWO' }),
      await server.make.makeAlert(watchId, { markText: 'THREE' }),
    ];
    const outsider = await server.make.makeKey({ tier: 'team' });
    const theirWatch = await server.request('POST', '/api/v1/watches', {
      headers: outsider.auth,
      body: validWatch({ name: 'Theirs' }),
    });
    const theirs = await server.make.makeAlert(theirWatch.body.data.id, { markText: 'THEIRS' });

    await page.goto(`${server.baseUrl}/alerts`);
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    for (let i = 0; i < 80 && (await focusedId()) !== 'select-all'; i++)
      await page.keyboard.press('Tab');
    assert.equal(await focusedId(), 'select-all', 'select all is reached with Tab');
    const outline = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.activeElement as Element);
        return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
      });
    const focus = await outline();
    assert.ok(focus.style !== 'none' && focus.width >= 2, 'the focus is visible');
    await page.keyboard.press('Space');
    for (const id of ids) assert.equal(await page.locator(`#select-${id}`).isChecked(), true);

    // The same form, posted with an outsider's id among ours: it is skipped without a word.
    const dismissButton = page.locator('#bulk-form').getByRole('button', { name: 'Dismiss' });
    await page.evaluate((id) => {
      const extra = document.createElement('input');
      extra.type = 'hidden';
      extra.name = 'ids';
      extra.value = id;
      document.getElementById('bulk-form')?.append(extra);
    }, theirs);
    for (let i = 0; i < 20; i++) {
      if (await dismissButton.evaluate((b) => b === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    assert.ok(await dismissButton.evaluate((b) => b === document.activeElement));
    assert.ok((await outline()).style !== 'none');
    await page.keyboard.press('Enter');
    await page.waitForURL(/marked=dismissed/);
    await page.getByText('3 alerts marked dismissed').waitFor();
    await screenshot(page, 'review-desk-bulk');

    for (const id of ids) {
      const alert = await server.request('GET', `/api/v1/alerts/${id}`, { headers: key.auth });
      assert.equal(alert.body.data.state, 'dismissed');
    }
    const other = await server.request('GET', `/api/v1/alerts/${theirs}`, {
      headers: outsider.auth,
    });
    assert.equal(other.body.data.state, 'unread', 'another owner’s alert is untouched');
  });

  it('shows a note to an organization colleague, with its author, and not to an outsider', async () => {
    const page = await newPage();
    const { watchId, orgId, user, key } = await deskUser(page);
    const alertId = await server.make.makeAlert(watchId, { markText: 'NOTED' });
    await page.goto(`${server.baseUrl}/alerts/${alertId}`);
    await page.getByLabel('Add a note').fill('  Client says: oppose before the deadline.  ');
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.getByText('Note saved.').waitFor();
    await screenshot(page, 'review-desk-note');

    const colleague = await newPage();
    const other = await server.make.makeUser({ tier: 'team', orgId, password: PASSWORD });
    await signInAs(colleague, other.email);
    await colleague.goto(`${server.baseUrl}/alerts/${alertId}`);
    const note = colleague.locator('.alert-note');
    assert.equal(
      await note.locator('.alert-note__text').textContent(),
      'Client says: oppose before the deadline.',
    );
    await note.getByText(`Written by ${user.email}`).waitFor();

    const outsiderPage = await newPage();
    const outsider = await server.make.makeUser({ tier: 'team', password: PASSWORD });
    await signInAs(outsiderPage, outsider.email);
    const response = await outsiderPage.goto(`${server.baseUrl}/alerts/${alertId}`);
    assert.equal(response?.status(), 404);
    assert.ok(!(await outsiderPage.content()).includes('Client says'));

    // The public API's alert is unchanged by a note.
    const api = await server.request('GET', `/api/v1/alerts/${alertId}`, { headers: key.auth });
    assert.ok(!JSON.stringify(api.body).includes('Client says'));
    assert.deepEqual(Object.keys(api.body.data).sort(), [
      'createdAt',
      'emailedAt',
      'hit',
      'id',
      'origin',
      'rationale',
      'rationaleAt',
      'severity',
      'state',
      'watchId',
    ]);

    // Saved empty, the note is gone.
    await colleague.getByLabel('Change the note').fill('   ');
    await colleague.getByRole('button', { name: 'Save note' }).click();
    await colleague.getByText('Note removed.').waitFor();
    await colleague.getByText('No note yet.').waitFor();
  });

  it('exports the filtered list as CSV: header, BOM, quoting, the formula guard and the filters', async () => {
    const page = await newPage();
    const { watchId } = await deskUser(page);
    await server.make.makeAlert(watchId, {
      markText: '=HYPERLINK("https://evil.example","click")',
      ownerName: 'Société Générale, "SG"',
      ownerCountryCode: 'FR',
      severity: 'high',
      externalId: 'EM500000018123456',
      opposition: openWindow('2027-03-01'),
      publishedAt: '2026-12-01T00:00:00.000Z',
      classes: [9, 35],
    });
    await server.make.makeAlert(watchId, {
      markText: '@SUM(A1)',
      ownerName: '+cmd',
      severity: 'high',
    });
    await server.make.makeAlert(watchId, { markText: 'QUIET', severity: 'low' });
    // A CIPO record as the ST.96 reader keys it.
    await server.make.makeAlert(watchId, {
      markText: 'VISETOS',
      severity: 'high',
      externalId: 'CA-1829192',
      jurisdiction: 'CA',
    });

    await page.goto(`${server.baseUrl}/alerts?severity=high`);
    const link = page.getByRole('link', { name: 'Export CSV' });
    assert.equal(
      await link.getAttribute('href'),
      '/alerts.csv?state=unread&state=read&severity=high',
    );
    const response = await page.request.get(`${server.baseUrl}${await link.getAttribute('href')}`);
    assert.equal(response.status(), 200);
    assert.equal(response.headers()['content-type'], 'text/csv; charset=utf-8');
    assert.match(
      response.headers()['content-disposition'] ?? '',
      /^attachment; filename="alerts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const body = await response.body();
    assert.deepEqual([...body.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 byte-order mark');
    const rows: string[][] = parse(body, { bom: true, relax_column_count: false });
    assert.deepEqual(rows[0], [...CSV_COLUMNS]);
    const records = rows
      .slice(1)
      .map((row) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, row[i]])));
    assert.equal(records.length, 3, 'the filter: high only');
    const hyperlink = records.find((r) => r.mark?.includes('HYPERLINK'));
    assert.ok(hyperlink);
    assert.equal(hyperlink.mark, `'=HYPERLINK("https://evil.example","click")`);
    assert.equal(hyperlink.owner, 'Société Générale, "SG"', 'quotes and commas survive');
    assert.equal(hyperlink.classes, '9;35');
    assert.equal(hyperlink.published, '2026-12-01');
    assert.equal(hyperlink.opposition_closes, '2027-03-01');
    assert.equal(hyperlink.filed, '2026-10-01');
    assert.equal(hyperlink.link, 'https://euipo.europa.eu/eSearch/#details/trademarks/018123456');
    assert.equal(hyperlink.record_id, 'EM500000018123456', 'record_id stays the mirror key');
    assert.equal(hyperlink.office_number, '018123456', 'the number as EUIPO writes it');
    assert.ok(!hyperlink.rationale?.includes('**'), 'the rationale is plain text');
    const sum = records.find((r) => r.mark?.includes('SUM'));
    assert.equal(sum?.mark, `'@SUM(A1)`);
    assert.equal(sum?.owner, `'+cmd`);
    assert.equal(sum?.link, '', 'no link for a number of unknown shape');
    assert.equal(sum?.office_number, '', 'no office number for a key of unknown shape');
    const cipo = records.find((r) => r.mark === 'VISETOS');
    assert.equal(cipo?.record_id, 'CA-1829192');
    assert.equal(cipo?.office_number, '1829192', 'the number as CIPO writes it');
    assert.equal(cipo?.link, 'https://ised-isde.canada.ca/cipo/trademark-search/1829192');
    // The columns the desk has always exported keep their places; the new one comes after.
    assert.deepEqual(CSV_COLUMNS.slice(0, 18), [
      'alert_id',
      'created',
      'state',
      'severity',
      'watch',
      'mark',
      'owner',
      'owner_country',
      'jurisdiction',
      'record_id',
      'status',
      'classes',
      'filed',
      'published',
      'opposition_closes',
      'rationale',
      'note',
      'link',
    ]);
    assert.deepEqual(CSV_COLUMNS.slice(18), ['office_number', 'live', 'origin', 'removed']);
    assert.equal(hyperlink.removed, '', 'the register holds the record');
  });

  it('streams a 10,000-alert export in pages, never the whole list at once', async () => {
    const page = await newPage();
    const { watchId } = await deskUser(page);
    const total = 10_000;
    for (let start = 0; start < total; start += 1000) {
      await server.make.makeAlerts(watchId, 1000, (i) => ({
        externalId: `EM5000${String(start + i).padStart(11, '0')}`,
        markText: `MARK ${start + i}`,
        ownerName: 'Bulk Owner',
        ownerCountryCode: 'DE',
        classes: [9],
        rawPayload: {},
        severity: 'low',
        rationale: '**Severity: low.** Bulk.',
      }));
    }
    // Observe the real database's answers (nothing is replaced): the largest result the export
    // asked for must be one page, not the list.
    let largest = 0;
    const db = server.requestDb;
    const query = db.query.bind(db);
    db.query = async (text, params) => {
      const rows = await query(text, params);
      if (text.includes('alert_notes')) largest = Math.max(largest, rows.length);
      return rows as never;
    };
    try {
      const response = await page.request.get(`${server.baseUrl}/alerts.csv?state=all`);
      const rows: string[][] = parse(await response.body(), { bom: true });
      assert.equal(rows.length, total + 1);
      assert.equal(new Set(rows.slice(1).map((row) => row[0])).size, total, 'each alert once');
    } finally {
      db.query = query;
    }
    assert.ok(largest > 0 && largest <= EXPORT_PAGE_SIZE, `largest read: ${largest} rows`);
  });

  const signedInPages = (alertId: string) => [
    '/',
    '/watches',
    '/watches/new',
    '/alerts',
    `/alerts/${alertId}`,
    '/api-keys',
    '/webhooks',
    '/pricing',
  ];

  async function audit(page: Page, path: string) {
    const response = await page.goto(`${server.baseUrl}${path}`);
    assert.equal(response?.status(), 200, path);
    // Evaluated through the DevTools protocol: the page's CSP (no inline script) stays as it is.
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async (tags) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (o: unknown) => Promise<{
              violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
            }>;
          };
        }
      ).axe;
      const result = await axe.run({ runOnly: { type: 'tag', values: tags } });
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }, WCAG_22_AA);
    assert.deepEqual(violations, [], `axe on ${path}`);
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      // The deepest elements that reach past the right edge name the culprit in the message.
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > width + 1 && e.children.length === 0)
        .slice(0, 3)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
      return { by: document.documentElement.scrollWidth - width, wide };
    });
    assert.ok(overflow.by <= 0, `${path} scrolls sideways by ${overflow.by}px: ${overflow.wide}`);
  }

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`has no serious or critical axe violations and no sideways scroll (${label})`, async () => {
      const anonymous = await newPage(viewport);
      for (const path of ['/sign-in', '/pricing', '/about']) await audit(anonymous, path);

      const page = await newPage(viewport);
      const { watchId } = await deskUser(page);
      const alertId = await server.make.makeAlert(watchId, {
        markText: 'AVERYLONGMARKWITHOUTANYSPACESTHATMUSTWRAPONAPHONESCREEN',
        ownerName: 'Internationale Markenverwaltungsgesellschaft mit beschränkter Haftung',
        opposition: openWindow(daysFromNow(12)),
        severity: 'high',
      });
      await server.make.makeAlert(watchId, { markText: 'SECOND', severity: 'low' });
      for (const path of signedInPages(alertId)) await audit(page, path);
      await page.goto(`${server.baseUrl}/alerts`);
      await screenshot(page, `review-desk-${viewport.width}`);
    });
  }

  /**
   * How much of its longest choice each fixed select of the filters cuts off, in pixels (0: none).
   * The watch select is left out: its choices are the owner's own names, of any length.
   */
  const selectsCutOff = (page: Page) =>
    page.locator('#filter-sort, #filter-origin').evaluateAll((selects) =>
      Object.fromEntries(
        selects.map((select) => {
          const shown = select.getBoundingClientRect().width;
          // A select's own size when nothing constrains it is its longest option plus the arrow.
          const style = (select as HTMLElement).style;
          const saved = style.cssText;
          style.cssText = 'width: max-content !important; max-width: none !important';
          const needed = select.getBoundingClientRect().width;
          style.cssText = saved;
          return [select.id, Math.max(0, Math.ceil(needed - shown))];
        }),
      ),
    );

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['390 px', PHONE],
    ['768 px', { width: 768, height: 1024 }],
  ] as const) {
    it(`shows the Order and origin selects' longest choices whole (${label})`, async () => {
      const page = await newPage(viewport);
      await deskUser(page);
      await page.goto(`${server.baseUrl}/alerts?sort=deadline`);
      assert.deepEqual(await selectsCutOff(page), { 'filter-sort': 0, 'filter-origin': 0 });
    });
  }

  it('on a phone the filters fold behind a button, so the first alerts are on the first screen', async () => {
    const page = await newPage(PHONE);
    const { watchId } = await deskUser(page);
    await server.make.makeAlert(watchId, { markText: 'FIRSTSCREEN', severity: 'high' });
    await page.goto(`${server.baseUrl}/alerts?severity=high`);
    const toggle = page.locator('.review-filters > summary');
    assert.match((await toggle.textContent()) ?? '', /Filters.*1 active/s);
    assert.equal(await page.getByLabel('Order', { exact: true }).isVisible(), false, 'folded');
    const first = await page.locator('.alert-item').first().boundingBox();
    assert.ok(first, 'an alert is listed');
    assert.ok(
      first.y + 40 <= PHONE.height,
      `the first alert starts ${Math.round(first.y)} px down a ${PHONE.height} px screen`,
    );
    await screenshot(page, 'review-desk-phone-folded');
    // The keyboard opens them, and they work as on a desktop.
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.getByLabel('Order', { exact: true }).isVisible(), true);
    assert.equal(await page.getByRole('checkbox', { name: /^High/ }).isChecked(), true);

    // On a desktop they are open from the start.
    const wide = await newPage(DESKTOP);
    await deskUser(wide);
    await wide.goto(`${server.baseUrl}/alerts`);
    assert.equal(await wide.getByLabel('Order', { exact: true }).isVisible(), true);
  });

  it('folds the navigation behind a menu at 390 px, reachable with the keyboard', async () => {
    const page = await newPage(PHONE);
    await deskUser(page);
    const menu = page.getByRole('button', { name: /^Menu/ });
    const watches = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Watches' });
    assert.equal(await watches.isVisible(), false, 'folded');
    await menu.focus();
    await page.keyboard.press('Enter');
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    assert.equal(await watches.isVisible(), true);
    const box = await watches.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, 'inside the screen');
    await screenshot(page, 'phone-menu');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await watches.waitFor({ state: 'hidden' });
  });
});

const rank = (severity: string) => ['high', 'medium', 'low'].indexOf(severity);
