// The features of a candidate pair (watched brand, register mark) that the scoring model weighs
// (model.ts): what the rules found, how alike the texts look and sound as a whole and word by word,
// the distinctive words they share and what those weigh in the register, whether the brand is
// only dictionary words (a weaker mark), the shared beginning and ending, a contraction, where the brand sits, the lengths and how the goods meet. Every feature is
// a number in 0..1 (most are 0 or 1). Pure; docs/matching.md ("The scoring model") lists them with
// their weights.
import type { MarkAnalysis } from './normalize.ts';
import { isDistinctiveBrand, type PreparedWatch } from './prepare.ts';
import { ruleOf, type TextReason } from './rules/index.ts';
import type { SeverityContext } from './rules/rule.ts';
import { damerauLevenshtein, phoneticSkeleton, trigramSimilarity, trigrams } from './similarity.ts';
import { isWord } from './vocabulary.ts';
import { isWeakWord, wordWeight } from './word-weights.ts';

/**
 * How the record's goods meet the watch's: a shared class, a related class, unknown (no classes
 * published), or unrelated (the same distinctive mark in any class: any-class.ts).
 */
export type GoodsRelation = 'same' | 'related' | 'unknown' | 'unrelated';

/** The features, in the order of the model's weights (model-weights.ts). */
export const FEATURES = [
  'rule_medium',
  'rule_high',
  'rules_more',
  'whole_text',
  'whole_trigram',
  'whole_sound',
  'word_text',
  'word_sound',
  'shared_weight',
  'shared_weak_only',
  'prefix',
  'suffix',
  'contraction',
  'at_start',
  'length_ratio',
  'extra_words',
  'short_brand',
  'common_brand',
  'dictionary_brand',
  'digits',
  'goods_related',
  'goods_unknown',
  'goods_unrelated',
] as const;
export type FeatureName = (typeof FEATURES)[number];
export type Features = Record<FeatureName, number>;

/** What the rules say of the pair: the strongest rule's level (1-3) and how many rules hold. */
export interface RuleEvidence {
  level: number;
  count: number;
}

/** The rules' levels (each rule's part of severity, rules/*.ts) for these findings. */
export function ruleEvidence(
  p: PreparedWatch,
  reasons: readonly TextReason[],
  context: SeverityContext | undefined,
): RuleEvidence {
  const input = { p, distinctive: isDistinctiveBrand(p), context };
  let level = 0;
  const kinds = new Set<string>();
  for (const r of reasons) {
    const rule = ruleOf(r.kind);
    if (rule === undefined) continue;
    kinds.add(r.kind);
    level = Math.max(level, rule.severity(r, input)[0]);
  }
  return { level, count: kinds.size };
}

/** 1 - edit distance / longer length: 1 for equal texts, 0 for nothing in common. */
export function textSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 0;
  const d = damerauLevenshtein(a, b, longer);
  return Math.max(0, 1 - d / longer);
}

/** Length of the longest common subsequence: the letters kept in order (a contraction keeps them). */
export function commonSubsequence(a: string, b: string): number {
  const m = b.length;
  let prev = new Uint8Array(m + 1);
  let row = new Uint8Array(m + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= m; j++) {
      row[j] =
        a.charCodeAt(i - 1) === b.charCodeAt(j - 1)
          ? (prev[j - 1] as number) + 1
          : Math.max(prev[j] as number, row[j - 1] as number);
    }
    [prev, row] = [row, prev];
  }
  return prev[m] as number;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

/** The longest text the features compare letter by letter; longer ones are cut (phrases). */
const MAX_COMPARED = 40;

/** The words of the brand and the mark, compared pairwise: the best text and sound likeness. */
function wordLikeness(p: PreparedWatch, m: MarkAnalysis): { text: number; sound: number } {
  let text = 0;
  let sound = 0;
  const brandWords = p.brand.folded.filter((w) => w.length >= 3);
  for (let i = 0; i < brandWords.length; i++) {
    const bw = brandWords[i] as string;
    if (brandWordWeak(p, bw)) continue;
    const bs = phoneticSkeleton(bw.replace(/[^A-Z]/g, ''));
    for (const mw of m.folded) {
      if (mw.length < 3) continue;
      text = Math.max(text, textSimilarity(bw, mw));
      if (bs.length >= 3)
        sound = Math.max(sound, textSimilarity(bs, phoneticSkeleton(mw.replace(/[^A-Z]/g, ''))));
    }
  }
  return { text, sound };
}

