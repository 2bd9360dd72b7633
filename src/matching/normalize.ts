// Text normalization and the keys stored per register record for candidate retrieval.
// Pure functions, no I/O. See docs/matching.md for the rules these keys serve.
import {
  AFFIX_PREFIXES,
  AFFIX_SUFFIXES,
  COMMON_WORDS,
  LEADING_ARTICLES,
  TRAILING_COMPANY_WORDS,
} from './common-words.ts';
import { metaphoneCodes, phoneticSkeleton } from './similarity.ts';
import { isWord, wordBoundaries } from './vocabulary.ts';

/** Trade mark symbols, dropped (NFKD would otherwise turn ™ into the letters TM). */
const MARK_SYMBOLS = /[\u2122\u00AE\u00A9\u2120\u2117]/g;
const APOSTROPHES = /['\u2019\u2018\u02BC\u0060\u00B4\u02B9\u2032]/g;
const COMBINING = /\p{M}+/gu;

/** Letters that NFKD does not decompose into a base letter plus a diacritic. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  Ø: 'O',
  ø: 'o',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ð: 'D',
  ð: 'd',
  Þ: 'TH',
  þ: 'th',
  ı: 'i',
  ß: 'ss',
  ẞ: 'SS',
  Ħ: 'H',
  ħ: 'h',
  Ŧ: 'T',
  ŧ: 't',
  ĸ: 'k',
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');

const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
const LOOKALIKE_SYMBOL = /[$€!|@]/;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const ASCII_SEPARATORS = /[^A-Z0-9]+/g;
/** A word of Latin capitals without V (so without VV): nothing to fold. */
const PLAIN_WORD = /^[A-UW-Z]+$/;
const LETTER = /\p{L}/u;
const ALNUM = /[\p{L}\p{N}]/u;

function isLetter(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return code >= 65 && code <= 90;
  return LETTER.test(c);
}
function isAlnum(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  return ALNUM.test(c);
}

/**
 * Normalized mark text: NFKD with diacritics removed (Ø, Æ, Œ, Ł, ß… spelt out), upper case,
 * apostrophes dropped (BEN'S → BENS), `&` read as AND and `+` as PLUS, every other punctuation
 * or spacing run collapsed to one space. The symbols that stand for letters (`$ € ! | @`) are kept
 * where they sit inside or at the start of a word (CA$H, $AVE, L!FE, @PPLE) so that
 * foldConfusables can read them; elsewhere they are punctuation (YAHOO!, $5, T-MOBILE @ HOME).
 * Words are separated by single spaces.
 */
export function normalizeMarkText(text: string): string {
  let s = text;
  const ascii = PRINTABLE_ASCII.test(s);
  if (!ascii) {
    s = s
      .replace(MARK_SYMBOLS, ' ')
      .normalize('NFKD')
      .replace(COMBINING, '')
      .replace(SPECIAL_RE, (c) => SPECIAL_LETTERS[c] ?? c)
      .replace(APOSTROPHES, '');
  } else if (s.includes("'") || s.includes('`')) s = s.replace(APOSTROPHES, '');
  s = s.toUpperCase();
  if (s.includes('&')) s = s.replace(/&/g, ' AND ');
  if (s.includes('+')) s = s.replace(/\+/g, ' PLUS ');
  if (!LOOKALIKE_SYMBOL.test(s))
    return s.replace(ascii ? ASCII_SEPARATORS : SEPARATORS, ' ').trim();
  // Slow path: decide for each look-alike symbol whether it stands for a letter.
  const chars = Array.from(s);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    let keep: boolean;
    if (c === '$' || c === '€') keep = isLetter(chars[i - 1]) || isLetter(chars[i + 1]);
    else if (c === '!' || c === '|' || c === '@') {
      const before = chars[i - 1];
      keep = isAlnum(chars[i + 1]) && (before === undefined || before === ' ' || isAlnum(before));
    } else keep = isAlnum(c);
    out += keep ? c : ' ';
  }
  return out.replace(/ +/g, ' ').trim();
}

/** Words of the normalized text. */
export function tokens(text: string): string[] {
  const n = normalizeMarkText(text);
  return n === '' ? [] : n.split(' ');
}

/** Digits and symbols that look like letters, and Cyrillic/Greek letters that look Latin. */
const CONFUSABLE_SYMBOLS: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '!': 'I',
  '|': 'I',
  '5': 'S',
  $: 'S',
  '3': 'E',
  '€': 'E',
  '4': 'A',
  '@': 'A',
  '7': 'T',
  '8': 'B',
  '2': 'Z',
  // Cyrillic capitals
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  Ӏ: 'I',
  Ԛ: 'Q',
  Ԝ: 'W',
  // Greek capitals
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};

