// `contraction`: two one-word names of letters where the shorter (5+ letters) is the longer without
// a run of 2 to 4 letters, after the longer's first 3: inside it, with at least its last 2 letters
// kept (COMMCASH / COMMUNICASH, FERRO / FERRERO: a contraction), or at its end, where the rest is
// a mere ending that `fused` does not read as another word (LUTEX / LUTEXAL). A brand contracted so
// is also found as the first word of a mark of 2-3 words (a syllable dropped, then another word).
// Neither name is an English or common word, and the brand is one `fused` applies to (5+ letters,
// distinctive). Retrieved by the contraction keys (normalize.ts, contractionKey) or, for a dropped
// ending, the brand's anchors when the brand is the shorter; by the brand's own contractions, sent
// as tokens, when it is the longer.
import {
  analyzeMark,
  CONTRACTION_MAX_LONGER,
  CONTRACTION_MAX_RUN,
  CONTRACTION_MIN_RUN,
  CONTRACTION_MIN_SHORTER,
  contractionKey,
  FOLDED_COMMON_WORDS,
  type MarkAnalysis,
} from '../normalize.ts';
import type { PreparedWatch } from '../prepare.ts';
import { isWord } from '../vocabulary.ts';
import { lit, type MatchRule } from './rule.ts';

export type ContractionReason = {
  kind: 'contraction';
  detail: string;
  /** The longer and the shorter text, as written (letters only), and whether the brand is longer. */
  longer: string;
  /** The longer as compared: as written, or a longer brand with each double letter as one. */
  read: string;
  shorter: string;
  brandLonger: boolean;
  /** The letters the shorter leaves out, and where they start in the longer (0-based). */
  dropped: string;
  at: number;
  /** The mark's words: more than one when its first word is the contraction. */
  words: number;
};

/** Letters of the longer kept at its start, and (for a contraction inside it) at its end. */
const KEPT_START = 3;
const KEPT_END = 2;
const LETTERS = /^[A-Z]+$/;

/** A name the rule compares: a word of letters as written, not a common or English word. */
function comparableWord(folded: string, written: string): boolean {
  return (
    LETTERS.test(folded) &&
    written === folded &&
    !FOLDED_COMMON_WORDS.has(folded) &&
    !isWord(folded)
  );
}

function comparable(a: MarkAnalysis): boolean {
  return a.folded.length === 1 && comparableWord(a.compact, a.plainCompact);
}

/** A mark of this many words whose first is a contraction of a longer brand is reported too. */
const MAX_MARK_WORDS = 3;

/** Where `shorter` is `longer` without `longer.length - shorter.length` letters, or -1. */
export function contractionAt(longer: string, shorter: string): number {
  const d = longer.length - shorter.length;
  if (d < CONTRACTION_MIN_RUN || d > CONTRACTION_MAX_RUN) return -1;
  if (shorter.length < CONTRACTION_MIN_SHORTER || longer.length > CONTRACTION_MAX_LONGER) return -1;
  if (!longer.startsWith(shorter.slice(0, KEPT_START))) return -1;
  for (let i = KEPT_START; i <= shorter.length - KEPT_END; i++) {
    if (longer.slice(0, i) === shorter.slice(0, i) && longer.slice(i + d) === shorter.slice(i)) {
      return i;
    }
  }
  return longer.startsWith(shorter) ? shorter.length : -1;
}

/** The brand's contractions: the texts a longer brand sends so that its shorter forms are found. */
function contractionsOf(b: string): string[] {
  const out = new Set<string>();
  for (let d = CONTRACTION_MIN_RUN; d <= CONTRACTION_MAX_RUN; d++) {
    const n = b.length - d;
    if (n < CONTRACTION_MIN_SHORTER) break;
    for (let i = KEPT_START; i <= n - KEPT_END; i++) out.add(b.slice(0, i) + b.slice(i + d));
    out.add(b.slice(0, n));
  }
  return [...out];
}

