import { readFileSync } from 'node:fs';

// A .cpuprofile (V8 sampling profile, as written by --cpu-prof or the inspector) summed up for the
// console: where the server's CPU went, by area (package, source file, Node internals, GC) and by
// function (self time), plus the service's own functions with their inclusive time.

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
};

const root = new URL('../../', import.meta.url).href;

function shortUrl(url: string): string {
  if (url.startsWith(root)) return url.slice(root.length);
  return url;
}

/** The part of the system a frame belongs to. */
export function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(idle)') return '(idle: waiting for I/O)';
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(program)') return '(program: V8/native, unattributed)';
    return '(V8 builtins and native code)';
  }
  if (url.startsWith('wasm://')) return 'PGlite (PostgreSQL in WASM)';
  if (url.startsWith('node:')) {
    const name = url.slice('node:'.length);
    const parts = name.split('/');
    return `node:${parts[0] === 'internal' && parts.length > 2 ? `internal/${parts[1]}` : name}`;
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? '?');
    return name === '@electric-sql/pglite' ? 'PGlite (PostgreSQL in WASM)' : name;
  }
  return shortUrl(url);
}

function functionKey(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  return `${name}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

export function summarizeProfile(file: string, top = 12): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const total = profile.samples.length;
  if (total === 0) return ['(empty profile)'];
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / total;

  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idle = 0;
  for (const id of profile.samples) {
    const node = byId.get(id);
    if (!node) continue;
    const area = areaOf(node.callFrame);
    if (node.callFrame.functionName === '(idle)') idle += 1;
    areas.set(area, (areas.get(area) ?? 0) + 1);
    const key = functionKey(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + 1);
    // Inclusive time of the service's own functions (src/…), each counted once per stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame || !shortUrl(frame.url).startsWith('src/')) continue;
      const fk = functionKey(frame);
      if (seen.has(fk)) continue;
      seen.add(fk);
      inclusive.set(fk, (inclusive.get(fk) ?? 0) + 1);
    }
  }
  const busy = total - idle;
  const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  const lines = [
    `${total} samples over ${((total * msPerSample) / 1000).toFixed(1)} s; busy ${pct(busy)} (the rest is idle, waiting for I/O)`,
    'by area (self time):',
    ...sorted(areas)
      .slice(0, top)
      .map(([area, n]) => `  ${pct(n)}  ${area}`),
    'top functions (self time):',
    ...sorted(self)
      .filter(([key]) => key !== '(idle)')
      .slice(0, top)
      .map(([key, n]) => `  ${pct(n)}  ${key}`),
    'service functions (inclusive time):',
    ...sorted(inclusive)
      .slice(0, 8)
      .map(([key, n]) => `  ${pct(n)}  ${key}`),
  ];
  return lines;
}