/**
 * Folds visually confusable characters so that look-alike spellings compare equal. Works word by
 * word on normalized text (it upper-cases its input first):
 * - 0→O, 1/!/|→I, 5/$→S, 3/€→E, 4/@→A, 7→T, 8→B, 2→Z, and VV→W;
 * - Cyrillic and Greek capitals that look Latin (А, В, Е, К, М, Н, О, Р, С, Т, Х…) → Latin;
 * - the "L family": L and I (hence also 1, ! and |) become I, because lower-case l and capital I
 *   are the same stroke in most sans-serif fonts (lnstagram / Instagram).
 * Digits are only read as letters inside a word with more letters than digits (N1KE, L0VE): a
 * number keeps its digits ("7 ELEVEN", "COMBI 740S", "3M").
 *
 * The matching keeps two levels: `compact` (everything but the L family, used by the edit
 * distance, the word rules and pg_trgm) and `lookalike` (this full fold, used for equality only),
 * so that "L ≈ I" never adds to an edit: LMAX equals IMAX, but LMAX is not one edit from IMAP.
 */
export function foldConfusables(s: string): string {
  return mergeLFamily(s.toUpperCase().split(' ').map(foldWord).join(' '));
}

/** The L family of foldConfusables: L becomes I (on text already folded by foldWord). */
export function mergeLFamily(folded: string): string {
  return folded.includes('L') ? folded.replace(/L/g, 'I') : folded;
}

/** foldConfusables for one upper-case word, without the L family. */
function foldWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  const keepDigits = isNumberLike(word);
  let out = '';
  for (const c of word)
    out += keepDigits && c >= '0' && c <= '9' ? c : (CONFUSABLE_SYMBOLS[c] ?? c);
  return out.includes('VV') ? out.replace(/VV/g, 'W') : out;
}

/**
 * A word whose digits are a number rather than letters in disguise: it has no more letters than
 * digits ("1998", "740S", "Q8", "3M"). In other words (N1KE, L0VE, B2B, TR1ATHLON) the digits are
 * read as the letters they look like.
 */
function isNumberLike(word: string): boolean {
  let letters = 0;
  let digits = 0;
  for (const c of word) {
    if (c >= '0' && c <= '9') digits++;
    else letters++;
  }
  return digits > 0 && letters <= digits;
}

/** Letters A-Z for phonetic coding: confusable digits/symbols read as letters, L kept as L. */
function phoneticWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  const keepDigits = isNumberLike(word);
  let out = '';
  for (const c of word)
    out += keepDigits && c >= '0' && c <= '9' ? '' : (CONFUSABLE_SYMBOLS[c] ?? c);
  return out.replace(/[^A-Z]/g, '');
}

/**
 * Everything the matching rules need about one mark text, computed once. Read-only: one analysis
 * is shared by every watch that meets the record in a run (the in-memory index keeps it).
 */
export interface MarkAnalysis {
  /** The text as given, trimmed. */
  readonly text: string;
  /** normalizeMarkText(text). */
  readonly normalized: string;
  /** Normalized words, not folded. */
  readonly words: readonly string[];
  /** Normalized words joined without spaces, not folded (for the `normalized` rule). */
  readonly plainCompact: string;
  /** Folded words (L family not merged). */
  readonly folded: readonly string[];
  /** Folded words joined without spaces (L family not merged). */
  readonly compact: string;
  /** compact with the L family merged: equality means "looks the same". */
  readonly lookalike: string;
  /** Letters A-Z for phonetic coding, whole mark without spaces. */
  readonly letters: string;
  /** Letters A-Z for phonetic coding, per word (empty for numbers). */
  readonly letterWords: readonly string[];
}

export function analyzeMark(text: string): MarkAnalysis {
  const trimmed = text.trim();
  const normalized = normalizeMarkText(trimmed);
  const words = normalized === '' ? [] : normalized.split(' ');
  const folded = words.map(foldWord);
  const letterWords = words.map(phoneticWord);
  const compact = folded.join('');
  return {
    text: trimmed,
    normalized,
    words,
    plainCompact: words.join(''),
    folded,
    compact,
    lookalike: mergeLFamily(compact),
    letters: letterWords.join(''),
    letterWords,
  };
}

/** How a digit reads aloud in English. */
const DIGIT_WORDS: readonly string[] = [
  'ZERO',
  'ONE',
  'TWO',
  'THREE',
  'FOUR',
  'FIVE',
  'SIX',
  'SEVEN',
  'EIGHT',
  'NINE',
];

/**
 * The mark as it is read aloud when its digits stand for words (TRUE1 → TRUEONE, 4EVER →
 * FOUREVER, B2B → BTWOB): letters A-Z, or null when the mark has no digit to read, or a number of
 * two digits or more (1843, 24/7), which reads as a quantity rather than as a word.
 */
export function spokenDigits(a: MarkAnalysis): string | null {
  if (!/[0-9]/.test(a.normalized) || /[0-9]{2}/.test(a.normalized)) return null;
  let out = '';
  for (const w of a.words) {
    for (const c of w) {
      if (c >= '0' && c <= '9') out += DIGIT_WORDS[c.charCodeAt(0) - 48];
      else out += CONFUSABLE_SYMBOLS[c] ?? c;
    }
  }
  out = out.replace(/[^A-Z]/g, '');
  return out.length >= PHONETIC_MIN_LENGTH ? out : null;
}

