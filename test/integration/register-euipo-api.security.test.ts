// Where the euipo-api feed's credentials go: the client secret to the token endpoint only, the
// token and client id to the API's origin only, nothing across a redirect to another origin,
// nothing over plain HTTP to another machine, and none of them in a log line, report or table.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { ApiError } from '../../src/domain/errors.ts';
import type { EuipoDouble, RecordedRequest } from '../helpers/euipo-api-double.ts';
import { apiSync, euipoTestContext } from '../helpers/euipo-api-sync.ts';
import { recordingLogger } from '../helpers/register-sync.ts';

const everything = (request: RecordedRequest) =>
  `${request.path}?${request.query} ${JSON.stringify(request.headers)} ${request.body}`;

describe('the euipo-api feed: where its credentials go', () => {
  const context = euipoTestContext();
  let db: Db;
  let double: EuipoDouble;
  before(() => {
    db = context.db;
    double = context.double;
  });

  /** The bearer tokens the API was sent. */
  const tokensSent = () =>
    double.requests.api.map((r) => String(r.headers.authorization ?? '').replace('Bearer ', ''));

  it('the secret goes only to the token endpoint, the token and client id only to the API', async () => {
    double.maxPageSize = 2;
    const report = await apiSync(double, db);
    assert.equal(report.files[0]?.status, 'loaded');
    for (const request of double.requests.token) {
      assert.equal(request.headers.authorization, undefined);
      assert.match(request.body, /client_secret=/);
    }
    for (const request of double.requests.api) {
      assert.ok(!everything(request).includes(double.clientSecret), 'no secret to the API');
      assert.equal(request.headers['x-ibm-client-id'], double.clientId);
      assert.match(String(request.headers.authorization), /^Bearer tok-/);
    }
  });

  it('a redirect of the API to another origin is followed without the token or the client id', async () => {
    double.pages.set(0, { kind: 'redirect', location: `${double.elsewhereUrl}trademarks?page=0` });
    const report = await apiSync(double, db);
    assert.equal(report.files[0]?.status, 'failed');
    assert.equal(double.requests.elsewhere.length, 1, 'the redirect was followed');
    const [elsewhere] = double.requests.elsewhere;
    assert.ok(elsewhere);
    assert.equal(elsewhere.headers.authorization, undefined);
    assert.equal(elsewhere.headers['x-ibm-client-id'], undefined);
    assert.ok(!everything(elsewhere).includes(double.clientSecret));
  });

  it('a redirect of the token endpoint is not followed: the secret never leaves for another origin', async () => {
    double.tokenRedirect = `${double.elsewhereUrl}steal`;
    const report = await apiSync(double, db);
    assert.equal(report.files[0]?.status, 'failed');
    assert.match(report.files[0]?.reason ?? '', /token endpoint/);
    assert.deepEqual(double.requests.elsewhere, []);
    assert.equal(double.requests.api.length, 0);
  });

  it('no secret or token is in a log line, the report or the register_files row', async () => {
    const { logger, lines } = recordingLogger();
    double.pages.set(0, { kind: 'status', status: 503, times: 1 });
    const loaded = await apiSync(double, db, { logger });
    double.reset();
    double.tokenStatus = 401;
    const refused = await apiSync(double, db, { logger, since: '2026-03-01' });
    assert.deepEqual([loaded.files[0]?.status, refused.files[0]?.status], ['loaded', 'failed']);
    const rows = await db.query('SELECT * FROM register_files');
    const written = JSON.stringify([lines, loaded, refused, rows]);
    assert.ok(lines.length > 0, 'the syncs logged');
    for (const secret of [double.clientSecret, ...tokensSent()].filter((s) => s !== '')) {
      assert.ok(!written.includes(secret), 'a secret was written');
    }
  });

  const REFUSED: [string, (d: EuipoDouble) => Partial<Parameters<typeof apiSync>[2]>, RegExp][] = [
    [
      'a token endpoint over plain HTTP on another machine',
      (d) => ({
        euipo: {
          clientId: d.clientId,
          clientSecret: d.clientSecret,
          tokenUrl: 'http://auth.example.invalid/oidc/accessToken',
        },
      }),
      /the token endpoint at http:\/\/auth\.example\.invalid\/oidc\/accessToken is not HTTPS/,
    ],
    [
      'an API over plain HTTP on another machine',
      () => ({ url: 'http://api.example.invalid/trademark-search' }),
      /the API at http:\/\/api\.example\.invalid\/trademark-search is not HTTPS/,
    ],
    [
      'no credentials',
      () => ({ euipo: undefined }),
      /feed euipo-api cannot sync: .*set EUIPO_CLIENT_ID and EUIPO_CLIENT_SECRET/,
    ],
  ];
  for (const [what, options, message] of REFUSED) {
    it(`${what} is refused before any request`, async () => {
      await assert.rejects(
        apiSync(double, db, options(double)),
        (error: unknown) =>
          error instanceof ApiError && error.kind === 'unavailable' && message.test(error.message),
      );
      assert.equal(double.requests.token.length + double.requests.api.length, 0);
      assert.deepEqual(await db.query('SELECT 1 FROM register_files'), []);
    });
  }
});
