import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../bench/lib/random.ts';
import { retrieves, watchTokens } from '../../src/matching/candidates.ts';
import { decideConflict, prepareWatch } from '../../src/matching/decide.ts';
import {
  analyzeMark,
  foldConfusables,
  matchKeys,
  normalizeMarkText,
  oneEditRecordKeys,
  oneEditSearchKeys,
  oneEditVariants,
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
    assert.ok(k.soundCodes.includes('KKKLSR'), 'whole mark');
    // The near-form rule hears a word or two adjacent words of a longer mark: their spelling
    // skeletons are tokens; the sound codes are the whole mark's only.
    for (const s of ['%KOKA', '%KOLA', '%SERO', '%KOKAKOLA', '%KOLASERO'])
      assert.ok(k.tokens.includes(s), s);
    assert.equal(k.soundCodes.includes('KK'), false, 'no sound code of a word');
    assert.deepEqual(matchKeys('Coca').soundCodes, ['KK'], 'a one-word mark: its whole-mark codes');
    // Anchors of the runs: the first and last 5 (and 8) characters of words, two words, the mark.
    for (const a of ['<COCAC', '>ACOLA', '<COLAZ', '>AZERO', '<COCACOLA', '>COLAZERO'])
      assert.ok(k.tokens.includes(a), a);
    assert.ok(
      !k.tokens.some((t) => t === '<COCA' || t === '>ZERO'),
      'no anchor of a 4-letter word',
    );
    assert.equal(new Set(k.tokens).size, k.tokens.length, 'deduplicated');
    assert.equal(new Set(k.soundCodes).size, k.soundCodes.length, 'deduplicated');
  });
  it('stores the anchors of two words or a whole mark wherever they can be a near form', () => {
    // The watch leaves out of its one-edit texts those that keep its first or last 5 (8)
    // characters; runs that are not a word store anchors only up to the longest near form. Brands of
    // 5 to 24 characters, near forms up to two characters longer, as two words of a longer mark
    // (near_inside) and as a whole mark of three words (edit_distance); every accepted pair must be
    // retrieved. The marks split the form elsewhere than the brand, so that no word of theirs is a
    // word of the brand (shared_word would retrieve it) or stores the brand's anchor.
    const letters = 'QUVZOKXAJEWIHYGB';
    const at = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => letters[(from + i * 3) % letters.length]).join('');
    let accepted = 0;
    for (let n = 5; n <= 24; n++) {
      const brand = `${at(2, n)} ${at(n - 2, n + 5)}`;
      const compact = brand.replace(' ', '');
      const w = prepareWatch({ name: brand, niceClasses: [25], designations: ['DE'] });
      const tokenSet = new Set(watchTokens(w));
      const forms = [`${compact}ES`, `${compact}X`, `${compact.slice(0, -1)}X`];
      if (compact.endsWith('Y')) forms.push(`${compact.slice(0, -1)}IES`);
      for (const form of forms) {
        const marks = [
          `WQ ${form.slice(0, 3)} ${form.slice(3)}`,
          `${form.slice(0, 3)} ${form.slice(3)} WQ`,
          `${form.slice(0, 1)} ${form.slice(1, 3)} ${form.slice(3)}`,
        ];
        for (const mark of marks) {
          const d = decideConflict(
            { name: brand, niceClasses: [25], designations: ['DE'] },
            { markText: mark, classes: [25], jurisdiction: 'EM' },
          );
          if (!d.conflict) continue;
          accepted++;
          assert.ok(retrieves(w, tokenSet, matchKeys(mark)), `${brand} / ${mark}`);
        }
      }
    }
    assert.ok(accepted >= 60, `only ${accepted} accepted pairs`);
  });
  it('stores no spelling skeleton of a common word, which is never a near form', () => {
    const k = matchKeys('KESTREL SHOP');
    assert.ok(k.tokens.includes(`%${phoneticSkeleton('KESTREL')}`));
    assert.ok(k.tokens.includes(`%${phoneticSkeleton('KESTRELSHOP')}`), 'the two words together');
    assert.ok(!k.tokens.includes(`%${phoneticSkeleton('SHOP')}`));
  });
  it('stores the whole mark’s spelling skeleton, and a plural’s without its S', () => {
    assert.ok(matchKeys('NYKE').tokens.includes('%NIKE'));
    const plural = matchKeys('NYKES').tokens;
    assert.ok(plural.includes('%NIKES') && plural.includes('%NIKE'));
    assert.ok(
      matchKeys('PHILIPS LIGHTING').tokens.includes(`%${phoneticSkeleton('PHILIPSLIGHTING')}`),
    );
    assert.ok(
      !matchKeys('ACE').tokens.some((t) => t.startsWith('%')),
      'below the rule’s 4 letters',
    );
  });
  it('a brand of a short skeleton sends its skeleton instead of its sound codes; a long one its codes', () => {
    const nike = prepareWatch({ name: 'Nike', niceClasses: [25], designations: ['US'] });
    assert.ok(nike.search.tokens.includes('%NIKE'));
    assert.ok(!nike.search.phonetic.some((c) => nike.codes.includes(c)), 'no code of NIKE sent');
    const tokens = new Set(watchTokens(nike));
    assert.ok(retrieves(nike, tokens, matchKeys('NYKE')), 'NYKE: the skeleton of NIKE');
    assert.ok(retrieves(nike, tokens, matchKeys('NYKES')), 'NYKES: its plural');
    assert.ok(!retrieves(nike, tokens, matchKeys('NECK')), 'NECK: the code NK, another skeleton');
    const plural = decideConflict(
      { name: 'Nike', niceClasses: [25], designations: ['US'] },
      { markText: 'NYKES', classes: [25], jurisdiction: 'US' },
    );
    assert.ok(plural.conflict, 'the decision takes NYKES for NIKE');
    const long = prepareWatch({ name: 'Quillstones', niceClasses: [25], designations: ['US'] });
    assert.ok(long.skeleton.length >= 8);
    assert.ok(
      long.codes.every((c) => long.search.phonetic.includes(c)),
      'a long brand: its codes',
    );
  });
  it('stores sound codes only from the phonetic rule’s 4 letters, or 3 with an X said as two', () => {
    assert.deepEqual(matchKeys('ACE').soundCodes, []);
    assert.deepEqual(matchKeys('XAN').soundCodes, []); // an X that begins a word is one sound, S
    assert.ok(matchKeys('AXES').soundCodes.length > 0);
    assert.ok(matchKeys('NIX').soundCodes.length > 0); // said NIKS, as NICKS
  });
  it('adds affix stems', () => {
    const k = matchKeys('MY NIKES');
    for (const stem of ['NIKES', 'NIKE', 'MYNIKE']) assert.ok(k.tokens.includes(stem), stem);
    assert.ok(matchKeys('BERRIES').tokens.includes('BERRY'));
    assert.ok(matchKeys('SPOTIFY').tokens.includes('SPOT'));
  });
  it('adds no affix stems of single words: the affix rule compares whole marks', () => {
    assert.ok(!matchKeys('NIKES RUNNING').tokens.includes('NIKE'));
  });
  it('gives a Latin-capital text no one-edit token: its compact text is the key', () => {
    assert.deepEqual(
      matchKeys('NIKE').tokens.filter((t) => t.startsWith('~')),
      [],
    );
    assert.equal(matchKeys('IBM').tokens.filter((t) => t.startsWith('~')).length, 0);
    assert.equal(matchKeys('SOLAMANTES').tokens.filter((t) => t.startsWith('~')).length, 0);
  });
  it('gives any other text of 4 to 8 characters its one-deletion neighbourhood', () => {
    assert.deepEqual(
      matchKeys('NIKE 2')
        .tokens.filter((t) => t.startsWith('~'))
        .sort(),
      ['~IKE2', '~NIE2', '~NIK2', '~NIKE', '~NIKE2', '~NKE2'],
    );
  });
  it('keeps an empty mark empty', () => {
    assert.deepEqual(matchKeys('***'), { normalized: '', compact: '', tokens: [], soundCodes: [] });
  });
});

