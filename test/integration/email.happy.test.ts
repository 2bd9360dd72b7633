import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEFAULT_MAIL_FROM } from '../../src/config.ts';
import type { Db } from '../../src/data/db.ts';
import { flushDueEmails, retryDelaySeconds } from '../../src/email/sender.ts';
import { folderTransport, smtpTransport } from '../../src/email/transport.ts';
import { createLogger } from '../../src/logger.ts';
import { createScanner } from '../../src/scan/scanner.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { factories } from '../helpers/factories.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { startSmtpPeer } from '../helpers/smtp.ts';

const logger = createLogger('silent');

/** Today (UTC): a record filed today is a new filing for a watch created today. */
const today = () => new Date().toISOString().slice(0, 10);

/** A register record filed today, after the test's watch started looking: a new filing. */
const newFiling = (overrides: Record<string, unknown> = {}) =>
  makeRecord({ filedAt: today(), ...overrides });

describe('alert e-mail', () => {
  let database: TestDatabase;
  let db: Db;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    smtp = await startSmtpPeer();
  });
  after(async () => {
    await smtp.close();
    await database.drop();
  });
  beforeEach(async () => {
    smtp.received.length = 0;
    smtp.state.refuse = false;
    for (const table of ['email_outbox', 'alerts', 'hits', 'scan_runs', 'watches', 'marks']) {
      await db.query(`DELETE FROM ${table}`);
    }
  });

  /** A watch of a fresh owner on `tier`, scanned once against two conflicting marks. */
  async function scannedWatch(
    tier: 'free' | 'solo' | 'team',
    records: Record<string, unknown>[] = [
      newFiling({
        markText: 'NORTHWIND',
        ownerName: 'Northwind Rival AG',
        classes: [9, 42],
        publishedAt: '2026-11-10',
      }),
      newFiling({ markText: 'NORTHWYND' }),
    ],
    designations: string[] = ['DE'],
  ) {
    const make = factories(db);
    const { user, principal } = await make.makeOwner({ tier });
    await importRecords(db, records);
    const watch = await make.makeWatch(principal, {
      name: 'Northwind',
      scanCadence: 'weekly',
      designations,
    });
    const scanner = createScanner({
      db,
      logger,
      publicUrl: 'https://tm.example',
      leaseSeconds: 60,
    });
    await scanner.scan({ watchIds: [watch.id] });
    return { user, watch };
  }

  const emailedAt = (watchId: string) =>
    db.query<{ emailed_at: Date | null }>('SELECT emailed_at FROM alerts WHERE watch_id = $1', [
      watchId,
    ]);

  it('one message per scan run reaches the SMTP server, listing each mark with its details and link', async () => {
    const { user, watch } = await scannedWatch('solo');
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    const result = await flushDueEmails(db, transport, logger);
    transport.close();
    assert.deepEqual(result, { sent: 1, failed: 0 });
    assert.equal(smtp.received.length, 1);
    const mail = smtp.received[0];
    assert.deepEqual(mail?.to, [user.email]);
    const [alert] = await db.query<{ id: string }>(
      `SELECT a.id FROM alerts a JOIN hits h ON h.id = a.hit_id
        WHERE a.watch_id = $1 AND h.display_name = 'NORTHWIND'`,
      [watch.id],
    );
    const raw = (mail?.raw ?? '').replace(/=\r?\n/g, '');
    assert.match(raw, /Subject: Northwind: 2 new marks may conflict/);
    assert.match(raw, /NORTHWYND/);
    assert.match(raw, /Northwind Rival AG/);
    assert.match(raw, /Classes: 9, 42/);
    assert.match(raw, /Office: EUIPO \(EM\), EUTM \d{9}/);
    assert.ok(raw.includes(`Filed: ${today()}`));
    assert.ok(raw.includes(`https://tm.example/alerts/${alert?.id}`));
    // Severity, rationale and the opposition window, for each mark.
    // The subject counts the high ones, and each mark says its severity as the alert has it.
    const severities = await db.query<{ severity: string }>(
      'SELECT severity FROM alerts WHERE watch_id = $1',
      [watch.id],
    );
    const high = severities.filter((a) => a.severity === 'high').length;
    assert.ok(high >= 1, 'the identical NORTHWIND is high');
    assert.match(
      raw,
      new RegExp(`Subject: Northwind: 2 new marks may conflict \\(${high} high\\)`),
    );
    for (const level of ['high', 'medium', 'low']) {
      const count = severities.filter((a) => a.severity === level).length;
      assert.equal(
        raw.match(new RegExp(`\\n {2}Severity: ${level}\\r?\\n`, 'g'))?.length ?? 0,
        count,
      );
    }
    assert.match(raw, /Published for opposition: 2026-11-10/);
    assert.match(raw, /Opposition: closes in \d+ days? \(2027-02-10\)/);
    assert.match(raw, /Published for opposition: not published by this source/);
    assert.match(raw, /Opposition: not known/);
    assert.match(raw, /Why:\r?\n {4}Severity: high\. The texts are the same to the eye\b/);
    assert.match(
      raw,
      /The spelling differs from the watched brand by 1 letter: NORTHWYND against NORTHWIND \(I replaced by Y \(7th letter\)\)/,
    );
    assert.match(raw, /EUIPO: 3 months from publication/);
  });

  it('a field the source does not give reads "not published by this source", and the office number links to the office', async () => {
    const record = newFiling({
      markText: 'NORTHWIND',
      ownerName: null,
      ownerCountryCode: null,
      status: null,
      classes: [],
    });
    const countryless = newFiling({ markText: 'NORTHWINDS', ownerName: 'Nomad Ltd' });
    delete (countryless as { ownerCountryCode?: string }).ownerCountryCode;
    await scannedWatch('solo', [record, countryless]);
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    await flushDueEmails(db, transport, logger);
    transport.close();
    const raw = (smtp.received[0]?.raw ?? '').replace(/=\r?\n/g, '');
    assert.match(raw, /\n {2}Owner: not published by this source\r?\n/);
    assert.match(raw, /\n {2}Classes: not published by this source\r?\n/);
    assert.match(raw, /\n {2}Status: not published by this source\r?\n/);
    assert.match(raw, /\n {2}Owner: Nomad Ltd \(country not published by this source\)\r?\n/);
    assert.doesNotMatch(raw, /\(XX\)|\(null\)|: null\r?\n/);
    // The office number as EUIPO writes it (9 digits), not the mirror's key, and its public page.
    const eutm = record.externalId.slice(-9);
    assert.ok(raw.includes(`Office: EUIPO (EM), EUTM ${eutm}`), 'office number');
    assert.ok(
      raw.includes(
        `Public record (EUIPO eSearch): https://euipo.europa.eu/eSearch/#details/trademarks/${eutm}`,
      ),
      'link in the text part',
    );
    assert.ok(
      raw.includes(`href=3D"https://euipo.europa.eu/eSearch/#details/trademarks/${eutm}"`) ||
        raw.includes(`href="https://euipo.europa.eu/eSearch/#details/trademarks/${eutm}"`),
      'link in the HTML part',
    );
  });

  it('a CIPO record: its application number as CIPO writes it, linked to the Canadian Trademarks Database', async () => {
    // The key the ST.96 reader gives a CIPO record, and one of an office with no known page.
    const cipo = newFiling({
      externalId: 'CA-1829192',
      jurisdiction: 'CA',
      markText: 'NORTHWIND',
    });
    const nz = newFiling({ externalId: 'NZ-1234567', jurisdiction: 'NZ', markText: 'NORTHWYND' });
    await scannedWatch('solo', [cipo, nz], ['CA', 'NZ']);
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    await flushDueEmails(db, transport, logger);
    transport.close();
    const raw = (smtp.received[0]?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const page = 'https://ised-isde.canada.ca/cipo/trademark-search/1829192';
    assert.ok(raw.includes('Office: CIPO (CA), CA application 1829192'), 'text: the number');
    assert.ok(raw.includes(`Public record (Canadian Trademarks Database): ${page}`), 'text: page');
    assert.ok(raw.includes(`CA application <a href="${page}">1829192</a>`), 'HTML: the link');
    assert.match(raw, /, NZ application 1234567\r?\n/, 'another office: its number, no link');
    assert.doesNotMatch(raw, /CA-1829192|NZ-1234567/, 'never the mirror key as the number');
  });

  it('emailedAt is set on every alert of the message once the server accepted it, not before', async () => {
    const { watch } = await scannedWatch('team');
    assert.ok((await emailedAt(watch.id)).every((a) => a.emailed_at === null));
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    await flushDueEmails(db, transport, logger);
    transport.close();
    const rows = await emailedAt(watch.id);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((a) => a.emailed_at instanceof Date));
  });

  it('a refusing server leaves emailedAt null and the message is retried with backoff until it is accepted, once', async () => {
    const { watch } = await scannedWatch('team');
    smtp.state.refuse = true;
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 0, failed: 1 });
    assert.ok((await emailedAt(watch.id)).every((a) => a.emailed_at === null));
    const [row] = await db.query<{ attempts: number; wait: number; last_error: string }>(
      `SELECT attempts, extract(epoch FROM next_attempt_at - now())::float8 AS wait, last_error
         FROM email_outbox`,
    );
    assert.equal(row?.attempts, 1);
    assert.ok((row?.wait ?? 0) > 20, 'the retry waits instead of hammering the server');
    assert.match(row?.last_error ?? '', /550|unavailable/);

    // Not due yet: a flush now sends nothing, even though the server has recovered.
    smtp.state.refuse = false;
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 0, failed: 0 });

    await db.query('UPDATE email_outbox SET next_attempt_at = now()');
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 1, failed: 0 });
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 0, failed: 0 });
    transport.close();
    assert.equal(smtp.received.length, 1, 'no alert is e-mailed twice');
    assert.ok((await emailedAt(watch.id)).every((a) => a.emailed_at instanceof Date));
  });

  it('an unreachable server counts as a failure and loses nothing', async () => {
    await scannedWatch('team');
    const transport = smtpTransport('smtp://127.0.0.1:9', DEFAULT_MAIL_FROM);
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 0, failed: 1 });
    transport.close();
    const [row] = await db.query<{ sent_at: Date | null }>('SELECT sent_at FROM email_outbox');
    assert.equal(row?.sent_at, null);
  });

  it('free-tier alerts are in-app only: nothing is queued and emailedAt stays null', async () => {
    const { watch } = await scannedWatch('free');
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 0, failed: 0 });
    transport.close();
    assert.equal(smtp.received.length, 0);
    assert.equal((await emailedAt(watch.id)).length, 2);
    assert.ok((await emailedAt(watch.id)).every((a) => a.emailed_at === null));
  });

  it('without SMTP the message is written as an .eml file', async () => {
    await scannedWatch('solo');
    const dir = mkdtempSync(join(tmpdir(), 'tmw-outbox-'));
    try {
      const result = await flushDueEmails(db, folderTransport(dir, DEFAULT_MAIL_FROM), logger);
      assert.deepEqual(result, { sent: 1, failed: 0 });
      const files = readdirSync(dir);
      assert.equal(files.length, 1);
      assert.match(files[0] ?? '', /\.eml$/);
      const raw = readFileSync(join(dir, files[0] ?? ''), 'utf8').replace(/=\r?\n/g, '');
      assert.match(raw, /may conflict with your watch "Northwind"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('register text that would shape the e-mail is refused at import; the sender is MAIL_FROM', async () => {
    const make = factories(db);
    const { principal } = await make.makeOwner({ tier: 'solo' });
    const summary = await importRecords(db, [
      newFiling({ markText: 'NORTHWIND\r\nBcc: x@example.com' }),
      newFiling({ markText: 'NORTHWIND', ownerName: 'Evil\u2028Bcc: y@example.com' }),
      newFiling({ markText: 'NORTHWIND\u202E', ownerName: 'Bidi AG' }),
      newFiling({ markText: 'NORTH\u0007WIND' }),
      newFiling({ markText: 'NORTHWYND', ownerName: 'Honest Owner BV' }),
    ]);
    assert.equal(summary.imported, 1, JSON.stringify(summary));
    assert.deepEqual(
      summary.errors.map((e) => [e.line, e.message.split(':')[0]]),
      [
        [1, 'markText'],
        [2, 'ownerName'],
        [3, 'markText'],
        [4, 'markText'],
      ],
    );
    const watch = await make.makeWatch(principal, { name: 'Northwind', scanCadence: 'weekly' });
    await createScanner({ db, logger, publicUrl: 'https://tm.example', leaseSeconds: 60 }).scan({
      watchIds: [watch.id],
    });
    const transport = smtpTransport(smtp.url, 'Acme Watch <tm@acme.example>');
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 1, failed: 0 });
    transport.close();
    const raw = (smtp.received[0]?.raw ?? '').replace(/=\r?\n/g, '');
    assert.match(raw, /^From: Acme Watch <tm@acme\.example>\r?$/m);
    assert.match(raw, /Subject: Northwind: 1 new mark may conflict/);
    assert.match(raw, /Honest Owner BV/);
    assert.doesNotMatch(raw, /Bcc|example\.com/);
  });

  it("the first scan's existing marks go out as one summary e-mail linking to their list", async () => {
    const { user, watch } = await scannedWatch('solo', [
      makeRecord({ markText: 'NORTHWIND', filedAt: '1987-03-02' }),
      makeRecord({ markText: 'NORTHWYND', filedAt: '2019-06-11', publishedAt: '2019-09-01' }),
      makeRecord({ markText: 'NORTHWINDS', filedAt: '2026-10-01' }),
    ]);
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 1, failed: 0 });
    transport.close();
    assert.equal(smtp.received.length, 1);
    assert.deepEqual(smtp.received[0]?.to, [user.email]);
    const raw = (smtp.received[0]?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    assert.match(raw, /Subject: 3 existing marks on the register may conflict with Northwind/);
    assert.ok(
      raw.includes(`https://tm.example/alerts?origin=existing_mark&watch=${watch.id}`),
      'the link to the filtered list',
    );
    assert.doesNotMatch(raw, /newly filed/);
    assert.doesNotMatch(raw, /NORTHWYND/, 'not listed one by one');
    const rows = await db.query<{ origin: string; emailed_at: Date | null }>(
      'SELECT origin, emailed_at FROM alerts WHERE watch_id = $1',
      [watch.id],
    );
    assert.equal(rows.length, 3);
    assert.ok(rows.every((r) => r.origin === 'existing_mark' && r.emailed_at instanceof Date));
  });

  it('a new filing is e-mailed as newly filed, apart from the summary of the existing marks', async () => {
    await scannedWatch('solo', [
      newFiling({ markText: 'NORTHWIND', ownerName: 'Newcomer AG' }),
      makeRecord({ markText: 'NORTHWYND', ownerName: 'Old Hand Ltd', filedAt: '2001-08-23' }),
    ]);
    const transport = smtpTransport(smtp.url, DEFAULT_MAIL_FROM);
    assert.deepEqual(await flushDueEmails(db, transport, logger), { sent: 2, failed: 0 });
    transport.close();
    const raws = smtp.received.map((m) => m.raw.replace(/=\r?\n/g, ''));
    const newly = raws.filter((raw) => /Subject: Northwind: 1 new mark may conflict/.test(raw));
    const summary = raws.filter((raw) => /Subject: 1 existing mark on the register/.test(raw));
    assert.equal(newly.length, 1);
    assert.equal(summary.length, 1);
    assert.match(newly[0] ?? '', /found 1 newly filed mark that may conflict/);
    assert.match(newly[0] ?? '', /Newcomer AG/);
    assert.doesNotMatch(newly[0] ?? '', /Old Hand Ltd|NORTHWYND/);
  });

  it('the retry delay doubles from 30 s and is capped at an hour', () => {
    assert.deepEqual([1, 2, 3, 4].map(retryDelaySeconds), [30, 60, 120, 240]);
    assert.equal(retryDelaySeconds(50), 3600);
  });
});
