import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  analyzeMark,
  foldConfusables,
  matchKeys,
  normalizeMarkText,
  tokens,
} from '../../src/matching/normalize.ts';
import {
  damerauLevenshtein,
  metaphoneCodes,
  phoneticSkeleton,
  trigramSimilarity,
  trigrams,
} from '../../src/matching/similarity.ts';

describe('normalizeMarkText', () => {
  const cases: [string, string][] = [
    ['Nike', 'NIKE'],
    ['  Coca-Cola  ', 'COCA COLA'],
    ['Häagen-Dazs', 'HAAGEN DAZS'],
    ["L'Oréal Paris", 'LOREAL PARIS'],
    ['Uncle Ben’s', 'UNCLE BENS'],
    ['DOLCE & GABBANA', 'DOLCE AND GABBANA'],
    ['ANCIENT + BRAVE', 'ANCIENT PLUS BRAVE'],
    ['Straße', 'STRASSE'],
    ['GRØNVANG', 'GRONVANG'],
    ['ÆON Œuvre', 'AEON OEUVRE'],
    ['Łódź', 'LODZ'],
    ['NIKE™', 'NIKE'],
    ['TK·development', 'TK DEVELOPMENT'],
    ['S.P.A.', 'S P A'],
    ['ＡＢＣ', 'ABC'], // full-width letters
    ['YAHOO!', 'YAHOO'],
    ['CA$H', 'CA$H'],
    ['$AVE', '$AVE'],
    ['$5 OFF', '5 OFF'],
    ['L!FE', 'L!FE'],
    ['WOW!!!', 'WOW'],
    ['@PPLE', '@PPLE'],
    ['T-Mobile @ Home', 'T MOBILE HOME'],
    ['ΚΑΤΙ', 'ΚΑΤΙ'],
    ['***', ''],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(normalizeMarkText(input), expected);
    });
  }
  it('separates words with single spaces', () => {
    assert.equal(normalizeMarkText('A\t\tB -- C\n D'), 'A B C D');
  });
});

describe('foldConfusables', () => {
  const cases: [string, string][] = [
    ['N1KE', 'NIKE'],
    ['G00GLE', 'GOOGIE'],
    ['CA$H', 'CASH'],
    ['5HELL', 'SHEII'],
    ['R0L3X', 'ROIEX'],
    ['4DIDAS', 'ADIDAS'],
    ['@PPLE', 'APPIE'],
    ['7 UP', '7 UP'],
    ['B2B', 'BZB'],
    ['8ALL', 'BAII'],
    ['VVORLD', 'WORID'],
    ['LNSTAGRAM', 'INSTAGRAM'],
    ['L!FE', 'IIFE'],
    ['A|B', 'AIB'],
    ['РЕРSІ', 'PEPSI'], // Cyrillic Р, Е, І
    ['ΚΑΤΙ', 'KATI'], // Greek
    ['7 ELEVEN', '7 EIEVEN'], // a number stays a number
    ['COMBI 740S', 'COMBI 740S'], // more digits than letters: a number
    ['SUN4', 'SUNA'],
  ];
  for (const [input, expected] of cases) {
    it(`${input} → ${expected}`, () => assert.equal(foldConfusables(input), expected));
  }
  it('upper-cases its input', () => assert.equal(foldConfusables('n1ke'), 'NIKE'));
});

describe('tokens', () => {
  it('returns the normalized words', () => {
    assert.deepEqual(tokens("The North-Face Kids' Club"), ['THE', 'NORTH', 'FACE', 'KIDS', 'CLUB']);
    assert.deepEqual(tokens('  '), []);
  });
});

describe('analyzeMark', () => {
  it('keeps the unfolded, folded and look-alike forms apart', () => {
    const a = analyzeMark('L0ve Club');
    assert.equal(a.normalized, 'L0VE CLUB');
    assert.equal(a.plainCompact, 'L0VECLUB');
    assert.equal(a.compact, 'LOVECLUB');
    assert.equal(a.lookalike, 'IOVECIUB');
    assert.equal(a.letters, 'LOVECLUB');
  });
});

