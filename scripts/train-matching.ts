// Trains the scoring model of src/matching/model.ts and writes src/matching/model-weights.ts.
//
//   node --import tsx scripts/train-matching.ts          (npm run train:matching)
//
// Deterministic and offline: the same repository gives the same weights. The data, all in the
// repository:
// - the DEVELOPMENT part of the decided cases (test/fixtures/decided-cases, split by
//   bench/lib/decided-cases.ts): each pair the rules find, in classes that meet, is an example
//   labelled by the tribunal's outcome. The held-out part is never read here;
// - the planted evaluation's development draws: brands drawn from the real EUIPO texts
//   (test/fixtures/euipo) with a seed of their own, leaving out every brand the evaluation
//   (scripts/eval-matching.ts) watches; their generated variants are conflicts, and the real marks
//   the rules find for them are not.
// The model is a logistic regression (batch gradient descent, fixed steps, L2); the thresholds of
// an alert and of its levels are then chosen on the same development data, as the smallest
// shortfall against the targets of docs/matching.md ("The scoring model").
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decidedRecord, pairClasses, readDecidedCases } from '../bench/lib/decided-cases.ts';
import { readMarkTexts } from '../bench/lib/mark-texts.ts';
import { ALERTS_PER_WATCH_BEFORE, ALERTS_PER_WATCH_GROWTH } from '../bench/lib/matching-targets.ts';
import { mulberry32 } from '../bench/lib/random.ts';
import {
  isBrandLike,
  VARIANT_KINDS,
  variantGenerators,
  vocabularyOf,
} from '../bench/lib/variants.ts';
import {
  acrossGate,
  findCandidate,
  type PreparedWatch,
  prepareWatch,
  type RecordInput,
  scorePair,
} from '../src/matching/decide.ts';
import { FEATURES, type Features } from '../src/matching/features.ts';
import type { ScoringModel } from '../src/matching/model.ts';
import { analyzeMark } from '../src/matching/normalize.ts';
import { cappedAtMedium } from '../src/matching/severity.ts';
import { countWords } from '../src/matching/word-weights.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'src/matching/model-weights.ts');
/** The evaluation's seed and number of brands: its brands are left out of training. */
const EVAL_SEED = 20_240_611;
const EVAL_BRANDS = 300;
const TRAIN_SEED = 7_331;
const TRAIN_BRANDS = 150;
const VARIANTS_PER_KIND = 2;
const CLASSES = [25];

type Example = {
  x: number[];
  y: 0 | 1;
  w: number;
  source: 'decided' | 'variant' | 'unrelated';
  kind: string;
  /** What the pair needs beyond the alert threshold (decide.ts, acrossGate). */
  gate: 'none' | 'across' | 'medium';
  /** An unrelated mark's features and gate as if filed in a related class (the noise it adds). */
  related?: { x: number[]; gate: 'none' | 'across' | 'medium' };
  /** Across classes, in a related class or one nothing relates: never above medium (severity.ts). */
  capped: boolean;
};

const texts = readMarkTexts();
const analyses = texts.map((t) => analyzeMark(t));
const wordStats = countWords(analyses.map((a) => a.words));
const prepare = (name: string, classes: readonly number[] = CLASSES) =>
  prepareWatch({ name, niceClasses: [...classes], designations: ['DE'] }, wordStats);

/** The example of a pair, or null when it is no candidate (decide.ts, findCandidate). */
function exampleOf(
  p: PreparedWatch,
  record: RecordInput,
): Pick<Example, 'x' | 'gate' | 'capped' | 'related'> | null {
  const { m, text, relation } = findCandidate(p, record);
  if (relation === null) return null;
  const { features } = scorePair(p, m, record.markText, text, record, relation);
  return {
    x: FEATURES.map((f) => (features as Features)[f]),
    gate: acrossGate(p, text, relation),
    related:
      relation === 'same'
        ? {
            x: FEATURES.map((f) => (f === 'goods_related' ? 1 : (features as Features)[f])),
            gate: acrossGate(p, text, 'related'),
          }
        : undefined,
    capped: cappedAtMedium(relation),
  };
}