describe('one-edit keys', () => {
  // Every pair the one-edit rule can accept (shorter text 4 to 7 characters, Damerau-Levenshtein
  // distance 1) must share a key, whatever the characters: random texts over Latin letters, digits
  // and letters outside A-Z, each edited once at random (insert, delete, substitute, swap).
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ÑЖΩ中';
  let seed = 12_345;
  const rand = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const char = (latinOnly: boolean) =>
    alphabet.charAt(latinOnly ? rand(26) : rand(alphabet.length));
  const edit = (s: string, latinOnly: boolean): string => {
    const i = rand(s.length);
    switch (rand(4)) {
      case 0:
        return s.slice(0, i) + char(latinOnly) + s.slice(i);
      case 1:
        return s.slice(0, i) + s.slice(i + 1);
      case 2:
        return s.slice(0, i) + char(latinOnly) + s.slice(i + 1);
      default:
        return i + 1 < s.length
          ? s.slice(0, i) + s.charAt(i + 1) + s.charAt(i) + s.slice(i + 2)
          : s;
    }
  };
  it('meet for every pair one edit apart (20,000 random pairs)', () => {
    let checked = 0;
    for (let n = 0; n < 20_000; n++) {
      const latinOnly = rand(3) > 0;
      const length = 3 + rand(7);
      let a = '';
      for (let k = 0; k < length; k++) a += char(latinOnly && rand(10) > 0);
      const b = edit(a, latinOnly);
      if (damerauLevenshtein(a, b) !== 1) continue;
      const shorter = Math.min(a.length, b.length);
      if (shorter < 4 || shorter > 7) continue;
      checked++;
      for (const [brand, mark] of [
        [a, b],
        [b, a],
      ] as const) {
        // The query's two branches: shared `~` tokens, or the record's compact text among the
        // brand's variants.
        const record = new Set(oneEditRecordKeys(mark));
        assert.ok(
          oneEditSearchKeys(brand).some((k) => record.has(k)) ||
            oneEditVariants(brand).includes(mark),
          `${brand} / ${mark} share no one-edit key`,
        );
      }
    }
    assert.ok(checked > 10_000, `${checked} pairs checked`);
  });

  it('with an anchor size, are those of the whole set that change both anchors (or no longer than one)', () => {
    const rand = mulberry32(11);
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let compared = 0;
    for (let n = 0; n < 3000; n++) {
      const len = 4 + Math.floor(rand() * 21);
      // Few distinct letters, so that repeated letters make edits meet the anchors by chance.
      const alphabet = letters.slice(0, 2 + Math.floor(rand() * 24));
      let brand = '';
      for (let i = 0; i < len; i++) brand += alphabet[Math.floor(rand() * alphabet.length)];
      for (const size of [5, 8]) {
        const head = brand.slice(0, size);
        const tail = brand.slice(brand.length - size);
        const kept = (vs: string[]) =>
          new Set(vs.filter((v) => v.length <= size || !(v.startsWith(head) || v.endsWith(tail))));
        assert.deepEqual(
          kept(oneEditVariants(brand, size)),
          kept(oneEditVariants(brand)),
          `${brand} / ${size}`,
        );
        compared++;
      }
    }
    assert.equal(compared, 6000);
  });
  it('leave out texts shorter than any one-edit rule compares (BRIO sends no RIO, BIO, BRO, BRI)', () => {
    const variants = oneEditVariants('BRIO');
    assert.deepEqual(
      ['RIO', 'BIO', 'BRO', 'BRI'].filter((v) => variants.includes(v)),
      [],
    );
    assert.ok(variants.includes('BRIX') && variants.includes('BRIOS') && variants.includes('BIRO'));
    assert.ok(variants.every((v) => v.length >= 4));
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
  it('damerauLevenshtein leaves nothing of one computation to the next, early stops included', () => {
    // Each pair after another whose characters it shares: a position left from before would
    // count as a transposition.
    const pairs: [string, string, number][] = [
      ['CA', 'AC', 1],
      ['ÉCOLE', 'ECOLE', 1],
      ['KITTEN', 'SITTING', 3],
      ['日本語', '本日語', 1],
      ['MANAGEMENT', 'MAGNEMENT', 2],
      ['ECOLE', 'ÉCOLE', 1],
    ];
    for (const [a, b, d] of pairs) {
      // Before it, a computation over the same characters that stops early (above max 1).
      assert.ok(damerauLevenshtein([...b].reverse().join(''), `${a}XY`, 1) >= 2);
      assert.equal(damerauLevenshtein(a, b), d, `${a} / ${b}`);
    }
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