/** The text with each run of one letter written once (MILLTRONICS → MILTRONICS). */
function singleLetters(text: string): string {
  return text.replace(/([A-Z])\1+/g, '$1');
}

function applies(p: PreparedWatch): boolean {
  return p.fusedEligible && comparable(p.brand);
}

export const contraction: MatchRule<ContractionReason> = {
  kind: 'contraction',
  score: 0.45,
  unless: ['affix', 'edit_distance', 'same_shape', 'fused', 'compound'],
  detect(p, m) {
    if (!applies(p)) return null;
    const b = p.brand.compact;
    let c: string;
    let words = 1;
    if (comparable(m)) c = m.compact;
    else {
      // The brand shortened, followed by other words: only its first word is compared, and only
      // as the shorter (the brand's contractions are the keys sent for it).
      const first = m.folded[0] ?? '';
      words = m.folded.length;
      if (words < 2 || words > MAX_MARK_WORDS) return null;
      if (first.length < CONTRACTION_MIN_SHORTER || first.length >= b.length) return null;
      c = first;
    }
    const brandLonger = b.length > c.length;
    const [longer, shorter] = brandLonger ? [b, c] : [c, b];
    let read = longer;
    let at = contractionAt(longer, shorter);
    // A longer brand is also read with each double letter as one (MILLTRONICS as MILTRONICS): it
    // sounds the same, and its contractions are sent too.
    const single = singleLetters(b);
    if (at < 0 && brandLonger && single !== b) {
      read = single;
      at = contractionAt(single, shorter);
    }
    // Followed by other words, only letters dropped from inside: a brand's beginning as the first
    // word of a longer mark is as often another name (NAVIR GREEN FACTOR for NAVIREC).
    if (at < 0 || (words > 1 && at === shorter.length)) return null;
    // The first word of a longer mark, checked as written only now: analysing it costs more.
    if (words > 1 && !comparableWord(c, analyzeMark(m.words[0] ?? '').plainCompact)) return null;
    const dropped = read.slice(at, at + read.length - shorter.length);
    // The letters left out are quoted: they must be letters the brand writes so.
    if (!longer.includes(dropped)) return null;
    return {
      kind: 'contraction',
      detail: `${shorter} is ${read} without ${dropped}${at === shorter.length ? ' at its end' : ''}${words > 1 ? ', followed by other words' : ''}.`,
      longer,
      read,
      shorter,
      brandLonger,
      dropped,
      at,
      words,
    };
  },
  keys(p, out) {
    if (!applies(p)) return;
    const b = p.brand.compact;
    // The brand as the shorter: the record keeps its first 3 and last 2 letters (a dropped ending:
    // the brand's anchors, which `fused` sends).
    for (let d = CONTRACTION_MIN_RUN; d <= CONTRACTION_MAX_RUN; d++) {
      const key = contractionKey(b, b.length + d);
      if (key !== null) out.tokens.add(key);
    }
    // The brand as the longer: the record's compact text is one of its contractions, or of the
    // brand read with each double letter as one.
    for (const read of new Set([b, singleLetters(b)])) {
      if (read.length <= CONTRACTION_MAX_LONGER)
        for (const s of contractionsOf(read)) out.tokens.add(s);
    }
  },
  severity: (r) =>
    r.at === r.shorter.length
      ? [1, 'one name is the other with an ending added, which often makes another name']
      : [2, 'one name is a contraction of the other: letters dropped from inside it'],
  evidence(r) {
    const end = r.at === r.shorter.length;
    return [
      r.brandLonger ? (r.words > 1 ? "The mark's first word " : 'The mark ') : 'The watched brand ',
      lit(r.shorter),
      ' is ',
      r.brandLonger ? 'the watched brand ' : 'the mark ',
      lit(r.longer),
      ...(r.read === r.longer ? [] : [' (read as ', lit(r.read), ', each double letter as one)']),
      end ? ' without its ending ' : ' with the letters ',
      lit(r.dropped),
      end ? '.' : ` left out after its first ${r.at} letters, a contraction.`,
    ];
  },
};