describe('matchKeys', () => {
  it('has the four stored keys', () => {
    const k = matchKeys('Coca-Cola Zero');
    assert.equal(k.normalized, 'COCA COLA ZERO');
    assert.equal(k.compact, 'COCACOLAZERO');
    assert.ok(k.tokens.includes('COCACOLAZERO'), 'compact text');
    assert.ok(k.tokens.includes('COCACOIAZERO'), 'look-alike form');
    for (const w of ['COCA', 'COLA', 'ZERO']) assert.ok(k.tokens.includes(w), w);
    assert.ok(k.tokens.includes('COCACOLA'), 'two adjacent words joined');
    assert.ok(k.tokens.includes('COLAZERO'), 'two adjacent words joined');
    assert.ok(k.phonetic.includes('KKKLSR'), 'whole mark');
    assert.ok(k.phonetic.includes('KK'), 'per word');
    assert.equal(new Set(k.tokens).size, k.tokens.length, 'deduplicated');
    assert.equal(new Set(k.phonetic).size, k.phonetic.length, 'deduplicated');
  });
  it('adds affix stems', () => {
    const k = matchKeys('MY NIKES');
    for (const stem of ['NIKES', 'NIKE', 'MYNIKE']) assert.ok(k.tokens.includes(stem), stem);
    assert.ok(matchKeys('BERRIES').tokens.includes('BERRY'));
    assert.ok(matchKeys('SPOTIFY').tokens.includes('SPOT'));
  });
  it('adds the one-deletion neighbourhood for 4 to 8 characters only', () => {
    assert.deepEqual(
      matchKeys('NIKE')
        .tokens.filter((t) => t.startsWith('~'))
        .sort(),
      ['~IKE', '~NIE', '~NIK', '~NIKE', '~NKE'],
    );
    assert.equal(matchKeys('IBM').tokens.filter((t) => t.startsWith('~')).length, 0);
    assert.equal(matchKeys('SOLAMANTES').tokens.filter((t) => t.startsWith('~')).length, 0);
  });
  it('keeps an empty mark empty', () => {
    assert.deepEqual(matchKeys('***'), { normalized: '', compact: '', tokens: [], phonetic: [] });
  });
});

describe('similarity measures', () => {
  it('damerauLevenshtein counts transpositions and edits of transposed pairs', () => {
    assert.equal(damerauLevenshtein('NIKE', 'NIKE'), 0);
    assert.equal(damerauLevenshtein('NIKE', 'NKIE'), 1);
    assert.equal(damerauLevenshtein('NIKE', 'NIKON'), 2);
    assert.equal(damerauLevenshtein('KITTEN', 'SITTING'), 3);
    assert.equal(damerauLevenshtein('CA', 'ABC'), 2);
    assert.equal(damerauLevenshtein('MANAGEMENT', 'MAGNEMENT'), 2);
    assert.equal(damerauLevenshtein('', 'ABC'), 3);
    assert.equal(damerauLevenshtein('KITTEN', 'SITTING', 1), 2, 'stops early above max');
  });
  it('trigramSimilarity matches pg_trgm', () => {
    assert.deepEqual([...trigrams('word')].sort(), ['  w', ' wo', 'ord', 'rd ', 'wor']);
    assert.equal(trigramSimilarity('word', 'words').toFixed(6), '0.571429');
    assert.equal(trigramSimilarity('NIKE', 'nike'), 1);
    assert.equal(trigramSimilarity('', 'nike'), 0);
  });
  it('phoneticSkeleton folds respellings of one sound', () => {
    assert.equal(phoneticSkeleton('PHILIPS'), phoneticSkeleton('FILLIPS'));
    assert.equal(phoneticSkeleton('QUICK'), phoneticSkeleton('KWIK'));
    assert.equal(phoneticSkeleton('XEROX'), phoneticSkeleton('ZEROKS'));
    assert.notEqual(phoneticSkeleton('NIKE'), phoneticSkeleton('NICK'));
  });
  it('metaphoneCodes gives primary and secondary codes without duplicates', () => {
    assert.deepEqual(metaphoneCodes('NIKE'), ['NK']);
    assert.deepEqual(metaphoneCodes('SMITH'), ['SM0', 'XMT']);
    assert.deepEqual(metaphoneCodes(''), []);
  });
});
