import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { assessAlert } from '../../src/domain/alerts/assessment.ts';
import { decideConflictPrepared, prepareWatch } from '../../src/matching/decide.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.ts';
import { startTestServer, type TestServer, validWatch } from '../helpers/server.ts';

// Debian's chromium, driven by playwright-core (no bundled browser download). CI must have it:
// there a missing browser fails the run; on a workstation without it these tests are skipped.
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';
const SCREENSHOTS = join('test-results', 'screenshots');
const PASSWORD = 'correct horse battery staple';

const haveChromium = existsSync(CHROMIUM);
const skip =
  haveChromium || IN_CI
    ? false
    : `chromium is not installed at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH); CI fails instead of skipping`;

describe('dashboard in a browser', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    if (!haveChromium) {
      throw new Error(
        `Browser tests need Chromium at ${CHROMIUM}, and CI=${process.env.CI} does not allow skipping them. Install it with "apt-get install -y chromium" (or set CHROMIUM_PATH).`,
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

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    return context.newPage();
  }

  const screenshot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  async function signIn(page: Page, tier: 'free' | 'solo' | 'team' | 'enterprise') {
    const user = await server.make.makeUser({ tier, password: PASSWORD });
    await page.goto(`${server.baseUrl}/`);
    await page.waitForURL(/\/sign-in$/);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    return user;
  }

  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  /** fetch() from inside the page, as a script of the dashboard's origin would call the API. */
  const apiStatus = (page: Page, key: string) =>
    page.evaluate(
      async (bearer) =>
        (await fetch('/api/v1/me', { headers: { authorization: `Bearer ${bearer}` } })).status,
      key,
    );

  it('signs in with e-mail and password', async () => {
    const page = await newPage();
    const user = await server.make.makeUser({ tier: 'team', password: PASSWORD });
    await page.goto(`${server.baseUrl}/sign-in`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The e-mail address or password is incorrect.').waitFor();
    await screenshot(page, 'sign-in-refused');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Overview');
    assert.ok((await page.locator('.account__email').textContent())?.includes(user.email));
    await screenshot(page, 'overview');
  });

  it('mints a key, shows it once, and the key works against /api/v1/me', async () => {
    const page = await newPage();
    await signIn(page, 'team');
    await nav(page).getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Brand portal');
    await page.getByRole('button', { name: 'Create key' }).click();

    const field = page.locator('#new-key');
    const key = await field.inputValue();
    assert.match(key, /^tmw_[0-9A-Za-z]{43}$/);
    assert.ok(await page.getByRole('button', { name: 'Copy' }).isVisible(), 'copy button shown');
    await screenshot(page, 'api-key-created');

    assert.equal(await apiStatus(page, key), 200);
    await page.goto(`${server.baseUrl}/api-keys`);
    assert.equal(await page.locator('#new-key').count(), 0);
    assert.ok(!(await page.content()).includes(key), 'the plaintext is not shown again');
    assert.ok(await page.getByRole('rowheader', { name: 'Brand portal' }).isVisible());
  });

  it('revokes a key in the page, and the next API call gets 401', async () => {
    const page = await newPage();
    const user = await signIn(page, 'team');
    const key = await server.make.makeKey({ userId: user.id });
    await page.goto(`${server.baseUrl}/api-keys`);
    assert.equal(await apiStatus(page, key.key), 200);

    page.once('dialog', (dialog) => dialog.accept());
    const revoked = page.waitForResponse(
      (response) => response.request().method() === 'DELETE' && response.url().endsWith(key.id),
    );
    await page.getByRole('button', { name: `Revoke ${key.name}` }).click();
    assert.equal((await revoked).status(), 200, 'revoked through DELETE /api/v1/api-keys/{id}');
    const row = page.locator(`tr[data-key-id="${key.id}"]`);
    await row.getByText('Revoked').waitFor();
    await screenshot(page, 'api-key-revoked');

    assert.equal(await apiStatus(page, key.key), 401);
  });

  it('refuses a cross-site revoke attempt', async () => {
    const page = await newPage();
    const user = await signIn(page, 'team');
    const key = await server.make.makeKey({ userId: user.id });
    const target = `${server.baseUrl}/api-keys/${key.id}/revoke`;
    // Another origin on the same host (same site, so the Lax cookie is sent): a page that posts
    // the dashboard's revoke form by itself, and also tries the API with fetch.
    const attacker: Server = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><title>Win a prize</title>
        <form id="f" method="post" action="${target}"><input name="_csrf" value="guess"></form>
        <script>
          fetch(${JSON.stringify(`${server.baseUrl}/api/v1/api-keys/${key.id}`)}, {
            method: 'DELETE', credentials: 'include', headers: { 'X-CSRF-Token': 'guess' },
          }).catch(() => {}).finally(() => document.getElementById('f').submit());
        </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = attacker.address() as AddressInfo;
      const landed = page.waitForResponse((response) => response.url() === target);
      await page.goto(`http://127.0.0.1:${port}/`);
      assert.equal((await landed).status(), 403);
      await page.getByText('This request came from another site').waitFor();
      await screenshot(page, 'cross-site-refused');
    } finally {
      attacker.close();
    }
    const me = await server.request('GET', '/api/v1/me', { headers: key.auth });
    assert.equal(me.status, 200, 'the key still works');
  });

  it('does not let a solo user mint a key', async () => {
    const page = await newPage();
    await signIn(page, 'solo');
    await page.goto(`${server.baseUrl}/api-keys`);
    await page.getByRole('heading', { name: 'API keys are not part of your Solo plan' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create key' }).count(), 0);
    assert.equal(
      await page.getByRole('link', { name: 'Compare plans' }).getAttribute('href'),
      '/pricing',
    );
    await screenshot(page, 'api-keys-solo');
    await page.getByRole('link', { name: 'Compare plans' }).click();
    await page.getByText('Your plan').waitFor();
    await screenshot(page, 'pricing');
  });

  it('creating a watch with an invalid class shows the message next to the field', async () => {
    const page = await newPage();
    await signIn(page, 'solo');
    await nav(page).getByRole('link', { name: 'Watches' }).click();
    await page.getByRole('link', { name: 'New watch' }).click();
    await page.getByLabel('Brand name').fill('Acme');
    await page.getByLabel('Nice classes').fill('9, 99');
    await page.getByLabel('Designations').fill('DE, EU');
    await page.getByRole('button', { name: 'Create watch' }).click();

    const errors = page.locator('#watch-classes-errors');
    await errors.waitFor();
    assert.equal((await errors.textContent())?.trim(), '“99”: Nice classes run from 1 to 45.');
    assert.equal(await page.getByLabel('Nice classes').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Nice classes').inputValue(), '9, 99', 'input is kept');
    await screenshot(page, 'watch-invalid-class');

    await page.getByLabel('Nice classes').fill('9, 42');
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByText('Watch created.').waitFor();
    await screenshot(page, 'watches');
  });

  it('triaging an alert changes the unread badge', async () => {
    const page = await newPage();
    const user = await signIn(page, 'team');
    const key = await server.make.makeKey({ userId: user.id });
    const watch = await server.request('POST', '/api/v1/watches', {
      headers: key.auth,
      body: validWatch({ name: 'Acme' }),
    });
    await server.make.makeAlert(watch.body.data.id, { markText: 'ACMEE' });
    await server.make.makeAlert(watch.body.data.id, { markText: 'AKME' });

    const badge = page.locator('.main-nav [data-unread-count]');
    await page.goto(`${server.baseUrl}/alerts`);
    assert.equal(await badge.getAttribute('data-unread-count'), '2');
    await screenshot(page, 'alerts');

    await page.getByRole('button', { name: 'Mark read: ACMEE' }).click();
    await page.waitForLoadState();
    assert.equal(await badge.getAttribute('data-unread-count'), '1');

    await page.getByRole('link', { name: 'AKME' }).click();
    await page.waitForURL(/\/alerts\/alt_/);
    await screenshot(page, 'alert-detail');
    await page.getByRole('button', { name: 'Dismiss: AKME' }).first().click();
    await page.waitForLoadState();
    assert.equal(await badge.count(), 0, 'no badge once nothing is unread');
    await page.getByText('Dismissed', { exact: true }).first().waitFor();
  });

  it('shows severity, the rationale and the opposition window, with hostile register text as text', async () => {
    const page = await newPage();
    const user = await signIn(page, 'team');
    const key = await server.make.makeKey({ userId: user.id });
    const attributes = { niceClasses: [9], designations: ['US'] };
    const created = await server.request('POST', '/api/v1/watches', {
      headers: key.auth,
      body: validWatch({ name: 'Starbuck', attributes }),
    });
    const watchId = created.body.data.id;
    // A record whose mark and owner try every way into the page: a script, an image, a link.
    const markText =
      'STARBUCKS <img src=x onerror="window.__xss=1"> [x](javascript:window.__xss=2) ![](https://evil.example/i.png)';
    const record = {
      externalId: 'US500000087310367',
      markText,
      ownerName: '<script>window.__xss=3</script> Rival LLC',
      ownerCountryCode: 'US',
      jurisdiction: 'US',
      designations: [],
      filedAt: '2026-10-01T00:00:00.000Z',
      status: 'published',
      classes: [9],
      // Published 10 days ago: the USPTO's 30 days close in 20.
      publishedAt: new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10),
    };
    const prepared = prepareWatch({ name: 'Starbuck', ...attributes });
    const decision = decideConflictPrepared(prepared, record);
    assert.ok(decision.conflict);
    const assessment = assessAlert(prepared, record, decision);
    const alertId = await server.make.makeAlert(watchId, {
      markText,
      externalId: record.externalId,
      severity: assessment.severity,
      rationale: assessment.rationale,
      publishedAt: `${record.publishedAt}T00:00:00.000Z`,
      opposition: assessment.opposition,
      jurisdiction: record.jurisdiction,
      ownerName: record.ownerName,
      ownerCountryCode: record.ownerCountryCode,
      classes: record.classes,
      status: record.status,
    });

    await page.goto(`${server.baseUrl}/alerts`);
    const item = page.locator(`[data-alert-id="${alertId}"]`);
    // The severity the assessment gave, as the list labels it.
    const level = assessment.severity;
    await item.getByText(`${level[0]?.toUpperCase()}${level.slice(1)} severity`).waitFor();
    await item.getByText(/Opposition closes in 2\d days/).waitFor();
    await screenshot(page, 'alerts-severity');

    await page.goto(`${server.baseUrl}/alerts/${alertId}`);
    const rationale = page.locator('section.rationale');
    await rationale.getByText('Why it was raised').waitFor();
    await rationale.getByText(/holds the brand in the plural/).waitFor();
    await rationale.getByText(/Shared Nice class: 9/).waitFor();
    // The hostile text is on the page as text, and nothing of it ran or became markup.
    await rationale.getByText(markText, { exact: false }).first().waitFor();
    assert.equal(await page.evaluate(() => (window as { __xss?: number }).__xss), undefined);
    assert.equal(await rationale.locator('img, script').count(), 0);
    const links = await rationale
      .locator('a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    assert.deepEqual(
      links.map((href) => new URL(href).host),
      ['tsdr.uspto.gov'],
      'the one link is the office page',
    );
    await page.getByText('US serial', { exact: false }).first().waitFor();
    await screenshot(page, 'alert-rationale');
  });
});
