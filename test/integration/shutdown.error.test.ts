import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { MemoryRateLimitStore } from '../../src/http/rate-limit/store.ts';
import { eventually } from '../helpers/eventually.ts';
import { startTestServer } from '../helpers/server.ts';

// A request that reaches a server while it shuts down (pipelined on a kept-alive connection
// behind one still in flight) is a 503 `unavailable` in the envelope, with Retry-After, as the
// OpenAPI document declares for every operation: not Fastify's own 503 body.

/** Counts requests like the default store and says when the first one was authenticated. */
class WatchedStore extends MemoryRateLimitStore {
  private seen!: () => void;
  readonly firstHit = new Promise<void>((resolve) => {
    this.seen = resolve;
  });
  override async hit(key: string, windowStartMs: number) {
    this.seen();
    return super.hit(key, windowStartMs);
  }
}

test('a request arriving during shutdown is a 503 unavailable with Retry-After', async () => {
  const store = new WatchedStore();
  const server = await startTestServer({ rateLimit: store });
  const { authorization } = (await server.make.makeKey()).auth;
  const socket = net.connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  const ended = new Promise((resolve) => socket.once('close', resolve));
  const body = '{"state":"read"}';
  // The first request's headers only: it is in flight, waiting for its body.
  socket.write(
    `PATCH /api/v1/alerts/alt_none HTTP/1.1\r\nHost: test\r\nAuthorization: ${authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  await store.firstHit;
  const closed = server.close();
  await eventually('the listener to close', () => !server.app.server.listening, { everyMs: 1 });
  // Its body, then a second request on the same connection, after the shutdown began.
  socket.write(
    `${body}GET /api/v1/me HTTP/1.1\r\nHost: test\r\nAuthorization: ${authorization}\r\n\r\n`,
  );
  await ended;
  await closed;

  const responses = received.split(/(?=HTTP\/1\.1 )/);
  assert.equal(responses.length, 2, received);
  assert.match(responses[0] ?? '', /^HTTP\/1\.1 404 /, 'the request in flight is answered');
  const last = responses[1] ?? '';
  assert.match(last, /^HTTP\/1\.1 503 /);
  assert.match(last, /\r\nretry-after: [1-9]\d*\r\n/i);
  const envelope = JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4));
  assert.equal(envelope.error.code, 'unavailable');
  assert.equal(typeof envelope.error.message, 'string');
});