// --- The decided cases, development part only ----------------------------------------------------
const examples: Example[] = [];
const decidedTotals = { conflict: 0, no_conflict: 0 };
for (const c of readDecidedCases()) {
  if (c.part !== 'development') continue;
  decidedTotals[c.outcome]++;
  const [earlier] = pairClasses(c, CLASSES);
  const ex = exampleOf(prepare(c.earlier.text, earlier), decidedRecord(c, CLASSES));
  if (ex === null) continue;
  examples.push({
    ...ex,
    y: c.outcome === 'conflict' ? 1 : 0,
    w: 2,
    source: 'decided',
    kind: c.outcome,
  });
}

// --- The planted draws: brands the evaluation does not watch ------------------------------------
function shuffled(xs: readonly string[], rand: () => number): string[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out;
}
const brandLike = texts.filter(isBrandLike);
const evalBrands = new Set(shuffled(brandLike, mulberry32(EVAL_SEED)).slice(0, EVAL_BRANDS));
const rand = mulberry32(TRAIN_SEED);
const brands = shuffled(
  brandLike.filter((t) => !evalBrands.has(t)),
  rand,
).slice(0, TRAIN_BRANDS);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const int = (n: number): number => Math.floor(rand() * n);
const { generators, applies } = variantGenerators({ pick, int }, vocabularyOf(texts));
const variantTotals = new Map<string, number>();
let unrelatedPairs = 0;
const record = (markText: string): RecordInput => ({
  markText,
  classes: CLASSES,
  jurisdiction: 'EM',
});
for (const brand of brands) {
  const p = prepare(brand);
  for (const kind of VARIANT_KINDS) {
    const seen = new Set<string>();
    for (let a = 0; a < VARIANTS_PER_KIND * 6 && seen.size < VARIANTS_PER_KIND; a++) {
      const v = generators[kind](brand);
      if (v === null || seen.has(v) || !applies(kind, brand, v)) continue;
      seen.add(v);
      variantTotals.set(kind, (variantTotals.get(kind) ?? 0) + 1);
      const ex = exampleOf(p, record(v));
      if (ex !== null) examples.push({ ...ex, y: 1, w: 0.1, source: 'variant', kind });
    }
  }
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    if (text === brand || (analyses[i] as { lookalike: string }).lookalike === p.brand.lookalike)
      continue;
    unrelatedPairs++;
    const ex = exampleOf(p, record(text));
    if (ex !== null) examples.push({ ...ex, y: 0, w: 1, source: 'unrelated', kind: 'unrelated' });
  }
}

// --- Logistic regression ------------------------------------------------------------------------
/**
 * The direction each feature may push the score, where the law says which way it goes: likeness
 * only adds, a weak or common brand, extra words and goods that only relate only take away. The
 * fit is projected onto these signs after every step, so that a small data set cannot learn that
 * common words make a conflict likelier (monotonic, and tested in matching.model.test.ts).
 */
const SIGN: Partial<Record<(typeof FEATURES)[number], 1 | -1>> = {
  rule_medium: 1,
  rule_high: 1,
  rules_more: 1,
  whole_text: 1,
  whole_trigram: 1,
  whole_sound: 1,
  word_text: 1,
  word_sound: 1,
  shared_weight: 1,
  shared_weak_only: -1,
  prefix: 1,
  suffix: 1,
  contraction: 1,
  at_start: 1,
  length_ratio: 1,
  extra_words: -1,
  short_brand: -1,
  common_brand: -1,
  dictionary_brand: -1,
  goods_related: -1,
  goods_unknown: -1,
  goods_unrelated: -1,
};
/**
 * Goods that only relate are never as close as the same goods (the interdependence of the goods'
 * and the marks' likeness that every office applies): a related class must lower the score, if
 * only a little, where a fit on few cross-class pairs would let it weigh nothing.
 */
const CEILING: Partial<Record<(typeof FEATURES)[number], number>> = { goods_related: -0.05 };
const project = (k: number, w: number): number => {
  const feature = FEATURES[k] as (typeof FEATURES)[number];
  const sign = SIGN[feature];
  const ceiling = CEILING[feature];
  if (ceiling !== undefined) return Math.min(ceiling, w);
  if (sign === 1) return Math.max(0, w);
  if (sign === -1) return Math.min(0, w);
  return w;
};
const STEPS = 20_000;
const RATE = 0.5;
const L2 = 0.002;
const dims = FEATURES.length;
const weights = new Array<number>(dims).fill(0);
let bias = 0;
// The decided pairs weigh as much as the planted draws together: they are what the levels mean.
const sumOf = (f: (e: Example) => boolean) => examples.reduce((s, e) => s + (f(e) ? e.w : 0), 0);
const decidedShare =
  sumOf((e) => e.source !== 'decided') /
  Math.max(
    1,
    sumOf((e) => e.source === 'decided'),
  );