/** Affixes, common words and company words in folded form (they contain no confusables). */
export const FOLDED_PREFIXES: readonly string[] = AFFIX_PREFIXES.map(foldWord);
export const FOLDED_SUFFIXES: readonly string[] = AFFIX_SUFFIXES.map(foldWord);
export const FOLDED_COMMON_WORDS: ReadonlySet<string> = new Set([...COMMON_WORDS].map(foldWord));
const FOLDED_ARTICLES: ReadonlySet<string> = new Set([...LEADING_ARTICLES].map(foldWord));
const FOLDED_COMPANY_WORDS: ReadonlySet<string> = new Set(
  [...TRAILING_COMPANY_WORDS].map(foldWord),
);

/** Shortest stem the affix rule accepts. */
export const MIN_AFFIX_STEM = 3;

export interface AffixSplit {
  stem: string;
  prefix: string;
  suffix: string;
}

/**
 * Every way of reading a folded compact text as prefix + stem + suffix with the affix lists
 * (at least one affix present, stem of 3 letters or more). A plural in -IES also gives the stem in
 * -Y (BERRIES → BERRY).
 */
export function affixSplits(compact: string): AffixSplit[] {
  const out: AffixSplit[] = [];
  const count = findAffixSplits(compact);
  for (let i = 0; i < count; i++) {
    const prefix = SPLIT_PREFIXES[splitFound[2 * i] as number] as string;
    const suffix = SPLIT_SUFFIXES[splitFound[2 * i + 1] as number] as string;
    out.push({ stem: affixStem(compact, prefix, suffix), prefix, suffix });
  }
  return out;
}

const SPLIT_PREFIXES: readonly string[] = ['', ...FOLDED_PREFIXES];
const SPLIT_SUFFIXES: readonly string[] = ['', ...FOLDED_SUFFIXES, 'IES'];

/**
 * Where affixSplits and compoundSplits leave what they found, two numbers per split, so that
 * matchKeysOf can add its keys without building the split objects.
 */
let splitFound = new Int32Array(64);

function foundSplit(index: number, a: number, b: number): void {
  if (2 * index + 1 >= splitFound.length) {
    const grown = new Int32Array(2 * splitFound.length);
    grown.set(splitFound);
    splitFound = grown;
  }
  splitFound[2 * index] = a;
  splitFound[2 * index + 1] = b;
}

/** The affix splits of `compact`, as indexes into SPLIT_PREFIXES and SPLIT_SUFFIXES: their count. */
function findAffixSplits(compact: string): number {
  let count = 0;
  for (let p = 0; p < SPLIT_PREFIXES.length; p++) {
    const prefix = SPLIT_PREFIXES[p] as string;
    if (!compact.startsWith(prefix)) continue;
    for (let q = 0; q < SPLIT_SUFFIXES.length; q++) {
      const suffix = SPLIT_SUFFIXES[q] as string;
      if (prefix === '' && suffix === '') continue;
      if (!compact.endsWith(suffix)) continue;
      if (compact.length - suffix.length - prefix.length < MIN_AFFIX_STEM) continue;
      foundSplit(count++, p, q);
    }
  }
  return count;
}

function affixStem(compact: string, prefix: string, suffix: string): string {
  const stem = compact.slice(prefix.length, compact.length - suffix.length);
  return suffix === 'IES' ? `${stem}Y` : stem;
}

/** Is this folded word sequence made only of common/weak words? */
export function allCommon(foldedWords: readonly string[]): boolean {
  return foldedWords.every((w) => FOLDED_COMMON_WORDS.has(w) || /^[0-9]+$/.test(w));
}

/**
 * The brand's core for "brand inside a longer mark": its folded words without leading articles
 * (THE, LA, DER…) and trailing company forms (INC, GMBH, GROUP…), unless nothing would remain.
 */
export function brandCore(foldedWords: readonly string[]): string[] {
  let start = 0;
  let end = foldedWords.length;
  while (end - start > 1 && FOLDED_ARTICLES.has(foldedWords[start] as string)) start++;
  while (end - start > 1 && FOLDED_COMPANY_WORDS.has(foldedWords[end - 1] as string)) end--;
  return foldedWords.slice(start, end);
}

/** All single-character deletions of `s`, deduplicated. */
export function deletions(s: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < s.length; i++) out.add(s.slice(0, i) + s.slice(i + 1));
  return [...out];
}

/** Shortest text that the one-edit rules compare (decide.ts). */
export const ONE_EDIT_MIN_LENGTH = 4;
/**
 * Longest brand (compact) for which the watch sends its one-edit texts and `~` neighbourhood: the
 * near-form rules stop there (decide.ts, NEAR_MAX_LENGTH), and the stored `~` keys of a record's
 * runs go one character further (an insertion).
 */
export const ONE_EDIT_MAX_LENGTH = 24;
/** Marker of the one-edit entries in `tokens`, so that they never meet words or stems. */
export const DELETION_KEY_PREFIX = '~';

