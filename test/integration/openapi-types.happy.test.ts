import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// A generated client can trust the document: openapi-typescript turns the served /openapi.json
// into types, and a small client program written against them (fixtures/openapi-client) type-checks
// (list, create, update, the error envelope), its deliberate mistakes included as errors.

const dir = join(import.meta.dirname, '..', 'fixtures', 'openapi-client');
const typesFile = join(dir, 'api.d.ts');

function diagnostics(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: false,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('TypeScript types generated from the served document', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    const document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    writeFileSync(typesFile, astToString(await openapiTS(document)));
  });
  after(async () => {
    rmSync(typesFile, { force: true });
    await server.close();
  });

  it('a client program using list, create, update and the error envelope type-checks', () => {
    assert.deepEqual(diagnostics([join(dir, 'client.ts')]), []);
  });

  it('the check fails where the client misuses a type', () => {
    const broken = join(dir, 'broken.ts');
    writeFileSync(
      broken,
      "import type { operations } from './api';\nexport const q: NonNullable<operations['listWatches']['parameters']['query']> = { limit: 'ten' };\n",
    );
    try {
      assert.notDeepEqual(diagnostics([broken]), []);
    } finally {
      rmSync(broken, { force: true });
    }
  });
});