for (const e of examples) if (e.source === 'decided') e.w *= decidedShare;
const totalWeight = examples.reduce((s, e) => s + e.w, 0);
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const scoreWith = (x: number[]) => {
  let z = bias;
  for (let k = 0; k < dims; k++) z += (weights[k] as number) * (x[k] as number);
  return sigmoid(z);
};
for (let step = 0; step < STEPS; step++) {
  const grad = new Array<number>(dims).fill(0);
  let gradBias = 0;
  for (const e of examples) {
    const err = (scoreWith(e.x) - e.y) * e.w;
    gradBias += err;
    for (let k = 0; k < dims; k++) grad[k] = (grad[k] as number) + err * (e.x[k] as number);
  }
  bias -= (RATE * gradBias) / totalWeight;
  for (let k = 0; k < dims; k++) {
    const g = (grad[k] as number) / totalWeight + L2 * (weights[k] as number);
    weights[k] = project(k, (weights[k] as number) - RATE * g);
  }
}
const rounded = weights.map((w) => Math.round(w * 1e4) / 1e4);
bias = Math.round(bias * 1e4) / 1e4;
for (let k = 0; k < dims; k++) weights[k] = rounded[k] as number;
const scores = examples.map((e) => scoreWith(e.x));

// --- The related-class threshold: weaker text crosses from the score that keeps the noise low ----
/**
 * What one related class of the size of the watch's own may add per watch on the register's
 * unrelated marks: half the growth the targets allow over the alerts per watch before the model
 * (bench/lib/matching-targets.ts), the other half left to the watch's own class.
 */
const RELATED_BUDGET = (ALERTS_PER_WATCH_BEFORE.distinctive * ALERTS_PER_WATCH_GROWTH) / 2;
const relatedScores = examples.map((e) => (e.related === undefined ? 0 : scoreWith(e.related.x)));
const acrossCache = new Map<number, number>();
/** The lowest score (from `alert`) at which a related class adds at most RELATED_BUDGET per watch. */
function acrossFor(alert: number): number {
  const cached = acrossCache.get(alert);
  if (cached !== undefined) return cached;
  let across = 1;
  for (let t = Math.round(alert * 100); t <= 100; t++) {
    let added = 0;
    examples.forEach((e, i) => {
      const s = relatedScores[i] as number;
      if (e.source !== 'unrelated' || e.related === undefined || s < alert) return;
      if (e.related.gate === 'none' || s >= t / 100) added++;
    });
    if (added / brands.length <= RELATED_BUDGET) {
      across = t / 100;
      break;
    }
  }
  acrossCache.set(alert, across);
  return across;
}