/** Compact texts of capital Latin letters only: found by their text alone. */
const LATIN_LETTERS = /^[A-Z]+$/;
/** The letters the watch side substitutes and inserts (see oneEditVariants). */
const EDIT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The one-edit keys a record stores in `tokens` for one of its runs (its compact text, a word or
 * two adjacent words joined) of 4 to 25 characters.
 *
 * A run of Latin capitals (almost every mark) stores none: it is itself a token, and the watch
 * sends every text one edit away from its brand spelt with those letters (oneEditVariants). Any
 * other run (letters outside A-Z, digits that stay digits) stores its one-deletion neighbourhood,
 * `~` + itself and each single-character deletion, which meets the watch's own
 * (oneEditSearchKeys): two texts one edit apart share a deletion (substitution or swap: delete that
 * position on both sides; insertion or deletion: one is a deletion of the other).
 */
export function oneEditRecordKeys(run: string): string[] {
  const len = run.length;
  if (len < ONE_EDIT_MIN_LENGTH || len > ONE_EDIT_MAX_LENGTH + 1 || LATIN_LETTERS.test(run)) {
    return [];
  }
  return [DELETION_KEY_PREFIX + run, ...deletions(run).map((d) => DELETION_KEY_PREFIX + d)];
}

/** oneEditRecordKeys added to `out`, in the same order, without the arrays. */
function addOneEditRecordKeys(run: string, out: Set<string>): void {
  const len = run.length;
  if (len < ONE_EDIT_MIN_LENGTH || len > ONE_EDIT_MAX_LENGTH + 1 || LATIN_LETTERS.test(run)) {
    return;
  }
  out.add(DELETION_KEY_PREFIX + run);
  for (let i = 0; i < len; i++) out.add(DELETION_KEY_PREFIX + run.slice(0, i) + run.slice(i + 1));
}

/**
 * The watch's `tokens` for the one-edit rules, brand of 4 to 24 characters: `~` + the brand and its
 * one-deletion neighbourhood, which meets the neighbourhood of runs that are not Latin capitals
 * only (oneEditRecordKeys).
 */
export function oneEditSearchKeys(brand: string): string[] {
  const len = brand.length;
  if (len < ONE_EDIT_MIN_LENGTH || len > ONE_EDIT_MAX_LENGTH) return [];
  return [brand, ...deletions(brand)].map((k) => DELETION_KEY_PREFIX + k);
}

/**
 * Every text one edit away from `brand`, spelt with its own characters and A-Z: deletions, swaps of
 * two neighbours, substitutions and insertions of a letter A-Z; at least 4 characters long
 * (ONE_EDIT_MIN_LENGTH): no one-edit rule compares a shorter text, and a 4-letter brand's 3-letter
 * deletions (RIO, BIO, BRO, BRI for BRIO) are words that match many records. A
 * Latin-capital run one edit away is in this list (its new character, if any, is A-Z); any other
 * is found by oneEditSearchKeys. About 52 per character of the brand.
 */
export function oneEditVariants(brand: string, anchor = 0): string[] {
  const len = brand.length;
  // With `anchor` > 0, the edits whose text keeps the brand's first or last `anchor` characters
  // are not made, unless the text is no longer than `anchor`: the caller leaves those out anyway
  // (nearSearchWords: the record's anchor key finds them), and for a long brand they are nearly
  // all of the ~52 per character. An edit between `from` and `to` (the first and last positions
  // it touches) keeps the first characters when it starts at `anchor` or later, the last ones
  // when it ends before len - anchor.
  const wanted = (from: number, to: number, length: number) =>
    anchor === 0 || length <= anchor || (from < anchor && to >= len - anchor);
  const out = new Set<string>();
  for (let i = 0; i < len; i++) {
    if (wanted(i, i, len - 1)) out.add(brand.slice(0, i) + brand.slice(i + 1));
  }
  for (let i = 0; i + 1 < len; i++) {
    if (!wanted(i, i + 1, len)) continue;
    out.add(brand.slice(0, i) + brand.charAt(i + 1) + brand.charAt(i) + brand.slice(i + 2));
  }
  for (let i = 0; i <= len; i++) {
    // An insertion before position i keeps the first characters from i = anchor, the last ones
    // up to i = len - anchor: it stands between positions i - 1 and i.
    const insert = wanted(i, i - 1, len + 1);
    const substitute = i < len && wanted(i, i, len);
    if (!insert && !substitute) continue;
    const head = brand.slice(0, i);
    for (const c of EDIT_ALPHABET) {
      if (insert) out.add(head + c + brand.slice(i));
      if (substitute) out.add(head + c + brand.slice(i + 1));
    }
  }
  out.delete(brand);
  return [...out].filter((v) => v.length >= ONE_EDIT_MIN_LENGTH);
}

/**
 * Anchor keys: the first and last characters of a run, so that a watch finds the records in which
 * its brand is fused with another word (ZEROFLUSHNET) or one of its near forms stands (STARBUCKS
 * COFFEE) without sending every spelling. A run longer than 5 characters stores `<` + its first 5
 * and `>` + its last 5; longer than 8, also its first and last 8 (more selective for long brands).
 */
