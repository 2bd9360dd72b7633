import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The README's examples are what a user copies first: they must compile against this package as
// published. Its ```ts blocks are type-checked together (later ones use the `client` of the
// first), with the package name resolved to this checkout's source.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function readmeProgram(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  assert.ok(blocks.length >= 3, `${blocks.length} TypeScript examples in the README`);
  return `${blocks.join('\n')}\nexport {};\n`;
}

function diagnostics(source: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'tmw-client-readme-'));
  try {
    const file = join(dir, 'readme.ts');
    writeFileSync(file, source);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      baseUrl: root,
      paths: { '@trademark-watch/client': [join(root, 'src', 'index.ts')] },
    });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const where =
        d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      return where ? `example line ${where.line + 1}: ${text}` : text;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('README', () => {
  it('its TypeScript examples type-check against the package', () => {
    assert.deepEqual(diagnostics(readmeProgram()), []);
  });

  it('the check catches an example that misuses a type', () => {
    const broken = `${readmeProgram()}\nclient.watches.list({ active: 'yes' });\n`;
    assert.notDeepEqual(diagnostics(broken), []);
  });

  it('does not tell users to install it from the registry, where it is not published', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.doesNotMatch(readme, /^npm install @trademark-watch\/client/m);
  });
});
