import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freshInstallation, type Installation, startServe } from '../helpers/cli.ts';

// E-mail links come from PUBLIC_URL; its default only works on the server itself, so a server
// started without it says so once, in the log, and one started with it does not.

const WARNING = /PUBLIC_URL is not set/;

describe('tmwatch serve and PUBLIC_URL', () => {
  let install: Installation;
  before(async () => {
    install = await freshInstallation();
  });
  after(async () => {
    await install.cleanup();
  });

  test('without PUBLIC_URL the server warns at start', async () => {
    const server = await startServe(install.env);
    try {
      const lines = server
        .stderr()
        .split('\n')
        .filter((line) => WARNING.test(line));
      assert.equal(lines.length, 1, server.stderr());
      assert.equal(JSON.parse(lines[0] ?? '{}').level, 40);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('with PUBLIC_URL it does not', async () => {
    const server = await startServe({ ...install.env, PUBLIC_URL: 'https://watch.example.com' });
    try {
      assert.doesNotMatch(server.stderr(), WARNING);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