export const SHORT_ANCHOR = 5;
export const LONG_ANCHOR = 8;
export const PREFIX_ANCHOR = '<';
export const SUFFIX_ANCHOR = '>';

export function addAnchorKeys(run: string, out: Set<string>): void {
  const n = run.length;
  for (const size of [SHORT_ANCHOR, LONG_ANCHOR]) {
    if (n <= size) return;
    addAnchor(run, size, out);
  }
}

function addAnchor(run: string, size: number, out: Set<string>): void {
  out.add(PREFIX_ANCHOR + run.slice(0, size));
  out.add(SUFFIX_ANCHOR + run.slice(run.length - size));
}

/**
 * Longest near form (one edit, or the -ES / -IES plural) of a brand whose watch sends anchors of
 * `size`: a brand shorter than LONG_ANCHOR sends its first and last 5, a longer one its first and
 * last 8, and only a brand of up to ONE_EDIT_MAX_LENGTH sends near forms at all.
 */
const NEAR_FORM_MAX: Readonly<Record<number, number>> = {
  [SHORT_ANCHOR]: LONG_ANCHOR - 1 + 2,
  [LONG_ANCHOR]: ONE_EDIT_MAX_LENGTH + 2,
};

/**
 * The anchors of a run that is not a word of the mark (two adjacent words joined, or the compact
 * text of three or more words). Only the near-form rules (`edit_distance`, `near_inside`) look at
 * such a run, and only as a near form of the brand: the watch leaves out of its one-edit texts those
 * that keep its first or last 5 (8) characters, trusting the record to store that anchor, so the
 * run stores an anchor of a size only where it can be such a near form, longer than the anchor and
 * no longer than NEAR_FORM_MAX. `fused` and `shared_word` look for the brand inside one word:
 * words store all their anchors (addAnchorKeys).
 */
export function addNearFormAnchorKeys(run: string, out: Set<string>): void {
  const n = run.length;
  for (const size of [SHORT_ANCHOR, LONG_ANCHOR]) {
    if (n > size && n <= (NEAR_FORM_MAX[size] as number)) addAnchor(run, size, out);
  }
}

/**
 * The `same_shape` rule (decide.ts) compares one-word names of 6 to 10 letters that share their
 * beginning, their ending and their rhythm (the number of vowel groups): OMEPRAL / OMERAN,
 * EVONISE / EVARISE. A one-word mark of 5 to 11 letters stores two shape keys: its first 3 letters,
 * and its first 2 with its last 3, each with its vowel groups and its length.
 */
export const SHAPE_MIN_LENGTH = 6;
export const SHAPE_MAX_LENGTH = 10;
const LETTERS_ONLY = /^[A-Z]+$/;

export function vowelGroups(word: string): number {
  return word.match(/[AEIOUY]+/g)?.length ?? 0;
}

/** The shape keys of a one-word text of letters, as if it had `length` letters (default: its own). */
export function shapeKeys(word: string, length = word.length): string[] {
  if (!LETTERS_ONLY.test(word) || length < SHAPE_MIN_LENGTH - 1 || length > SHAPE_MAX_LENGTH + 1) {
    return [];
  }
  const v = vowelGroups(word);
  return [
    `^${word.slice(0, 3)}${v}:${length}`,
    `^${word.slice(0, 2)}|${word.slice(-3)}${v}:${length}`,
  ];
}

/**
 * The `contraction` rule (rules/contraction.ts) compares one-word names where the shorter is the
 * longer without a run of 2 to 4 letters inside it (COMMCASH / COMMUNICASH): both keep the
 * longer's first 3 and last 2 letters. A one-word mark of 7 to 20 letters that is no English or
 * common word (the rule takes none) stores its contraction key: those letters and its length. A watch shorter than the record sends the key
 * of each length its contractions can have; a longer watch sends its contractions themselves.
 */
export const CONTRACTION_KEY = '=';
export const CONTRACTION_MIN_SHORTER = 5;
export const CONTRACTION_MIN_RUN = 2;
export const CONTRACTION_MAX_RUN = 4;
export const CONTRACTION_MAX_LONGER = 20;

/** The contraction key of a one-word text of letters, as if it had `length` letters. */
export function contractionKey(word: string, length = word.length): string | null {
  if (
    !LETTERS_ONLY.test(word) ||
    length < CONTRACTION_MIN_SHORTER + CONTRACTION_MIN_RUN ||
    length > CONTRACTION_MAX_LONGER
  ) {
    return null;
  }
  return `${CONTRACTION_KEY}${word.slice(0, 3)}|${word.slice(-2)}:${length}`;
}

/**
 * The `rearranged` rule (rules/rearranged.ts) compares one-word names of 5 to 12 letters written
 * with the same letters in another order (SQUIRT / QUIRST). Such a mark, when it is no English or
 * common word (the rule takes none), stores its letters in alphabetical order as its anagram key;
 * the watch sends its own.
 */
