import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../helpers/eventually.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Entry = { level: number; msg: string; url?: string; [key: string]: unknown };
const entries = (server: TestServer): Entry[] => server.logs.map((line) => JSON.parse(line));
const INFO = 30;

const waitFor = (check: () => boolean) =>
  eventually('the log line', check, { timeoutMs: 5_000, everyMs: 10 });

describe('request logs at the default level', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ captureLogs: true });
  });
  after(() => server.close());

  it('ordinary requests write nothing at info', async () => {
    const { auth } = await server.make.makeKey();
    await server.request('GET', '/healthz');
    await server.request('GET', '/api/v1/me', { headers: auth });
    await server.request('GET', '/sign-in');
    assert.deepEqual(
      entries(server).filter((entry) => entry.level >= INFO && entry.reqId !== undefined),
      [],
    );
  });

  it('a client that abandons a dashboard request is info at most, without a stack', async () => {
    const before = server.logs.length;
    const { port } = new URL(server.baseUrl);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
            'Content-Length: 1000\r\n\r\nemail=a%40b.example&pass',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', reject);
    });
    await waitFor(() => server.logs.length > before);
    for (const line of server.logs.slice(before)) {
      const entry = JSON.parse(line) as Entry;
      assert.ok(entry.level <= INFO, `logged above info: ${line}`);
      assert.doesNotMatch(line, /stack/i);
    }
  });
});

describe('request logs at debug', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ captureLogs: true, captureLevel: 'debug' });
  });
  after(() => server.close());

  it('one line per request, without a start line', async () => {
    const before = server.logs.length;
    await server.request('GET', '/healthz');
    await waitFor(() => server.logs.length > before);
    const lines = entries(server).slice(before);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0]?.url, '/healthz');
    assert.equal(lines[0]?.statusCode, 200);
  });

  it('a key in the query string never reaches the log', async () => {
    const { key } = await server.make.makeKey();
    const before = server.logs.length;
    const res = await server.request('GET', `/api/v1/me?api_key=${key}&x=1&token=opaque-secret`);
    assert.equal(res.status, 401);
    const other = await server.request('GET', `/api/v1/watches/${key}?q=${key}`);
    assert.equal(other.status, 401);
    await waitFor(() => server.logs.length >= before + 2);
    const logged = server.logs.slice(before).join('\n');
    assert.equal(logged.includes(key), false, logged);
    assert.equal(logged.includes(key.slice(4)), false, logged);
    assert.equal(logged.includes('opaque-secret'), false, logged);
    assert.match(logged, /api_key=\[redacted\]&x=1/);
  });
});
