// Goods that meet across classes (src/matching/goods.ts): the related class pairs the issue names,
// the goods text that confirms or rules out a relation, and what a related class does to the
// decision, its score, its severity, its rationale and the candidate query's classes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assessAlert } from '../../src/domain/alerts/assessment.ts';
import {
  buildCandidateIndex,
  matchCandidateIndex,
  relatedClassTokens,
  retrieves,
  retrievesInRelatedClass,
  watchTokens,
} from '../../src/matching/candidates.ts';
import {
  acrossGate,
  compareMarks,
  compareText,
  decideConflictPrepared,
  prepareWatch,
  raisedAt,
  type TextReason,
} from '../../src/matching/decide.ts';
import {
  CLASS_RELATIONS,
  type GoodsMeeting,
  goodsMeeting,
  goodsWordsOf,
  meetingSentence,
  namesGoods,
  relatedClassesOf,
} from '../../src/matching/goods.ts';
import { levelOf, MODEL } from '../../src/matching/model.ts';
import { analyzeMark, matchKeys } from '../../src/matching/normalize.ts';
import { withoutGoods } from '../../src/matching/rules/without-goods.ts';
import { assessSeverity } from '../../src/matching/severity.ts';
import { assessedRecord, indexRow } from '../helpers/matching.ts';

const watch = (name: string, niceClasses: number[], relatedClasses?: boolean) =>
  prepareWatch({ name, niceClasses, designations: ['US'], relatedClasses });
const record = (
  markText: string,
  classes: number[],
  goods: { niceClass: number; text: string }[] = [],
) => ({ markText, classes, jurisdiction: 'US', goods });

