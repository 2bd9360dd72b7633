import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createLogger } from '../../src/logger.ts';
import { importRecordFiles } from '../../src/mirror/import.ts';
import { createScanner } from '../../src/scan/scanner.ts';
import { deliverDueWebhooks } from '../../src/webhooks/sender.ts';
import { type Auth, createWatch } from '../helpers/api.ts';
import { clockAt } from '../helpers/clock.ts';
import { type DashboardClient, signedIn, textOf } from '../helpers/dashboard.ts';
import { importRecords, makeRecord } from '../helpers/register.ts';
import { USPTO_DIR } from '../helpers/register-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

const logger = createLogger('silent');
// The day the scans of this file run: every opposition window is counted from it.
const TODAY = '2026-11-27T10:00:00.000Z';
// A real EUIPO bulk record (provenance in test/fixtures/euipo-bulk): Preflet, registered, class 9.
const PREFLET = 'test/fixtures/euipo-bulk/bekone97_EM-TM-V3-4_018173421.xml';

type Hit = {
  status: string | null;
  removedAt: string | null;
  live: boolean | null;
  opposition: { closesAt: string; extendableUntil: string | null } | null;
};
type Alert = { id: string; severity: string; rationale: string; hit: Hit };

describe('live or dead: a dead record raises nothing, and an alert follows its record', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let auth: Auth;
  let dashboard: DashboardClient;

  before(async () => {
    server = await startTestServer({ webhookAllowPrivateUrls: true, clock: clockAt(TODAY) });
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    await server.db.query('DELETE FROM webhooks');
    // One owner, with an API key and a dashboard session.
    const { user, client } = await signedIn(server, { tier: 'team' });
    auth = (await server.make.makeKey({ userId: user.id })).auth;
    dashboard = client;
  });

  const scan = (watchId: string) =>
    createScanner({
      db: server.db,
      logger,
      publicUrl: 'https://tm.example',
      leaseSeconds: 60,
      clock: clockAt(TODAY),
    }).scan({ watchIds: [watchId] });

  async function alertsOf(watchId: string): Promise<Alert[]> {
    const res = await server.request('GET', `/api/v1/alerts?watchId=${watchId}`, {
      headers: auth,
    });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  const watchFor = (name: string, niceClasses: number[], designations: string[]) =>
    createWatch(server, auth, { name, attributes: { niceClasses, designations } });

  const deliver = () => deliverDueWebhooks(server.db, logger, { allowPrivate: true });

  /** The `index`th webhook request the receiver got, delivered now and verified with `secret`. */
  async function webhookEvent(secret: string, index: number) {
    await deliver();
    await receiver.receivedCount(index + 1);
    const request = receiver.received[index];
    assert.ok(request);
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
      type: string;
      data: Alert;
    };
  }

  it('a dead USPTO record (R RACINO, status 602 abandoned) raises no alert; revived (616), it does', async () => {
    await importRecordFiles(server.db, [join(USPTO_DIR, 'tmterminal_revival-before-98186103.xml')]);
    const watch = await watchFor('R Racino', [41], ['US']);
    // A watch looking since before the filing (2023-09-19): the revived record is a new filing,
    // e-mailed one by one with its live line, not in the summary of existing marks.
    await server.db.query("UPDATE watches SET created_at = '2023-01-01T00:00:00Z' WHERE id = $1", [
      watch.id,
    ]);
    await scan(watch.id);
    assert.deepEqual(await alertsOf(watch.id), [], 'abandoned: nothing to raise');

    // The office's next version of the same case-file: revived, live again.
    await importRecordFiles(server.db, [join(USPTO_DIR, 'tmterminal_revival-after-98186103.xml')]);
    await scan(watch.id);
    const [alert, ...more] = await alertsOf(watch.id);
    assert.equal(more.length, 0);
    assert.equal(alert?.hit.live, true);
    assert.equal(alert?.severity, 'high');
    // The e-mail and the CSV say it too.
    const [mail] = await server.db.query<{ text: string }>(
      'SELECT body_text AS text FROM email_outbox WHERE $1 = ANY(alert_ids)',
      [alert?.id],
    );
    assert.match(mail?.text ?? '', /Status: pending\n {2}Live or dead: live\n/);
    const csv = await dashboard.get(`/alerts.csv?watch=${watch.id}`);
    const [header, row] = csv.text.replace(/^\uFEFF/, '').split('\r\n');
    assert.match(header ?? '', /,office_number,live,origin,removed$/);
    assert.match(row ?? '', /,98186103,true,new_filing,$/, 'not removed: the last cell is empty');
  });

  it('a record that dies behind an alert turns it low and dead, and reviving makes it high again; each change is alert.updated', async () => {
    const hook = await server.request('POST', '/api/v1/webhooks', {
      headers: auth,
      body: { url: receiver.url, events: ['alert.updated'] },
    });
    assert.equal(hook.status, 201, hook.text);
    const secret: string = hook.body.data.secret;
    const name = `Quorvane${Math.random().toString(36).slice(2, 10)}`;
    const record = makeRecord({ markText: name.toUpperCase(), status: 'published', classes: [9] });
    await importRecords(server.db, [record]);
    const watch = await watchFor(name, [9], ['DE']);
    await scan(watch.id);
    const [raised] = await alertsOf(watch.id);
    assert.equal(raised?.severity, 'high');
    assert.equal(raised?.hit.live, true);

    const eventAt = (index: number) => webhookEvent(secret, index);

    // The office refuses it: the same record, imported again with its new status.
    await importRecords(server.db, [{ ...record, status: 'abandoned' }]);
    await scan(watch.id);
    const [dead, ...others] = await alertsOf(watch.id);
    assert.equal(others.length, 0, 'the same alert, not a new one');
    assert.equal(dead?.id, raised?.id);
    assert.equal(dead?.hit.status, 'abandoned');
    assert.equal(dead?.hit.live, false);
    assert.equal(dead?.severity, 'low');
    assert.match(dead?.rationale ?? '', /the record is dead at its office \(status abandoned\)/);
    const died = await eventAt(0);
    assert.equal(died.type, 'alert.updated');
    assert.equal(died.data.id, raised?.id);
    assert.equal(died.data.hit.live, false);
    assert.equal(died.data.severity, 'low');

    // Restored: live again, and high again.
    await importRecords(server.db, [{ ...record, status: 'registered' }]);
    await scan(watch.id);
    const [revived] = await alertsOf(watch.id);
    assert.equal(revived?.hit.status, 'registered');
    assert.equal(revived?.hit.live, true);
    assert.equal(revived?.severity, 'high');
    const back = await eventAt(1);
    assert.equal(back.type, 'alert.updated');
    assert.equal(back.data.hit.live, true);

    // A scan that meets nothing new changes nothing and sends nothing.
    await scan(watch.id);
    await deliver();
    assert.equal(receiver.received.length, 2);
  });

  it('a record the office deletes behind an alert (EUIPO operationCode="Delete") turns it low and says so; published again, the alert follows it back', async () => {
    const hook = await server.request('POST', '/api/v1/webhooks', {
      headers: auth,
      body: { url: receiver.url, events: ['alert.updated'] },
    });
    assert.equal(hook.status, 201, hook.text);
    const secret: string = hook.body.data.secret;
    const insert = readFileSync(PREFLET, 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'removed-'));
    try {
      // The office's diff file that deletes it, as its real Delete operations read (the record's
      // own file with the operation and a later transaction date).
      const deletion = join(dir, 'DIFF_EUTMS_1.xml');
      writeFileSync(
        deletion,
        insert
          .replace('operationCode="Insert"', 'operationCode="Delete"')
          .replace('2020-06-08T', '2020-12-01T'),
      );
      await server.db.query("DELETE FROM marks WHERE external_id = 'EM500000018173421'");
      await importRecordFiles(server.db, [PREFLET]);
      const watch = await watchFor('Preflet', [9], ['DE']);
      await scan(watch.id);
      const [raised, ...more] = await alertsOf(watch.id);
      assert.equal(more.length, 0);
      assert.notEqual(raised?.severity, 'low');
      assert.equal(raised?.hit.removedAt, null);

      const eventAt = (index: number) => webhookEvent(secret, index);

      assert.equal((await importRecordFiles(server.db, [deletion])).deleted, 1);
      await scan(watch.id);
      const [removed, ...others] = await alertsOf(watch.id);
      assert.equal(others.length, 0, 'the same alert, not a new one');
      assert.equal(removed?.id, raised?.id);
      assert.match(removed?.hit.removedAt ?? '', /^\d{4}-\d\d-\d\dT/);
      // The hit keeps the record as it was last held: its status is the office's last word.
      assert.equal(removed?.hit.status, raised?.hit.status);
      assert.equal(removed?.severity, 'low');
      assert.equal(removed?.hit.opposition, null);
      assert.match(
        removed?.rationale ?? '',
        /the office has deleted the record from its register, which makes the severity low/,
      );
      assert.match(
        removed?.rationale ?? '',
        /there is no application or registration left to oppose/,
      );
      const gone = await eventAt(0);
      assert.equal(gone.type, 'alert.updated');
      assert.equal(gone.data.id, raised?.id);
      assert.equal(gone.data.hit.removedAt, removed?.hit.removedAt);
      const page = await dashboard.get(`/alerts/${raised?.id}`);
      assert.match(textOf(page.text), /Deleted from the register by the office/);
      // The CSV export's last column is the day of the deletion (hit.removedAt).
      const csv = await dashboard.get(`/alerts.csv?watch=${watch.id}`);
      const [header, row] = csv.text.replace(/^\uFEFF/, '').split('\r\n');
      assert.match(header ?? '', /,origin,removed$/);
      assert.ok(row?.endsWith(`,${removed?.hit.removedAt?.slice(0, 10)}`), row);

      // A scan that meets nothing new changes nothing and sends nothing.
      await scan(watch.id);
      await deliver();
      assert.equal(receiver.received.length, 1);

      // The office publishes it again: the alert is as the record is now.
      await importRecordFiles(server.db, [PREFLET]);
      await scan(watch.id);
      const [back] = await alertsOf(watch.id);
      assert.equal(back?.id, raised?.id);
      assert.equal(back?.hit.removedAt, null);
      assert.equal(back?.severity, raised?.severity);
      assert.equal((await eventAt(1)).data.hit.removedAt, null);
      const [, again] = (await dashboard.get(`/alerts.csv?watch=${watch.id}`)).text.split('\r\n');
      assert.ok(again?.endsWith(','), `published again: no removal day (${again})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an open window reads as an action with the days left, a closed one as past, and a publication from before the rule has none', async () => {
    const name = `Velmorix${Math.random().toString(36).slice(2, 10)}`;
    const text = name.toUpperCase();
    const us = (serial: string, publishedAt: string) =>
      makeRecord({
        externalId: `US5000000${serial}`,
        markText: text,
        jurisdiction: 'US',
        status: 'published',
        classes: [9],
        publishedAt,
      });
    const open = us('97000001', '2026-11-17');
    const closed = us('97000002', '2011-03-01');
    const beforeRule = us('97000003', '1967-03-14');
    await importRecords(server.db, [open, closed, beforeRule]);
    const watch = await watchFor(name, [9], ['US']);
    await scan(watch.id);
    const byId = new Map<string, Alert>();
    for (const a of await alertsOf(watch.id)) {
      byId.set((a.hit as unknown as { externalId: string }).externalId, a);
    }

    const openAlert = byId.get(open.externalId);
    assert.equal(openAlert?.hit.opposition?.closesAt, '2026-12-17');
    assert.match(openAlert?.rationale ?? '', /closes on 2026-12-17, extendable on request/);
    const closedAlert = byId.get(closed.externalId);
    assert.equal(closedAlert?.hit.opposition?.closesAt, '2011-03-31');
    assert.match(
      closedAlert?.rationale ?? '',
      /closed on 2011-03-31 \(published for opposition on 2011-03-01\); cancellation remains possible/,
    );
    assert.doesNotMatch(closedAlert?.rationale ?? '', /closes on|extendable on request/);
    const old = byId.get(beforeRule.externalId);
    assert.equal(old?.hit.opposition, null);
    assert.match(
      old?.rationale ?? '',
      /published for opposition on 1967-03-14, before the USPTO rule this service applies came into force on 2003-11-02/,
    );

    // The review desk reads them as of today, and its deadline order puts the open window first.
    const desk = await dashboard.get(`/alerts?watch=${watch.id}&sort=deadline`);
    assert.equal(desk.status, 200);
    const page = desk.text;
    const first = page.indexOf(openAlert?.id ?? '-');
    assert.ok(first > 0 && first < page.indexOf(closedAlert?.id ?? '-'), 'open first');
    const shown = textOf(page);
    assert.match(shown, /Opposition closes in 20 days \(2026-12-17\)/);
    assert.match(shown, /Opposition closed on 2011-03-31; cancellation remains possible/);
    assert.doesNotMatch(shown, /closed on 2011-03-31; extendable/);
  });
});
