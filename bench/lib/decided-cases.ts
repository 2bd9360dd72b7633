// The decided cases (test/fixtures/decided-cases/cases.json) and their one split into a
// development part and a held-out part, shared by scripts/eval-matching.ts and the tests. The
// split is a fixed hash of the pair's id: the first 4 bytes of SHA-256(id), read as an unsigned
// big-endian integer, mod 3 == 0 is held out; everything else is development. It never depends on
// the order, the number or the content of the other cases, so adding cases leaves every existing
// pair in its part. Rules and weights may be tuned on the development part only.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RecordInput } from '../../src/matching/decide.ts';

export const DECIDED_CASES = new URL(
  '../../test/fixtures/decided-cases/cases.json',
  import.meta.url,
);

/** One mark of a pair, as the decision states it; `goods` and `classesFrom` may be absent. */
export type DecidedMark = {
  text: string;
  classes: number[] | null;
  /** The goods or services as the decision states them. */
  goods?: string | null;
  /** Where `classes` come from: the decision's numbers, or the class its goods belong to. */
  classesFrom?: 'decision' | 'goods' | null;
};

/** The shapes a pair is filed under (test/fixtures/decided-cases/README.md, `shape`). */
export const DECIDED_SHAPES = [
  'identical',
  'near_spelling',
  'sound_alike',
  'shared_word',
  'brand_plus_word',
  'fused_compound',
  'pharma_name',
  'other',
] as const;

export type DecidedShape = (typeof DECIDED_SHAPES)[number];

export type DecidedCase = {
  id: string;
  citation: string;
  tribunal?: string;
  year?: number | null;
  earlier: DecidedMark;
  later: DecidedMark;
  outcome: 'conflict' | 'no_conflict';
  shape: DecidedShape;
  source?: string;
  evidence?: string;
};

export type Part = 'development' | 'held-out';

/** The part a pair belongs to, from its id alone. */
export function partOf(id: string): Part {
  const digest = createHash('sha256').update(id, 'utf8').digest();
  return digest.readUInt32BE(0) % 3 === 0 ? 'held-out' : 'development';
}

/** The cases of a file (the fixture by default), each with its part. */
export function readDecidedCases(
  file: URL | string = DECIDED_CASES,
): (DecidedCase & { part: Part })[] {
  const cases = JSON.parse(readFileSync(file, 'utf8')) as DecidedCase[];
  return cases.map((c) => ({ ...c, part: partOf(c.id) }));
}

/**
 * The classes the pair is compared in: each mark's own where the decision gives them; a mark
 * without classes takes the other's (the tribunal compared the goods of both), and a pair with
 * none at all is put in one class, so that only the text decides.
 */
export function pairClasses(c: DecidedCase, fallback: readonly number[]): [number[], number[]] {
  const earlier = c.earlier.classes ?? c.later.classes ?? [...fallback];
  const later = c.later.classes ?? c.earlier.classes ?? [...fallback];
  return [earlier, later];
}

/**
 * The later mark as a register record, as the evaluation, the training and the database test give
 * it to the decision: in its classes (pairClasses), the same territory as the watch's, and the
 * decision's goods for each of its classes (the decision states one text for all).
 */
export function decidedRecord(c: DecidedCase, fallback: readonly number[]): RecordInput {
  const classes = pairClasses(c, fallback)[1];
  return {
    markText: c.later.text,
    classes,
    jurisdiction: 'EM',
    goods: classes.map((niceClass) => ({ niceClass, text: c.later.goods ?? '' })),
  };
}

/** Whether the pair crosses classes: both marks have classes, none of them shared. */
export function crossesClasses(c: DecidedCase): boolean {
  const a = c.earlier.classes;
  const b = c.later.classes;
  return a !== null && b !== null && a.length > 0 && b.length > 0 && !a.some((x) => b.includes(x));
}

/** The section of test/fixtures/decided-cases/README.md that holds the counts (writeSection). */
export const DECIDED_COUNTS_SECTION = 'counts';
/** Its markers, as bench/lib/markdown.ts writeSection puts them. */
export const DECIDED_COUNTS_MARKERS = [
  `<!-- ${DECIDED_COUNTS_SECTION}:start -->`,
  `<!-- ${DECIDED_COUNTS_SECTION}:end -->`,
] as const;

