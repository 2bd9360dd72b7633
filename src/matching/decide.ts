// The conflict decision: does a register record conflict with a watched brand? The text rules are
// in rules/, one file each (detection, search keys, part of severity, evidence); this module runs
// them in the order of rules/index.ts and adds the class and territory facts. Pure functions, no
// I/O. Every rule, threshold and the SQL key that retrieves it are described in docs/matching.md;
// keep the two in step.
import { IDENTITY_KINDS, watchesAnyClass } from './any-class.ts';
import { coveredDesignations } from './coverage.ts';
import { type Features, type GoodsRelation, pairFeatures, ruleEvidence } from './features.ts';
import { type GoodsMeeting, goodsMeeting } from './goods.ts';
import { levelOf, MODEL, raises, scoreOf } from './model.ts';
import { analyzeMark, type MarkAnalysis } from './normalize.ts';
import {
  isDistinctiveBrand,
  type PreparedWatch,
  prepareWatchSides,
  type RecordInput,
  type SearchKeys,
  TWO_EDITS_MIN_LENGTH,
  trigramThreshold,
  type WatchInput,
} from './prepare.ts';
import { editDistance } from './rules/edit-distance.ts';
import { RULES, ruleOf, type TextReason, type TextReasonKind } from './rules/index.ts';
import type { KeySink } from './rules/rule.ts';
import { NO_WORD_STATS, type WordStats } from './word-weights.ts';

export {
  editsAllowed,
  type PreparedWatch,
  type RecordInput,
  type SearchKeys,
  STEM_MIN,
  skeletonEditsAllowed,
  statsWordsOf,
  stemOf,
  TWO_EDITS_MIN_LENGTH,
  trigramThreshold,
  type WatchInput,
} from './prepare.ts';
export type { TextReason, TextReasonKind } from './rules/index.ts';

export type ReasonKind =
  | TextReasonKind
  | 'class_overlap'
  | 'related_goods'
  | 'any_class'
  | 'territory';

/**
 * Text this strong (the strongest rule's own strength, rules/*.ts `score`) that the same class
 * would rate high crosses into a related class (goods.ts) at any score the model raises; weaker
 * text crosses only where the model rates the pair at least medium (raisedAt). The model scores
 * it with `goods_related`, whose weight only lowers the score.
 */
export const RELATED_MIN_SCORE = 0.7;

/** One machine-readable finding, with a sentence (`detail`) a reader can quote. */
export type Reason =
  | TextReason
  | { kind: 'class_overlap'; detail: string; classes: number[] }
  | {
      /** No class is shared, but a record class is related to a watch class (goods.ts). */
      kind: 'related_goods';
      detail: string;
      meeting: GoodsMeeting;
    }
  | {
      /**
       * No class is shared or related, but the record is the brand itself, a distinctive one
       * (any-class.ts): the same mark in any class.
       */
      kind: 'any_class';
      detail: string;
      watchClasses: number[];
      recordClasses: number[];
    }
  | { kind: 'territory'; detail: string; designations: string[] };

export interface Decision {
  /**
   * True when a text rule fired, a Nice class is shared (or the record has none: the source does
   * not publish them, or a record class is related to a watch class, goods.ts), a watch designation
   * is covered and the model's score reaches the alert threshold (model.ts).
   */
  conflict: boolean;
  /** Text reasons (strongest first), then the `class_overlap` and `territory` facts that hold. */
  reasons: Reason[];
  /**
   * The model's score (model.ts), 0..1, of a pair the rules found in classes that meet and a
   * covered territory; 0 otherwise. The pair is a conflict when it reaches the alert threshold.
   */
  score: number;
}

/**
 * Computes what every comparison with this watch needs, once: the watch side (prepare.ts) and the
 * keys of the SQL candidate query, which each rule gives. `stats`: the register's counts of the
 * brand's words (wordStatsFor in the data layer); without them only the built-in list of common
 * words tells a weak word.
 */
