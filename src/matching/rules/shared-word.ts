// `shared_word`: the mark holds a distinctive word of a brand of two or more core words, as a word,
// in the plural or fused with another (KESTREL ROBOTICS, THE KESTREL GROUP, JOHN KESTREL for
// KESTREL ANALYTICS; PHOTOGRO for PHOTO MAX). Examiners compare marks by their dominant and
// distinctive element: the brand's first distinctive word or its rarest in the register (any of
// them when unmeasured); another distinctive word counts when the mark also shares a second word
// of the brand (BLACK MEN ROCK for BLACK GIRLS ROCK). A weak word (isWeakWord) is never enough.
// Retrieved by the distinctive words, their plurals and their anchors, which records store.
import {
  analyzeMark,
  FOLDED_COMMON_WORDS,
  LONG_ANCHOR,
  MAX_SOUNDED_WORDS,
  type MarkAnalysis,
  PHONETIC_MIN_LENGTH,
  PREFIX_ANCHOR,
  SHORT_ANCHOR,
  SKELETON_KEY,
  SUFFIX_ANCHOR,
} from '../normalize.ts';
import {
  FUSED_MIN_REST,
  isPluralOf,
  type PreparedWatch,
  pluralsOf,
  SHARED_FUSED_MIN,
  STEM_MIN,
  stemOf,
  type WeightyWord,
  WORD_ENDINGS,
} from '../prepare.ts';
import { phoneticSkeleton } from '../similarity.ts';
import {
  isWeakWord,
  MIN_WEIGHTY_LENGTH,
  marksWith,
  measuredCommon,
  type WordStats,
} from '../word-weights.ts';
import {
  type EvidencePiece,
  type Level,
  lit,
  type MatchRule,
  quote,
  type SeverityContext,
} from './rule.ts';

type SharedForm = 'word' | 'plural' | 'fused' | 'stem' | 'sound';

export type SharedWordReason = {
  kind: 'shared_word';
  detail: string;
  /** The brand's distinctive words that the mark holds, as the brand writes them. */
  words: string[];
  /** The mark's words that hold them, and how the first is held. */
  markWords: string[];
  form: SharedForm;
  /** Where the first of them stands: in the brand's core and in the mark (0 = first word). */
  brandAt: number;
  markAt: number;
  of: number;
  /** Marks of the register holding each shared word (null: not measured). */
  marks: (number | null)[];
  /** The mark holds every distinctive word of the brand. */
  whole: boolean;
  /** The record disclaims the (first) shared word: its office found it descriptive. */
  disclaimed: boolean;
};

/** Where and how the mark holds a distinctive word of the brand: as a word, plural, or fused. */
function findShared(
  w: WeightyWord,
  m: MarkAnalysis,
  core: readonly string[],
): { markAt: number; form: SharedForm; as: string } | null {
  const at = m.folded.indexOf(w.folded);
  if (at >= 0) return { markAt: at, form: 'word', as: m.words[at] as string };
  for (let j = 0; j < m.folded.length; j++) {
    if (isPluralOf(m.folded[j] as string, w.folded)) {
      return { markAt: j, form: 'plural', as: m.words[j] as string };
    }
  }
  if (w.folded.length >= SHARED_FUSED_MIN) {
    for (let j = 0; j < m.folded.length; j++) {
      const x = m.folded[j] as string;
      if (x.length < w.folded.length + FUSED_MIN_REST) continue;
      if (
        (x.startsWith(w.folded) && !WORD_ENDINGS.has(x.slice(w.folded.length))) ||
        x.endsWith(w.folded)
      ) {
        return { markAt: j, form: 'fused', as: m.words[j] as string };
      }
    }
  }
  // The brand's word in another of its forms, when the brand writes it inflected (GNARLY: GNARL,
  // GNARLED). A brand word without an ending keeps its own: HARBORING is not HARBOR's.
  if (w.stem.length >= STEM_MIN && w.stem !== w.folded) {
    for (let j = 0; j < m.folded.length; j++) {
      if (stemOf(m.folded[j] as string) === w.stem) {
        return { markAt: j, form: 'stem', as: m.words[j] as string };
      }
    }
  }
  if (
    w.skeleton !== '' &&
    m.folded.length >= 2 &&
    m.folded.length <= MAX_SOUNDED_WORDS &&
    echoesAnotherWord(core, w.folded, m.folded, -1)
  ) {
    for (let j = 0; j < m.letterWords.length; j++) {
      const x = m.letterWords[j] as string;
      // One spelling skeleton: respellings of one sound (BUGS, BUGZZZ), not a near sound. A
      // respelt word alone is mostly another respelling of a common word (VITA for VITAE, CASA for
      // KASA): the mark must echo another word of the brand too (SNUG BUGS for SNUGGLE BUGZZZ),
      // and a word of the common list is no respelling of a distinctive one.
      if (
        x.length >= PHONETIC_MIN_LENGTH &&
        !FOLDED_COMMON_WORDS.has(m.folded[j] as string) &&
        phoneticSkeleton(x) === w.skeleton &&
        echoesAnotherWord(core, w.folded, m.folded, j)
      ) {
        return { markAt: j, form: 'sound', as: m.words[j] as string };
      }
    }
  }
  return null;
}

