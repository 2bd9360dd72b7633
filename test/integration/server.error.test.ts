import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { failureLine, freshInstallation, tmwatch } from '../helpers/cli.ts';

describe('tmwatch serve refuses to start, with one line naming the cause', () => {
  for (const [name, value] of [
    ['PORT', 'abc'],
    ['DATABASE_URL', 'foo'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
  ] as const) {
    test(`bad configuration ${name}=${value}`, async () => {
      const result = await tmwatch(['serve'], { DATA_DIR: '/nonexistent/tmwatch', [name]: value });
      assert.equal(result.status, 1);
      assert.match(failureLine(result), new RegExp(`^tmwatch: invalid configuration: ${name} `));
    });
  }

  test('REDIS_URL pointing at no Redis', async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const result = await tmwatch(['serve'], {
      ...install.env,
      PORT: '0',
      LOG_LEVEL: 'silent',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    assert.equal(result.status, 1);
    assert.match(failureLine(result), /^tmwatch: cannot reach Redis \(REDIS_URL\)/);
  });

  test('a port already in use', async (t) => {
    const install = await freshInstallation();
    t.after(() => install.cleanup());
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    t.after(() => blocker.close());
    const address = blocker.address();
    assert.ok(address && typeof address === 'object');
    const result = await tmwatch(['serve'], {
      ...install.env,
      HOST: '127.0.0.1',
      PORT: String(address.port),
      LOG_LEVEL: 'silent',
    });
    assert.equal(result.status, 1);
    assert.match(failureLine(result), /EADDRINUSE/);
  });
});
