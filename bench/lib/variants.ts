// Variant generators: what a conflicting mark looks like, one generator per text rule of
// docs/matching.md. Shared by scripts/eval-matching.ts (recall of the decision on real texts) and
// bench/scan.ts (recall of a whole scan on a synthetic register). Pure functions of a seeded
// random source: the same seed gives the same variants.
import type { Reason } from '../../src/matching/decide.ts';
import { allCommon, analyzeMark } from '../../src/matching/normalize.ts';

export type VariantKind =
  | 'case/spacing/punctuation'
  | 'confusable characters'
  | 'one edit'
  | 'two edits (8+ characters)'
  | 'phonetic respelling'
  | 'brand inside longer mark'
  | 'mark inside brand'
  | 'plural/affix'
  | 'fused with another word'
  | 'near form inside longer mark'
  | 'words reordered or apart';

export const VARIANT_KINDS: readonly VariantKind[] = [
  'case/spacing/punctuation',
  'confusable characters',
  'one edit',
  'two edits (8+ characters)',
  'phonetic respelling',
  'brand inside longer mark',
  'mark inside brand',
  'plural/affix',
  'fused with another word',
  'near form inside longer mark',
  'words reordered or apart',
];

/** The reason the decision is expected to give for a variant of each kind. */
export const EXPECTED_REASON: Readonly<Record<VariantKind, Reason['kind']>> = {
  'case/spacing/punctuation': 'normalized',
  'confusable characters': 'confusable',
  'one edit': 'edit_distance',
  'two edits (8+ characters)': 'edit_distance',
  'phonetic respelling': 'phonetic',
  'brand inside longer mark': 'contains_brand',
  'mark inside brand': 'contained_in_brand',
  'plural/affix': 'affix',
  'fused with another word': 'fused',
  'near form inside longer mark': 'near_inside',
  'words reordered or apart': 'reordered',
};

/** What the generators draw from: a seeded source (see random.ts). */
export type VariantRandom = {
  pick: <T>(xs: readonly T[]) => T;
  int: (n: number) => number;
};

export type VariantGenerators = {
  /** Each returns a variant text of the brand, or null when the kind does not apply. */
  generators: Readonly<Record<VariantKind, (brand: string) => string | null>>;
  /** Is the variant in the domain of its kind (what the rule promises for this brand)? */
  applies: (kind: VariantKind, brand: string, variant: string) => boolean;
};

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const isVowel = (c: string | undefined): boolean => c !== undefined && 'AEIOUY'.includes(c);
const isLetter = (c: string | undefined): boolean => c !== undefined && c >= 'A' && c <= 'Z';
const titleCase = (s: string): string =>
  s.toLowerCase().replace(/(^|\s)(\p{L})/gu, (_, sp: string, c: string) => sp + c.toUpperCase());

const CONFUSABLE_OUT: Readonly<Record<string, readonly string[]>> = {
  O: ['0'],
  I: ['1', 'l', '!', '|'],
  L: ['1', 'I', '|'],
  S: ['5', '$'],
  E: ['3', '€'],
  A: ['4', '@'],
  T: ['7'],
  B: ['8'],
  Z: ['2'],
};

const PREFIXES = ['MY', 'THE', 'GET', 'I', 'E'];
const SUFFIXES = ['IFY', 'LY', 'ER', 'CO', 'GROUP', 'INC', 'LTD', 'PRO', 'PLUS', 'X', 'HUB'];

/**
 * The variant generators over a random source and a vocabulary of real words (for "brand inside a
 * longer mark"). The order in which they draw from `rand` is part of their contract: the eval's
 * published figures depend on it.
 */