export function prepareWatch(watch: WatchInput, stats: WordStats = NO_WORD_STATS): PreparedWatch {
  const prepared = prepareWatchSides(watch, stats);
  prepared.search = buildSearchKeys(prepared);
  return prepared;
}

function buildSearchKeys(p: PreparedWatch): SearchKeys {
  const b = p.brand.compact;
  const sink: KeySink = { tokens: new Set<string>(), nearWords: [], phonetic: [] };
  // The two-edit band's threshold is read by edit_distance's detection, which runs for no key.
  const useTrigram = b.length >= TWO_EDITS_MIN_LENGTH;
  p.search = {
    ...p.search,
    useTrigram,
    trigramThreshold: useTrigram ? trigramThreshold(b.length) : 0,
  };
  // The keys searched in a related class too (MatchRule.relatedClassKeys): tokens and one-edit
  // texts together, and codes.
  const related = new Set<string>();
  const relatedCodes = new Set<string>();
  for (const rule of RULES) {
    if (rule.keys === undefined) continue;
    const own: KeySink = { tokens: new Set<string>(), nearWords: [], phonetic: [] };
    rule.keys(p, own);
    for (const t of own.tokens) sink.tokens.add(t);
    sink.nearWords.push(...own.nearWords);
    sink.phonetic.push(...own.phonetic);
    if (rule.relatedClassKeys === true) {
      for (const t of [...own.tokens, ...own.nearWords]) related.add(t);
      for (const c of own.phonetic) relatedCodes.add(c);
    }
  }
  sink.tokens.delete('');
  related.delete('');
  return {
    compact: b,
    tokens: [...sink.tokens],
    nearWords: [...new Set(sink.nearWords)],
    phonetic: [...new Set(sink.phonetic)],
    relatedTokens: [...related],
    relatedPhonetic: [...relatedCodes],
    // The two-edit band is edit_distance's key.
    relatedBand: useTrigram && editDistance.relatedClassKeys === true,
    useTrigram,
    trigramThreshold: p.search.trigramThreshold,
  };
}

/** Watch-side keys for the SQL candidate query. */
export function searchKeys(brandName: string): SearchKeys {
  return prepareWatch({ name: brandName, niceClasses: [], designations: [] }).search;
}

/** The text reasons for a brand and a mark: identity, or the similarity rules, in their order. */
export function compareText(
  p: PreparedWatch,
  m: MarkAnalysis,
  disclaimed: readonly string[] = [],
): TextReason[] {
  if (m.compact === '' || p.brand.compact === '') return [];
  const out: TextReason[] = [];
  for (const rule of RULES) {
    if (rule.unless?.some((kind) => out.some((r) => r.kind === kind))) continue;
    const found = rule.detect(p, m, disclaimed);
    if (found === null) continue;
    if (rule.alone) return [found];
    out.push(found);
  }
  return out;
}

/**
 * Is the text strong enough to cross into a related class at any score the model raises: a
 * finding of RELATED_MIN_SCORE or more that the severity of the same class rates high on its own
 * (the texts the same to the eye or the ear, one letter from a distinctive brand, its plural), a
 * finding at the level its rule names (`crossesAt`: a distinctive brand whole inside a longer mark,
 * a distinctive part of the brand as the whole mark), or the brand taken whole in another form
 * (wholeBrandTaken). Other findings cross only from the `across` threshold (raisedAt).
 */
export function strongText(p: PreparedWatch, text: readonly TextReason[]): boolean {
  const input = { p, distinctive: isDistinctiveBrand(p), context: undefined };
  return text.some((r) => {
    if (wholeBrandTaken(p, r)) return true;
    const rule = ruleOf(r.kind);
    if (rule === undefined) return false;
    const at = rule.crossesAt ?? (rule.score >= RELATED_MIN_SCORE ? 3 : undefined);
    return at !== undefined && rule.severity(r, input)[0] >= at;
  });
}

