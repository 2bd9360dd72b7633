// The evidence of each text rule of the matching decision, in a lawyer's words: one entry per
// reason kind, and ruleEvidence, the one function the rationale reads them through. Pure.

import type { PreparedWatch, Reason } from '../../matching/decide.ts';
import { describeEdits, lookalikePairs, respellingsBetween } from '../../matching/explain.ts';
import { analyzeMark } from '../../matching/normalize.ts';
import {
  isWeakWord,
  marksWith,
  measuredCommon,
  type WordStats,
} from '../../matching/word-weights.ts';
import { lit, type Piece } from './rationale-text.ts';

function position(at: number, of: number): string {
  if (of <= 1) return '';
  if (at === 0) return ', at the start of the mark';
  return `, word ${at + 1} of ${of}`;
}

const count = (n: number) => n.toLocaleString('en');

/** `A`, `A and B`, `A, B and C` of register words, as pieces. */
function listOf(words: readonly string[]): Piece[] {
  const out: Piece[] = [];
  words.forEach((w, i) => {
    if (i > 0) out.push(i === words.length - 1 ? ' and ' : ', ');
    out.push(lit(w));
  });
  return out;
}

/**
 * The shared-word evidence in a lawyer's words: "KESTREL, the first word of both marks (in 41 of
 * 1,204,332 marks in the register); ROBOTICS and ANALYTICS are common (3,100 and 5,870 marks)".
 */
function sharedWordEvidence(
  p: PreparedWatch,
  m: ReturnType<typeof analyzeMark>,
  r: Extract<Reason, { kind: 'shared_word' }>,
  stats: WordStats,
): Piece[] {
  const where =
    r.brandAt === 0 && r.markAt === 0
      ? ', the first word of both marks'
      : r.brandAt === 0
        ? ', the first word of the brand'
        : r.markAt === 0
          ? ', the first word of the mark'
          : '';
  const pieces: Piece[] = [
    `The mark shares the distinctive word${r.words.length > 1 ? 's' : ''} `,
    ...listOf(r.words),
    ' of the watched brand',
  ];
  if (r.form !== 'word') {
    const how = {
      plural: ' in the plural, ',
      fused: ' fused with another word into ',
      stem: ' in another form of the same word, ',
      sound: ' respelt with the same sound, ',
    }[r.form];
    pieces.push(how, lit(r.markWords[0] ?? ''));
  }
  pieces.push(where);
  const counts = r.words.map((w) => marksWith(stats, w));
  if (stats.total > 0) {
    pieces.push(
      ` (in ${counts.map((n) => count(n ?? 0)).join(' and ')} of ${count(stats.total)} marks in the register)`,
    );
  }
  pieces.push('.');
  if (r.disclaimed) {
    pieces.push(
      ' The record disclaims ',
      lit(r.words[0] ?? ''),
      ' (no claim to it apart from the mark as shown): its office found the word descriptive for these goods or services.',
    );
  }
  // The words that weigh little, with their counts where the register measured them common.
  const shared = new Set(r.words);
  const measured: string[] = [];
  const listed: string[] = [];
  const consider = (folded: string, plain: string) => {
    if (shared.has(plain) || measured.includes(plain) || listed.includes(plain)) return;
    if (plain.length < 4 || /^[0-9]+$/.test(plain) || !isWeakWord(stats, folded, plain)) return;
    (measuredCommon(stats, plain) ? measured : listed).push(plain);
  };
  for (const [i, f] of p.brand.folded.entries()) consider(f, p.brand.words[i] ?? f);
  for (const [i, f] of m.folded.entries()) consider(f, m.words[i] ?? f);
  if (measured.length > 0) {
    const counts = measured.map((w) => count(marksWith(stats, w) ?? 0));
    pieces.push(' ', ...listOf(measured), measured.length > 1 ? ' are common' : ' is common');
    pieces.push(` (${counts.join(' and ')} marks).`);
  }
  if (listed.length > 0) {
    pieces.push(
      ' ',
      ...listOf(listed),
      listed.length > 1 ? ' are generic words' : ' is a generic word',
    );
    pieces.push(' that weigh little in a comparison.');
  }
  return pieces;
}

function describeAffix(prefix: string, suffix: string): string {
  const parts: string[] = [];
  if (prefix !== '') parts.push(`the prefix ${prefix}`);
  if (suffix !== '') parts.push(`the suffix ${suffix}`);
  return parts.join(' and ');
}

/** What each rule's evidence may quote: the watch, the mark and its analysis, the word counts. */
type EvidenceContext = {
  p: PreparedWatch;
  mark: string;
  m: ReturnType<typeof analyzeMark>;
  /** The watched brand, as register text. */
  brand: Piece;
  stats: WordStats;
};

type Evidence<K extends Reason['kind']> = (
  c: EvidenceContext,
  r: Extract<Reason, { kind: K }>,
) => Piece[];

