import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createClient, retryAfterSeconds, TrademarkWatchError } from '../src/index.js';

// The retry and slow-down rules need answers the real service gives only at its limits (a 429
// after 60 requests, a 503 in an outage), so these tests script them with a real HTTP server.
type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

describe('client policy: Retry-After, jitter, attempts and slow-down', () => {
  const answers: Answer[] = [];
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let baseUrl = '';
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      });
      const answer = answers.shift() ?? { status: 200, body: { data: { ok: true } } };
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(
        JSON.stringify(answer.body ?? { error: { code: 'rate_limited', message: 'slow down' } }),
      );
    });
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  let sleeps: number[] = [];
  beforeEach(() => {
    answers.length = 0;
    seen.length = 0;
    sleeps = [];
  });
  const client = (maxAttempts?: number) =>
    createClient({
      baseUrl,
      apiKey: 'tmw_test',
      maxAttempts,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
  const watch = { id: 'wat_1' };

  it('on 429 it waits Retry-After plus jitter (here 12.5%) and sends the same request again', async () => {
    answers.push(
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 201, body: { data: watch } },
    );
    const created = await client().watches.create({
      watchType: 'trademark',
      name: 'Acme',
      attributes: { niceClasses: [9], designations: ['DE'] },
    });
    assert.deepEqual(created, watch);
    assert.deepEqual(sleeps, [2250]);
    assert.equal(seen.length, 2);
    assert.equal(seen[1]?.body, seen[0]?.body, 'the body is sent again');
    assert.equal(seen[1]?.headers.authorization, 'Bearer tmw_test');
  });

  it('jitter stays within 25% of Retry-After', async () => {
    for (const r of [0, 0.999]) {
      sleeps = [];
      answers.push(
        { status: 429, headers: { 'retry-after': '4' } },
        { status: 200, body: { data: watch } },
      );
      await createClient({
        baseUrl,
        apiKey: 'k',
        random: () => r,
        sleep: async (ms) => void sleeps.push(ms),
      }).watches.get('wat_1');
      assert.ok((sleeps[0] ?? 0) >= 4000 && (sleeps[0] ?? 0) < 5000, String(sleeps[0]));
    }
  });

  it('a 503 is retried the same way', async () => {
    answers.push(
      { status: 503, headers: { 'retry-after': '1' } },
      { status: 200, body: { data: watch } },
    );
    assert.deepEqual(await client().watches.get('wat_1'), watch);
    assert.deepEqual(sleeps, [1125]);
  });

  it('gives up after maxAttempts and throws the API error', async () => {
    for (let i = 0; i < 5; i++) answers.push({ status: 429, headers: { 'retry-after': '1' } });
    await assert.rejects(client(3).watches.get('wat_1'), (error: unknown) => {
      assert.ok(error instanceof TrademarkWatchError);
      assert.equal(error.status, 429);
      assert.equal(error.code, 'rate_limited');
      return true;
    });
    assert.equal(seen.length, 3);
    assert.equal(sleeps.length, 2);
  });

  it('other errors are not retried', async () => {
    answers.push({ status: 404, body: { error: { code: 'not_found', message: 'gone' } } });
    await assert.rejects(client().watches.get('wat_1'), /gone/);
    assert.equal(seen.length, 1);
  });

  it('slows down when X-RateLimit-Remaining drops below 10% of the limit', async () => {
    const c = client();
    answers.push({
      status: 200,
      headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '30' },
      body: { data: watch },
    });
    await c.watches.get('wat_1');
    await c.watches.get('wat_1');
    assert.deepEqual(sleeps, [], 'plenty left: no waiting');
    answers.push({
      status: 200,
      headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '5' },
      body: { data: watch },
    });
    await c.watches.get('wat_1');
    await c.watches.get('wat_1');
    assert.equal(sleeps.length, 1);
    assert.ok(
      (sleeps[0] ?? 0) > 900 && (sleeps[0] ?? 0) <= 1000,
      `one request per second: ${sleeps[0]}`,
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T09:30:00Z');
    assert.equal(retryAfterSeconds('7', now), 7);
    assert.equal(retryAfterSeconds('Sun, 22 Nov 2026 09:30:30 GMT', now), 30);
    assert.equal(retryAfterSeconds('soon', now), null);
    assert.equal(retryAfterSeconds(null, now), null);
  });
});
