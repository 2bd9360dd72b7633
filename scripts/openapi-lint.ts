// `npm run lint:openapi` (part of `npm run check`): Spectral's `spectral:oas` rules over the
// OpenAPI document exactly as the running app serves it at /openapi.json, failing on any warning.
// The app runs on an embedded in-memory database and a real port, like the integration tests.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { openDb } from '../src/data/db.ts';
import { MemoryRateLimitStore } from '../src/http/rate-limit/store.ts';
import { createLogger } from '../src/logger.ts';
import { migrateDatabase } from '../src/start/database.ts';

const db = await openDb({ dataDir: '', memory: true });
const dir = mkdtempSync(join(tmpdir(), 'tmw-openapi-'));
let status = 1;
try {
  await migrateDatabase(db);
  const app = await buildApp({
    db,
    logger: createLogger('silent'),
    rateLimit: new MemoryRateLimitStore(),
    rateLimitPerMinute: 60,
    publicUrl: 'https://trademark-watch.example.com',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/openapi.json`);
  const document = await response.text();
  await app.close();
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  const file = join(dir, 'openapi.json');
  writeFileSync(file, document);
  const result = spawnSync(
    'npx',
    [
      '--no-install',
      'spectral',
      'lint',
      '--fail-severity=warn',
      '--ruleset',
      '.spectral.yaml',
      file,
    ],
    { stdio: 'inherit' },
  );
  status = result.status ?? 1;
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
