// Regenerates the TypeScript client's types from the service's OpenAPI document, or (--check)
// fails when the committed ones are stale. The document is the one the running service serves at
// /openapi.json: built from the route schemas by buildApp (on an in-memory database; building the
// document runs no query), then turned into types by openapi-typescript, the client's own dev
// dependency (npm ci in clients/typescript first).
//
//   npm run client:generate     rewrite clients/typescript/openapi.json and src/generated/api.ts
//   npm run client:check        exit 1 if either differs from what would be generated now
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { openDb } from '../src/data/db.ts';
import { MemoryRateLimitStore } from '../src/http/rate-limit/store.ts';
import { createLogger } from '../src/logger.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = join(root, 'clients', 'typescript');
const documentPath = join(clientDir, 'openapi.json');
const typesPath = join(clientDir, 'src', 'generated', 'api.ts');
const generator = join(clientDir, 'node_modules', '.bin', 'openapi-typescript');

async function openApiDocument(): Promise<string> {
  const db = await openDb({ dataDir: '', memory: true });
  try {
    const app = await buildApp({
      db,
      logger: createLogger('silent'),
      rateLimit: new MemoryRateLimitStore(),
      rateLimitPerMinute: 60,
    });
    await app.ready();
    const document = JSON.stringify(app.swagger(), null, 2);
    await app.close();
    return `${document}\n`;
  } finally {
    await db.close();
  }
}

function typesOf(documentText: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmw-client-types-'));
  try {
    const input = join(dir, 'openapi.json');
    const output = join(dir, 'api.ts');
    writeFileSync(input, documentText);
    const run = spawnSync(generator, [input, '--output', output], { encoding: 'utf8' });
    if (run.status !== 0) {
      throw new Error(`openapi-typescript failed (npm ci in clients/typescript?): ${run.stderr}`);
    }
    return readFileSync(output, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const readOrEmpty = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

const document = await openApiDocument();
const types = typesOf(document);
if (process.argv.includes('--check')) {
  const stale = [
    [documentPath, document],
    [typesPath, types],
  ].filter(([path, text]) => readOrEmpty(path ?? '') !== text);
  if (stale.length > 0) {
    console.error(
      `stale generated client files: ${stale.map(([path]) => path).join(', ')}\nrun: npm run client:generate`,
    );
    process.exit(1);
  }
  console.log('client types are up to date with the OpenAPI document');
} else {
  writeFileSync(documentPath, document);
  writeFileSync(typesPath, types);
  console.log(`wrote ${documentPath} and ${typesPath}`);
}