/**
 * The word's stem for the `stem` form, or '' when that stem is a weak word (MAISON of MAISONS,
 * REWARD of REWARDING): another form of a common word is no distinctive element. The data layer
 * measures the stems with the words (statsWordsOf).

/** Letters with which a mark's word echoes a brand word: it begins with them (SNUG, SNUGGLE). */
const ECHO_PREFIX = 3;

/** Does a word of the mark other than its `j`th begin as a brand word other than `word` does? */
function echoesAnotherWord(
  core: readonly string[],
  word: string,
  markWords: readonly string[],
  j: number,
): boolean {
  return markWords.some(
    (x, k) =>
      k !== j &&
      x.length >= ECHO_PREFIX &&
      core.some(
        (c) => c !== word && c.length >= ECHO_PREFIX && c.startsWith(x.slice(0, ECHO_PREFIX)),
      ),
  );
}

function sharedWordReason(
  p: PreparedWatch,
  m: MarkAnalysis,
  disclaimed: readonly string[],
): SharedWordReason | null {
  if (p.core.length < 2 || p.weighty.length === 0 || m.folded.length === 0) return null;
  const sharedWords = p.core.filter((w) => w.length >= MIN_WEIGHTY_LENGTH && m.folded.includes(w));
  const addsUp = new Set(sharedWords).size >= 2;
  const found = p.weighty.flatMap((w) => {
    if (!(w.dominant || addsUp)) return [];
    const f = findShared(w, m, p.core);
    return f === null ? [] : [{ w, ...f }];
  });
  const first = found[0];
  if (first === undefined) return null;
  const words = found.map((f) => f.w.plain);
  const where =
    first.w.at === 0 && first.markAt === 0
      ? 'the first word of both marks'
      : first.w.at === 0
        ? 'the first word of the brand'
        : first.markAt === 0
          ? 'the first word of the mark'
          : 'a word of both marks';
  const how = {
    word: '',
    plural: ', in the plural',
    fused: ', fused into a word',
    stem: `, in another form (${first.as})`,
    sound: `, respelt with the same sound (${first.as})`,
  }[first.form];
  return {
    kind: 'shared_word',
    detail: `The mark shares the brand's distinctive word${words.length > 1 ? 's' : ''} ${quote(words)}${how}, ${where}.`,
    words,
    markWords: found.map((f) => f.as),
    form: first.form,
    brandAt: first.w.at,
    markAt: first.markAt,
    of: m.words.length,
    marks: found.map((f) => marksWith(p.stats, f.w.plain)),
    whole:
      found.length === p.weighty.length &&
      found.every((f) => f.form === 'word' || f.form === 'plural'),
    disclaimed: disclaimed.includes(first.w.plain),
  };
}

/**
 * `shared_word`: identical distinctive element (the mark holds every distinctive word of the
 * brand and no distinctive word of its own) in identical classes is high; the brand's first word,
 * or its only distinctive word, is its dominant element: medium; another of its words: low.
 */