describe('related classes', () => {
  it("cover the issue's pairs, both ways, each with a reason and a source", () => {
    for (const [a, b] of [
      [32, 33], // beer / tequila; malt liquor / wine
      [5, 3], // pharmaceuticals / cosmetics
      [5, 32], // pharmaceuticals / soft drinks
      [30, 29], // bakery goods / meat products
      [29, 43], // food products / restaurant services
      [30, 43],
      [25, 41], // clothing / entertainment services
      [33, 29], // wine / cheese
    ] as const) {
      assert.ok(relatedClassesOf([a]).includes(b), `${a} → ${b}`);
      assert.ok(relatedClassesOf([b]).includes(a), `${b} → ${a}`);
    }
    for (const r of CLASS_RELATIONS) {
      assert.ok(r.reason.length > 20 && r.sources.length > 0, r.reason);
    }
    assert.deepEqual(relatedClassesOf([13]), [], 'no relation invented for firearms');
  });

  it('relate the pairs found since, each to the goods its decision names', () => {
    for (const [a, b] of [
      [32, 34], // beer / cigarettes
      [33, 34], // spirits / cigars
      [16, 25], // magazines / clothing
      [41, 43], // amusement attraction / restaurant
      [3, 37], // car care products / car wash
    ] as const) {
      assert.ok(relatedClassesOf([a]).includes(b), `${a} → ${b}`);
      assert.ok(relatedClassesOf([b]).includes(a), `${b} → ${a}`);
    }
    const meets = (watchClass: number, recordClass: number, text: string) =>
      goodsMeeting(new Set([watchClass]), [recordClass], [{ niceClass: recordClass, text }]);
    assert.equal(meets(32, 34, 'Cigarettes; tobacco')?.recordGoods, 'tobacco products');
    assert.equal(meets(32, 34, 'Matches'), null);
    assert.equal(meets(16, 25, 'Girdles and corsets')?.recordGoods, 'clothing');
    assert.equal(
      meets(25, 16, 'Monthly magazines for girls')?.recordGoods,
      'magazines and periodicals',
    );
    assert.equal(
      meets(43, 41, 'Amusement park attractions')?.recordGoods,
      'entertainment services',
    );
    // Class 3 is cosmetics too, class 37 building repair too: only car care meets car washes.
    assert.equal(meets(3, 37, 'Car wash services')?.recordGoods, 'car wash services');
    assert.equal(meets(3, 37, 'Repair of roofs'), null);
    assert.equal(meets(37, 3, 'Car waxes and polishes')?.recordGoods, 'car care products');
    assert.equal(meets(37, 3, 'Shampoo'), null);
  });

  it('read the goods text where the record has one, and the class heading where not', () => {
    const beer = new Set([32]);
    const tequila = goodsMeeting(beer, [33], [{ niceClass: 33, text: 'Tequila; mezcal' }]);
    assert.equal(tequila?.recordGoods, 'wine and spirits');
    assert.deepEqual(tequila?.terms, ['TEQUILA']);
    // A class 33 record whose goods are not drinks at all does not meet the beer watch.
    assert.equal(goodsMeeting(beer, [33], [{ niceClass: 33, text: 'Fruit-based pomace' }]), null);
    const heading = goodsMeeting(beer, [33]);
    assert.match(heading?.recordGoods ?? '', /alcoholic beverages/i);
    assert.deepEqual(heading?.terms, []);
    assert.equal(goodsMeeting(new Set([9]), [13]), null);
  });

  it('meet in the class that held them before 2002 by the goods text alone', () => {
    const wine = new Set([33]);
    const food = new Set([30]);
    const restaurant = goodsMeeting(wine, [42], [{ niceClass: 42, text: 'Restaurant services' }]);
    assert.equal(restaurant?.recordGoods, 'restaurant services');
    assert.equal(restaurant?.recordClass, 42);
    assert.deepEqual(restaurant?.terms, ['RESTAURANT']);
    assert.equal(restaurant?.formerUntil, '2002');
    const heading = goodsMeeting(
      food,
      [42],
      [{ niceClass: 42, text: 'Provision of food and drink' }],
    );
    assert.deepEqual(heading?.terms, ['FOOD AND DRINK']);
    // A phrase is found wherever its first word stands, not only where that word first appears.
    const later = goodsMeeting(
      food,
      [42],
      [{ niceClass: 42, text: 'Food testing; provision of food and drink' }],
    );
    assert.deepEqual(later?.terms, ['FOOD AND DRINK']);
    // Class 42 now: food testing is no restaurant, and a record without a text says nothing.
    for (const text of ['Food testing and food technology research', 'Computer programming', '']) {
      assert.equal(goodsMeeting(food, [42], [{ niceClass: 42, text }]), null, text);
    }
    assert.equal(goodsMeeting(wine, [42]), null);
    assert.ok(relatedClassesOf([33]).includes(42), 'the candidates of a wine watch');
    assert.ok(!relatedClassesOf([9]).includes(42));
    assert.match(
      meetingSentence(restaurant as GoodsMeeting),
      /restaurant services \(class 42, this record, the class of these services until 2002; filing date not published by this source\) \(the record's goods name restaurant\)/,
    );
  });

  it('meet in the former class only when the record was filed before it gave them up', () => {
    const wine = new Set([33]);
    const software = [{ niceClass: 42, text: 'Software as a service for restaurant management' }];
    // Filed under the 8th edition or later: class 42 then held no restaurants, whatever its text.
    for (const filedAt of ['2002-01-01T00:00:00.000Z', '2019-06-04T00:00:00.000Z']) {
      assert.equal(goodsMeeting(wine, [42], software, filedAt), null, filedAt);
    }
    const old = goodsMeeting(
      wine,
      [42],
      [{ niceClass: 42, text: 'Restaurant services' }],
      '2001-12-31T00:00:00.000Z',
    );
    assert.equal(old?.filedAt, '2001-12-31');
    assert.match(
      meetingSentence(old as GoodsMeeting),
      /\(class 42, this record, the class of these services until 2002; filed on 2001-12-31\)/,
    );
    // The goods' own class is not bound by a date.
    const restaurant = goodsMeeting(
      wine,
      [43],
      [{ niceClass: 43, text: 'Restaurant services' }],
      '2019-06-04T00:00:00.000Z',
    );
    assert.equal(restaurant?.recordClass, 43);
    assert.equal(restaurant?.filedAt, null);
    // The decision reads the record's filing date.
    const p = watch('OPUS ONE', [33]);
    const filed = (filedAt: string) =>
      decideConflictPrepared(p, {
        ...record('OPUS ONE', [42]),
        goods: [{ niceClass: 42, text: 'Restaurant services' }],
        filedAt,
      });
    assert.ok(filed('1995-03-01T00:00:00.000Z').reasons.some((r) => r.kind === 'related_goods'));
    assert.ok(!filed('2015-03-01T00:00:00.000Z').reasons.some((r) => r.kind === 'related_goods'));
  });
});

describe('a record in a related class', () => {
  it('is a conflict on strong text, with a lower score than in the same class', () => {
    const p = watch('GASPARILLA', [32]);
    const same = decideConflictPrepared(p, record('GASPARILLA', [32]));
    const related = decideConflictPrepared(
      p,
      record('GASPARILLA', [33], [{ niceClass: 33, text: 'tequila' }]),
    );
    assert.equal(same.conflict, true);
    assert.equal(related.conflict, true);
    assert.ok(related.score < same.score, `${related.score} < ${same.score}`);
    const reason = related.reasons.find((r) => r.kind === 'related_goods');
    assert.ok(reason !== undefined && reason.kind === 'related_goods');
    assert.match(reason.detail, /beer \(32\) and wine and spirits \(33\)/);
    // Not in a class nothing relates (but for the brand itself: matching.any-class.test.ts).
    assert.equal(decideConflictPrepared(p, record('GASPARILLO', [13])).conflict, false);
  });

  it('is left out when the watch turns related classes off', () => {
    const p = watch('GASPARILLA', [32], false);
    assert.equal(decideConflictPrepared(p, record('GASPARILLA', [33])).conflict, false);
    assert.deepEqual([...p.candidateClasses], [32]);
    assert.ok(watch('GASPARILLA', [32]).candidateClasses.includes(33));
  });

  it('takes weaker text only from the across threshold, strong text from the alert one', () => {
    const { alert, across } = MODEL.thresholds;
    // KESTREL ANALYTICS / KESTREL ROBOTICS shares its distinctive word: weaker text.
    const p = watch('KESTREL ANALYTICS', [32]);
    const weak = compareMarks('KESTREL ANALYTICS', 'KESTREL ROBOTICS') as TextReason[];
    assert.equal(acrossGate(p, weak, 'related'), 'across');
    assert.equal(acrossGate(p, weak, 'same'), 'none');
    assert.equal(raisedAt(p, weak, 'related', across), true);
    if (across > alert) assert.equal(raisedAt(p, weak, 'related', across - 1e-9), false);
    assert.equal(raisedAt(p, weak, 'same', alert), true);
    const decided = decideConflictPrepared(p, record('KESTREL ROBOTICS', [33]));
    assert.equal(decided.conflict, decided.score >= across);
    assert.ok(decided.score < decideConflictPrepared(p, record('KESTREL ROBOTICS', [32])).score);
    // GASPARILLO is one letter from GASPARILLA: strong text, raised from the alert threshold.
    const g = watch('GASPARILLA', [32]);
    const strong = compareMarks('GASPARILLA', 'GASPARILLO') as TextReason[];
    assert.equal(acrossGate(g, strong, 'related'), 'none');
    assert.equal(raisedAt(g, strong, 'related', alert), true);
    // The same mark in a class nothing relates: from medium only.
    assert.equal(
      acrossGate(g, compareMarks('GASPARILLA', 'GASPARILLA') as TextReason[], 'unrelated'),
      'medium',
    );
  });

  it('takes the brand taken whole (plural, fused, without weak words), or a distinctive part of it, as strong text', () => {
    const p = watch('ZORBLAX', [32]);
    const gate = (mark: string) =>
      acrossGate(p, compareMarks('ZORBLAX', mark) as TextReason[], 'related');
    // The brand with a plural or possessive S, then a word; the brand written into one word.
    assert.equal(gate('ZORBLAXS PILS'), 'none');
    assert.equal(gate("ZORBLAX'S PILS"), 'none');
    assert.equal(gate('ZORBLAXSKY'), 'none');
    // The mark is the brand without its weak words (HOTEL): the brand itself.
    const hotel = compareMarks('HOTEL ZORBLAX', 'ZORBLAX') as TextReason[];
    assert.equal(acrossGate(watch('HOTEL ZORBLAX', [43]), hotel, 'related'), 'none');
    // One of two distinctive words, of 5+ characters, taken whole as the mark: the part that
    // stands for the brand (MOUNTAIN DEW LIVEWIRE / LIVEWIRE), strong text too.
    const part = compareMarks('KRIMPEL ZORBLAX', 'ZORBLAX') as TextReason[];
    assert.deepEqual(
      part.map((r) => r.kind),
      ['contained_in_brand'],
    );
    assert.equal(acrossGate(watch('KRIMPEL ZORBLAX', [43]), part, 'related'), 'none');
    // A shorter part is often another word: weaker text.
    const short = compareMarks('KRIMPEL ZORB', 'ZORB') as TextReason[];
    assert.deepEqual(
      short.map((r) => r.kind),
      ['contained_in_brand'],
    );
    assert.equal(acrossGate(watch('KRIMPEL ZORB', [43]), short, 'related'), 'across');
    // Not the brand first: weaker text, from the across threshold.
    assert.equal(gate('PILS ZORBLAXS'), 'across');
    assert.equal(gate('SKYZORBLAX'), 'across');
    // A brand of common words joined with another word is often another word: weaker text.
    const common = compareMarks('GOLDEN', 'GOLDENSKY') as TextReason[];
    assert.ok(common.length > 0);
    assert.equal(acrossGate(watch('GOLDEN', [32]), common, 'related'), 'across');
    const d = decideConflictPrepared(
      p,
      record('ZORBLAXSKY', [33], [{ niceClass: 33, text: 'wine' }]),
    );
    assert.equal(d.conflict, d.score >= MODEL.thresholds.alert);
    assert.ok(
      assessSeverity(p, d.reasons, { markText: 'ZORBLAXSKY', classes: [33] }).severity !== 'high',
    );
  });

  it('is at most medium, the same text too, and the rationale names the goods', () => {
    const p = watch('GASPARILLA', [32]);
    const near = record('GASPARILLO', [33], [{ niceClass: 33, text: 'Tequila' }]);
    const nearDecision = decideConflictPrepared(p, near);
    assert.equal(nearDecision.conflict, true);
    assert.equal(
      assessSeverity(p, nearDecision.reasons, { markText: 'GASPARILLO', classes: [33] }).severity,
      'medium',
    );
    assert.equal(
      assessSeverity(p, decideConflictPrepared(p, record('GASPARILLO', [32])).reasons, {
        markText: 'GASPARILLO',
        classes: [32],
      }).severity,
      'high',
    );
    // The same text in a related class scores high, but the goods only relate: tribunals have
    // found such pairs not confusing as often as confusing, so it is held at medium.
    const same = decideConflictPrepared(p, record('GASPARILLA', [33]));
    assert.equal(levelOf(same.score), 'high', 'the test needs a score the cap holds');
    const sameLevel = assessSeverity(p, same.reasons, { markText: 'GASPARILLA', classes: [33] });
    assert.equal(sameLevel.severity, 'medium');
    assert.match(sameLevel.why, /in a related class rather than the same one, .*at most medium/);
    const own = decideConflictPrepared(p, record('GASPARILLA', [32]));
    assert.ok(same.score < own.score);
    const ownLevel = assessSeverity(p, own.reasons, { markText: 'GASPARILLA', classes: [32] });
    assert.equal(ownLevel.severity, 'high');
    const a = assessAlert(p, assessedRecord('GASPARILLO', [33]), nearDecision);
    assert.match(a.rationalePlain, /beer \(class 32, watched\) and wine and spirits \(class 33/);
    assert.match(a.rationalePlain, /the record's goods name tequila/);
    assert.match(a.rationalePlain, /alcoholic beverages sold through the same channels/);
    assert.match(a.rationalePlain, /In re Chatam International/);
  });

  it('is retrieved by the candidate rule, whose classes widen to the related ones', () => {
    const index = buildCandidateIndex([
      indexRow(1, 'GASPARILLO', [33]),
      indexRow(2, 'GASPARILLO', [13]),
      indexRow(3, 'GASPARILLO', [32]),
    ]);
    assert.deepEqual(matchCandidateIndex(index, watch('GASPARILLA', [32])).sort(), [1, 3]);
    assert.deepEqual(matchCandidateIndex(index, watch('GASPARILLA', [32], false)), [3]);
  });

  it('is found in the class that held its goods before 2002 when its goods text names them', () => {
    const p = watch('GASPARILLA', [33]);
    const in42 = (text: string) =>
      decideConflictPrepared(p, record('GASPARILLO', [42], [{ niceClass: 42, text }]));
    const restaurant = in42('Restaurant and bar services');
    assert.equal(restaurant.conflict, true);
    assert.ok(restaurant.reasons.some((r) => r.kind === 'related_goods'));
    assert.equal(in42('Computer programming').conflict, false);
    const index = buildCandidateIndex([indexRow(1, 'GASPARILLO', [42])]);
    assert.deepEqual(matchCandidateIndex(index, p), [1]);
  });

  it('are searched by the keys of the rules the decision raises there only', () => {
    const p = watch('PELIKAN', [32]);
    const inOwn = (mark: string) => retrieves(p, new Set(watchTokens(p)), matchKeys(mark));
    const inRelated = (mark: string) =>
      retrievesInRelatedClass(p, new Set(relatedClassTokens(p)), matchKeys(mark));
    // KANPELI is PELIKAN's parts swapped: only that rule's sound codes retrieve it, and a related
    // class does not raise it.
    assert.ok(inOwn('KANPELI'));
    assert.ok(!inRelated('KANPELI'));
    assert.equal(decideConflictPrepared(p, record('KANPELI', [32])).conflict, true);
    assert.equal(decideConflictPrepared(p, record('KANPELI', [33])).conflict, false);
    // One edit, the brand inside a longer mark, and a sound-alike are raised there and retrieved.
    for (const mark of ['PELIKANO', 'PELIKAN BEER']) {
      assert.ok(inRelated(mark), mark);
      assert.equal(decideConflictPrepared(p, record(mark, [33])).conflict, true, mark);
    }
    const q = watch('QUILLSTONE', [32]);
    assert.ok(retrievesInRelatedClass(q, new Set(relatedClassTokens(q)), matchKeys('KWILSTOWN')));
    assert.equal(decideConflictPrepared(q, record('KWILSTOWN', [33])).conflict, true);

    const index = buildCandidateIndex([
      indexRow(1, 'KANPELI', [33]),
      indexRow(2, 'KANPELI', [32]),
      indexRow(3, 'KANPELI', []),
      indexRow(4, 'PELIKANO', [33]),
      indexRow(5, 'PELIKAN BEER', [34]),
      indexRow(6, 'KANPELI', [32, 33]),
    ]);
    assert.deepEqual(matchCandidateIndex(index, p).sort(), [2, 3, 4, 5, 6]);
    assert.deepEqual(matchCandidateIndex(index, watch('PELIKAN', [32], false)).sort(), [2, 3, 6]);
  });
});

describe('words that name the goods', () => {
  it('are the terms of the watch classes and of the classes related to them', () => {
    const beer = goodsWordsOf([32]);
    // Its own goods (BREW) and those of a related class (WINE, 33); not clothing's (25).
    for (const w of ['BREW', 'ALE', 'WINE', 'RESTAURANT']) assert.ok(beer.has(w), w);
    assert.ok(!beer.has('SHIRT'));
    // A class the table relates to nothing has no words.
    assert.equal(goodsWordsOf([13]).size, 0);
    // Plurals and, for a term of 4+ letters, the trade or the place that makes the goods.
    for (const w of ['WINES', 'WINERY', 'BREWING', 'BREWERY', 'BREWERIES', 'ALES']) {
      assert.ok(namesGoods(w, beer), w);
    }
    // Not another word that begins with a term: WINS is no wine, CARING no car.
    assert.ok(!namesGoods('WINS', beer));
    assert.ok(!namesGoods('CARING', goodsWordsOf([3])));
    assert.ok(namesGoods('CARS', goodsWordsOf([3])));
    assert.ok(namesGoods('BAKERIES', goodsWordsOf([30])));
  });

  it('are left out of both marks, so the same name for related goods crosses at the alert threshold', () => {
    const p = watch('KESTREL COAST BREWING', [32]);
    const wine = (mark: string) => record(mark, [33], [{ niceClass: 33, text: 'wine' }]);
    // The shape of NORTH COAST BREWING / NORTHCOAST WINE CO., a decided conflict: the name written
    // as one word, the goods and the company form left out.
    const text = compareText(p, analyzeMark('KESTRELCOAST WINE CO.'));
    const found = text.find((r) => r.kind === 'without_goods');
    assert.ok(found !== undefined && found.kind === 'without_goods');
    assert.deepEqual(found.brandDropped, ['BREWING']);
    assert.deepEqual(found.markDropped, ['WINE', 'CO']);
    assert.deepEqual(found.markRest, ['KESTRELCOAST']);
    assert.equal(acrossGate(p, text, 'related'), 'none');
    const d = decideConflictPrepared(p, wine('KESTRELCOAST WINE CO.'));
    assert.equal(d.conflict, d.score >= MODEL.thresholds.alert);
    assert.ok(d.score >= MODEL.thresholds.alert, `${d.score}`);
    // The same words, another goods word.
    assert.ok(
      compareText(p, analyzeMark('KESTREL COAST WINES')).some((r) => r.kind === 'without_goods'),
    );
    // Retrieved in the related class by the keys the rule sends there.
    const inRelated = (q: ReturnType<typeof watch>, mark: string) =>
      retrievesInRelatedClass(q, new Set(relatedClassTokens(q)), matchKeys(mark));
    assert.ok(inRelated(p, 'KESTRELCOAST WINE CO.'));
    assert.ok(inRelated(p, 'KESTREL COAST WINERY'));
    // The rule's own keys: the rarest word of the rest, and two words joined as one.
    const own = { tokens: new Set<string>(), nearWords: [], phonetic: [] };
    withoutGoods.keys?.(watch('BLUE KOI BREWING', [32]), own);
    assert.deepEqual([...own.tokens].sort(), ['BLUEKOI', 'KOI']);
    assert.ok(inRelated(watch('BLUE KOI BREWING', [32]), 'BLUEKOI WINE'));
    const fusedBrand = watch('KESTRELCOAST BREWING', [32]);
    assert.ok(inRelated(fusedBrand, 'KESTREL COAST WINE'));
    assert.ok(
      decideConflictPrepared(fusedBrand, wine('KESTREL COAST WINE')).reasons.some(
        (r) => r.kind === 'without_goods',
      ),
    );
  });

  it('leave the rest to be the same, distinctive and named by no goods word', () => {
    const reason = (p: ReturnType<typeof watch>, mark: string) =>
      decideConflictPrepared(p, record(mark, [33])).reasons.some((r) => r.kind === 'without_goods');
    const p = watch('KESTREL COAST BREWING', [32]);
    // Another name: no finding.
    assert.equal(false, reason(p, 'KESTREL BAY WINE'));
    // Only common words remain: GOLDEN is no name of its own.
    assert.equal(false, reason(watch('GOLDEN BREWING', [32]), 'GOLDEN WINE'));
    // A class without goods words (13): BREWING names nothing the watch sells.
    assert.equal(false, reason(watch('KESTREL COAST BREWING', [13]), 'KESTREL COAST WINE'));
    // Nothing left out on either side: other rules' findings.
    assert.equal(
      withoutGoods.detect(watch('KESTREL COAST', [32]), analyzeMark('KESTREL COAST'), []),
      null,
    );
    // The words of the rest stand apart, in the mark or in the brand: not the name with its goods.
    assert.equal(false, reason(watch('KESTRELCOAST BREWING', [32]), 'KESTREL WINE COAST'));
    assert.equal(false, reason(p, 'KESTREL WINE COAST'));
    assert.equal(false, reason(watch('KESTREL BREWING COAST', [32]), 'KESTREL COAST WINE'));
  });

  it('name the goods with related classes off too, in the watch class only', () => {
    const own = watch('KESTREL COAST BREWING', [32], false);
    // WINE still describes a class 32 mark: the same name, found in the watch's own class.
    const same = decideConflictPrepared(own, record('KESTRELCOAST WINE CO.', [32]));
    assert.equal(
      same.reasons.some((r) => r.kind === 'without_goods'),
      true,
    );
    // The related class itself is not searched.
    const wine = record('KESTRELCOAST WINE CO.', [33], [{ niceClass: 33, text: 'wine' }]);
    assert.equal(decideConflictPrepared(own, wine).conflict, false);
  });
});
