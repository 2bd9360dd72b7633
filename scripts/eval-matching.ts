// Evaluates the matching rules (src/matching) on real EUIPO mark texts.
//
//   node --import tsx scripts/eval-matching.ts            (npm run eval:matching)
//   node --import tsx scripts/eval-matching.ts --no-write  (print only, leave docs alone)
//   node --import tsx scripts/eval-matching.ts --seed 7 --brands 500 --no-write --all
//                                                         (another draw; --all lists every false alert)
//   node --import tsx scripts/eval-matching.ts --extract <Trademark2020_validation.json>
//                                                         (rebuild the fixture, see its NOTICE.md)
//
// Watched brands are drawn (seeded PRNG) from the real texts in test/fixtures/euipo. For each
// brand, positives are generated per variant kind; negatives are all the other real marks, in the
// same classes and territory, so only the text decides. Prints recall per kind and false alerts
// per 10,000 unrelated marks per watch, checks that the SQL candidate keys retrieve every accepted
// pair, and rewrites the block between <!-- eval:start --> and <!-- eval:end --> in
// docs/matching.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
  type Reason,
  type RecordInput,
} from '../src/matching/decide.ts';
import { allCommon, analyzeMark, type MatchKeys, matchKeys } from '../src/matching/normalize.ts';
import { trigramSimilarity, trigrams } from '../src/matching/similarity.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = join(root, 'test/fixtures/euipo/mark-texts.txt');
const DOC = join(root, 'docs/matching.md');
const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const SEED = option('--seed', 20_240_611);
const BRANDS = option('--brands', 300);
const PER_KIND = 4;
const CLASSES = [25];

