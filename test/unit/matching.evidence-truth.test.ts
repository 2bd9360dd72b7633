// Evidence that is true (issue 27, item 5): every word, letter or sound a rationale quotes is in
// the brand or the mark as written, or the sentence says how it was read ("read as", "reads as",
// "spelling skeleton"). AUDIO2 must never be described as AUDIOZ with a Z added, and a shared
// word the mark does not hold is never claimed. Checked over more than 10,000 (brand, record)
// pairs of the eval: brands drawn from the real EUIPO texts, each with the eval's generated
// variants of every kind and with real marks of the fixture.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMarkTexts } from '../../bench/lib/mark-texts.ts';
import { mulberry32 } from '../../bench/lib/random.ts';
import {
  isBrandLike,
  VARIANT_KINDS,
  variantGenerators,
  vocabularyOf,
} from '../../bench/lib/variants.ts';
import {
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
} from '../../src/matching/decide.ts';
import { ruleEvidence } from '../../src/matching/evidence.ts';
import { analyzeMark } from '../../src/matching/normalize.ts';
import { countWords } from '../../src/matching/word-weights.ts';

const texts = readMarkTexts();
const stats = countWords(texts.map((t) => analyzeMark(t).words));
const plain = (s: string) => analyzeMark(s).plainCompact;

/** A piece that follows one of these declares a reading, not a quote of the written text. */
const READING = /(read as|reads as|skeleton|\(\S+ as) $/i;

/** The letters an edit description names: "Z added at the end", "E replaced by O (4th letter)". */
function editLetters(sentence: string): string[] {
  const out: string[] = [];
  for (const m of sentence.matchAll(/(\S) replaced by (\S) \(/g)) out.push(m[1] ?? '', m[2] ?? '');
  for (const m of sentence.matchAll(/(\S) added (?:at|after)/g)) out.push(m[1] ?? '');
  for (const m of sentence.matchAll(/letter, (\S), left out/g)) out.push(m[1] ?? '');
  for (const m of sentence.matchAll(/(\S\S) swapped to (\S\S)/g)) out.push(m[1] ?? '', m[2] ?? '');
  return out;
}

/** What is untrue in the evidence of one (brand, mark) decision; empty when all is true. */
function untrueClaims(p: PreparedWatch, brand: string, mark: string): string[] {
  const d = decideConflictPrepared(p, { markText: mark, classes: [25], jurisdiction: 'EM' });
  const written = [plain(brand), plain(mark)];
  const problems: string[] = [];
  for (const r of d.reasons) {
    const pieces = ruleEvidence(p, mark, r, stats);
    if (pieces === null) continue;
    const readings: string[] = [];
    pieces.forEach((piece, i) => {
      if (typeof piece === 'string') return;
      const before = pieces[i - 1];
      const quoted = plain(piece.literal);
      if (typeof before === 'string' && READING.test(before)) readings.push(quoted);
      else if (!written.some((w) => w.includes(quoted))) {
        problems.push(`${r.kind}: quotes ${piece.literal}`);
      }
    });
    const sentence = pieces.map((x) => (typeof x === 'string' ? x : x.literal)).join('');
    for (const letter of editLetters(sentence)) {
      if (![...written, ...readings].some((w) => w.includes(letter))) {
        problems.push(`${r.kind}: names the letter ${letter} (${sentence})`);
      }
    }
    if (r.kind === 'shared_word') {
      // The words claimed shared are in the mark, or the sentence says in which form.
      const m = analyzeMark(mark);
      r.words.forEach((w, k) => {
        const f = analyzeMark(w).compact;
        const declared = sentence.includes(`(${w} as `);
        const held = m.compact.includes(f) || (k === 0 && r.form !== 'word') || declared;
        if (!held) problems.push(`shared_word: claims ${w}`);
      });
    }
  }
  return problems.map((x) => `${brand} / ${mark}: ${x}`);
}

describe('evidence that is true', () => {
  it('never quotes a letter the marks lack: AUDIO2 is not AUDIOZ with a Z added', () => {
    const p = prepareWatch({ name: 'AUDIO', niceClasses: [25], designations: ['DE'] });
    assert.deepEqual(untrueClaims(p, 'AUDIO', 'AUDIO2'), []);
    const q = prepareWatch({ name: 'AUDIO2', niceClasses: [25], designations: ['DE'] });
    assert.deepEqual(untrueClaims(q, 'AUDIO2', 'AUDIOS'), []);
    const s = prepareWatch({ name: 'SONY', niceClasses: [25], designations: ['DE'] });
    assert.deepEqual(untrueClaims(s, 'SONY', 'S0NYS'), []);
  });

  it('holds over 10,000 (brand, record) pairs of the eval', () => {
    const rand = mulberry32(27);
    const int = (n: number) => Math.floor(rand() * n);
    const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
    const { generators } = variantGenerators({ pick, int }, vocabularyOf(texts));
    const brands = texts.filter(isBrandLike);
    for (let i = brands.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [brands[i], brands[j]] = [brands[j] as string, brands[i] as string];
    }
    let pairs = 0;
    let withEvidence = 0;
    const problems: string[] = [];
    for (const brand of brands.slice(0, 260)) {
      const p = prepareWatch({ name: brand, niceClasses: [25], designations: ['DE'] }, stats);
      const marks: string[] = [];
      for (const kind of VARIANT_KINDS) {
        for (let n = 0; n < 4; n++) {
          const v = generators[kind](brand);
          if (v !== null) marks.push(v);
        }
      }
      // Real marks of the register, and the brand with a digit for a look-alike letter.
      for (let n = 0; n < 30; n++) marks.push(pick(texts));
      marks.push(`${brand}2`, brand.replace(/O/i, '0'), brand.replace(/S/i, '5'));
      for (const mark of marks) {
        pairs++;
        const found = untrueClaims(p, brand, mark);
        if (
          decideConflictPrepared(p, { markText: mark, classes: [25], jurisdiction: 'EM' }).conflict
        ) {
          withEvidence++;
        }
        problems.push(...found);
      }
    }
    assert.ok(pairs >= 10_000, `${pairs} pairs`);
    assert.ok(withEvidence >= 5_000, `${withEvidence} pairs with evidence`);
    assert.deepEqual(problems.slice(0, 20), [], `${problems.length} untrue claims`);
  });
});