/** The text rules' evidence by reason kind; the other reasons (classes, territory) have none here. */
const EVIDENCE: { [K in Reason['kind']]?: Evidence<K> } = {
  exact: (c) => ['The mark is identical to the watched brand ', c.brand, '.'],
  normalized: (_, r) => [
    'The mark is the watched brand written differently (case, spacing, punctuation or accents): both read ',
    lit(r.normalized),
    '.',
  ],
  confusable: (c, r) => {
    const pairs = lookalikePairs(c.p.brand.plainCompact, c.m.plainCompact);
    return [
      'The mark looks the same as the watched brand once look-alike characters are read as the letters they imitate',
      pairs.length > 0 ? ` (${pairs.join(', ')})` : '',
      ': both read ',
      lit(r.folded),
      '.',
    ];
  },
  edit_distance: (_, r) => {
    const [a, b] = r.texts;
    return [
      `The spelling differs from the watched brand by ${r.distance} letter${r.distance > 1 ? 's' : ''}: `,
      lit(b),
      ' against ',
      lit(a),
      ` (${describeEdits(a, b)}).`,
    ];
  },
  phonetic: (c, r) => {
    const respelt = respellingsBetween(c.p.brand.letters, c.m.letters);
    return [
      r.plural
        ? 'The mark sounds like the watched brand in the plural: '
        : 'The mark sounds like the watched brand: ',
      lit(c.m.letters),
      ' and ',
      lit(c.p.brand.letters),
      ` are pronounced alike${respelt.length > 0 ? ` (reading ${respelt.join(', ')})` : ''}; both reduce to the spelling skeleton `,
      lit(r.skeletons[1]),
      ` and share the Double Metaphone code ${r.code}.`,
    ];
  },
  contains_brand: (_, r) => [
    'The mark contains the watched brand as whole word(s): ',
    lit(r.words.join(' ')),
    `${position(r.at, r.of)}.`,
  ],
  contained_in_brand: (c, r) => [
    'The whole mark is a distinctive part of the watched brand: ',
    lit(r.words.join(' ')),
    ' of ',
    c.brand,
    '.',
  ],
  affix: (_, r) =>
    r.side === 'mark'
      ? ['The mark is the watched brand with ', describeAffix(r.prefix, r.suffix), ' added.']
      : ['The watched brand is the mark with ', describeAffix(r.prefix, r.suffix), ' added.'],
  fused: (_, r) => [
    'The mark writes the watched brand together with another word: ',
    lit(r.word),
    r.side === 'start' ? ' is the brand followed by ' : ' is ',
    lit(r.rest),
    r.side === 'start' ? '' : ' followed by the brand',
    `${position(r.at, r.of)}.`,
  ],
  near_inside: (c, r) => {
    const evidence =
      r.how === 'plural'
        ? 'the brand in the plural'
        : r.how === 'sound'
          ? 'a form that sounds like the brand'
          : `a form one letter away from the brand (${describeEdits(c.p.brand.compact, r.form)})`;
    return ['The mark holds ', evidence, ': ', lit(r.words.join(' ')), `${position(r.at, r.of)}.`];
  },
  shared_word: (c, r) => sharedWordEvidence(c.p, c.m, r, c.stats),
  digits_as_words: (c, r) => {
    const [a, b] = r.texts;
    const said =
      r.how === 'same'
        ? 'the same'
        : r.how === 'edit'
          ? `one letter apart (${describeEdits(a, b)})`
          : 'pronounced alike';
    return [
      'Read aloud with its digits as words, the mark ',
      lit(c.mark),
      ' is ',
      lit(b),
      ' and the watched brand ',
      c.brand,
      ' is ',
      lit(a),
      `: ${said}.`,
    ];
  },
  compound: (_, r) => [
    'The mark joins the watched brand with the word ',
    lit(r.rest),
    ' into one: ',
    lit(r.word),
    r.side === 'start' ? ' begins with the brand' : ' ends with the brand',
    `${position(r.at, r.of)}.`,
  ],
  parts_swapped: (_, r) => [
    "The mark is the watched brand's two parts in the other order: ",
    lit(r.markParts.join(' ')),
    ' for ',
    lit(r.parts.join(' ')),
    r.markParts[0] === r.parts[1] && r.markParts[1] === r.parts[0]
      ? '.'
      : ', each written or pronounced alike.',
  ],
  same_shape: (_, r) => {
    const [a, b] = r.texts;
    return [
      'The mark has the shape of the watched brand: ',
      lit(b),
      ' and ',
      lit(a),
      ` begin with ${r.prefix}${r.suffix.length >= 3 ? ` and end with ${r.suffix}` : ''}, have ${r.syllables} vowel groups each, and differ by ${r.distance} letters (${describeEdits(a, b)}).`,
    ];
  },
  reordered: (_, r) => [
    r.inOrder
      ? 'The mark has every word of the watched brand in order, with other words between them: '
      : 'The mark has every word of the watched brand, in another order: ',
    lit(r.words.join(' ')),
    '.',
  ],
};

/**
 * One sentence (as pieces) for a text rule that fired, with its concrete evidence; null for a
 * reason that is not a text rule.
 */
export function ruleEvidence(
  p: PreparedWatch,
  mark: string,
  r: Reason,
  stats: WordStats,
): Piece[] | null {
  const evidence = EVIDENCE[r.kind] as Evidence<Reason['kind']> | undefined;
  if (evidence === undefined) return null;
  return evidence({ p, mark, m: analyzeMark(mark), brand: lit(p.name), stats }, r as never);
}
