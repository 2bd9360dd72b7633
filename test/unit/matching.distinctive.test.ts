// The rules that weigh words by the register (shared_word) and the shape of drug-like names
// (same_shape): what they raise, what they leave alone, their severity, their rationale, and that
// the candidate keys retrieve every pair they accept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assessAlert } from '../../src/domain/alerts/assessment.ts';
import {
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
  type Reason,
} from '../../src/matching/decide.ts';
import { assessSeverity } from '../../src/matching/severity.ts';
import {
  COMMON_MIN_MARKS,
  countWords,
  isWeakWord,
  measuredCommon,
  NO_WORD_STATS,
  type WordStats,
  wordWeight,
} from '../../src/matching/word-weights.ts';
import { disclaimedWords } from '../../src/register/uspto-xml.ts';
import { assertRetrieved, assessedRecord } from '../helpers/matching.ts';

/** The register of the example: 1,204,332 marks, KESTREL in 41, ANALYTICS in 5,870. */
const REGISTER: WordStats = {
  total: 1_204_332,
  counts: new Map([
    ['KESTREL', 41],
    ['ANALYTICS', 5_870],
    ['ROBOTICS', 3_100],
    ['HARBOR', 300],
    ['LANE', 410],
    ['BAKERY', 2_900],
    ['FOODS', 7_000],
    ['MOUNTAIN', 2_000],
    ['DEW', 60],
    ['PLUS', 30_000],
    ['NORTHERN', 200],
    ['REFLECTIONS', 20],
    ['CANADIAN', 150],
  ]),
};

const CLASSES = [9, 42];
const prepare = (name: string, stats: WordStats = REGISTER) =>
  prepareWatch({ name, niceClasses: CLASSES, designations: ['US'] }, stats);
const record = (markText: string, classes: number[] = CLASSES) => assessedRecord(markText, classes);
const kinds = (reasons: readonly Reason[]) => reasons.map((r) => r.kind);
const decide = (p: PreparedWatch, mark: string, classes?: number[]) =>
  decideConflictPrepared(p, record(mark, classes));

describe('word weights measured from the register', () => {
  it('a word in 1 of 2,500 marks or more (and in 5 or more) is common; rarer words are not', () => {
    assert.equal(measuredCommon(REGISTER, 'ANALYTICS'), true);
    assert.equal(measuredCommon(REGISTER, 'ROBOTICS'), true);
    assert.equal(measuredCommon(REGISTER, 'KESTREL'), false);
    // A small mirror: 4 of 10 marks is a large share, but too few marks to be evidence.
    const small = countWords([
      ['A', 'X'],
      ['X'],
      ['X'],
      ['X'],
      ['B'],
      ['C'],
      ['D'],
      ['E'],
      ['F'],
      ['G'],
    ]);
    assert.equal(small.counts.get('X'), 4);
    assert.ok(4 < COMMON_MIN_MARKS);
    assert.equal(measuredCommon(small, 'X'), false);
  });
  it('weak words: the built-in list, numbers, 1 or 2 characters, or measured common', () => {
    assert.equal(isWeakWord(NO_WORD_STATS, 'GROUP', 'GROUP'), true);
    assert.equal(isWeakWord(NO_WORD_STATS, '2000', '2000'), true);
    assert.equal(isWeakWord(NO_WORD_STATS, 'AB', 'AB'), true);
    assert.equal(isWeakWord(NO_WORD_STATS, 'ANALYTICS', 'ANALYTICS'), false);
    assert.equal(isWeakWord(REGISTER, 'ANALYTICS', 'ANALYTICS'), true);
    assert.equal(isWeakWord(REGISTER, 'KESTREL', 'KESTREL'), false);
  });
  it('weight is the inverse document frequency; unmeasured weighs 0', () => {
    assert.ok(Math.abs(wordWeight(REGISTER, 'KESTREL') - Math.log(1_204_333 / 42)) < 1e-9);
    assert.ok(wordWeight(REGISTER, 'KESTREL') > wordWeight(REGISTER, 'ANALYTICS'));
    assert.equal(wordWeight(NO_WORD_STATS, 'KESTREL'), 0);
  });
});

