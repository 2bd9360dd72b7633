// `parts_swapped`: the mark is a one-word brand's two parts in the other order, each written or
// sounding alike (VAC-TITE for TIGHTVAC). The mark is one word or two, letters only. Retrieved by
// the sound codes of the swapped brand, which the whole mark must share.
import { wholeMarkPhoneticCodes } from '../normalize.ts';
import { PART_MIN, saidAs } from '../prepare.ts';
import { lit, type MatchRule } from './rule.ts';

export type PartsSwappedReason = {
  kind: 'parts_swapped';
  detail: string;
  /** The one-word brand's two parts in its order (TIGHT, VAC), and the mark's (VAC, TITE). */
  parts: [string, string];
  markParts: [string, string];
  /** The brand's parts share the letter where they meet (LIVING + GREEN of LIVINGREEN). */
  overlap: boolean;
};

/** A swapped mark is about as long as the brand (TIGHTVAC / VACTITE): more apart is no swap. */
const SWAP_LENGTH_SLACK = 3;

export const partsSwapped: MatchRule<PartsSwappedReason> = {
  kind: 'parts_swapped',
  score: 0.6,
  detect(p, m) {
    if (p.parts.length === 0 || m.folded.length > 2 || m.letters !== m.compact) return null;
    const letters = m.letters;
    if (letters.length < 2 * PART_MIN - 1 || letters === p.brand.compact) return null;
    if (Math.abs(letters.length - p.brand.compact.length) > SWAP_LENGTH_SLACK) return null;
    const splits: [string, string][] =
      m.letterWords.length === 2
        ? [[m.letterWords[0] as string, m.letterWords[1] as string]]
        : Array.from(
            { length: Math.max(0, letters.length - 2 * PART_MIN + 1) },
            (_x, i): [string, string] => [
              letters.slice(0, i + PART_MIN),
              letters.slice(i + PART_MIN),
            ],
          );
    let codes: string[] | null = null;
    for (const [x, y] of splits) {
      const saidX = saidAs(x);
      const saidY = saidAs(y);
      for (const part of p.parts) {
        if (saidX !== part.saidSecond || saidY !== part.saidFirst) continue;
        codes ??= wholeMarkPhoneticCodes(letters);
        if (!codes.some((c) => part.swappedCodes.includes(c))) continue;
        return {
          kind: 'parts_swapped',
          detail: `The mark is the brand's two parts in the other order: ${x} ${y} for ${part.first} ${part.second}.`,
          parts: [part.first, part.second],
          markParts: [x, y],
          overlap: part.overlap,
        };
      }
    }
    return null;
  },
  keys(p, out) {
    for (const part of p.parts) out.phonetic.push(...part.swappedCodes);
  },
  severity: () => [2, "the mark is the brand's two parts in the other order"],
  evidence: (r) => [
    "The mark is the watched brand's two parts in the other order: ",
    lit(r.markParts.join(' ')),
    ' for ',
    ...(r.overlap
      ? [
          lit(r.parts[0]),
          ' and ',
          lit(r.parts[1]),
          `, which the brand writes with one ${r.parts[1][0]} where they meet`,
        ]
      : [lit(r.parts.join(' '))]),
    r.markParts[0] === r.parts[1] && r.markParts[1] === r.parts[0]
      ? '.'
      : ', each written or pronounced alike.',
  ],
};