// --- Thresholds: the smallest shortfall against the targets, on the development data -----------
type Figures = {
  raised: number;
  mediumHigh: number;
  noConflictHigh: number;
  unrelatedHigh: number;
  unrelatedMediumHigh: number;
  falsePer10k: number;
  worstKind: number;
};
function figures(alert: number, medium: number, high: number): Figures {
  let raised = 0;
  let raisedMh = 0;
  let noHigh = 0;
  let falseAlerts = 0;
  let falseHigh = 0;
  let falseMh = 0;
  const kindHits = new Map<string, number>();
  examples.forEach((e, i) => {
    const s = scores[i] as number;
    if (s < alert || (e.gate === 'medium' && s < medium)) return;
    if (e.gate === 'across' && s < acrossFor(alert)) return;
    // What severity.ts holds at medium across classes is never high.
    const high2 = e.capped ? Number.POSITIVE_INFINITY : high;
    if (e.source === 'decided' && e.y === 1) {
      raised++;
      if (s >= medium) raisedMh++;
    } else if (e.source === 'decided') {
      if (s >= high2) noHigh++;
    } else if (e.source === 'variant') kindHits.set(e.kind, (kindHits.get(e.kind) ?? 0) + 1);
    else {
      falseAlerts++;
      if (s >= high2) falseHigh++;
      if (s >= medium) falseMh++;
    }
  });
  let worstKind = 1;
  for (const [kind, n] of variantTotals)
    worstKind = Math.min(worstKind, (kindHits.get(kind) ?? 0) / Math.max(1, n));
  return {
    raised: raised / Math.max(1, decidedTotals.conflict),
    mediumHigh: raisedMh / Math.max(1, raised),
    noConflictHigh: noHigh / Math.max(1, decidedTotals.no_conflict),
    unrelatedHigh: falseHigh / Math.max(1, falseAlerts),
    unrelatedMediumHigh: falseMh / Math.max(1, falseAlerts),
    falsePer10k: (10_000 * falseAlerts) / Math.max(1, unrelatedPairs),
    worstKind,
  };
}
/** How far the figures fall short of the targets (with a margin), less a little for recall. */
function shortfall(f: Figures): number {
  const short = (x: number) => Math.max(0, x);
  return (
    10 * short(0.87 - f.mediumHigh) +
    10 * short(f.noConflictHigh - 0.06) +
    10 * short(f.unrelatedHigh - 0.04) +
    10 * short(f.falsePer10k - 0.9) +
    20 * short(0.97 - f.worstKind) +
    // Not a target, a preference: the marks the rules find that are most likely noise read low.
    short(f.unrelatedMediumHigh - 0.5) -
    f.raised
  );
}
const grid = (from: number, to: number) => {
  const out: number[] = [];
  for (let t = from; t <= to + 1e-9; t += 0.01) out.push(Math.round(t * 100) / 100);
  return out;
};
let best = { alert: 0.5, medium: 0.5, high: 0.5, loss: Number.POSITIVE_INFINITY };
for (const alert of grid(0.01, 0.6))
  for (const medium of grid(alert, 0.95))
    for (const high of grid(medium, 0.99)) {
      const loss = shortfall(figures(alert, medium, high));
      if (loss < best.loss - 1e-12) best = { alert, medium, high, loss };
    }
const model: ScoringModel = {
  weights: Object.fromEntries(
    FEATURES.map((f, k) => [f, weights[k] as number]),
  ) as ScoringModel['weights'],
  bias,
  thresholds: {
    alert: best.alert,
    medium: best.medium,
    high: best.high,
    across: acrossFor(best.alert),
  },
};
const dev = figures(best.alert, best.medium, best.high);
const count = (source: Example['source']) => examples.filter((e) => e.source === source).length;
const summary = [
  `${count('decided')} decided pairs of the development part the rules find (of ${decidedTotals.conflict} conflicts and ${decidedTotals.no_conflict} not)`,
  `${count('variant')} planted variants and ${count('unrelated')} unrelated marks the rules find, for ${brands.length} brands (seed ${TRAIN_SEED}) the evaluation does not watch`,
  `weaker text in a related class raised from ${acrossFor(best.alert)} (a related class of equal size may add at most ${RELATED_BUDGET} alerts per watch on the unrelated marks)`,
  `development figures: conflicts raised ${(100 * dev.raised).toFixed(1)}%, raised rated medium/high ${(100 * dev.mediumHigh).toFixed(1)}%, not confusing rated high ${(100 * dev.noConflictHigh).toFixed(1)}%, unrelated alerts high ${(100 * dev.unrelatedHigh).toFixed(1)}%, false alerts ${dev.falsePer10k.toFixed(2)} per 10,000 per watch, worst planted kind ${(100 * dev.worstKind).toFixed(1)}%`,
];

const file = `// Written by scripts/train-matching.ts (npm run train:matching): do not edit by hand.
// Trained on ${summary[0]};
// ${summary[1]}.
// ${summary[2]}.
// At these thresholds, ${summary[3]}.
// Typed where it is used (model.ts, MODEL), so that this file imports nothing.

export const TRAINED = {
  weights: {
${FEATURES.map((f) => `    ${f}: ${model.weights[f]},`).join('\n')}
  },
  bias: ${model.bias},
  thresholds: {
    alert: ${model.thresholds.alert},
    medium: ${model.thresholds.medium},
    high: ${model.thresholds.high},
    across: ${model.thresholds.across},
  },
};
`;
for (const line of summary) console.log(line);
console.log(
  FEATURES.map((f, k) => `${f} ${weights[k]}`).join(', '),
  `bias ${bias}`,
  model.thresholds,
);
writeFileSync(OUT, file);
console.log(`wrote ${OUT}`);
