// The shapes of issue 27 that no rule or key found before: a contraction or an added ending, a
// changed letter of a three-letter acronym, a number kept with its words changed, letters
// rearranged, a one-word brand's parts swapped where they share a letter, and drug-length names
// three letters apart between the same beginning and ending. For each: what the rule finds, what
// it leaves alone, and that the candidate keys retrieve every pair it accepts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compareText,
  type PreparedWatch,
  prepareWatch,
  type TextReason,
} from '../../src/matching/decide.ts';
import { analyzeMark } from '../../src/matching/normalize.ts';
import { assertRetrieved } from '../helpers/matching.ts';

const prepare = (name: string) => prepareWatch({ name, niceClasses: [5], designations: ['US'] });
const found = (p: PreparedWatch, mark: string): TextReason[] => compareText(p, analyzeMark(mark));
const finds = (brand: string, mark: string, kind: string): TextReason | undefined =>
  found(prepare(brand), mark).find((r) => r.kind === kind);

/** The rule finds the pair, and the keys retrieve it. */
function assertFound(brand: string, mark: string, kind: string): TextReason {
  const p = prepare(brand);
  const r = found(p, mark).find((x) => x.kind === kind);
  assert.ok(r, `${kind} for ${brand} / ${mark}: ${JSON.stringify(found(p, mark))}`);
  assertRetrieved(p, mark);
  return r;
}

describe('contraction: letters dropped from inside a name, or an ending added', () => {
  it('a contraction either way, retrieved by the contraction key or the contractions sent', () => {
    const r = assertFound('COMMCASH', 'COMMUNICASH', 'contraction');
    assert.equal(r.kind === 'contraction' && r.dropped, 'UNI');
    assertFound('COMMUNICASH', 'COMMCASH', 'contraction');
    assertFound('FERRERO', 'FERRO', 'contraction');
    assertFound('FERRO', 'FERRERO', 'contraction');
  });
  it('a longer brand read with each double letter as one, and said so', () => {
    const r = assertFound('MILLTRONICS', 'MILTRON', 'contraction');
    assert.equal(r.kind === 'contraction' && r.read, 'MILTRONICS');
    // Only the brand is read so: its contractions are the keys sent.
    assert.equal(finds('MILTRON', 'MILLTRONICS', 'contraction'), undefined);
  });
  it('an ending added to the brand, or dropped from it', () => {
    assertFound('LUTEX', 'LUTEXAL', 'contraction');
    assertFound('LUTEXAL', 'LUTEX', 'contraction');
    assertFound('ZORVANT', 'ZORVANTINO', 'contraction');
  });
  it('the brand shortened as the first word of a longer mark', () => {
    const r = assertFound('FERRERO', 'FERRO KITCHEN', 'contraction');
    assert.match(r.detail, /followed by other words/);
    // Not as the second word, not in a mark of four words, and not a longer first word.
    assert.equal(finds('FERRERO', 'KITCHEN FERRO', 'contraction'), undefined);
    assert.equal(finds('FERRERO', 'FERRO A B C', 'contraction'), undefined);
    assert.equal(finds('FERRO', 'FERRERO KITCHEN', 'contraction'), undefined);
    // Nor the brand's beginning alone (its ending dropped) before other words.
    assert.equal(finds('NAVIREC', 'NAVIR GREEN FACTOR', 'contraction'), undefined);
  });
  it('leaves alone English words, one letter, five letters, the start, and short names', () => {
    assert.equal(finds('HYDRA', 'HYDRATION', 'contraction'), undefined); // an English word
    assert.equal(finds('COMMCASH', 'COMMUCASH', 'contraction'), undefined); // one letter: edits
    assert.equal(finds('COMMCASH', 'COMMUNIXYCASH', 'contraction'), undefined); // five letters
    assert.equal(finds('ZORVANT', 'ABZORVANT', 'contraction'), undefined); // added at the start
    assert.equal(finds('ZORVA', 'ZOXYRVA', 'contraction'), undefined); // its first 3 changed
    assert.equal(finds('LUTEX', 'LUTEXALY', 'contraction'), undefined); // not an ending: fused
  });
});

describe('letter_changed: one letter of a three-letter acronym', () => {
  it('raises ELS for ILS, any position, and retrieves it', () => {
    const r = assertFound('ILS', 'ELS', 'letter_changed');
    assert.equal(r.kind === 'letter_changed' && r.at, 0);
    assertFound('ILS', 'IXS', 'letter_changed');
    assertFound('ILS', 'ILX', 'letter_changed');
  });
  it('leaves alone two changes, other lengths, English words and other words', () => {
    assert.equal(finds('ILS', 'ELT', 'letter_changed'), undefined);
    assert.equal(finds('ILS', 'ILSA', 'letter_changed'), undefined);
    assert.equal(finds('SUN', 'SUP', 'letter_changed'), undefined);
    assert.equal(finds('ILS', 'ELS BAR', 'letter_changed'), undefined);
    assert.equal(finds('IL5', 'EL5', 'letter_changed'), undefined);
  });
});

describe('shared_number: the number kept, the words changed', () => {
  it('raises 412 PUBLIC HOUSE for 412 BBQ, and retrieves it', () => {
    const r = assertFound('412 BBQ', '412 PUBLIC HOUSE', 'shared_number');
    assert.equal(r.kind === 'shared_number' && r.side, 'first');
    assertFound('CLUB 735', 'HOTEL 735', 'shared_number');
  });
  it('leaves alone years, round hundreds, short numbers and the number elsewhere', () => {
    assert.equal(finds('CLUB 1843', 'HOTEL 1843', 'shared_number'), undefined);
    assert.equal(finds('500 BBQ', '500 PUBLIC HOUSE', 'shared_number'), undefined);
    assert.equal(finds('41 BBQ', '41 PUBLIC HOUSE', 'shared_number'), undefined);
    assert.equal(finds('412 BBQ', 'PUBLIC HOUSE 412', 'shared_number'), undefined);
    assert.equal(finds('412 BBQ', '412', 'shared_number'), undefined);
    assert.equal(finds('412', '412 PUBLIC HOUSE', 'shared_number'), undefined);
  });
});