export function variantGenerators(
  rand: VariantRandom,
  vocabulary: readonly string[],
): VariantGenerators {
  const { pick, int } = rand;

  function variantNormalized(brand: string): string | null {
    const words = brand.toUpperCase().split(/\s+/);
    const options: (() => string)[] = [
      () => brand.toLowerCase(),
      () => titleCase(brand),
      () => `${brand}.`,
      () => `«${brand}»`,
      () => words.join(pick(['-', '.', ' - ', '_'])),
      () => {
        const w = words.join(' ');
        const at = 1 + int(Math.max(1, w.length - 1));
        return `${w.slice(0, at)}${pick([' ', '-', '.'])}${w.slice(at)}`;
      },
    ];
    if (words.length > 1) options.push(() => words.join(''));
    return pick(options)();
  }

  function variantConfusable(brand: string): string | null {
    const chars = Array.from(brand.toUpperCase());
    const spots = chars
      .map((c, i) => ({ c, i }))
      .filter(({ c, i }) => {
        if (CONFUSABLE_OUT[c] === undefined) return false;
        // Keep every word with at least one letter (a word made only of digits is a number).
        const start = chars.lastIndexOf(' ', i) + 1;
        let end = chars.indexOf(' ', i);
        if (end < 0) end = chars.length;
        return end - start > 1;
      });
    if (spots.length === 0) return null;
    const n = 1 + int(Math.min(2, spots.length));
    for (let k = 0; k < n; k++) {
      const { c, i } = pick(spots);
      chars[i] = pick(CONFUSABLE_OUT[c] as readonly string[]);
    }
    return chars.join('');
  }

  function edit(s: string): string {
    const positions = Array.from(s)
      .map((c, i) => (isLetter(c) ? i : -1))
      .filter((i) => i >= 0);
    const i = pick(positions);
    const op = int(4);
    const c = s[i] as string;
    if (op === 0) {
      let r = pick(Array.from(LETTERS));
      while (r === c) r = pick(Array.from(LETTERS));
      return s.slice(0, i) + r + s.slice(i + 1);
    }
    if (op === 1) return s.slice(0, i) + pick(Array.from(LETTERS)) + s.slice(i);
    if (op === 2) return s.slice(0, i) + s.slice(i + 1);
    const next = s[i + 1];
    if (!isLetter(next) || next === c) return s.slice(0, i) + s.slice(i + 1);
    return s.slice(0, i) + next + c + s.slice(i + 2);
  }
  function variantEdits(brand: string, edits: number): string | null {
    let v = brand.toUpperCase();
    for (let k = 0; k < edits; k++) v = edit(v);
    return v;
  }

  function replaceOne(s: string, re: RegExp, by: string): string | null {
    const hits = [...s.matchAll(re)];
    if (hits.length === 0) return null;
    const h = pick(hits);
    const at = h.index ?? 0;
    const replacement = by.replaceAll('$1', h[1] ?? '');
    return s.slice(0, at) + replacement + s.slice(at + h[0].length);
  }
  const RESPELL: readonly ((s: string) => string | null)[] = [
    (s) => replaceOne(s, /C(?=[AOU]|[^AEIOUY\s]|$)/g, 'K'),
    (s) => replaceOne(s, /K(?=[AOU])/g, 'C'),
    (s) => replaceOne(s, /PH/g, 'F'),
    (s) => replaceOne(s, /F/g, 'PH'),
    (s) => replaceOne(s, /([BDFGKLMNPRSTVZ])(?=[AEIOUY])/g, '$1$1'),
    (s) => replaceOne(s, /([BDFGKLMNPRSTVZ])\1/g, '$1'),
    (s) => replaceOne(s, /(?<=[A-Z])Y/g, 'I'),
    (s) => replaceOne(s, /(?<=[A-Z])I(?=[^AEIOU]|$)/g, 'Y'),
    (s) => replaceOne(s, /(?<=[BCDFGKLMNPRSTVZ])(?=\s|$)/g, 'E'),
    (s) => replaceOne(s, /(?<=[A-Z][BCDFGKLMNPRSTVZ])E(?=\s|$)/g, ''),
    (s) => replaceOne(s, /(?<=[AEIOU])S(?=[AEIOU])/g, 'Z'),
    (s) => replaceOne(s, /QU/g, 'KW'),
    (s) => replaceOne(s, /X/g, 'KS'),
    (s) => replaceOne(s, /CK/g, 'K'),
  ];
  function variantPhonetic(brand: string): string | null {
    let v = brand.toUpperCase();
    const n = 1 + int(2);
    let applied = 0;
    for (let tries = 0; tries < 20 && applied < n; tries++) {
      const r = pick(RESPELL)(v);
      if (r !== null && r !== v) {
        v = r;
        applied++;
      }
    }
    // One respelling may not stack on another into a triple letter (WIZZZARD).
    return applied > 0 && !/(.)\1\1/.test(v) ? v : null;
  }

  function variantContains(brand: string): string | null {
    const extra = () => pick(vocabulary);
    const where = int(3);
    if (where === 0) return `${extra()} ${brand}`;
    if (where === 1) return `${brand} ${extra()}`;
    return `${extra()} ${brand} ${extra()}`;
  }

  function variantContained(brand: string): string | null {
    const a = analyzeMark(brand);
    if (a.words.length < 2) return null;
    const options = a.words.filter((_w, i) => {
      const f = a.folded[i] as string;
      return f.length >= 4 && !allCommon([f]);
    });
    return options.length === 0 ? null : pick(options);
  }

  function variantAffix(brand: string): string | null {
    const b = brand.toUpperCase();
    const sep = () => pick(['', ' ', '-']);
    const form = int(3);
    if (form === 0) {
      if (b.endsWith('Y') && !isVowel(b[b.length - 2])) return `${b.slice(0, -1)}IES`;
      return b.endsWith('S') || b.endsWith('X') || b.endsWith('CH') ? `${b}ES` : `${b}S`;
    }
    if (form === 1) return `${pick(PREFIXES)}${sep()}${b}`;
    return `${b}${sep()}${pick(SUFFIXES)}`;
  }

  /** BRANDNET, NETBRAND, sometimes followed by another word (ZEROFLUSHNET PRO). */
  function variantFused(brand: string): string | null {
    const b = analyzeMark(brand).plainCompact;
    const other = pick(vocabulary);
    const word = int(2) === 0 ? `${b}${other}` : `${other}${b}`;
    return int(2) === 0 ? word : `${word} ${pick(vocabulary)}`;
  }

  /** A near form of the brand (one edit, plural, respelling) with another word before or after. */
  function variantNearInside(brand: string): string | null {
    const form = int(3);
    const b = brand.toUpperCase();
    const plural =
      b.endsWith('Y') && !isVowel(b[b.length - 2])
        ? `${b.slice(0, -1)}IES`
        : /(S|X|CH)$/.test(b)
          ? `${b}ES`
          : `${b}S`;
    const near = form === 0 ? variantEdits(brand, 1) : form === 1 ? plural : variantPhonetic(brand);
    if (near === null) return null;
    return int(2) === 0 ? `${near} ${pick(vocabulary)}` : `${pick(vocabulary)} ${near}`;
  }

  /** The brand's words in another order, or with another word between two of them. */
  function variantReordered(brand: string): string | null {
    const words = brand.toUpperCase().split(/\s+/);
    if (words.length < 2) return null;
    if (int(2) === 0) {
      const at = 1 + int(words.length - 1);
      return [...words.slice(0, at), pick(vocabulary), ...words.slice(at)].join(' ');
    }
    const at = int(words.length - 1);
    const swapped = [...words];
    [swapped[at], swapped[at + 1]] = [swapped[at + 1] as string, swapped[at] as string];
    return swapped.join(' ');
  }

  return {
    generators: {
      'case/spacing/punctuation': variantNormalized,
      'confusable characters': variantConfusable,
      'one edit': (b) => variantEdits(b, 1),
      'two edits (8+ characters)': (b) => variantEdits(b, 2),
      'phonetic respelling': variantPhonetic,
      'brand inside longer mark': variantContains,
      'mark inside brand': variantContained,
      'plural/affix': variantAffix,
      'fused with another word': variantFused,
      'near form inside longer mark': variantNearInside,
      'words reordered or apart': variantReordered,
    },
    applies: variantApplies,
  };
}

