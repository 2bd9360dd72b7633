// The decided cases (test/fixtures/decided-cases/cases.json) and their one split into a
// development part and a held-out part, shared by scripts/eval-matching.ts and the tests. The
// split is a fixed hash of the pair's id: the first 4 bytes of SHA-256(id), read as an unsigned
// big-endian integer, mod 3 == 0 is held out; everything else is development. It never depends on
// the order, the number or the content of the other cases, so adding cases leaves every existing
// pair in its part. Rules and weights may be tuned on the development part only.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

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

/** Whether the pair crosses classes: both marks have classes, none of them shared. */
export function crossesClasses(c: DecidedCase): boolean {
  const a = c.earlier.classes;
  const b = c.later.classes;
  return a !== null && b !== null && a.length > 0 && b.length > 0 && !a.some((x) => b.includes(x));
}