describe('rearranged: the same letters in another order', () => {
  it('raises QUIRST for SQUIRT, and retrieves it', () => {
    const r = assertFound('SQUIRT', 'QUIRST', 'rearranged');
    assert.equal(r.kind === 'rearranged' && r.distance, 2);
  });
  it('leaves alone a swap of neighbours (edits), a scramble, words and short names', () => {
    assert.equal(finds('SQUIRT', 'SQUIRT', 'rearranged'), undefined);
    assert.equal(finds('SQUIRT', 'SQIURT', 'rearranged'), undefined); // one swap: edit_distance
    assert.equal(finds('SQUIRT', 'TRIUQS', 'rearranged'), undefined); // too far apart
    assert.equal(finds('KALIBER', 'ALBIKER', 'rearranged')?.kind, 'rearranged');
    assert.equal(finds('ALBIKER', 'CALIBER', 'rearranged'), undefined); // other letters
    assert.equal(finds('ABEST', 'BEAST', 'rearranged'), undefined); // an English word
    assert.equal(finds('QUIR', 'QRIU', 'rearranged'), undefined); // 4 letters
  });
});

describe('parts_swapped: parts that share the letter where they meet', () => {
  it('raises GREEN LIVING for LIVINGREEN, quoting each part of the brand', () => {
    const r = assertFound('LIVINGREEN', 'GREEN LIVING', 'parts_swapped');
    assert.equal(r.kind === 'parts_swapped' && r.overlap, true);
    assertFound('LIVINGREEN', 'GREENLIVING', 'parts_swapped');
  });
});

describe('same_shape: drug-length names three letters apart', () => {
  it('the same first and last 3 letters, the rhythm, three letters changed between them', () => {
    const r = assertFound('SORVATINEX', 'SORBULINEX', 'same_shape');
    assert.equal(r.kind === 'same_shape' && r.distance, 3);
  });
  it('not below 8 letters, nor without the same ending', () => {
    assert.equal(finds('OMEPRAL', 'OMEKANI', 'same_shape'), undefined);
    assert.equal(finds('SORVATINEX', 'SORBULINAX', 'same_shape'), undefined);
  });
});

describe('same_shape: names respelt after the same beginning', () => {
  it('from 7 letters, three edits after the same first 3 letters, and retrieves them', () => {
    const r = assertFound('SYNACTHEN', 'SYNECTHA', 'same_shape');
    assert.equal(r.kind === 'same_shape' && r.distance, 3);
    assertFound('MIRVIVA', 'MIRIVAIR', 'same_shape');
  });
  it('not where either name is an English word, nor another rhythm', () => {
    assert.equal(finds('CAPRUEN', 'CAPTAIN', 'same_shape'), undefined);
    assert.equal(finds('CAPTAIN', 'CAPRUEN', 'same_shape'), undefined);
    assert.equal(finds('MIRVIVA', 'MIRIVAIRA', 'same_shape'), undefined); // 2 letters longer
  });
});

describe('rhyme: the same long ending, another beginning', () => {
  it('raises a changed or added first letter or two, and retrieves it', () => {
    const r = assertFound('PROZAC', 'HERBROZAC', 'rhyme');
    assert.deepEqual(r.kind === 'rhyme' && [r.ending, r.heads], ['ROZAC', ['P', 'HERB']]);
    assertFound('SEROPRAM', 'OROPRAM', 'rhyme');
    assertFound('KLOMAXI', 'TROMAXI', 'rhyme'); // two edits: too many at 7 letters
  });
  it('raises a beginning respelt within two letters, in a word of the mark', () => {
    const r = assertFound('GENTACUTAN', 'GENOVE GENOCUTAN', 'rhyme');
    assert.deepEqual(r.kind === 'rhyme' && [r.word, r.at], ['GENOCUTAN', 1]);
  });
  it('leaves alone other beginnings, words, shared English endings and phrases', () => {
    assert.equal(finds('CALOPRAM', 'TIMOPRAM', 'rhyme'), undefined); // 3 letters, no respelling
    assert.equal(finds('SEROPRAM', 'SEXTOPRAM', 'rhyme'), undefined); // SE replaced by SEXT: 4 edits
    assert.equal(finds('GLOCKET', 'POCKET', 'rhyme'), undefined); // an English word
    assert.equal(finds('PURFITNESS', 'SUPERFITNESS', 'rhyme'), undefined); // FITNESS is a word
    assert.equal(finds('PROZAC', 'THE BIG HERBROZAC SHOP', 'rhyme'), undefined); // 4 words
    assert.equal(finds('ROZAC', 'HEROZAC', 'rhyme'), undefined); // a 5-letter brand
    assert.equal(finds('PROZAC', 'NETPROZAC', 'rhyme'), undefined); // the whole brand: fused
    assert.equal(finds('PROZAC', 'HERBROZAK', 'rhyme'), undefined); // the ending differs
    assert.equal(finds('PROZAC', 'HERBOZAC', 'rhyme'), undefined); // a 4-letter ending
    assert.equal(finds('GENTACUTAN', 'GENOVE BENTOCUTAN', 'rhyme'), undefined); // other start
  });
});