export const ANAGRAM_KEY = '#';
export const ANAGRAM_MIN_LENGTH = 5;
export const ANAGRAM_MAX_LENGTH = 12;

/** The anagram key of a one-word text of letters, or null. */
export function anagramKey(word: string): string | null {
  if (!LETTERS_ONLY.test(word) || word.length < ANAGRAM_MIN_LENGTH) return null;
  if (word.length > ANAGRAM_MAX_LENGTH) return null;
  return ANAGRAM_KEY + [...word].sort().join('');
}

/**
 * The runs of a mark that the near-form and fused rules look at, each stored with its anchors and,
 * when it is not Latin capitals only, its one-edit neighbourhood: every word, every two adjacent
 * words joined, and the whole compact text.
 */
export function markRuns(a: MarkAnalysis): string[] {
  const runs = new Set<string>(a.folded);
  for (let i = 0; i + 1 < a.folded.length; i++) runs.add(a.folded[i] + (a.folded[i + 1] as string));
  if (a.compact !== '') runs.add(a.compact);
  return [...runs];
}

/**
 * Version of the stored keys. Bump it whenever normalization, folding, the word lists or the key
 * layout change: stored rows with another version must be re-keyed (matchKeys) before a scan,
 * unless their keys are a superset of the new ones. Versions 1 and 2 rows are: they hold the
 * deletion neighbourhood (version 2: `~` + the text) of every text of 4 to 8 characters (version 3
 * only for texts that are not Latin capitals) and, version 1, per-word affix stems that no rule
 * needs, so a version 3 search finds them all. Version 6 dropped keys from 5 (anchors of runs
 * that are not words and cannot be a near form, skeletons of common words) and added the spoken
 * form of a mark with a digit and the compound keys, which only the `digits_as_words` and
 * `compound` rules read. Version 7 added, for a one-word mark, its contraction key (7-20 letters)
 * and its anagram key (5-12 letters), the shape keys of an 11-letter one and the sound codes of a
 * 3-letter mark with an X said as two sounds (NIX), which only the `contraction`, `rearranged`,
 * `same_shape` and `phonetic` rules read. Version 8 added the skeleton keys of the whole mark
 * (wholeSkeletonKeys), which only the `phonetic` rule reads. The stored marks are re-keyed after
 * the migrations (rekeyStoredMarks in src/data/upgrades.ts).
 */
export const MATCH_KEYS_VERSION = 8;

/** Keys stored per register record (columns norm_text, compact_text, tokens, sound_codes). */
export interface MatchKeys {
  /** Normalized text, words separated by single spaces (norm_text). */
  normalized: string;
  /** Folded text without spaces (compact_text): equality, pg_trgm similarity. */
  compact: string;
  /**
   * tokens text[]: the compact text, its look-alike form (L family merged) and its unfolded form;
   * folded words; runs of 2 and 3 adjacent words joined (fewer than all); affix stems of the
   * compact text; the anchors of its words (addAnchorKeys) and of its other runs where they can be
   * a brand's near form (addNearFormAnchorKeys; markRuns: two adjacent words, the compact text)
   * and, for a run of 4 to 25 characters that is not Latin capitals only, its one-deletion
   * neighbourhood prefixed with `~` (oneEditRecordKeys); skeleton keys (soundedRuns) and shape
   * keys.
   */
  tokens: string[];
  /**
   * sound_codes text[]: the Double Metaphone codes (primary, secondary) of the whole mark and of its
   * spelling skeleton (wholeMarkPhoneticCodes), the codes the `phonetic` rule compares, and for a
   * mark of 2 to 8 words those of each word and of each two adjacent words of 4 letters or more
   * (the near-form rule); empty below the rule's 4 letters.
   */
  soundCodes: string[];
}

/** Shortest phonetic text (letters) for the `phonetic` rule (decide.ts). */
export const PHONETIC_MIN_LENGTH = 4;

/**
 * Is a whole mark's text of letters long enough to be compared by sound: 4 letters, or 3 whose
 * X is said as two sounds (NIX said as NICKS: its spelling skeleton has 4 letters).
 */
export function soundedWhole(letters: string): boolean {
  if (letters.length >= PHONETIC_MIN_LENGTH) return true;
  return (
    letters.length === PHONETIC_MIN_LENGTH - 1 &&
    phoneticSkeleton(letters).length >= PHONETIC_MIN_LENGTH
  );
}

/**
 * Double Metaphone codes of a whole mark (its letters without spaces) and of its spelling
 * skeleton (phoneticSkeleton), deduplicated. The skeleton's codes make the key robust where
 * Double Metaphone reads two respellings of one sound differently (CLIPFRESH / CLYPPHRESH).
 */
export function wholeMarkPhoneticCodes(letters: string): string[] {
  const codes = metaphoneCodes(letters);
  const skeleton = phoneticSkeleton(letters);
  // A third of marks are their own skeleton: one Double Metaphone run is enough.
  if (skeleton === letters) return codes;
  for (const c of metaphoneCodes(skeleton)) if (!codes.includes(c)) codes.push(c);
  return codes;
}

