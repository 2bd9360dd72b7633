// What a match rule is: its detection, its search keys, its part of severity and its evidence for
// the rationale, in one file per rule (this folder). decide.ts runs them in the order of
// rules/index.ts; severity.ts and the rationale read a finding through its rule, never by a switch
// on its kind. Pure.
import { describeEdits, editSteps } from '../explain.ts';
import type { MarkAnalysis } from '../normalize.ts';
import type { PreparedWatch } from '../prepare.ts';
import type { WordStats } from '../word-weights.ts';

/** A piece of an evidence sentence: our words, or register text (quoted as written, never parsed). */
export type EvidencePiece = string | { literal: string };
export const lit = (text: string): EvidencePiece => ({ literal: text });

/** `"A B"`: a quote in a reason's `detail`. */
export function quote(words: readonly string[]): string {
  return `"${words.join(' ')}"`;
}

/** What the severity of a finding may read beyond the finding itself. */
export interface SeverityContext {
  /** The record's text and classes. */
  markText: string;
  classes: readonly number[];
  /** Counts of the record's words (and the brand's), to tell its other words weak or not. */
  stats?: WordStats;
}

/** A rule's part of severity: 1 low, 2 medium, 3 high, and the sentence that says why. */
export type Level = [number, string];

export interface SeverityInput {
  p: PreparedWatch;
  /** isDistinctiveBrand(p), computed once per assessment. */
  distinctive: boolean;
  context: SeverityContext | undefined;
}

/** What each rule's evidence may quote: the watch, the mark and its analysis, the word counts. */
export interface EvidenceContext {
  p: PreparedWatch;
  mark: string;
  m: MarkAnalysis;
  /** The watched brand, as register text. */
  brand: EvidencePiece;
  stats: WordStats;
}

/** Where a rule puts the keys the candidate query must send for it (SearchKeys). */
export interface KeySink {
  tokens: Set<string>;
  nearWords: string[];
  phonetic: string[];
}

/**
 * One match rule. Methods (not function properties) so that a rule of one finding type fits the
 * list of all rules.
 */
export interface MatchRule<R extends { kind: string; detail: string }> {
  kind: R['kind'];
  /** Strength of the finding, 0..1: the decision's score is its strongest finding's. */
  score: number;
  /** The finding is the whole answer: no later rule runs (identity of the texts). */
  alone?: boolean;
  /** The rule does not run when an earlier rule already found one of these. */
  unless?: readonly string[];
  detect(p: PreparedWatch, m: MarkAnalysis, disclaimed: readonly string[]): R | null;
  /** The keys that retrieve every record the rule accepts (docs/matching.md, section 4). */
  keys?(p: PreparedWatch, out: KeySink): void;
  /**
   * Are the rule's keys (and, for edit_distance, the two-edit band) also searched in a related
   * class, a class related to a watched one but not watched itself? Only those of the rules whose
   * findings the decision raises there: the other keys retrieved a quarter of the related-class
   * candidates and raised none of them (docs/matching.md, "Related classes"). A pair only another
   * rule finds is not a candidate there.
   */
  relatedClassKeys?: boolean;
  /**
   * The rule's own level (`severity`) from which its finding crosses into a related class at the
   * alert threshold (decide.ts, strongText); weaker findings cross only from the `across`
   * threshold. Unset: level 3 for a rule of strength (`score`) RELATED_MIN_SCORE or more, never
   * for the others.
   */
  crossesAt?: 1 | 2 | 3;
  severity(r: R, s: SeverityInput): Level;
  evidence(r: R, c: EvidenceContext): EvidencePiece[];
  /**
   * Does the finding take the brand whole into the mark, in a form tribunals read as the brand
   * itself with an addition or without its weak words? For a distinctive brand, such text crosses
   * into a related class at the alert threshold (decide.ts, strongText).
   */
  takesBrandWhole?(r: R, p: PreparedWatch): boolean;
}

/**
 * The letters of two spellings and the edits between them as evidence, quoted as written: the
 * brand's and the mark's own text (`written`) when the edits are the same there; otherwise each
 * written form followed by how it was read (`compared`: look-alike characters read as the letters
 * they imitate, so AUDIO2 is read as AUDIOZ), so that no quoted letter is one the marks lack.
 */
export function spellings(
  compared: readonly [string, string],
  written: readonly [string, string],
): { mark: EvidencePiece[]; brand: EvidencePiece[]; edits: string } {
  const [brand, mark] = compared;
  const asWritten =
    written[0] === brand && written[1] === mark
      ? true
      : editSteps(written[0], written[1]).length === editSteps(brand, mark).length;
  if (asWritten) {
    return {
      brand: [lit(written[0])],
      mark: [lit(written[1])],
      edits: describeEdits(written[0], written[1]),
    };
  }
  const readAs = (w: string, c: string): EvidencePiece[] =>
    w === c ? [lit(w)] : [lit(w), ' (read as ', lit(c), ')'];
  return {
    brand: readAs(written[0], brand),
    mark: readAs(written[1], mark),
    edits: `as read: ${describeEdits(brand, mark)}`,
  };
}

/** Where a finding stands in the mark, for evidence: ", word 2 of 3". */
export function position(at: number, of: number): string {
  if (of <= 1) return '';
  if (at === 0) return ', at the start of the mark';
  return `, word ${at + 1} of ${of}`;
}

/** "prefix X and suffix Y", or with articles ("the prefix X"). */
export function describeAffix(prefix: string, suffix: string, article = ''): string {
  const parts: string[] = [];
  if (prefix !== '') parts.push(`${article}prefix ${prefix}`);
  if (suffix !== '') parts.push(`${article}suffix ${suffix}`);
  return parts.join(' and ');
}