/** Is the variant in the domain of its kind (what the rule promises for this brand)? */
export function variantApplies(kind: VariantKind, brand: string, variant: string): boolean {
  const a = analyzeMark(brand);
  const v = analyzeMark(variant);
  if (v.compact === '' || variant.trim() === brand.trim()) return false;
  const min = Math.min(a.compact.length, v.compact.length);
  switch (kind) {
    case 'case/spacing/punctuation':
      return v.plainCompact === a.plainCompact;
    case 'confusable characters':
      return v.lookalike === a.lookalike && v.plainCompact !== a.plainCompact;
    case 'one edit':
      return min >= 4 && v.lookalike !== a.lookalike;
    case 'two edits (8+ characters)':
      return min >= 8 && v.lookalike !== a.lookalike;
    case 'phonetic respelling':
      return Math.min(a.letters.length, v.letters.length) >= 4 && v.lookalike !== a.lookalike;
    case 'fused with another word':
      // The rule's domain: a brand of 5+ characters that is not only common words, fused with a
      // word that is not a mere ending.
      return a.compact.length >= 5 && v.lookalike !== a.lookalike;
    case 'near form inside longer mark': {
      // From 5 characters, a brand of one or two words, and a form one edit away or sounding alike.
      if (a.compact.length < 5 || a.words.length > 2 || v.words.length < 2) return false;
      return v.lookalike !== a.lookalike && !v.folded.some((w) => w === a.compact);
    }
    case 'words reordered or apart':
      return a.words.length >= 2 && v.lookalike !== a.lookalike;
    default:
      return v.lookalike !== a.lookalike;
  }
}

/**
 * Brand-like texts, the eval's watched brands: 1 to 3 words of Latin letters/digits, 4 to 20
 * characters, at least 4 letters, not only weak words.
 */
export function isBrandLike(text: string): boolean {
  const a = analyzeMark(text);
  return (
    a.words.length >= 1 &&
    a.words.length <= 3 &&
    /^[A-Z0-9 ]+$/.test(a.normalized) &&
    a.compact.length >= 4 &&
    a.compact.length <= 20 &&
    a.letters.length >= 4 &&
    !allCommon(a.folded)
  );
}

/** Real words (3 to 10 capital letters) of the texts, sorted: the extras of "brand inside". */
export function vocabularyOf(texts: readonly string[]): string[] {
  return [
    ...new Set(texts.flatMap((t) => analyzeMark(t).words.filter((w) => /^[A-Z]{3,10}$/.test(w)))),
  ].sort();
}