describe('shared_word: the distinctive word of a multi-word brand', () => {
  it('raises KESTREL ROBOTICS, THE KESTREL GROUP and JOHN KESTREL for "Kestrel Analytics"', () => {
    const p = prepare('Kestrel Analytics');
    for (const mark of ['KESTREL ROBOTICS', 'THE KESTREL GROUP', 'JOHN KESTREL']) {
      const d = decide(p, mark);
      assert.equal(d.conflict, true, mark);
      assert.ok(kinds(d.reasons).includes('shared_word'), mark);
      assertRetrieved(p, mark);
    }
  });
  it('leaves ANALYTICS PLUS alone: the shared word is common in the register', () => {
    const d = decide(prepare('Kestrel Analytics'), 'ANALYTICS PLUS');
    assert.equal(d.conflict, false, JSON.stringify(d.reasons));
  });
  it('without measurement the same word counts: the list alone does not know ANALYTICS', () => {
    const d = decide(prepare('Kestrel Analytics', NO_WORD_STATS), 'ANALYTICS PLUS');
    assert.equal(d.conflict, true);
  });
  it('raises HARBOR LANE FOODS for "Harbor Lane Bakery", never BAKERY EXPRESS', () => {
    const p = prepare('Harbor Lane Bakery');
    assert.equal(decide(p, 'HARBOR LANE FOODS').conflict, true);
    assert.equal(decide(p, 'BAKERY EXPRESS').conflict, false);
  });
  it('takes the brand’s rarest word as dominant (MOUNTAIN DEW / CAN DEW)', () => {
    const p = prepare('MOUNTAIN DEW');
    const d = decide(p, 'CAN DEW');
    assert.equal(d.conflict, true);
    assertRetrieved(p, 'CAN DEW');
  });
  it('a non-dominant distinctive word counts only when a second brand word is shared too', () => {
    const stats: WordStats = {
      total: 100_000,
      counts: new Map([
        ['BLACK', 900],
        ['GIRLS', 3],
        ['ROCK', 30],
      ]),
    };
    const p = prepare('BLACK GIRLS ROCK', stats);
    assert.equal(decide(p, 'BLACK MEN ROCK').conflict, true);
    assert.equal(decide(p, 'PAPER ROCK').conflict, false);
  });
  it('finds the word in the plural, and fused with another word when it has 5+ letters', () => {
    const p = prepare('Kestrel Analytics');
    const plural = decide(p, 'KESTRELS WORLD');
    const r1 = plural.reasons.find((r) => r.kind === 'shared_word');
    assert.equal(r1?.kind === 'shared_word' && r1.form, 'plural');
    const fused = decide(p, 'KESTRELBOT');
    const r2 = fused.reasons.find((r) => r.kind === 'shared_word');
    assert.equal(r2?.kind === 'shared_word' && r2.form, 'fused');
    for (const mark of ['KESTRELS WORLD', 'KESTRELBOT', 'SKYKESTREL']) assertRetrieved(p, mark);
    // An ending that makes another word is not a fusion.
    assert.equal(decide(p, 'KESTRELS').conflict, true);
    assert.equal(decide(prepare('Harbor Lane Bakery'), 'HARBORING').conflict, false);
  });
  it('does not apply to a one-word brand (contains_brand covers it)', () => {
    const d = decide(prepare('Kestrel'), 'KESTREL ROBOTICS');
    assert.deepEqual(kinds(d.reasons).slice(0, 1), ['contains_brand']);
  });
});

// The levels are the model's (src/matching/model.ts), calibrated on decided outcomes: what must
// hold is the order of the evidence, not one training's levels.
describe('shared_word severity', () => {
  const assessed = (brand: string, mark: string, classes = CLASSES) => {
    const p = prepare(brand);
    const d = decide(p, mark, classes);
    assert.equal(d.conflict, true, `${brand} / ${mark}`);
    return assessSeverity(p, d.reasons, { markText: mark, classes, stats: REGISTER });
  };
  it('identical distinctive element, only common words beside it, identical classes: not low', () => {
    assert.notEqual(assessed('Kestrel Analytics', 'KESTREL ROBOTICS').severity, 'low');
  });
  it('the same in only some of the classes, or beside another distinctive word: no higher', () => {
    const same = assessed('Kestrel Analytics', 'KESTREL ROBOTICS').score;
    assert.ok(assessed('Kestrel Analytics', 'KESTREL ROBOTICS', [9]).score <= same);
    assert.ok(assessed('Kestrel Analytics', 'JOHN KESTREL').score <= same);
  });
  it('one word of a two-word brand shared with another mark is not high', () => {
    assert.notEqual(assessed('MOUNTAIN DEW', 'CAN DEW', [9]).severity, 'high');
    assert.notEqual(assessed('NORTHERN REFLECTIONS', 'CANADIAN REFLECTIONS', [9]).severity, 'high');
  });
});

describe('shared_word rationale', () => {
  it('names the shared word, its place and the register counts, and the common words', () => {
    const p = prepare('Kestrel Analytics');
    const d = decide(p, 'KESTREL ROBOTICS');
    const a = assessAlert(p, record('KESTREL ROBOTICS'), d, REGISTER);
    assert.match(
      a.rationalePlain,
      /shares the distinctive word KESTREL of the watched brand, the first word of both marks \(in 41 of 1,204,332 marks in the register\)\. ANALYTICS and ROBOTICS are common \(5,870 and 3,100 marks\)\./,
    );
    assert.match(a.rationale, /`KESTREL`/);
    // The level is the model's (calibrated on decided outcomes), not the rule's own `high`.
    assert.notEqual(a.severity, 'low');
  });
});

