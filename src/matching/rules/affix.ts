// `affix`: the mark is the brand with a plural or a common prefix or suffix (or the brand is the
// mark with one). Retrieved by the record's compact text, or the brand's stems it sends.
import { AFFIX_PREFIXES, AFFIX_SUFFIXES, PLURAL_SUFFIXES } from '../common-words.ts';
import {
  allCommon,
  FOLDED_COMMON_WORDS,
  FOLDED_PREFIXES,
  FOLDED_SUFFIXES,
  type MarkAnalysis,
} from '../normalize.ts';
import { CONTAINED_MIN_LENGTH } from '../prepare.ts';
import { describeAffix, type MatchRule } from './rule.ts';

export type AffixReason = {
  kind: 'affix';
  detail: string;
  /** `mark`: the mark is the brand plus the affix; `brand`: the brand is the mark plus it. */
  side: 'mark' | 'brand';
  prefix: string;
  suffix: string;
};

const UNFOLDED_AFFIX = new Map<string, string>([
  ...FOLDED_PREFIXES.map((f, i): [string, string] => [f, AFFIX_PREFIXES[i] as string]),
  ...FOLDED_SUFFIXES.map((f, i): [string, string] => [f, AFFIX_SUFFIXES[i] as string]),
  ['IES', 'IES'],
]);
const SUFFIX_SET: ReadonlySet<string> = new Set(FOLDED_SUFFIXES);
const PLURAL_SET: ReadonlySet<string> = new Set(PLURAL_SUFFIXES);
const MIN_BRAND_FOR_AFFIX = 3;

function affixName(folded: string): string {
  return folded === '' ? '' : (UNFOLDED_AFFIX.get(folded) ?? folded);
}

/** A three-letter brand only takes a plural, or affixes written as separate words. */
function shortBrandAffixOk(m: MarkAnalysis, prefix: string, suffix: string): boolean {
  if (prefix === '' && PLURAL_SET.has(suffix)) return true;
  const first = m.folded[0];
  const last = m.folded[m.folded.length - 1];
  return (prefix === '' || first === prefix) && (suffix === '' || last === suffix);
}

function found(side: 'mark' | 'brand', prefix: string, suffix: string): AffixReason {
  const pre = affixName(prefix);
  const suf = affixName(suffix);
  return {
    kind: 'affix',
    detail:
      side === 'mark'
        ? `The mark is the brand with ${describeAffix(pre, suf)}.`
        : `The brand is the mark with ${describeAffix(pre, suf)}.`,
    side,
    prefix: pre,
    suffix: suf,
  };
}

export const affix: MatchRule<AffixReason> = {
  kind: 'affix',
  score: 0.85,
  detect(p, m) {
    const b = p.brand.compact;
    const c = m.compact;
    if (c.length > b.length && b.length >= MIN_BRAND_FOR_AFFIX) {
      for (const prefix of ['', ...FOLDED_PREFIXES]) {
        if (!c.startsWith(prefix)) continue;
        const rest = c.slice(prefix.length);
        let suffix: string | null = null;
        if (rest.startsWith(b)) {
          const s = rest.slice(b.length);
          if (s === '' || SUFFIX_SET.has(s)) suffix = s;
        }
        if (suffix === null && b.endsWith('Y') && rest === `${b.slice(0, -1)}IES`) suffix = 'IES';
        if (suffix === null || (prefix === '' && suffix === '')) continue;
        if (b.length < 4 && !shortBrandAffixOk(m, prefix, suffix)) continue;
        return found('mark', prefix, suffix);
      }
    }
    if (b.length > c.length && c.length >= CONTAINED_MIN_LENGTH && !allCommon(m.folded)) {
      const s = p.splits.find((x) => x.stem === c);
      if (s !== undefined) return found('brand', s.prefix, s.suffix);
    }
    return null;
  },
  keys(p, out) {
    // The record's compact text is a stem of the brand.
    for (const s of p.splits) {
      if (s.stem.length >= CONTAINED_MIN_LENGTH && !FOLDED_COMMON_WORDS.has(s.stem)) {
        out.tokens.add(s.stem);
      }
    }
  },
  severity: (r, { p, distinctive }) =>
    r.side === 'mark' && distinctive && p.brand.compact.length >= 5
      ? [3, 'the mark is the distinctive brand with only a plural or a common affix added']
      : [2, 'the marks differ only by a common affix'],
  evidence: (r) =>
    r.side === 'mark'
      ? [
          'The mark is the watched brand with ',
          describeAffix(r.prefix, r.suffix, 'the '),
          ' added.',
        ]
      : [
          'The watched brand is the mark with ',
          describeAffix(r.prefix, r.suffix, 'the '),
          ' added.',
        ],
};