// ---------------------------------------------------------------------------------------------
// --extract: the fixture is the distinct trimmed `Text` values of the source JSON, in file order,
// tabs and line breaks inside a text replaced by one space.
const args = argv;
const extractAt = args.indexOf('--extract');
if (extractAt >= 0) {
  const source = args[extractAt + 1];
  if (source === undefined) throw new Error('--extract needs the path of the source JSON file');
  const data = JSON.parse(readFileSync(source, 'utf8')) as Record<string, { Text?: unknown }>;
  const seen = new Set<string>();
  for (const entry of Object.values(data)) {
    if (typeof entry.Text !== 'string') continue;
    const text = entry.Text.replace(/[\t\r\n]+/g, ' ').trim();
    if (text !== '') seen.add(text);
  }
  writeFileSync(FIXTURE, `${[...seen].join('\n')}\n`);
  console.log(`wrote ${seen.size} texts to ${FIXTURE}`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const int = (n: number): number => Math.floor(rand() * n);

const texts = [
  ...new Set(
    readFileSync(FIXTURE, 'utf8')
      .split('\n')
      .map((t) => t.trim()),
  ),
].filter((t) => t !== '');
const analyses = texts.map((t) => analyzeMark(t));
const keys: MatchKeys[] = texts.map((t) => matchKeys(t));
const trigramSets = keys.map((k) => trigrams(k.compact));

// Brand-like texts: 1 to 3 words of Latin letters/digits, 4 to 20 characters, not only weak words.
const candidates = texts.filter((_, i) => {
  const a = analyses[i];
  if (a === undefined) return false;
  return (
    a.words.length >= 1 &&
    a.words.length <= 3 &&
    /^[A-Z0-9 ]+$/.test(a.normalized) &&
    a.compact.length >= 4 &&
    a.compact.length <= 20 &&
    a.letters.length >= 4 &&
    !allCommon(a.folded)
  );
});
for (let i = candidates.length - 1; i > 0; i--) {
  const j = int(i + 1);
  [candidates[i], candidates[j]] = [candidates[j] as string, candidates[i] as string];
}
const brands = candidates.slice(0, BRANDS);

// Vocabulary of real words for "brand inside a longer mark".
const vocabulary = [
  ...new Set(analyses.flatMap((a) => a.words.filter((w) => /^[A-Z]{3,10}$/.test(w)))),
].sort();

// ---------------------------------------------------------------------------------------------
// Variant generators. Each returns a variant text or null when the kind does not apply.
type Kind =
  | 'case/spacing/punctuation'
  | 'confusable characters'
  | 'one edit'
  | 'two edits (8+ characters)'
  | 'phonetic respelling'
  | 'brand inside longer mark'
  | 'mark inside brand'
  | 'plural/affix';
const KINDS: readonly Kind[] = [
  'case/spacing/punctuation',
  'confusable characters',
  'one edit',
  'two edits (8+ characters)',
  'phonetic respelling',
  'brand inside longer mark',
  'mark inside brand',
  'plural/affix',
];
const EXPECTED: Readonly<Record<Kind, Reason['kind']>> = {
  'case/spacing/punctuation': 'normalized',
  'confusable characters': 'confusable',
  'one edit': 'edit_distance',
  'two edits (8+ characters)': 'edit_distance',
  'phonetic respelling': 'phonetic',
  'brand inside longer mark': 'contains_brand',
  'mark inside brand': 'contained_in_brand',
  'plural/affix': 'affix',
};

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const isVowel = (c: string | undefined): boolean => c !== undefined && 'AEIOUY'.includes(c);
const isLetter = (c: string | undefined): boolean => c !== undefined && c >= 'A' && c <= 'Z';
const titleCase = (s: string): string =>
  s.toLowerCase().replace(/(^|\s)(\p{L})/gu, (_, sp: string, c: string) => sp + c.toUpperCase());

function variantNormalized(brand: string): string | null {
  const words = brand.toUpperCase().split(/\s+/);
  const options: (() => string)[] = [
    () => brand.toLowerCase(),
    () => titleCase(brand),
    () => `${brand}.`,
    () => `«${brand}»`,
    () => words.join(pick(['-', '.', ' - ', '_'])),
    () => {
      const w = words.join(' ');
      const at = 1 + int(Math.max(1, w.length - 1));
      return `${w.slice(0, at)}${pick([' ', '-', '.'])}${w.slice(at)}`;
    },
  ];
  if (words.length > 1) options.push(() => words.join(''));
  return pick(options)();
}

const CONFUSABLE_OUT: Readonly<Record<string, readonly string[]>> = {
  O: ['0'],
  I: ['1', 'l', '!', '|'],
  L: ['1', 'I', '|'],
  S: ['5', '$'],
  E: ['3', '€'],
  A: ['4', '@'],
  T: ['7'],
  B: ['8'],
  Z: ['2'],
};
function variantConfusable(brand: string): string | null {
  const chars = Array.from(brand.toUpperCase());
  const spots = chars
    .map((c, i) => ({ c, i }))
    .filter(({ c, i }) => {
      if (CONFUSABLE_OUT[c] === undefined) return false;
      // Keep every word with at least one letter (a word made only of digits is a number).
      const start = chars.lastIndexOf(' ', i) + 1;
      let end = chars.indexOf(' ', i);
      if (end < 0) end = chars.length;
      return end - start > 1;
    });
  if (spots.length === 0) return null;
  const n = 1 + int(Math.min(2, spots.length));
  for (let k = 0; k < n; k++) {
    const { c, i } = pick(spots);
    chars[i] = pick(CONFUSABLE_OUT[c] as readonly string[]);
  }
  return chars.join('');
}

function edit(s: string): string {
  const positions = Array.from(s)
    .map((c, i) => (isLetter(c) ? i : -1))
    .filter((i) => i >= 0);
  const i = pick(positions);
  const op = int(4);
  const c = s[i] as string;
  if (op === 0) {
    let r = pick(Array.from(LETTERS));
    while (r === c) r = pick(Array.from(LETTERS));
    return s.slice(0, i) + r + s.slice(i + 1);
  }
  if (op === 1) return s.slice(0, i) + pick(Array.from(LETTERS)) + s.slice(i);
  if (op === 2) return s.slice(0, i) + s.slice(i + 1);
  const next = s[i + 1];
  if (!isLetter(next) || next === c) return s.slice(0, i) + s.slice(i + 1);
  return s.slice(0, i) + next + c + s.slice(i + 2);
}
function variantEdits(brand: string, edits: number): string | null {
  let v = brand.toUpperCase();
  for (let k = 0; k < edits; k++) v = edit(v);
  return v;
}

const RESPELL: readonly ((s: string) => string | null)[] = [
  (s) => replaceOne(s, /C(?=[AOU]|[^AEIOUY\s]|$)/g, 'K'),
  (s) => replaceOne(s, /K(?=[AOU])/g, 'C'),
  (s) => replaceOne(s, /PH/g, 'F'),
  (s) => replaceOne(s, /F/g, 'PH'),
  (s) => replaceOne(s, /([BDFGKLMNPRSTVZ])(?=[AEIOUY])/g, '$1$1'),
  (s) => replaceOne(s, /([BDFGKLMNPRSTVZ])\1/g, '$1'),
  (s) => replaceOne(s, /(?<=[A-Z])Y/g, 'I'),
  (s) => replaceOne(s, /(?<=[A-Z])I(?=[^AEIOU]|$)/g, 'Y'),
  (s) => replaceOne(s, /(?<=[BCDFGKLMNPRSTVZ])(?=\s|$)/g, 'E'),
  (s) => replaceOne(s, /(?<=[A-Z][BCDFGKLMNPRSTVZ])E(?=\s|$)/g, ''),
  (s) => replaceOne(s, /(?<=[AEIOU])S(?=[AEIOU])/g, 'Z'),
  (s) => replaceOne(s, /QU/g, 'KW'),
  (s) => replaceOne(s, /X/g, 'KS'),
  (s) => replaceOne(s, /CK/g, 'K'),
];
function replaceOne(s: string, re: RegExp, by: string): string | null {
  const hits = [...s.matchAll(re)];
  if (hits.length === 0) return null;
  const h = pick(hits);
  const at = h.index ?? 0;
  const replacement = by.replaceAll('$1', h[1] ?? '');
  return s.slice(0, at) + replacement + s.slice(at + h[0].length);
}
function variantPhonetic(brand: string): string | null {
  let v = brand.toUpperCase();
  const n = 1 + int(2);
  let applied = 0;
  for (let tries = 0; tries < 20 && applied < n; tries++) {
    const r = pick(RESPELL)(v);
    if (r !== null && r !== v) {
      v = r;
      applied++;
    }
  }
  // One respelling may not stack on another into a triple letter (WIZZZARD).
  return applied > 0 && !/(.)\1\1/.test(v) ? v : null;
}

function variantContains(brand: string): string | null {
  const extra = () => pick(vocabulary);
  const where = int(3);
  if (where === 0) return `${extra()} ${brand}`;
  if (where === 1) return `${brand} ${extra()}`;
  return `${extra()} ${brand} ${extra()}`;
}

function variantContained(brand: string): string | null {
  const a = analyzeMark(brand);
  if (a.words.length < 2) return null;
  const options = a.words.filter((_w, i) => {
    const f = a.folded[i] as string;
    return f.length >= 4 && !allCommon([f]);
  });
  return options.length === 0 ? null : pick(options);
}

const PREFIXES = ['MY', 'THE', 'GET', 'I', 'E'];
const SUFFIXES = ['IFY', 'LY', 'ER', 'CO', 'GROUP', 'INC', 'LTD', 'PRO', 'PLUS', 'X', 'HUB'];
function variantAffix(brand: string): string | null {
  const b = brand.toUpperCase();
  const sep = () => pick(['', ' ', '-']);
  const form = int(3);
  if (form === 0) {
    if (b.endsWith('Y') && !isVowel(b[b.length - 2])) return `${b.slice(0, -1)}IES`;
    return b.endsWith('S') || b.endsWith('X') || b.endsWith('CH') ? `${b}ES` : `${b}S`;
  }
  if (form === 1) return `${pick(PREFIXES)}${sep()}${b}`;
  return `${b}${sep()}${pick(SUFFIXES)}`;
}

const GENERATORS: Readonly<Record<Kind, (brand: string) => string | null>> = {
  'case/spacing/punctuation': variantNormalized,
  'confusable characters': variantConfusable,
  'one edit': (b) => variantEdits(b, 1),
  'two edits (8+ characters)': (b) => variantEdits(b, 2),
  'phonetic respelling': variantPhonetic,
  'brand inside longer mark': variantContains,
  'mark inside brand': variantContained,
  'plural/affix': variantAffix,
};

/** Is the variant in the domain of its kind (what the rule promises for this brand)? */
function applies(kind: Kind, brand: string, variant: string): boolean {
  const a = analyzeMark(brand);
  const v = analyzeMark(variant);
  if (v.compact === '' || variant.trim() === brand.trim()) return false;
  const min = Math.min(a.compact.length, v.compact.length);
  switch (kind) {
    case 'case/spacing/punctuation':
      return v.plainCompact === a.plainCompact;
    case 'confusable characters':
      return v.lookalike === a.lookalike && v.plainCompact !== a.plainCompact;
    case 'one edit':
      return min >= 4 && v.lookalike !== a.lookalike;
    case 'two edits (8+ characters)':
      return min >= 8 && v.lookalike !== a.lookalike;
    case 'phonetic respelling':
      return Math.min(a.letters.length, v.letters.length) >= 4 && v.lookalike !== a.lookalike;
    default:
      return v.lookalike !== a.lookalike;
  }
}

// ---------------------------------------------------------------------------------------------
interface KindStats {
  total: number;
  hit: number;
  expectedReason: number;
  misses: string[];
}
const stats = new Map<Kind, KindStats>(
  KINDS.map((k) => [k, { total: 0, hit: 0, expectedReason: 0, misses: [] }]),
);
let negativePairs = 0;
let excluded = 0;
const falseAlerts: { brand: string; mark: string; reasons: string }[] = [];
const falseByReason = new Map<string, number>();
let retrievalChecked = 0;
let retrievalMisses = 0;
const retrievalMissExamples: string[] = [];
let candidatesRetrieved = 0;

function retrieved(p: PreparedWatch, k: MatchKeys, recordTrigrams: Set<string> | null): boolean {
  const s = p.search;
  if (k.compact === s.compact) return true;
  const tokenSet = new Set(s.tokens);
  if (k.tokens.some((t) => tokenSet.has(t))) return true;
  if (k.phonetic.some((c) => s.phonetic.includes(c))) return true;
  if (s.useTrigram) {
    const sim = trigramSimilarity(p.trigramSet, recordTrigrams ?? trigrams(k.compact));
    if (sim >= s.trigramThreshold) return true;
  }
  return false;
}

const record = (markText: string): RecordInput => ({
  markText,
  classes: CLASSES,
  jurisdiction: 'EM',
});

for (const brand of brands) {
  const p = prepareWatch({ name: brand, niceClasses: CLASSES, designations: ['DE'] });
  for (const kind of KINDS) {
    const st = stats.get(kind) as KindStats;
    const seen = new Set<string>();
    for (let attempt = 0; attempt < PER_KIND * 6 && seen.size < PER_KIND; attempt++) {
      const v = GENERATORS[kind](brand);
      if (v === null || seen.has(v) || !applies(kind, brand, v)) continue;
      seen.add(v);
      const d = decideConflictPrepared(p, record(v));
      st.total++;
      if (d.conflict) {
        st.hit++;
        retrievalChecked++;
        if (!retrieved(p, matchKeys(v), null)) {
          retrievalMisses++;
          if (retrievalMissExamples.length < 10) retrievalMissExamples.push(`${brand} / ${v}`);
        }
      } else if (st.misses.length < 12) st.misses.push(`${brand} → ${v}`);
      if (d.reasons.some((r) => r.kind === EXPECTED[kind])) st.expectedReason++;
    }
  }
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    const a = analyses[i];
    if (a === undefined || text === brand) continue;
    // Narrow exclusion: the same mark once case, spacing, punctuation and look-alike characters
    // are ignored. Such a record is a true conflict, not an unrelated mark.
    if (a.lookalike === p.brand.lookalike) {
      excluded++;
      continue;
    }
    negativePairs++;
    const k = keys[i] as MatchKeys;
    const ts = trigramSets[i] as Set<string>;
    const isCandidate = retrieved(p, k, ts);
    if (isCandidate) candidatesRetrieved++;
    const d = decideConflictPrepared(p, record(text));
    if (d.conflict) {
      const kinds = d.reasons
        .filter((r) => r.kind !== 'class_overlap' && r.kind !== 'territory')
        .map((r) => r.kind);
      falseAlerts.push({ brand, mark: text, reasons: kinds.join('+') });
      for (const kd of new Set(kinds)) falseByReason.set(kd, (falseByReason.get(kd) ?? 0) + 1);
      retrievalChecked++;
      if (!isCandidate) {
        retrievalMisses++;
        if (retrievalMissExamples.length < 10) retrievalMissExamples.push(`${brand} / ${text}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
const per10k = (10_000 * falseAlerts.length) / negativePairs;
// Speed: best of three passes of 20 watches over every real mark (JIT warm by now), in CPU time
// of this process so that other load on the machine does not count.
const timedRecords = texts.map(record);
const timedWatches = brands
  .slice(0, 20)
  .map((name) => prepareWatch({ name, niceClasses: CLASSES, designations: ['DE'] }));
let microsPerPair = Number.POSITIVE_INFINITY;
for (let pass = 0; pass < 3; pass++) {
  const t0 = process.cpuUsage();
  for (const p of timedWatches) for (const r of timedRecords) decideConflictPrepared(p, r);
  const used = process.cpuUsage(t0);
  const micros = used.user + used.system;
  microsPerPair = Math.min(microsPerPair, micros / (timedWatches.length * timedRecords.length));
}

const lines: string[] = [];
lines.push(
  `Run: ${brands.length} watched brands drawn (seed ${SEED}) from ${texts.length.toLocaleString('en')} ` +
    `distinct real EUIPO mark texts; up to ${PER_KIND} generated variants per brand and kind.`,
);
lines.push('');
lines.push('| variant kind | positives | flagged | recall | with the expected reason |');
lines.push('|---|---:|---:|---:|---|');
for (const kind of KINDS) {
  const st = stats.get(kind) as KindStats;
  lines.push(
    `| ${kind} | ${st.total} | ${st.hit} | ${pct(st.hit, st.total)} | ` +
      `${pct(st.expectedReason, st.total)} \`${EXPECTED[kind]}\` |`,
  );
}
lines.push('');
lines.push(
  `Negatives: ${negativePairs.toLocaleString('en')} (brand, unrelated real mark) pairs, same class ` +
    `and territory. False alerts: **${falseAlerts.length}**, i.e. **${per10k.toFixed(2)} per 10,000 ` +
    `unrelated marks per watch**. Excluded as not unrelated: ${excluded} pairs whose texts are equal ` +
    'once case, spacing, punctuation and look-alike characters are ignored.',
);
lines.push('');
lines.push(
  `False alerts by reason: ${
    [...falseByReason]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `\`${k}\` ${n}`)
      .join(', ') || 'none'
  }.`,
);
lines.push('');
if (falseAlerts.length > 0) {
  lines.push('Every false alert (brand → real mark: reasons):');
  lines.push('');
  for (const f of falseAlerts.slice(0, 60)) lines.push(`- ${f.brand} → ${f.mark}: ${f.reasons}`);
  if (falseAlerts.length > 60) lines.push(`- … and ${falseAlerts.length - 60} more`);
  lines.push('');
}
lines.push(
  `Candidate query check: ${retrievalChecked.toLocaleString('en')} accepted pairs, ` +
    `${retrievalMisses} not retrieved by the SQL keys. The keys retrieve ` +
    `${pct(candidatesRetrieved, negativePairs)} of the unrelated marks as candidates ` +
    `(${(candidatesRetrieved / brands.length).toFixed(1)} per watch out of ` +
    `${Math.round(negativePairs / brands.length).toLocaleString('en')} marks).`,
);
lines.push('');
lines.push(
  `Speed: ${microsPerPair.toFixed(1)} µs of CPU per decideConflictPrepared call, record text ` +
    `analysed in the call (best of 3 passes of 20 watches × ${texts.length.toLocaleString('en')} marks, ` +
    `Node ${process.version}).`,
);

const report = lines.join('\n');
console.log(report);
console.log('\nMissed positives (sample):');
for (const kind of KINDS) {
  const st = stats.get(kind) as KindStats;
  if (st.misses.length > 0) console.log(`  ${kind}: ${st.misses.join(' | ')}`);
}
if (retrievalMissExamples.length > 0) console.log('Retrieval misses:', retrievalMissExamples);
if (args.includes('--all'))
  for (const f of falseAlerts) console.log(`FA ${f.brand} → ${f.mark}: ${f.reasons}`);

if (!args.includes('--no-write')) {
  const doc = readFileSync(DOC, 'utf8');
  const start = '<!-- eval:start -->';
  const end = '<!-- eval:end -->';
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${DOC} lacks the ${start} … ${end} markers`);
  writeFileSync(DOC, `${doc.slice(0, i + start.length)}\n${report}\n${doc.slice(j)}`);
  console.log(`\nupdated ${DOC}`);
}