/** The keys to store for one register record's mark text. */
export function matchKeys(text: string): MatchKeys {
  return matchKeysOf(analyzeMark(text));
}

export function matchKeysOf(a: MarkAnalysis): MatchKeys {
  // The keys of markRuns, soundedRuns, affixSplits and compoundSplits, added in the order those
  // give them but without their intermediate arrays, sets, split objects and closures: an import
  // keys millions of records, and each of those is garbage to collect.
  const { folded, compact, letterWords } = a;
  const t = new Set<string>();
  if (compact !== '') t.add(compact);
  if (a.lookalike !== compact) t.add(a.lookalike);
  if (a.plainCompact !== compact) t.add(a.plainCompact);
  const n = folded.length;
  for (let i = 0; i < n; i++) t.add(folded[i] as string);
  const pairs: string[] = [];
  for (let i = 0; i + 1 < n; i++) pairs.push((folded[i] as string) + folded[i + 1]);
  // Runs of 2 and 3 adjacent words, fewer than all of them.
  if (n > 2) for (const pair of pairs) t.add(pair);
  if (n > 3) for (let i = 0; i + 2 < n; i++) t.add((pairs[i] as string) + folded[i + 2]);
  // The affix rule compares whole compact texts (decide.ts), so only the compact text's stems.
  const affixes = findAffixSplits(compact);
  for (let i = 0; i < affixes; i++) {
    const prefix = SPLIT_PREFIXES[splitFound[2 * i] as number] as string;
    t.add(affixStem(compact, prefix, SPLIT_SUFFIXES[splitFound[2 * i + 1] as number] as string));
  }
  if (n === 1) {
    for (const k of shapeKeys(compact)) t.add(k);
    // The contraction and anagram rules never take a mark that is an English or common word.
    if (!FOLDED_COMMON_WORDS.has(compact) && !isWord(compact)) {
      const contraction = contractionKey(compact);
      if (contraction !== null) t.add(contraction);
      const anagram = anagramKey(compact);
      if (anagram !== null) t.add(anagram);
    }
  }
  // markRuns: the words with all their anchors, then the pairs and the compact text with those of
  // near forms. A run met again (a pair that is also a word, the compact text of one or two words)
  // adds nothing new, so the deduplication of markRuns is left out.
  for (let i = 0; i < n; i++) {
    addAnchorKeys(folded[i] as string, t);
    addOneEditRecordKeys(folded[i] as string, t);
  }
  for (const pair of pairs) {
    addNearFormAnchorKeys(pair, t);
    addOneEditRecordKeys(pair, t);
  }
  if (n > 2) {
    addNearFormAnchorKeys(compact, t);
    addOneEditRecordKeys(compact, t);
  }
  // The near-form rule also hears a word, or two adjacent words, of a longer mark: it requires the
  // brand's spelling skeleton, which is far more selective as a key than a shared sound code.
  if (n > 1 && n <= MAX_SOUNDED_WORDS) {
    for (let i = 0; i < n; i++) {
      const word = letterWords[i] as string;
      if (word.length >= PHONETIC_MIN_LENGTH && !FOLDED_COMMON_WORDS.has(folded[i] as string)) {
        t.add(SKELETON_KEY + phoneticSkeleton(word));
      }
      if (i + 1 < n && !FOLDED_COMMON_WORDS.has(pairs[i] as string)) {
        const run = word + letterWords[i + 1];
        if (run.length >= PHONETIC_MIN_LENGTH) t.add(SKELETON_KEY + phoneticSkeleton(run));
      }
    }
  }
  const sounded = soundedWhole(a.letters);
  const codes = sounded ? wholeMarkPhoneticCodes(a.letters) : [];
  // The whole mark's spelling skeleton, and that of the mark without a final S (a plural): the
  // `phonetic` rule needs an equal skeleton for a brand whose skeleton is shorter than 8, so such a
  // watch sends its skeleton instead of its Double Metaphone codes, which hundreds of unrelated
  // marks share (wholeSkeletonKeys).
  if (sounded) for (const k of wholeSkeletonKeys(a.letters)) t.add(k);
  for (let i = 0; i < n; i++) {
    const word = folded[i] as string;
    const splits = findCompoundSplits(word);
    for (let j = 0; j < splits; j++) {
      const k = splitFound[2 * j] as number;
      if (splitFound[2 * j + 1] === START) t.add(HEAD_KEY + word.slice(0, k));
      else t.add(TAIL_KEY + word.slice(k));
    }
  }
  // The mark read aloud with its digits as words (TRUE1 → TRUEONE), for `digits_as_words`: the
  // watch's one-edit texts, anchors and sound codes find it as they find the written mark.
  const spoken = spokenDigits(a);
  if (spoken !== null && spoken !== compact) {
    t.add(spoken);
    addAnchorKeys(spoken, t);
    for (const c of wholeMarkPhoneticCodes(spoken)) if (!codes.includes(c)) codes.push(c);
  }
  return { normalized: a.normalized, compact, tokens: Array.from(t), soundCodes: codes };
}

