// `letter_changed`: a brand of three letters (an acronym: ILS) and a mark of three letters with one
// of them changed (ELS). The edit rule starts at 4 characters, where one letter is a quarter of the
// mark; three letters read as initials are compared letter by letter, and a tribunal finds one
// changed letter of three confusing when the other two stand where they stood. Neither may be a
// common or English word (SUN / SUP are other words, not an acronym respelt), nor a word the
// register finds common. Retrieved by the brand's substitutions, sent as tokens: the record's
// compact text is a token.
import { FOLDED_COMMON_WORDS, type MarkAnalysis } from '../normalize.ts';
import type { PreparedWatch } from '../prepare.ts';
import { isWord } from '../vocabulary.ts';
import { measuredCommon } from '../word-weights.ts';
import { lit, type MatchRule } from './rule.ts';

export type LetterChangedReason = {
  kind: 'letter_changed';
  detail: string;
  /** The brand's and the mark's letters as written, and the position changed (0-based). */
  texts: [string, string];
  at: number;
};

const ACRONYM = /^[A-Z]{3}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ORDINALS = ['first', 'second', 'third'];

/** Three letters as written, one word, neither a common nor an English word. */
function acronym(a: MarkAnalysis): boolean {
  const c = a.compact;
  return (
    a.folded.length === 1 &&
    ACRONYM.test(c) &&
    a.plainCompact === c &&
    !FOLDED_COMMON_WORDS.has(c) &&
    !isWord(c)
  );
}

function applies(p: PreparedWatch): boolean {
  return acronym(p.brand) && !measuredCommon(p.stats, p.brand.words[0] ?? p.brand.compact);
}

export const letterChanged: MatchRule<LetterChangedReason> = {
  kind: 'letter_changed',
  score: 0.4,
  detect(p, m) {
    if (!applies(p) || !acronym(m)) return null;
    const b = p.brand.compact;
    const c = m.compact;
    let at = -1;
    for (let i = 0; i < 3; i++) {
      if (b[i] === c[i]) continue;
      if (at >= 0) return null;
      at = i;
    }
    if (at < 0) return null;
    return {
      kind: 'letter_changed',
      detail: `The three letters ${c} are the brand's ${b} with the ${ORDINALS[at]} letter changed.`,
      texts: [b, c],
      at,
    };
  },
  keys(p, out) {
    if (!applies(p)) return;
    const b = p.brand.compact;
    for (let i = 0; i < 3; i++) {
      for (const x of ALPHABET) if (x !== b[i]) out.tokens.add(b.slice(0, i) + x + b.slice(i + 1));
    }
  },
  severity: () => [1, 'the three letters differ in one, which in initials is a third of the mark'],
  evidence: (r) => [
    'The mark ',
    lit(r.texts[1]),
    ' is the watched brand ',
    lit(r.texts[0]),
    ` with its ${ORDINALS[r.at]} letter, `,
    lit(r.texts[0][r.at] as string),
    ', replaced by ',
    lit(r.texts[1][r.at] as string),
    '; the other two stand where they stand in the brand.',
  ],
};