function sharedWordLevel(
  p: PreparedWatch,
  r: SharedWordReason,
  context: SeverityContext | undefined,
): Level {
  if (r.disclaimed) {
    return [1, 'the shared word is one the record disclaims: its office found it descriptive'];
  }
  if (r.whole && context !== undefined) {
    const m = analyzeMark(context.markText);
    const stats = context.stats ?? p.stats;
    const own = m.folded.filter(
      (w, i) => !p.weighty.some((b) => b.folded === w) && !isWeakWord(stats, w, m.words[i] ?? w),
    );
    const sameClasses =
      context.classes.length === p.classes.size && context.classes.every((c) => p.classes.has(c));
    if (own.length === 0 && sameClasses) {
      return [
        3,
        'the mark repeats the distinctive element of the brand, with only common words beside it, in the same classes',
      ];
    }
  }
  if (r.brandAt === 0 || p.weighty.length === 1) {
    return [2, 'the mark shares the dominant, distinctive word of the brand'];
  }
  return [1, 'the mark shares one distinctive word of the brand, not its first'];
}

/**
 * The shared-word evidence in a lawyer's words: "KESTREL, the first word of both marks (in 41 of
 * 1,204,332 marks in the register); ROBOTICS and ANALYTICS are common (3,100 and 5,870 marks)".
 */
function sharedWordEvidence(
  p: PreparedWatch,
  m: ReturnType<typeof analyzeMark>,
  r: SharedWordReason,
  stats: WordStats,
): EvidencePiece[] {
  const where =
    r.brandAt === 0 && r.markAt === 0
      ? ', the first word of both marks'
      : r.brandAt === 0
        ? ', the first word of the brand'
        : r.markAt === 0
          ? ', the first word of the mark'
          : '';
  const pieces: EvidencePiece[] = [
    `The mark shares the distinctive word${r.words.length > 1 ? 's' : ''} `,
    ...listOf(r.words),
    ' of the watched brand',
  ];
  // A further word the mark holds in another form is named with the form it has there.
  const other = r.words.flatMap((w, i) => {
    const as = r.markWords[i] ?? w;
    return i === 0 || analyzeMark(as).compact.includes(analyzeMark(w).compact) ? [] : [[w, as]];
  });
  for (const [w, as] of other) pieces.push(` (${w} as `, lit(as ?? ''), ')');
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

/** `A`, `A and B`, `A, B and C` of register words, as pieces. */
function listOf(words: readonly string[]): EvidencePiece[] {
  const out: EvidencePiece[] = [];
  words.forEach((w, i) => {
    if (i > 0) out.push(i === words.length - 1 ? ' and ' : ', ');
    out.push(lit(w));
  });
  return out;
}

const count = (n: number) => n.toLocaleString('en');

export const sharedWord: MatchRule<SharedWordReason> = {
  kind: 'shared_word',
  score: 0.45,
  // The brand's whole core (contains, reordered) or the whole mark inside it (contained) already
  // say more than one shared word.
  unless: ['contains_brand', 'reordered', 'contained_in_brand'],
  detect: sharedWordReason,
  keys(p, out) {
    // The distinctive words of a brand of two or more core words, their plurals, and the anchors
    // of those long enough to be reported fused.
    if (p.core.length < 2) return;
    for (const w of p.weighty) {
      out.tokens.add(w.folded);
      out.tokens.add(`${w.folded}S`);
      for (const plural of pluralsOf(w.folded)) out.tokens.add(plural);
      const n = w.folded.length;
      if (n >= SHARED_FUSED_MIN) {
        const size = n >= LONG_ANCHOR ? LONG_ANCHOR : SHORT_ANCHOR;
        out.tokens.add(PREFIX_ANCHOR + w.folded.slice(0, size));
        out.tokens.add(SUFFIX_ANCHOR + w.folded.slice(n - size));
      }
      // Another inflection of the word (GNARLED for GNARLY): its stem as a word, or the anchor of
      // its beginning that every longer word of the stem stores.
      if (w.stem !== w.folded) {
        out.tokens.add(w.stem);
        const size = w.stem.length >= LONG_ANCHOR ? LONG_ANCHOR : SHORT_ANCHOR;
        out.tokens.add(PREFIX_ANCHOR + w.stem.slice(0, size));
      }
      // The word respelt (BUGS for BUGZZZ), as a word of a mark of several words.
      if (w.skeleton !== '') out.tokens.add(SKELETON_KEY + w.skeleton);
    }
  },
  severity: (r, { p, context }) => sharedWordLevel(p, r, context),
  evidence: (r, c) => sharedWordEvidence(c.p, c.m, r, c.stats),
};