/**
 * Compounds of two words (ORBITFLOW, SUNHARBOR, ZARAHOME): where a word of letters that is not an
 * English word itself splits into two parts of 3+ letters, one of them an English word, the other
 * part is a brand that may have been fused with it: `{` + the head before a word, `}` + the tail
 * after one. Only heads and tails that a brand of the `compound` rule can be (decide.ts): 3-4
 * letters, or an English word. So a brand that is a short or common word finds its compounds
 * without sending every word that begins with it.
 */
export const BOUNDARY_PART_MIN = 3;
export const SHORT_PART_MAX = 4;
export const HEAD_KEY = '{';
export const TAIL_KEY = '}';

export interface CompoundSplit {
  /** The part that may be a fused brand, and the English word it is fused with. */
  part: string;
  word: string;
  /** `start`: the part begins the compound (ORBIT|FLOW); `end`: it ends it (SUN|HARBOR → HARBOR). */
  side: 'start' | 'end';
}

/** The splits of a compound at a word boundary (see HEAD_KEY), none for an English word. */
export function compoundSplits(compound: string): CompoundSplit[] {
  const out: CompoundSplit[] = [];
  const count = findCompoundSplits(compound);
  for (let i = 0; i < count; i++) {
    const k = splitFound[2 * i] as number;
    const head = compound.slice(0, k);
    const tail = compound.slice(k);
    if (splitFound[2 * i + 1] === START) out.push({ part: head, word: tail, side: 'start' });
    else out.push({ part: tail, word: head, side: 'end' });
  }
  return out;
}

const START = 0;
const END = 1;

// Scratch space of wordBoundaries, grown to the longest compound seen.
let heads = new Uint8Array(64);
let tails = new Uint8Array(64);

/**
 * The compound splits of `compound` (see compoundSplits), as the position of the boundary and
 * START or END: their count. The words are found along the compound in one walk each way
 * (wordBoundaries) rather than by looking up every head and tail.
 */
function findCompoundSplits(compound: string): number {
  const n = compound.length;
  if (n < 2 * BOUNDARY_PART_MIN || !LETTERS_ONLY.test(compound)) return 0;
  if (heads.length <= n) {
    heads = new Uint8Array(2 * n + 1);
    tails = new Uint8Array(2 * n + 1);
  }
  wordBoundaries(compound, heads, tails);
  if (heads[n] === 1) return 0; // an English word itself
  let count = 0;
  // A part is brand-like when it is short (SHORT_PART_MAX) or a word.
  for (let k = BOUNDARY_PART_MIN; k + BOUNDARY_PART_MIN <= n; k++) {
    const headWord = heads[k] === 1;
    const tailWord = tails[k] === 1;
    if (tailWord && (k <= SHORT_PART_MAX || headWord)) foundSplit(count++, k, START);
    if (headWord && (n - k <= SHORT_PART_MAX || tailWord)) foundSplit(count++, k, END);
  }
  return count;
}

/** Marks with more words than this store no skeleton keys of their words. */
export const MAX_SOUNDED_WORDS = 8;
/**
 * Prefix of the skeleton keys: `%` + the spelling skeleton of a word or two adjacent words, or of
 * the whole mark (wholeSkeletonKeys). One prefix for both: a record a watch's `%` key finds by
 * either is a candidate of the rules that send it (`near_inside` reads words, `phonetic` the whole
 * mark), and a two-word mark's pair is its whole mark, stored once.
 */
export const SKELETON_KEY = '%';

/**
 * The skeleton keys of a whole mark's letters: its skeleton and, when it ends with an S and is
 * PHONETIC_MIN_LENGTH + 1 letters or more, the skeleton without that S (the `phonetic` rule's
 * plural, SEYCOS for SEIKO).
 */
export function wholeSkeletonKeys(letters: string): string[] {
  const keys = [SKELETON_KEY + phoneticSkeleton(letters)];
  if (letters.endsWith('S') && letters.length > PHONETIC_MIN_LENGTH) {
    const singular = SKELETON_KEY + phoneticSkeleton(letters.slice(0, -1));
    if (singular !== keys[0]) keys.push(singular);
  }
  return keys;
}

/**
 * The letters of every word and of every two adjacent words of a mark (near-form phonetics), less
 * those whose folded form is a common word: the near-form rule never reads a common word as a form
 * of the brand (SHOP is not a near form of KSHOP).
 */
export function soundedRuns(a: MarkAnalysis): string[] {
  const out: string[] = [];
  const { folded, letterWords } = a;
  for (let i = 0; i < letterWords.length; i++) {
    if (!FOLDED_COMMON_WORDS.has(folded[i] as string)) out.push(letterWords[i] as string);
    if (i + 1 < letterWords.length && !FOLDED_COMMON_WORDS.has(`${folded[i]}${folded[i + 1]}`)) {
      out.push((letterWords[i] as string) + letterWords[i + 1]);
    }
  }
  return out;
}
