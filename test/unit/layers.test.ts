import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Folders whose modules face users (HTTP, dashboard, command line): they call services only. */
const INTERFACES = ['http/', 'dashboard/', 'cli/', 'app.ts'];
const REPOSITORIES = 'data/repositories/';
/** The register readers: pure parsing, whose only I/O is reading the file they are given. */
const REGISTER = 'register/';
/** Packages that reach a database, a socket or another process. */
const IO_PACKAGES = [
  'node:child_process',
  'node:dgram',
  'node:dns',
  'node:http',
  'node:http2',
  'node:https',
  'node:net',
  'node:tls',
  'node:worker_threads',
  '@electric-sql/pglite',
  'ioredis',
  'nodemailer',
  'postgres',
];
/** The parts of node:fs that change files: reading one is all a register reader may do. */
const FILE_WRITES = new Set([
  'appendFile',
  'copyFile',
  'cp',
  'createWriteStream',
  'mkdir',
  'mkdtemp',
  'rename',
  'rm',
  'rmdir',
  'truncate',
  'unlink',
  'writeFile',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// Static, type-only and dynamic imports and re-exports alike: a type import is a dependency too.
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm;

// The same forms, for what is not a path: node's modules and packages.
const PACKAGE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'([^.'][^']*)'/gm;
// The names a module imports from node:fs or node:fs/promises (`{ a, b as c }`; sync forms too).
const FS_NAMES = /\bimport\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'node:fs(?:\/promises)?'/g;
const FS_WHOLE = /\bimport\s+(?:\*\s+as\s+)?\w+\s+from\s*'node:fs(?:\/promises)?'/;

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

/** What a module does beyond computing: the I/O packages and file-changing calls it imports. */
function ioOf(module: string): string[] {
  const text = readFileSync(join(SRC, module), 'utf8');
  const packages = [...text.matchAll(PACKAGE_IMPORT)]
    .map((m) => m[1] as string)
    .filter((name) => IO_PACKAGES.includes(name));
  const writes = [...text.matchAll(FS_NAMES)]
    .flatMap((m) => (m[1] as string).split(','))
    .map(
      (name) =>
        name
          .trim()
          .split(/\s+as\s+/)[0]
          ?.replace(/Sync$/, '') ?? '',
    )
    .filter((name) => FILE_WRITES.has(name))
    .map((name) => `node:fs ${name}`);
  // A whole-module import of node:fs could call anything: a reader names what it uses.
  const whole = FS_WHOLE.test(text) ? ['node:fs (whole module)'] : [];
  return [...packages, ...writes, ...whole];
}

/** The modules a module reaches through its imports, itself included. */
function reachable(graph: Map<string, string[]>, from: string): string[] {
  const seen = new Set<string>([from]);
  const queue = [from];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const next of graph.get(node) ?? []) {
      if (graph.has(next) && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen];
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

/** The folder of a module (its first path segment); a file at the top of src/ is its own. */
export function folderOf(module: string): string {
  const slash = module.indexOf('/');
  return slash === -1 ? module : module.slice(0, slash);
}

/** The graph of folders: an edge wherever a module of one imports a module of another. */
export function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [module, targets] of graph) {
    const from = folderOf(module);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      if (graph.has(target) && folderOf(target) !== from) edges.add(folderOf(target));
    }
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** The modules through which `from` imports `to`, for a readable failure. */
function edgesBetween(graph: Map<string, string[]>, from: string, to: string): string[] {
  return [...graph].flatMap(([module, targets]) =>
    folderOf(module) === from
      ? targets.filter((t) => graph.has(t) && folderOf(t) === to).map((t) => `${module} → ${t}`)
      : [],
  );
}

/** The SQL that only modules of src/data may hold: a statement at the start of a string literal. */
const SQL_STATEMENT =
  /^\s*(SELECT|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS|CREATE\s+(?:TABLE|INDEX|UNIQUE|OR)|ALTER\s+TABLE|DROP\s+(?:TABLE|INDEX)|TRUNCATE|COPY\s+\S+|SET\s+CONSTRAINTS|BEGIN|COMMIT|ROLLBACK)\b/;
/** The database drivers: only src/data opens a connection. */
const DRIVERS = ['postgres', '@electric-sql/pglite'];

// Each module is parsed once for the checks that read its syntax tree.
const parsed = new Map<string, ts.SourceFile>();
function syntaxOf(text: string): ts.SourceFile {
  let source = parsed.get(text);
  if (source === undefined) {
    source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true);
    parsed.set(text, source);
  }
  return source;
}

/** The string and template literals of a module that begin like an SQL statement. */
export function sqlLiterals(text: string): string[] {
  const source = syntaxOf(text);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const literal =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node.text
        : ts.isTemplateExpression(node)
          ? node.head.text
          : null;
    if (literal !== null && SQL_STATEMENT.test(literal)) found.push(literal.trim().slice(0, 40));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions (declarations, methods, arrows) of a module longer than `max` lines. */
export function longFunctions(text: string, max: number): string[] {
  const source = syntaxOf(text);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = 'name' in node && node.name ? node.name.getText(source) : '(anonymous)';
      if (last - first + 1 > max)
        found.push(`${name} at line ${first + 1}: ${last - first + 1} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The fields of a module's exported object types that are snake_case (column names). */
export function snakeCaseFields(text: string): string[] {
  const fields: string[] = [];
  for (const type of text.matchAll(/^export type (\w+)[^=]*=[^{;]*\{/gm)) {
    // The type's body: up to the brace that closes the first one, nested objects included.
    let depth = 1;
    let end = (type.index as number) + type[0].length;
    for (; end < text.length && depth > 0; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}') depth--;
    }
    const body = text.slice((type.index as number) + type[0].length, end);
    for (const field of body.matchAll(/(?:^|[{;,])\s*([a-z0-9]+_[a-z0-9_]*)\??:/gm)) {
      fields.push(`${type[1]}.${field[1]}`);
    }
  }
  return fields;
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

  it('have no cycle between folders either (a file at the top of src/ counts as its own)', () => {
    const sample = new Map([
      ['a/one.ts', ['b/two.ts']],
      ['b/two.ts', []],
      ['b/three.ts', ['a/four.ts']],
      ['a/four.ts', []],
      ['top.ts', ['a/one.ts']],
    ]);
    assert.deepEqual(
      importCycles(folderGraph(sample)),
      [['a', 'b']],
      'no module cycle, a folder one',
    );
    const cycles = importCycles(folderGraph(graph));
    const explained = cycles.map((folders) =>
      folders.flatMap((from) =>
        folders.filter((to) => to !== from).flatMap((to) => edgesBetween(graph, from, to)),
      ),
    );
    assert.deepEqual(explained, []);
  });

  it('keep SQL under data/: no statement text and no database driver anywhere else', () => {
    assert.deepEqual(
      sqlLiterals(
        `const a = 'SELECT 1'; const b = \`UPDATE t SET x = \${1}\`; const c = 'Select a plan';`,
      ),
      ['SELECT 1', 'UPDATE t SET x ='],
    );
    const offenders = [...graph.keys()]
      .filter((module) => !module.startsWith('data/'))
      .flatMap((module) => {
        const text = readFileSync(join(SRC, module), 'utf8');
        const drivers = [...text.matchAll(PACKAGE_IMPORT)]
          .map((m) => m[1] as string)
          .filter((name) => DRIVERS.includes(name));
        return [...sqlLiterals(text), ...drivers].map((what) => `${module}: ${what}`);
      });
    assert.deepEqual(offenders, []);
  });

  it('take the time from the clock they are given: no new Date() or Date.now() but in clock.ts', () => {
    const NOW = /\bnew Date\(\s*\)|\bDate\.now\(\s*\)/;
    const offenders = [...graph.keys()].filter(
      (module) => module !== 'clock.ts' && NOW.test(readFileSync(join(SRC, module), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('have no function longer than 100 lines', () => {
    const sample = `function short() {\n  return 1;\n}\nconst long = () => {\n${'  step();\n'.repeat(99)}};\n`;
    assert.deepEqual(longFunctions(sample, 100), ['(anonymous) at line 4: 101 lines']);
    // Every folder of src/ is held to it but register/, whose readers are being split into smaller
    // parts of their own; matching/ is, since each match rule has a file of its own (rules/).
    const offenders = [...graph.keys()]
      .filter((module) => !module.startsWith('register/'))
      .flatMap((module) =>
        longFunctions(readFileSync(join(SRC, module), 'utf8'), 100).map((f) => `${module}: ${f}`),
      );
    assert.deepEqual(offenders, []);
  });

  it('let no interface module (http, dashboard, cli) import a repository', () => {
    const offenders = [...graph]
      .filter(([module]) => INTERFACES.some((folder) => module.startsWith(folder)))
      .flatMap(([module, targets]) =>
        targets.filter((t) => t.startsWith(REPOSITORIES)).map((t) => `${module} → ${t}`),
      );
    assert.deepEqual(offenders, []);
  });

  it('keep register/ pure parsing: no module it reaches touches the database, the network or writes a file', () => {
    const offenders = [...graph.keys()]
      .filter((module) => module.startsWith(REGISTER))
      .flatMap((module) =>
        reachable(graph, module).flatMap((reached) => {
          const via = reached === module ? module : `${module} → … → ${reached}`;
          if (reached.startsWith('data/')) return [via];
          return ioOf(reached).map((io) => `${via} (${io})`);
        }),
      );
    assert.deepEqual(offenders, []);
  });

  it('have repositories return camelCase records: no exported type names a column', () => {
    const sample = `export type A = {\n  id: string;\n  owner_id: string;\n};
export type B = { id: string; created_at: Date };
export type C = Base & { nested: { last_seen: Date } };\n`;
    assert.deepEqual(snakeCaseFields(sample), ['A.owner_id', 'B.created_at', 'C.last_seen']);
    const offenders = [...graph.keys()]
      .filter((module) => module.startsWith(REPOSITORIES))
      .flatMap((module) =>
        snakeCaseFields(readFileSync(join(SRC, module), 'utf8')).map((f) => `${module}: ${f}`),
      );
    assert.deepEqual(offenders, []);
  });
});