function brandWordWeak(p: PreparedWatch, folded: string): boolean {
  const at = p.brand.folded.indexOf(folded);
  return isWeakWord(p.stats, folded, p.brand.words[at] ?? folded);
}

/** The share of the brand's distinctive weight the mark holds as words; and weak words only? */
function sharedWords(p: PreparedWatch, m: MarkAnalysis): { weight: number; weakOnly: boolean } {
  const markWords = new Set(m.folded);
  let total = 0;
  let shared = 0;
  let weakShared = false;
  for (let i = 0; i < p.brand.folded.length; i++) {
    const folded = p.brand.folded[i] as string;
    const plain = p.brand.words[i] ?? folded;
    const weak = isWeakWord(p.stats, folded, plain);
    // Unmeasured (no register counts): every distinctive word weighs the same.
    const w = weak ? 0 : p.stats.total === 0 ? 1 : Math.max(1, wordWeight(p.stats, plain));
    total += w;
    if (!markWords.has(folded)) continue;
    if (weak) weakShared = true;
    else shared += w;
  }
  return { weight: total === 0 ? 0 : shared / total, weakOnly: weakShared && shared === 0 };
}

/** The features of one pair: the findings of the rules, the two texts and how the goods meet. */
export function pairFeatures(
  p: PreparedWatch,
  m: MarkAnalysis,
  rules: RuleEvidence,
  goods: GoodsRelation,
): Features {
  const b = p.brand.compact.slice(0, MAX_COMPARED);
  const c = m.compact.slice(0, MAX_COMPARED);
  const shorter = Math.max(1, Math.min(b.length, c.length));
  const longer = Math.max(1, b.length, c.length);
  const bSkeleton = p.skeleton.slice(0, MAX_COMPARED);
  const mSkeleton = phoneticSkeleton(m.letters).slice(0, MAX_COMPARED);
  const words = wordLikeness(p, m);
  const shared = sharedWords(p, m);
  const sub = b[0] === c[0] ? commonSubsequence(b, c) : 0;
  return {
    // Cumulative, so that with weights of one sign a stronger rule never scores lower.
    rule_medium: rules.level >= 2 ? 1 : 0,
    rule_high: rules.level >= 3 ? 1 : 0,
    rules_more: Math.min(2, Math.max(0, rules.count - 1)) / 2,
    whole_text: textSimilarity(b, c),
    whole_trigram: trigramSimilarity(p.trigramSet, trigrams(m.compact)),
    whole_sound:
      bSkeleton.length >= 3 && mSkeleton.length >= 3 ? textSimilarity(bSkeleton, mSkeleton) : 0,
    word_text: words.text,
    word_sound: words.sound,
    shared_weight: shared.weight,
    shared_weak_only: shared.weakOnly ? 1 : 0,
    prefix: Math.min(commonPrefix(b, c), shorter) / shorter,
    suffix: Math.min(commonSuffix(b, c), shorter) / shorter,
    contraction: sub / longer,
    at_start: c.startsWith(b.slice(0, Math.min(3, b.length))) ? 1 : 0,
    length_ratio: shorter / longer,
    extra_words: Math.min(3, Math.max(0, m.folded.length - p.brand.folded.length)) / 3,
    short_brand: p.brand.compact.length <= 4 ? 1 : 0,
    common_brand: isDistinctiveBrand(p) ? 0 : 1,
    dictionary_brand: p.brand.folded.every((w) => isWord(w)) ? 1 : 0,
    digits: /[0-9]/.test(p.brand.plainCompact + m.plainCompact) ? 1 : 0,
    goods_related: goods === 'related' ? 1 : 0,
    goods_unknown: goods === 'unknown' ? 1 : 0,
    goods_unrelated: goods === 'unrelated' ? 1 : 0,
  };
}
