// The conflict shapes that decided cases showed missing: digits read as words (TRUE1 / TRUONE), a
// one-word brand's parts swapped (TIGHTVAC / VAC-TITE), a distinctive word in another inflection
// (GNARLY / GNARLED) or respelt (BUGZZZ / BUGS), a two-letter mark (RM / MB RM) and a brand's
// initials alone (ML MARK LEES / ML). For each: what it raises, the near misses it leaves alone,
// its severity and rationale, and that the candidate keys retrieve what it accepts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assessAlert } from '../../src/domain/alerts/assessment.ts';
import {
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
  type Reason,
  statsWordsOf,
  stemOf,
} from '../../src/matching/decide.ts';
import { analyzeMark, compoundSplits, spokenDigits } from '../../src/matching/normalize.ts';
import { NO_WORD_STATS, type WordStats } from '../../src/matching/word-weights.ts';
import { assertRetrieved, assessedRecord } from '../helpers/matching.ts';

const CLASSES = [9];
const prepare = (name: string, stats: WordStats = NO_WORD_STATS) =>
  prepareWatch({ name, niceClasses: CLASSES, designations: ['US'] }, stats);
const record = (markText: string) =>
  assessedRecord(markText, CLASSES, { externalId: 'US90000002' });
const decide = (p: PreparedWatch, mark: string) => decideConflictPrepared(p, record(mark));
const reasonOf = <K extends Reason['kind']>(p: PreparedWatch, mark: string, kind: K) =>
  decide(p, mark).reasons.find((r): r is Extract<Reason, { kind: K }> => r.kind === kind);

function assertRaised(p: PreparedWatch, mark: string, kind: Reason['kind']) {
  const d = decide(p, mark);
  assert.equal(d.conflict, true, `${p.name} / ${mark}: ${JSON.stringify(d.reasons)}`);
  assert.ok(
    d.reasons.some((r) => r.kind === kind),
    `${p.name} / ${mark}: ${d.reasons.map((r) => r.kind).join(',')}`,
  );
  assertRetrieved(p, mark);
}
const severity = (p: PreparedWatch, mark: string, stats: WordStats = NO_WORD_STATS) =>
  assessAlert(p, record(mark), decide(p, mark), stats);

describe('digits_as_words: a digit read aloud as a word', () => {
  it('reads single digits as words and leaves numbers of two digits or more alone', () => {
    assert.equal(spokenDigits(analyzeMark('TRUE1')), 'TRUEONE');
    assert.equal(spokenDigits(analyzeMark('4EVER')), 'FOUREVER');
    assert.equal(spokenDigits(analyzeMark('B2B')), 'BTWOB');
    assert.equal(spokenDigits(analyzeMark('VAPE 24/7')), null);
    assert.equal(spokenDigits(analyzeMark('TRUONE')), null);
  });
  it('raises TRUONE and TRUE ONE for TRUE1, and TRUE1 for TRUONE (both ways)', () => {
    assertRaised(prepare('TRUE1'), 'TRUONE', 'digits_as_words');
    assertRaised(prepare('TRUE1'), 'TRUE ONE', 'digits_as_words');
    assertRaised(prepare('TRUONE'), 'TRUE1', 'digits_as_words');
    assertRaised(prepare('FOREVER FRESH'), '4EVER FRESH', 'digits_as_words');
  });
  // Levels are the model's (src/matching/model.ts): a spoken identity is not low and is no
  // lower than a spoken near form.
  it('says what the marks read aloud, and a spoken identity of a distinctive brand is not low', () => {
    const p = prepare('TRUE1');
    const a = severity(p, 'TRUE ONE');
    assert.notEqual(a.severity, 'low');
    assert.match(a.rationale, /Read aloud with its digits as words/);
    assert.match(a.rationale, /TRUEONE/);
    const rank = { low: 0, medium: 1, high: 2 };
    assert.ok(rank[severity(p, 'TRUONE').severity] <= rank[a.severity]);
  });
  it('leaves a mark whose spoken form is further away alone', () => {
    assert.equal(reasonOf(prepare('TRUE1'), 'TRUETWO', 'digits_as_words'), undefined);
    assert.equal(reasonOf(prepare('CLUB 1843'), 'CLUB ONE', 'digits_as_words'), undefined);
  });
});