describe('same_shape: names with the same beginning, ending and rhythm', () => {
  const pairs: [string, string][] = [
    ['OMEPRAL', 'OMERAN'],
    ['OMEPAL', 'OMERAN'],
    ['VAGISIL', 'VAGISAN'],
    ['EVONISE', 'EVARISE'],
  ];
  for (const [brand, mark] of pairs) {
    it(`raises ${mark} for ${brand}, not high, and retrieves it`, () => {
      const p = prepare(brand);
      const d = decide(p, mark);
      assert.equal(d.conflict, true, JSON.stringify(d.reasons));
      assert.ok(kinds(d.reasons).includes('same_shape'));
      assert.notEqual(
        assessSeverity(p, d.reasons, { markText: mark, classes: CLASSES }).severity,
        'high',
      );
      assertRetrieved(p, mark);
    });
  }
  it('leaves alone other rhythms, other beginnings, three edits and common words', () => {
    const p = prepare('OMEPRAL');
    assert.equal(decide(p, 'OMEPRALO').conflict, true); // one edit: edit_distance
    assert.equal(decide(p, 'OMRAN').conflict, false); // fewer vowel groups
    assert.equal(decide(p, 'ABEPRAN').conflict, false); // another beginning
    assert.equal(decide(p, 'OMEKANI').conflict, false); // three edits
    assert.equal(decide(prepare('SERVICE'), 'SERVANT').conflict, false);
  });
});

describe('phonetic: the plural of a sound-alike', () => {
  for (const [brand, mark] of [
    ['SEIKO', 'SEYCOS'],
    ['KWIKLY', 'QUICKLYS'],
  ] as const) {
    it(`raises ${mark} for ${brand}, says so, and retrieves it`, () => {
      const p = prepare(brand);
      const d = decide(p, mark);
      const r = d.reasons.find((x) => x.kind === 'phonetic');
      assert.equal(r?.kind === 'phonetic' && r.plural, true, JSON.stringify(d.reasons));
      assert.match(r?.detail ?? '', /in the plural/);
      assertRetrieved(p, mark);
    });
  }
  it('not when the brand itself ends in S, nor for a mark of another sound', () => {
    assert.equal(decide(prepare('SEIKO'), 'SEKTOS').conflict, false);
    const p = prepare('PHILIPS');
    assert.equal(
      decide(p, 'FILIPSS').reasons.some((r) => r.kind === 'phonetic' && r.plural),
      false,
    );
  });
});

describe('disclaimers', () => {
  it('the quoted words of a USPTO disclaimer, normalized as mark words', () => {
    assert.deepEqual(
      disclaimedWords([
        'No claim is made to the exclusive right to use "COFFEE COMPANY" apart from the mark as shown.',
        'No claim is made to the exclusive right to use “Café” apart from the mark as shown.',
      ]),
      ['COFFEE', 'COMPANY', 'CAFE'],
    );
    assert.deepEqual(disclaimedWords(['The mark consists of standard characters.']), []);
  });
  it('a shared word the record disclaims is low, however dominant', () => {
    const p = prepare('Kestrel Analytics');
    const d = decideConflictPrepared(p, { ...record('KESTREL ROBOTICS'), disclaimed: ['KESTREL'] });
    const r = d.reasons.find((x) => x.kind === 'shared_word');
    assert.equal(r?.kind === 'shared_word' && r.disclaimed, true);
    assert.equal(
      assessSeverity(p, d.reasons, { markText: 'KESTREL ROBOTICS', classes: CLASSES }).severity,
      'low',
    );
  });
});

describe('contained_in_brand: the distinctive part of a one-word compound brand', () => {
  it('raises DOLPHIN for POWERDOLPHIN and DOLPHINWORLD, and retrieves it', () => {
    for (const brand of ['POWERDOLPHIN', 'DOLPHINWORLD']) {
      const p = prepare(brand);
      const d = decide(p, 'DOLPHIN');
      assert.ok(kinds(d.reasons).includes('contained_in_brand'), brand);
      assertRetrieved(p, 'DOLPHIN');
    }
  });
  it('not the common word, nor a part shorter than 5 letters', () => {
    assert.equal(decide(prepare('POWERDOLPHIN'), 'POWER').conflict, false);
    assert.equal(decide(prepare('WINDWORLD'), 'WIND').conflict, false);
  });
});