/**
 * Is the distinctive brand (one with a word not weak in the register, as for the same mark in any
 * class) taken whole into the mark in another form than its own words (the rules'
 * `takesBrandWhole`: its plural opening the mark, fused with the next word, or the brand without
 * its weak words)?
 */
function wholeBrandTaken(p: PreparedWatch, r: TextReason): boolean {
  if (!isDistinctiveBrand(p) || p.weighty.length === 0) return false;
  return ruleOf(r.kind)?.takesBrandWhole?.(r, p) === true;
}

/**
 * Is a candidate with this score raised: from the model's alert threshold in the watch's classes
 * (or a record without any), and on strong text in a related class; weaker text in a related class
 * from the model's `across` threshold, which training sets so that a related class adds few alerts
 * on the register's unrelated marks; the same mark in a class nothing relates from `medium`
 * (acrossGate). Chosen on the development part of the decided cases (docs/matching.md, "Related
 * classes").
 */
export function raisedAt(
  p: PreparedWatch,
  text: readonly TextReason[],
  relation: GoodsRelation,
  score: number,
): boolean {
  if (!raises(score)) return false;
  const gate = acrossGate(p, text, relation);
  if (gate === 'across') return score >= MODEL.thresholds.across;
  return gate === 'none' || levelOf(score) !== 'low';
}

/**
 * The score a pair needs beyond the alert threshold: none in the watch's classes, on a record
 * without classes, or on strong text (strongText) in a related class; `across` for weaker text in a
 * related class; `medium` for the same mark in a class nothing relates (any-class.ts), whose alert
 * is then exactly medium: never low, and capped at medium (severity.ts).
 */
export function acrossGate(
  p: PreparedWatch,
  text: readonly TextReason[],
  relation: GoodsRelation,
): 'none' | 'across' | 'medium' {
  if (relation === 'unrelated') return 'medium';
  return relation === 'related' && !strongText(p, text) ? 'across' : 'none';
}

/** How the record's classes meet the watch's: shared, absent from the source, or neither. */
export function goodsRelation(
  p: PreparedWatch,
  record: { classes: readonly number[] },
): { shared: number[]; relation: GoodsRelation | null } {
  const shared: number[] = [];
  for (const c of record.classes) if (p.classes.has(c) && !shared.includes(c)) shared.push(c);
  shared.sort((x, y) => x - y);
  if (shared.length > 0) return { shared, relation: 'same' };
  // A record whose source publishes no Nice class cannot share one: text and territory decide
  // (docs/matching.md, "Records without classes"); its severity is capped (alerts/assessment.ts).
  if (record.classes.length === 0) return { shared, relation: 'unknown' };
  return { shared, relation: null };
}

/**
 * The features and score of a pair the rules found (text reasons non-empty) whose goods meet:
 * what the model weighs (features.ts, model.ts). `stats`: the counts the rules' levels read.
 */
export function scorePair(
  p: PreparedWatch,
  m: MarkAnalysis,
  markText: string,
  text: readonly TextReason[],
  record: { classes: readonly number[] },
  relation: GoodsRelation,
  stats: WordStats = p.stats,
): { features: Features; score: number } {
  const rules = ruleEvidence(p, text, { markText, classes: record.classes, stats });
  const features = pairFeatures(p, m, rules, relation);
  return { features, score: scoreOf(features) };
}

/**
 * The decision for one candidate record, with the watch prepared once (prepareWatch). The rules
 * find the candidates; the model's score decides which are raised.
 */
export function decideConflictPrepared(p: PreparedWatch, record: RecordInput): Decision {
  const { m, text, relation, reasons } = findCandidate(p, record);
  if (relation === null) return { conflict: false, reasons, score: 0 };
  const { score } = scorePair(p, m, record.markText, text, record, relation);
  return { conflict: raisedAt(p, text, relation, score), reasons, score };
}