/**
 * The "Counts" section of test/fixtures/decided-cases/README.md, computed from the cases: how many
 * pairs, outcomes, class crossings, stated classes and goods, and the tables by part, by part and
 * classes, by tribunal and by shape (most pairs first, ties by name). `npm run decided:counts`
 * writes it into the README; a test holds the README to it.
 */
export function decidedCountsMarkdown(cases: readonly (DecidedCase & { part: Part })[]): string {
  const conflicts = (xs: readonly DecidedCase[]) => xs.filter((c) => c.outcome === 'conflict');
  const row = (name: string, xs: readonly DecidedCase[]) => {
    const n = conflicts(xs).length;
    return `| ${name} | ${xs.length} | ${n} | ${xs.length - n} |`;
  };
  const table = (head: string, groups: [string, DecidedCase[]][]) => [
    `| ${head} | pairs | conflict | no_conflict |`,
    '| --- | --- | --- | --- |',
    ...groups.map(([name, xs]) => row(name, xs)),
  ];
  const byCount = (key: (c: DecidedCase) => string): [string, DecidedCase[]][] => {
    const groups = new Map<string, DecidedCase[]>();
    for (const c of cases) {
      const group = groups.get(key(c));
      if (group === undefined) groups.set(key(c), [c]);
      else group.push(c);
    }
    return [...groups].sort(
      ([a, xs], [b, ys]) => ys.length - xs.length || (a < b ? -1 : a > b ? 1 : 0),
    );
  };
  const pct = (n: number) => `${((100 * n) / cases.length).toFixed(1)}%`;
  const classed = (m: DecidedMark) => m.classes !== null && m.classes.length > 0;
  const stated = (m: DecidedMark) => (m.goods ?? '').trim().length > 0;
  const crossing = cases.filter(crossesClasses).length;
  const negatives = cases.length - conflicts(cases).length;
  const origins = new Map<string, number>();
  for (const m of cases.flatMap((c) => [c.earlier, c.later])) {
    const origin = m.classesFrom ?? 'none';
    origins.set(origin, (origins.get(origin) ?? 0) + 1);
  }
  const originList = [...origins]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([o, n]) => `\`${o}\` ${n}`)
    .join(', ');
  const inPart = (part: Part, cross: boolean | null) =>
    cases.filter((c) => c.part === part && (cross === null || crossesClasses(c) === cross));
  return [
    `${cases.length} pairs in all: ${cases.length - negatives} \`conflict\` and ${negatives} \`no_conflict\`. ${crossing} pairs cross classes (both marks have classes, none shared): ${pct(crossing)}, at least the third that issue 27 asks for; ${pct(negatives)} were found not to be conflicts. ${cases.filter((c) => classed(c.earlier) || classed(c.later)).length} give Nice classes for at least one of the two marks, ${cases.filter((c) => classed(c.earlier) && classed(c.later)).length} for both; ${cases.filter((c) => stated(c.earlier) || stated(c.later)).length} state the goods of at least one mark. \`test/unit/matching.decided-split.test.ts\` checks these proportions, that every pair carries its citation, source and quote, and that this section is what \`npm run decided:counts\` writes from the cases.`,
    '',
    `\`classesFrom\` of the marks' classes: ${originList} (\`none\`: no classes).`,
    '',
    'By part of the split (bench/lib/decided-cases.ts):',
    '',
    ...table('part', [
      ['development', inPart('development', null)],
      ['held-out', inPart('held-out', null)],
    ]),
    '',
    'By part and classes:',
    '',
    ...table('part, classes', [
      ['development, same or unstated', inPart('development', false)],
      ['held-out, same or unstated', inPart('held-out', false)],
      ['development, cross-class', inPart('development', true)],
      ['held-out, cross-class', inPart('held-out', true)],
    ]),
    '',
    'By tribunal:',
    '',
    ...table(
      'tribunal',
      byCount((c) => c.tribunal ?? 'not stated'),
    ),
    '',
    'By shape:',
    '',
    ...table(
      'shape',
      byCount((c) => c.shape),
    ),
  ].join('\n');
}
