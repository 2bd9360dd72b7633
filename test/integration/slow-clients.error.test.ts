import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../helpers/eventually.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// A client that trickles its request holds a connection (and a slot of the process) until the
// request time-out: here 1.5 s instead of the default 30 s, so the test is quick.
const REQUEST_TIMEOUT_MS = 1_500;

/** Everything the server sends until it closes the connection, and how long that took. */
function untilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
  });
}

function open(server: TestServer): Promise<Socket> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('slow clients', { timeout: 20_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      app: { requestTimeoutMs: REQUEST_TIMEOUT_MS, maxConnections: 3 },
    });
  });
  after(() => server.close());

  it('a body trickled a byte at a time gets 408 and its connection closed at the time-out', async () => {
    const socket = await open(server);
    const closed = untilClosed(socket);
    socket.write(
      'POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        'Content-Length: 100000\r\n\r\n',
    );
    const trickle = setInterval(() => {
      if (socket.writable) socket.write('a');
    }, 200);
    try {
      const { text, ms } = await closed;
      assert.match(text, /^HTTP\/1\.1 408 /);
      assert.match(text, /"code":"request_timeout"/);
      assert.ok(ms < REQUEST_TIMEOUT_MS + 2_000, `closed after ${ms} ms`);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('headers that never end get 408 and the connection closed', async () => {
    const socket = await open(server);
    const closed = untilClosed(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const { text } = await closed;
    assert.match(text, /^HTTP\/1\.1 408 /);
  });

  it('connections beyond MAX_CONNECTIONS are closed on arrival; the others are served', async () => {
    const held = [await open(server), await open(server), await open(server)];
    try {
      const extra = await open(server);
      const { text } = await untilClosed(extra);
      assert.equal(text, '');
    } finally {
      for (const socket of held) socket.destroy();
    }
    // Once the held ones are gone the server answers again.
    await waitFor(async () => (await fetch(`${server.baseUrl}/healthz`)).status === 200);
  });
});

const waitFor = (check: () => Promise<boolean>) =>
  eventually('the condition', check, { timeoutMs: 5_000, everyMs: 0, ignoreErrors: true });