/**
 * What the rules and the class and territory facts say of a record: its analysis, the text
 * reasons, every reason, and how the goods meet when the pair is a candidate for the model (a
 * text rule holds, the classes meet, a watch designation is covered); `relation` null otherwise.
 */
export function findCandidate(
  p: PreparedWatch,
  record: RecordInput,
): { m: MarkAnalysis; text: TextReason[]; relation: GoodsRelation | null; reasons: Reason[] } {
  const m = analyzeMark(record.markText);
  const text = compareText(p, m, record.disclaimed ?? []);
  const { shared, relation: classes } = goodsRelation(p, record);
  const covered = coveredDesignations(record, p.designations);
  const reasons: Reason[] = [...text];
  if (shared.length > 0) {
    reasons.push({
      kind: 'class_overlap',
      detail: `Shared Nice class${shared.length > 1 ? 'es' : ''}: ${shared.join(', ')}.`,
      classes: shared,
    });
  }
  const crossesClasses = classes === null && p.relatedClasses && text.length > 0;
  const meeting = crossesClasses
    ? goodsMeeting(p.classes, record.classes, record.goods, record.filedAt ?? null)
    : null;
  if (meeting !== null) {
    reasons.push({
      kind: 'related_goods',
      detail: `Related goods: ${meeting.watchGoods} (${meeting.watchClass}) and ${meeting.recordGoods} (${meeting.recordClass}), ${meeting.reason}.`,
      meeting,
    });
  }
  if (covered.length > 0) {
    reasons.push({
      kind: 'territory',
      detail: `The ${record.jurisdiction.toUpperCase()} record covers ${covered.join(', ')}.`,
      designations: covered,
    });
  }
  const elsewhere =
    classes === null &&
    meeting === null &&
    watchesAnyClass(p) &&
    text.some((r) => IDENTITY_KINDS.has(r.kind));
  if (elsewhere) {
    const watchClasses = [...p.classes].sort((a, b) => a - b);
    const recordClasses = [...new Set(record.classes)].sort((a, b) => a - b);
    reasons.push({
      kind: 'any_class',
      detail: `No class shared or related (${watchClasses.join(', ')} / ${recordClasses.join(', ')}), but the mark is the distinctive brand itself.`,
      watchClasses,
      recordClasses,
    });
  }
  const relation = classes ?? (meeting !== null ? 'related' : elsewhere ? 'unrelated' : null);
  const candidate = text.length > 0 && covered.length > 0;
  return { m, text, relation: candidate ? relation : null, reasons };
}

/**
 * Can a record with this text be a conflict of the watch at all: live (or of unknown liveness) and
 * found by a text rule. A decision needs both, whatever the classes and the territory
 * (findCandidate); and whether a rule finds the text does not depend on the words the record
 * disclaims (`shared_word` only notes them), so a record that fails this is a conflict of no
 * watch's classes, and a scan can leave it out before reading it in full.
 */
export function mayConflict(p: PreparedWatch, markText: string, live: boolean | null): boolean {
  return mayConflictAnalyzed(p, analyzeMark(markText), live);
}

/** mayConflict of a mark already analysed (analyzeMark). */
export function mayConflictAnalyzed(
  p: PreparedWatch,
  m: MarkAnalysis,
  live: boolean | null,
): boolean {
  return live !== false && compareText(p, m).length > 0;
}

/** The decision for one watch and one register record. */
export function decideConflict(watch: WatchInput, record: RecordInput): Decision {
  return decideConflictPrepared(prepareWatch(watch), record);
}

/** Text reasons only (no class or territory test): how similar is `markText` to the brand? */
export function compareMarks(brandName: string, markText: string): Reason[] {
  return compareText(
    prepareWatch({ name: brandName, niceClasses: [], designations: [] }),
    analyzeMark(markText),
  );
}