describe('parts_swapped: a one-word brand with its parts in the other order', () => {
  it('raises VAC-TITE and VACTIGHT for TIGHTVAC (TITE sounds as TIGHT)', () => {
    const p = prepare('TIGHTVAC');
    assertRaised(p, 'VAC-TITE', 'parts_swapped');
    assertRaised(p, 'VACTIGHT', 'parts_swapped');
    const r = reasonOf(p, 'VAC-TITE', 'parts_swapped');
    assert.deepEqual(r?.parts, ['TIGHT', 'VAC']);
    assert.deepEqual(r?.markParts, ['VAC', 'TITE']);
    // Its level is the model's; the rationale still names the shape.
    const a = severity(p, 'VAC-TITE');
    assert.match(a.rationale, /two parts in the other order/);
  });
  it('needs both parts written or respelt alike, not a shared sound code (DRAGON / GANADERIA)', () => {
    assert.equal(reasonOf(prepare('DRAGON'), 'GANADERIA', 'parts_swapped'), undefined);
    assert.equal(reasonOf(prepare('PROLINE'), 'INNOPEARL', 'parts_swapped'), undefined);
    assert.equal(reasonOf(prepare('TIGHTVAC'), 'VAC TOTE', 'parts_swapped'), undefined);
  });
});

describe('shared_word in another form: inflected or respelt', () => {
  it('stems the light English inflections', () => {
    assert.equal(stemOf('GNARLY'), 'GNARL');
    assert.equal(stemOf('GNARLED'), 'GNARL');
    assert.equal(stemOf('BAKERY'), 'BAKER');
    assert.equal(stemOf('GLIMMERS'), 'GLIMMER');
    assert.equal(stemOf('BLUE'), 'BLUE');
  });
  it('raises GNARLED ORCHARD for GNARLY HEAD: one word in two of its forms', () => {
    const p = prepare('GNARLY HEAD');
    assertRaised(p, 'GNARLED ORCHARD', 'shared_word');
    assert.equal(reasonOf(p, 'GNARLED ORCHARD', 'shared_word')?.form, 'stem');
    assertRaised(p, 'GNARL WINES', 'shared_word');
    const a = severity(p, 'GNARLED ORCHARD');
    assert.equal(a.severity, 'medium');
    assert.match(a.rationale, /in another form of the same word/);
  });
  it('not when the stem is a common word in the register (GLIMMERS / GLIMMER)', () => {
    const stats: WordStats = { total: 100_000, counts: new Map([['GLIMMER', 900]]) };
    const p = prepare('GLIMMERS HAVEN', stats);
    assert.equal(reasonOf(p, 'GLIMMER BAY', 'shared_word'), undefined);
    // Unmeasured, GLIMMER is a distinctive stem: the guard is the measurement.
    const unmeasured = prepare('GLIMMERS HAVEN');
    assert.equal(reasonOf(unmeasured, 'GLIMMER BAY', 'shared_word')?.form, 'stem');
    assert.ok(statsWordsOf('Glimmers Haven').includes('GLIMMER'));
  });
  it('raises SNUG BUGS for SNUGGLE BUGZZZ: a respelt word, with the other word echoed', () => {
    const p = prepare('SNUGGLE BUGZZZ');
    assertRaised(p, 'SNUG BUGS', 'shared_word');
    assert.equal(reasonOf(p, 'SNUG BUGS', 'shared_word')?.form, 'sound');
    assert.match(severity(p, 'SNUG BUGS').rationale, /respelt with the same sound/);
  });
  it('a respelt word alone is not enough (BELLA VITA for PH VITAE)', () => {
    assert.equal(reasonOf(prepare('PH VITAE'), 'BELLA VITA', 'shared_word'), undefined);
    assert.equal(reasonOf(prepare('SNUGGLE BUGZZZ'), 'LITTLE BUGS', 'shared_word'), undefined);
  });
});

