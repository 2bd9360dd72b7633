import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Folders whose modules face users (HTTP, dashboard, command line): they call services only. */
const INTERFACES = ['http/', 'dashboard/', 'cli/', 'app.ts'];
const REPOSITORIES = 'data/repositories/';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// Static, type-only and dynamic imports and re-exports alike: a type import is a dependency too.
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm;

/** Every module of src/ (path relative to src/) with the src/ modules it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) =>
      relative(SRC, resolve(dirname(file), m[1] as string)),
    );
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** The import cycles of a graph, each as the path that closes it (Tarjan's strongly connected components). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfImport = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfImport) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('the layers of src/', () => {
  const graph = importGraph();

  it('reads the imports of every module', () => {
    assert.ok(graph.size > 100, `only ${graph.size} modules found`);
    assert.ok(graph.get('start/serve.ts')?.includes('app.ts'));
    // A dynamic import counts: the CLI loads the server on use.
    assert.ok(graph.get('cli/commands/serve.ts')?.includes('start/serve.ts'));
  });

  it('finds a cycle when there is one', () => {
    const cyclic = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    assert.deepEqual(importCycles(cyclic), [['a.ts', 'b.ts', 'c.ts']]);
  });

  it('have no import cycle', () => {
    assert.deepEqual(importCycles(graph), []);
  });

  it('let no interface module (http, dashboard, cli) import a repository', () => {
    const offenders = [...graph]
      .filter(([module]) => INTERFACES.some((folder) => module.startsWith(folder)))
      .flatMap(([module, targets]) =>
        targets.filter((t) => t.startsWith(REPOSITORIES)).map((t) => `${module} → ${t}`),
      );
    assert.deepEqual(offenders, []);
  });
});
