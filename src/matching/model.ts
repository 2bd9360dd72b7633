// The scoring model: one calibrated score, the probability that a tribunal would find the pair
// confusing, from the pair's features (features.ts) through a logistic function whose weights are
// trained on the development part of the decided cases and the planted evaluation's development
// draws (scripts/train-matching.ts, `npm run train:matching`, writes model-weights.ts). The score
// decides whether a candidate the rules found is raised, and how severe the alert is. Pure; no
// network, no file read at run time.
import { FEATURES, type FeatureName, type Features } from './features.ts';
import { TRAINED } from './model-weights.ts';

export type Severity = 'low' | 'medium' | 'high';

/**
 * A model: a weight per feature, a bias, the score thresholds of an alert and its levels, and
 * `across`: the score from which weaker text is raised in a related class (decide.ts, raisedAt).
 */
export interface ScoringModel {
  weights: Readonly<Record<FeatureName, number>>;
  bias: number;
  thresholds: { alert: number; medium: number; high: number; across: number };
}

/** The model in use: the trained weights (model-weights.ts), checked against the features here. */
export const MODEL: ScoringModel = TRAINED;

/** The model's linear part: bias + Σ weight × feature. */
export function logit(f: Features, model: ScoringModel = MODEL): number {
  let z = model.bias;
  for (const name of FEATURES) z += model.weights[name] * f[name];
  return z;
}

/** The score, 0..1: the model's probability that the pair is a conflict. */
export function scoreOf(f: Features, model: ScoringModel = MODEL): number {
  return 1 / (1 + Math.exp(-logit(f, model)));
}

/** Is a pair with this score raised? */
export function raises(score: number, model: ScoringModel = MODEL): boolean {
  return score >= model.thresholds.alert;
}

/** The level of an alert with this score. */
export function levelOf(score: number, model: ScoringModel = MODEL): Severity {
  if (score >= model.thresholds.high) return 'high';
  if (score >= model.thresholds.medium) return 'medium';
  return 'low';
}

/** What the features that pushed the score up say, in a lawyer's words (features named in docs). */
const SAID: Partial<Record<FeatureName, string>> = {
  rule_high: 'a form of the brand the rules rate strong',
  rule_medium: 'a form of the brand the rules rate at least medium',
  rules_more: 'several kinds of likeness at once',
  whole_text: 'the letters of the whole marks',
  whole_trigram: 'the letter groups they share',
  whole_sound: 'the sound of the whole marks',
  word_text: 'the letters of a word of each',
  word_sound: 'the sound of a word of each',
  shared_weight: 'a distinctive word they share',
  prefix: 'the same beginning',
  suffix: 'the same ending',
  contraction: 'the letters of one kept in order in the other',
  at_start: 'the brand at the start of the mark',
  length_ratio: 'their similar length',
  goods_related: 'related goods',
};

/** The features that add most to the score, strongest first, in words (at most `n`). */
export function mainFactors(f: Features, n = 3, model: ScoringModel = MODEL): string[] {
  const parts: [string, number][] = [];
  for (const name of FEATURES) {
    const said = SAID[name];
    const part = model.weights[name] * f[name];
    if (said !== undefined && part > 0.25) parts.push([said, part]);
  }
  return parts
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([said]) => said);
}