describe('short letter marks', () => {
  it('raises MB RM for RM: a two-letter brand as a word of a short mark', () => {
    const p = prepare('RM');
    assertRaised(p, 'MB RM', 'contains_brand');
    // The model's level: two letters in a short mark is never high.
    const a = severity(p, 'MB RM');
    assert.notEqual(a.severity, 'high');
  });
  it('not inside a phrase of four words or more, nor when the register finds the letters common', () => {
    assert.equal(decide(prepare('RM'), 'THE RM HOME CENTER').conflict, false);
    const stats: WordStats = { total: 10_000, counts: new Map([['RM', 50]]) };
    assert.equal(decide(prepare('RM', stats), 'MB RM').conflict, false);
  });
  it('raises ML for ML MARK LEES: the brand’s initials alone', () => {
    const p = prepare('ML MARK LEES');
    assertRaised(p, 'ML', 'contained_in_brand');
    assert.notEqual(severity(p, 'ML').severity, 'high');
  });
  it('not a first word that is not the initials of the words after it (PS WIND MANAGEMENT)', () => {
    assert.equal(reasonOf(prepare('PS WIND MANAGEMENT'), 'PS', 'contained_in_brand'), undefined);
  });
});

describe('compound: a short or common-word brand fused with a word at a word boundary', () => {
  it('splits a compound that is not a word at the boundary of an English word', () => {
    assert.deepEqual(
      compoundSplits('ORBITFLOW').map((s) => `${s.part}/${s.word}/${s.side}`),
      ['ORBIT/FLOW/start', 'FLOW/ORBIT/end'],
    );
    assert.ok(compoundSplits('ZARAHOME').some((s) => s.part === 'ZARA' && s.side === 'start'));
    assert.deepEqual(compoundSplits('GREENHOUSE'), [], 'an English word is no compound');
    assert.deepEqual(compoundSplits('ZEROFLUSHNET'), [], 'ZEROFLUSH is neither short nor a word');
  });
  it('raises ORBITFLOW for ORBIT, SUNHARBOR for SUN and HARBOR, ZARAHOME for ZARA', () => {
    assertRaised(prepare('SUN'), 'SUNHARBOR', 'compound');
    assertRaised(prepare('ZARA'), 'ZARAHOME', 'compound');
    assertRaised(prepare('ZARA'), 'THE ZARAHOME SHOP', 'compound');
    // ORBIT is no common word: the `fused` rule takes it; as a common word, `compound` does.
    assert.equal(reasonOf(prepare('ORBIT'), 'ORBITFLOW', 'fused')?.side, 'start');
    const stats: WordStats = {
      total: 100_000,
      counts: new Map([
        ['ORBIT', 500],
        ['HARBOR', 300],
      ]),
    };
    assertRaised(prepare('ORBIT', stats), 'ORBITFLOW', 'compound');
    assertRaised(prepare('HARBOR', stats), 'SUNHARBOR', 'compound');
  });
  it('stays quiet on a compound that is a word of its own, or an ending', () => {
    assert.equal(reasonOf(prepare('GREEN'), 'GREENHOUSE', 'compound'), undefined);
    assert.equal(reasonOf(prepare('SUN'), 'SUNSHINE', 'compound'), undefined);
    assert.equal(reasonOf(prepare('SUN'), 'SUNNY', 'compound'), undefined);
  });
  it('a common or dictionary brand is not high, and the rationale says where', () => {
    const sun = severity(prepare('SUN'), 'SUNHARBOR');
    assert.notEqual(sun.severity, 'high');
    assert.match(
      sun.rationale,
      /joins the watched brand with the word `HARBOR` into one: `SUNHARBOR` begins with the brand/,
    );
    assert.notEqual(severity(prepare('ZARA'), 'ZARAHOME').severity, 'high');
  });
});
