// String measures used by the matching rules. Pure functions, no I/O.
import { doubleMetaphone } from 'double-metaphone';

let table = new Int32Array(0);
/**
 * The last row where each character of `a` was seen, by its UTF-16 code: an array rather than a
 * map, as the distance reads it for every cell (a third of the decision's time with a map). Zero
 * outside a computation.
 */
const lastRow = new Int32Array(0x10000);

/**
 * Damerau-Levenshtein distance (unrestricted, Lowrance-Wagner): insertions, deletions,
 * substitutions and transpositions of two adjacent characters each cost 1, and a transposed pair
 * may be edited further (MANAGEMENT → MAGNEMENT is 2: drop an A, swap N and G). With `max`, the
 * computation stops early and returns `max + 1` once the distance is known to exceed `max`.
 */
export function damerauLevenshtein(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  const d = distance(a, b, max);
  for (let i = 0; i < a.length; i++) lastRow[a.charCodeAt(i)] = 0;
  return d;
}

function distance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (max < 1) return 1;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n === 0) return m;
  if (m === 0) return n;
  const w = m + 2;
  if (table.length < (n + 2) * w) table = new Int32Array((n + 2) * w * 2);
  const h = table;
  const inf = n + m;
  h[0] = inf;
  for (let i = 0; i <= n; i++) {
    h[(i + 1) * w] = inf;
    h[(i + 1) * w + 1] = i;
  }
  for (let j = 0; j <= m; j++) {
    h[j + 1] = inf;
    h[w + j + 1] = j;
  }
  for (let i = 1; i <= n; i++) {
    const ca = a.charCodeAt(i - 1);
    let lastCol = 0;
    let rowMin = inf;
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      const i1 = lastRow[cb] as number;
      const j1 = lastCol;
      let cost = 1;
      if (ca === cb) {
        cost = 0;
        lastCol = j;
      }
      let v = (h[i * w + j] as number) + cost;
      const ins = (h[(i + 1) * w + j] as number) + 1;
      if (ins < v) v = ins;
      const del = (h[i * w + j + 1] as number) + 1;
      if (del < v) v = del;
      const tr = (h[i1 * w + j1] as number) + (i - i1 - 1) + 1 + (j - j1 - 1);
      if (tr < v) v = tr;
      h[(i + 1) * w + j + 1] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    lastRow[ca] = i;
  }
  return h[(n + 1) * w + m + 1] as number;
}

/**
 * The trigram set PostgreSQL's pg_trgm extension builds for `text`: lower case, words split on
 * anything that is not a letter or digit, each word padded with two spaces in front and one
 * behind, duplicates removed.
 */
export function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word === '') continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

/** pg_trgm `similarity()`: shared trigrams divided by the trigrams of either string. */
export function trigramSimilarity(a: string | Set<string>, b: string | Set<string>): number {
  const ta = typeof a === 'string' ? trigrams(a) : a;
  const tb = typeof b === 'string' ? trigrams(b) : b;
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

// Character codes of the letters phoneticSkeleton reads and writes.
const C = 0x43;
const E = 0x45;
const F = 0x46;
const H = 0x48;
const I = 0x49;
const K = 0x4b;
const P = 0x50;
const Q = 0x51;
const S = 0x53;
const U = 0x55;
const W = 0x57;
const X = 0x58;
const Y = 0x59;
const Z = 0x5a;

/**
 * A spelling skeleton of a word (letters A-Z only) that removes the usual phonetic respellings:
 * PH/F, C/K/Q, CK/K, QU/KW, X/KS, soft C/S, Z/S, Y/I, doubled letters, and a silent final E on
 * words longer than four letters. Two respellings of the same sound have the same skeleton
 * ("PHILIPS"/"FILLIPS" → FILIPS); vowels and the remaining consonants are kept, which is what
 * guards the `phonetic` rule against Double Metaphone's coarse codes (NIKE and NECK both code NK).
 */
export function phoneticSkeleton(letters: string): string {
  // Most letters stand for themselves, so the output is built from runs of the input copied whole,
  // with a character of its own only where a letter is rewritten or dropped: one string per run
  // rather than one per letter (every record's keys take several skeletons).
  const n = letters.length;
  let out = '';
  let run = 0; // start of the letters not yet copied, all standing for themselves
  let last = -1; // the last character of the output so far, copied letters included
  for (let i = 0; i < n; i++) {
    const c = letters.charCodeAt(i);
    let sound = c;
    let second = -1; // X and QU sound as two letters
    let pair = false; // PH, CK, QU: two letters read as one sound
    if (i === 0 && c === X) sound = S;
    else if (c === P || c === C) {
      const next = i + 1 < n ? letters.charCodeAt(i + 1) : -1;
      if (c === P && next === H) {
        sound = F;
        pair = true;
      } else if (c === C && next === K) {
        sound = K;
        pair = true;
      } else if (c === C) sound = next === E || next === I || next === Y ? S : K;
    } else if (c === Q) {
      sound = K;
      if (i + 1 < n && letters.charCodeAt(i + 1) === U) {
        second = W;
        pair = true;
      }
    } else if (c === X) {
      sound = K;
      second = S;
    } else if (c === Z) sound = S;
    else if (c === Y) sound = I;
    if (sound === c && second === -1 && !pair && c !== last) {
      last = c;
      continue;
    }
    // Doubled letters collapse, also across a rewrite (CC → KK → K).
    if (run < i) out += letters.slice(run, i);
    if (sound !== last) out += String.fromCharCode(sound);
    last = sound;
    if (second !== -1 && second !== last) {
      out += String.fromCharCode(second);
      last = second;
    }
    if (pair) i++;
    run = i + 1;
  }
  if (run === 0) out = letters;
  else if (run < n) out += letters.slice(run);
  return out.length > 4 && out.charCodeAt(out.length - 1) === E ? out.slice(0, -1) : out;
}

/** Double Metaphone primary and secondary codes of `letters`, deduplicated, empty codes dropped. */
export function metaphoneCodes(letters: string): string[] {
  if (letters === '') return [];
  const [primary, secondary] = doubleMetaphone(letters);
  if (primary === secondary) return primary === '' ? [] : [primary];
  return [primary, secondary].filter((c) => c !== '');
}
