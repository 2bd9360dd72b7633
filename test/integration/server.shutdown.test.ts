import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import {
  freshInstallation,
  makeKey,
  printedObject,
  type ServeProcess,
  startServe,
  tmwatch,
} from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';

/** Resolves once the server's log has a line matching `pattern` (the log is on stderr). */
async function logged(server: ServeProcess, pattern: RegExp): Promise<void> {
  await eventually(`log line ${pattern}`, () => pattern.test(server.stderr()), {
    timeoutMs: 30_000,
    everyMs: 20,
  }).catch((error: Error) => {
    throw new Error(`${error.message}:\n${server.stderr()}`);
  });
}

test('SIGTERM lets a request in flight finish, refuses new connections, then exits 0', async (t) => {
  const install = await freshInstallation();
  t.after(() => install.cleanup());
  const { key } = await makeKey(install.env);
  // At trace the server logs the start of each request: the sign that the slow one is in flight.
  const server = await startServe({ ...install.env, LOG_LEVEL: 'trace' });
  t.after(() => server.stop('SIGKILL'));
  const url = new URL(server.url);

  // A watch created with a body that arrives in two parts, the second only after SIGTERM: the
  // request is in flight for the whole shutdown.
  const body = JSON.stringify({
    watchType: 'trademark',
    name: 'Slow Upload',
    attributes: { niceClasses: [9], designations: ['DE'] },
  });
  const slow = request({
    host: url.hostname,
    port: url.port,
    method: 'POST',
    path: '/api/v1/watches',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    },
  });
  const response = new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
    slow.on('error', reject);
    slow.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
  });
  slow.write(body.slice(0, 20));
  await logged(server, /"method":"POST","url":"\/api\/v1\/watches".*"msg":"incoming request"/);

  server.child.kill('SIGTERM');
  await logged(server, /shutting down/);
  await assert.rejects(fetch(`${server.url}/healthz`), 'a new connection is refused');

  slow.end(body.slice(20));
  const answer = await response;
  assert.equal(answer.status, 201);
  assert.equal(JSON.parse(answer.body).data.name, 'Slow Upload');
  assert.equal(await server.exited, 0);
});

test('SIGINT stops an idle server at once with status 0 and frees the embedded database', async (t) => {
  const install = await freshInstallation({ embedded: true });
  t.after(() => install.cleanup());
  const server = await startServe(install.env);
  const started = Date.now();
  assert.equal(await server.stop('SIGINT'), 0);
  assert.ok(Date.now() - started < 10_000, 'no wait for a shutdown timeout');
  // The next process may open the database right away.
  printedObject(await tmwatch(['migrate'], install.env));
});
