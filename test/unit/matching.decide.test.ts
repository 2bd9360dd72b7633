import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compareMarks,
  decideConflict,
  decideConflictPrepared,
  prepareWatch,
  type ReasonKind,
  type RecordInput,
  searchKeys,
  type WatchInput,
} from '../../src/matching/decide.ts';
import { matchKeys } from '../../src/matching/normalize.ts';

const watch = (name: string): WatchInput => ({ name, niceClasses: [25], designations: ['DE'] });
const euRecord = (markText: string): RecordInput => ({
  markText,
  classes: [25],
  jurisdiction: 'EM',
});

/** [watched brand, register mark, reason kind that must be among the reasons]. */
type Row = [brand: string, mark: string, reason: ReasonKind];

const MUST_MATCH: Row[] = [
  ['NIKE', 'NIKE', 'exact'],
  ['Coca-Cola', 'Coca-Cola', 'exact'],
  ['ADIDAS', '  ADIDAS ', 'exact'],
  ['Häagen-Dazs', 'Häagen-Dazs', 'exact'],
  ["L'ORÉAL", "L'ORÉAL", 'exact'],

  ['NIKE', 'nike', 'normalized'],
  ['COCA COLA', 'Coca-Cola', 'normalized'],
  ['DOLCE & GABBANA', 'Dolce and Gabbana', 'normalized'],
  ['HÄAGEN-DAZS', 'Haagen Dazs', 'normalized'],
  ["L'ORÉAL", 'LOREAL', 'normalized'],
  ['YAHOO!', 'Yahoo', 'normalized'],
  ["McDONALD'S", 'MCDONALDS', 'normalized'],

  ['NIKE', 'N1KE', 'confusable'],
  ['ADIDAS', 'AD1DA5', 'confusable'],
  ['CASH', 'CA$H', 'confusable'],
  ['INSTAGRAM', 'lnstagram', 'confusable'],
  ['GOOGLE', 'G00GLE', 'confusable'],
  ['APPLE', '@PPLE', 'confusable'],
  ['ROLEX', 'R0L3X', 'confusable'],
  ['WORLDPAY', 'VVORLDPAY', 'confusable'],
  ['PEPSI', 'РЕРSІ', 'confusable'], // Cyrillic Р, Е and І

  ['NIKE', 'NIKO', 'edit_distance'],
  ['ADIDAS', 'ADIDDAS', 'edit_distance'],
  ['SAMSUNG', 'SAMSNUG', 'edit_distance'],
  ['ZALANDO', 'ZALANDU', 'edit_distance'],
  ['MICROSOFT', 'MIKROSOFTE', 'edit_distance'],
  ['SOLAMANTE', 'SOLAMENTI', 'edit_distance'],
  ['QUILLSTONE', 'QUILSTONES', 'edit_distance'],
  ['PS WIND MANAGEMENT', 'PS WIND MAGNEMENT', 'edit_distance'],

  ['PHILIPS', 'FILIPS', 'phonetic'],
  ['COCA COLA', 'KOKA KOLA', 'phonetic'],
  ['QUICK', 'KWIK', 'phonetic'],
  ['XEROX', 'ZEROX', 'phonetic'],
  ['MICROSOFT', 'MYKROSOFT', 'phonetic'],
  ['PHANTOM', 'FANTOM', 'phonetic'],
  ['KLEENEX', 'CLEENEX', 'phonetic'],
  ['CLIPFRESH', 'KLYPPHRESH', 'phonetic'],

  ['NIKE', 'NIKE RUNNING CLUB', 'contains_brand'],
  ['THE NORTH FACE', 'NORTH FACE OUTLET', 'contains_brand'],
  ['COCA COLA', 'COCACOLA ZERO', 'contains_brand'],
  ['LG', 'LG ELECTRONICS', 'contains_brand'],
  ['RM', 'MB RM', 'contains_brand'],
  ['COCACOLA', 'COCA COLA ZERO', 'contains_brand'],
  ['ZARA', 'ZARA HOME', 'contains_brand'],
  ['BRIGHTLOOM', 'HOTEL BRIGHTLOOM', 'contains_brand'],
  ['BMW', 'BMW MOTORRAD', 'contains_brand'],
  ['NIKE INC', 'NIKE AIR MAX', 'contains_brand'],

  ['THE NORTH FACE', 'NORTH', 'contained_in_brand'],
  ['NORTHWIND ROAST', 'NORTHWIND', 'contained_in_brand'],
  ['LAURENT PERRIER', 'Perrier', 'contained_in_brand'],
  ['BANG & OLUFSEN', 'OLUFSEN', 'contained_in_brand'],
  ['ROYAL CANIN', 'CANIN', 'contained_in_brand'],
  ['SWAROVSKI CRYSTAL', 'SWAROVSKI', 'contained_in_brand'],

  ['NIKE', 'NIKES', 'affix'],
  ['SPOT', 'SPOTIFY', 'affix'],
  ['ZARA', 'MYZARA', 'affix'],
  ['QUILLSTONE', 'QUILLSTONE GROUP', 'affix'],
  ['BERRY', 'BERRIES', 'affix'],
  ['ACE', 'ACES', 'affix'],
  ['TESLA', 'GET TESLA', 'affix'],
  ['BRIGHTLOOM', 'BRIGHTLOOMHUB', 'affix'],
  ['NIKES', 'NIKE', 'affix'],
  ['THE NORTH FACE', 'NORTH FACE', 'affix'],

  ['ABC', 'ABD', 'letter_changed'],
  ['IBM', 'IBN', 'letter_changed'],
];

/** [watched brand, register mark]: the text alone must not be a conflict. */
const MUST_NOT_MATCH: [string, string, string][] = [
  ['APPLE', 'APPLIED MATERIALS', 'a few shared letters'],
  ['NIKE', 'NIKON', 'two edits on four letters'],
  ['NIKE', 'NECK', 'same Double Metaphone code (NK), different spelling'],
  ['NIKE', 'NICK', 'same Double Metaphone code (NK), different spelling'],
  ['THE NORTH FACE', 'THE BODY SHOP', 'shares only THE'],
  ['GOLDEN GROUP', 'SILVER GROUP', 'shares only GROUP'],
  ['ACME INTERNATIONAL', 'GLOBEX INTERNATIONAL', 'shares only INTERNATIONAL'],
  ['INTERNATIONAL X', 'INTERNATIONAL Y', 'one edit, but only the common word is shared'],
  ['BW BANK', 'SW BANK', 'short distinctive part changed'],
  ['HTCOLLECTION', 'AICOLLECTION', 'short distinctive part of a compound changed'],
  ['BRAND OF THE YEAR', 'THE BRAND', 'only common words shared'],
  ['GREEN ENERGY PARTNERS', 'GREEN', 'mark is a common word'],
  ['MYSPACE', 'SPACE', 'brand minus an affix is a common word'],
  ['EBAY', 'BAY', 'brand minus an affix is three letters'],
  ['ACE', 'ACER', 'three-letter brand takes only a plural'],
  ['ABC', 'XBD', 'three letters: two of them changed'],
  ['SUN', 'SUP', 'three letters that are words, not initials'],
  ['HP', 'HQ', 'two letters'],
  ['LG', 'PAINT BY LG STUDIO', 'a two-letter brand inside a phrase of four words or more'],
  ['MYCAN', 'MIKON', 'vowel shift in a short mark'],
  ['ST TROPEZ', 'STRIPEZ', 'vowel shift in a short mark'],
  ['LMAX', 'IMAP', 'look-alike L/I never adds to an edit'],
  ['BLACKSTONE', 'WHITE STONE', 'shares a word only'],
  ['AMAZON', 'AMAZONIA RAINFOREST TOURS', 'brand is not a whole word of the mark'],
];

describe('decideConflict: must-match pairs', () => {
  for (const [brand, mark, reason] of MUST_MATCH) {
    it(`${brand} ~ ${mark} (${reason})`, () => {
      const d = decideConflict(watch(brand), euRecord(mark));
      assert.equal(d.conflict, true, JSON.stringify(d.reasons));
      const kinds = d.reasons.map((r) => r.kind);
      assert.ok(kinds.includes(reason), `expected ${reason}, got ${kinds.join(', ')}`);
      assert.ok(kinds.includes('class_overlap'));
      assert.ok(kinds.includes('territory'));
      assert.ok(d.score > 0 && d.score <= 1);
    });
  }
  it('has at least five examples of every text rule', () => {
    const kinds: ReasonKind[] = [
      'exact',
      'normalized',
      'confusable',
      'edit_distance',
      'phonetic',
      'contains_brand',
      'contained_in_brand',
      'affix',
    ];
    for (const k of kinds) assert.ok(MUST_MATCH.filter((r) => r[2] === k).length >= 5, k);
  });
});

describe('decideConflict: must-not-match pairs', () => {
  for (const [brand, mark, why] of MUST_NOT_MATCH) {
    it(`${brand} vs ${mark}: ${why}`, () => {
      const d = decideConflict(watch(brand), euRecord(mark));
      assert.equal(d.conflict, false, JSON.stringify(d.reasons));
      assert.equal(d.score, 0);
      // Class and territory hold: only the text decided.
      assert.deepEqual(
        d.reasons.map((r) => r.kind),
        ['class_overlap', 'territory'],
      );
    });
  }
  it('one edit on four letters is a conflict (SONY / SONYA)', () => {
    assert.equal(decideConflict(watch('SONY'), euRecord('SONYA')).conflict, true);
  });
});

describe('decideConflict: class and territory are required', () => {
  it('different classes: no conflict, the text reason is still reported', () => {
    // A near form (the brand itself is the same mark in any class: matching.any-class.test.ts).
    const d = decideConflict(watch('NIKE'), {
      markText: 'NIKES',
      classes: [9],
      jurisdiction: 'EM',
    });
    assert.equal(d.conflict, false);
    assert.equal(d.score, 0);
    assert.deepEqual(
      d.reasons.map((r) => r.kind),
      ['affix', 'edit_distance', 'territory'],
    );
  });
  it('a record without classes (none published): text and territory decide, no class reason', () => {
    const d = decideConflict(watch('NIKE'), { markText: 'NIKE', classes: [], jurisdiction: 'EM' });
    assert.equal(d.conflict, true);
    assert.deepEqual(
      d.reasons.map((r) => r.kind),
      ['exact', 'territory'],
    );
    const outside = decideConflict(watch('NIKE'), {
      markText: 'NIKE',
      classes: [],
      jurisdiction: 'US',
    });
    assert.equal(outside.conflict, false, 'the territory still has to be covered');
  });
  it('a national record outside the watched countries: no conflict', () => {
    const d = decideConflict(watch('NIKE'), {
      markText: 'NIKE',
      classes: [25],
      jurisdiction: 'US',
    });
    assert.equal(d.conflict, false);
    assert.deepEqual(
      d.reasons.map((r) => r.kind),
      ['exact', 'class_overlap'],
    );
  });
  it('an international registration designating only CN: no conflict for DE', () => {
    const d = decideConflict(watch('NIKE'), {
      markText: 'NIKE',
      classes: [25],
      jurisdiction: 'WO',
      designations: ['CN'],
    });
    assert.equal(d.conflict, false);
  });
  it('an international registration designating EM covers DE', () => {
    const d = decideConflict(watch('NIKE'), {
      markText: 'NIKES',
      classes: [25, 35],
      jurisdiction: 'WO',
      designations: ['CN', 'EM'],
    });
    assert.equal(d.conflict, true);
    const facts = d.reasons.filter((r) => r.kind === 'class_overlap' || r.kind === 'territory');
    assert.deepEqual(facts, [
      { kind: 'class_overlap', detail: 'Shared Nice class: 25.', classes: [25] },
      { kind: 'territory', detail: 'The WO record covers DE.', designations: ['DE'] },
    ]);
  });
  it('a watch on CH is not covered by an EM record', () => {
    const d = decideConflict(
      { name: 'NIKE', niceClasses: [25], designations: ['CH'] },
      euRecord('NIKE'),
    );
    assert.equal(d.conflict, false);
  });
});

describe('decideConflict: reasons', () => {
  it('reports only the strongest identity reason', () => {
    assert.deepEqual(
      compareMarks('NIKE', 'Nike').map((r) => r.kind),
      ['normalized'],
    );
  });
  it('reports every similarity rule that holds, with a readable detail', () => {
    const reasons = compareMarks('NIKE', 'NIKES');
    assert.deepEqual(
      reasons.map((r) => r.kind),
      ['affix', 'edit_distance'],
    );
    assert.deepEqual(reasons[0], {
      kind: 'affix',
      detail: 'The mark is the brand with suffix S.',
      side: 'mark',
      prefix: '',
      suffix: 'S',
    });
    for (const r of reasons) assert.ok(r.detail.length > 10);
  });
  it('names the matched words of contains_brand', () => {
    const [r] = compareMarks('COCA COLA', 'Zero Coca-Cola Light');
    assert.deepEqual(r, {
      kind: 'contains_brand',
      detail: 'The mark contains the brand "COCA COLA" as whole word(s): "COCA COLA".',
      words: ['COCA', 'COLA'],
      at: 1,
      of: 4,
    });
  });
  it('an empty or symbol-only mark never matches', () => {
    assert.deepEqual(compareMarks('NIKE', ''), []);
    assert.deepEqual(compareMarks('NIKE', '***'), []);
  });
});

describe('prepareWatch / decideConflictPrepared', () => {
  it('gives the same decisions as decideConflict', () => {
    for (const [brand, mark] of MUST_MATCH) {
      const p = prepareWatch(watch(brand));
      assert.deepEqual(
        decideConflictPrepared(p, euRecord(mark)),
        decideConflict(watch(brand), euRecord(mark)),
      );
    }
  });
});

describe('candidate keys', () => {
  // The SQL candidate query (docs/matching.md) retrieves a record when its compact text equals the
  // watch's, or tokens overlap, or phonetic codes overlap, or (long brands) pg_trgm similarity
  // reaches the threshold. Every accepted pair must be retrieved.
  it('retrieve every must-match pair', () => {
    for (const [brand, mark] of MUST_MATCH) {
      const s = searchKeys(brand);
      const k = matchKeys(mark);
      const byTokens = k.tokens.some((t) => s.tokens.includes(t) || s.nearWords.includes(t));
      const byPhonetic = k.soundCodes.some((c) => s.phonetic.includes(c));
      const byCompact = k.compact === s.compact;
      assert.ok(
        byTokens || byPhonetic || byCompact || s.useTrigram,
        `${brand} / ${mark} is not retrieved by equality or array keys`,
      );
    }
  });
  it('send every text one edit away for a brand that sends no anchors', () => {
    const { nearWords, tokens } = searchKeys('NIKE');
    for (const text of ['INKE', 'NIEK', 'MIKE', 'NIKO', 'NIKES', 'SNIKE'])
      assert.ok(nearWords.includes(text), text);
    // No one-edit rule compares a text of under 4 characters: IKE, NIK, NKE are not sent.
    for (const text of ['NIKE', 'IKE', 'NIK', 'NKE', 'KE'])
      assert.ok(!nearWords.includes(text), `${text}: itself, or too short`);
    assert.equal(new Set(nearWords).size, nearWords.length, 'deduplicated');
    assert.deepEqual(
      tokens.filter((t) => t.startsWith('~')).sort(),
      ['~IKE', '~NIE', '~NIK', '~NIKE', '~NKE'],
      'the neighbourhood, for records that are not Latin capitals only',
    );
    assert.equal(searchKeys('NIKE').useTrigram, false);
  });
  it('leave out the texts one edit away that the anchors sent retrieve', () => {
    const { nearWords, tokens } = searchKeys('SOLAMANTE');
    assert.ok(
      tokens.includes('<SOLAMANT') && tokens.includes('>OLAMANTE'),
      'the 8-character anchors',
    );
    // Kept the first 8 (or last 8) characters and longer than 8: a record's run stores that anchor.
    for (const text of ['SOLAMANTEX', 'SOLAMANTX', 'XOLAMANTE', 'XSOLAMANTE'])
      assert.ok(!nearWords.includes(text), text);
    // Changed in the middle, or 8 long (no anchor stored): sent.
    for (const text of ['SOLXMANTE', 'SOLAMNTE', 'SOLAMANT', 'OLAMANTE'])
      assert.ok(nearWords.includes(text), text);
  });
  it('use pg_trgm for brands of 8 characters or more, with a length-dependent threshold', () => {
    assert.deepEqual(
      [searchKeys('SOLAMANTE'), searchKeys('QUILLSTONES'), searchKeys('BRIGHTLOOM TEXTILES')].map(
        (s) => [s.useTrigram, s.trigramThreshold],
      ),
      [
        [true, 0.12],
        [true, 0.16],
        [true, 0.2],
      ],
    );
  });
});

describe('the shapes inside longer marks: fused, near form inside, words reordered', () => {
  const kinds = (brand: string, mark: string) => compareMarks(brand, mark).map((r) => r.kind);
  it('fused: the brand written together with another word, before or after it', () => {
    for (const [brand, mark] of [
      ['zeroflush', 'ZEROFLUSHNET'],
      ['zeroflush', 'NETZEROFLUSH'],
      ['Luma Netlock', 'LUMANETLOCKNET'],
      ['Pelikan', 'PELIKANSOFT PRO'],
    ] as const) {
      assert.ok(kinds(brand, mark).includes('fused'), `${brand} / ${mark}`);
    }
    const [r] = compareMarks('zeroflush', 'ZEROFLUSHNET SYSTEMS');
    assert.deepEqual(r && r.kind === 'fused' && [r.word, r.rest, r.side, r.at, r.of], [
      'ZEROFLUSHNET',
      'NET',
      'start',
      0,
      2,
    ]);
  });
  it('fused stays quiet on endings that make another word, on short and on common-word brands', () => {
    for (const [brand, mark] of [
      ['Hydra', 'HYDRATION'], // an ending, not a second word
      ['Prima', 'PRIMARY SCHOOL'],
      ['Nike', 'NIKENET'], // 4 letters: below the rule
      ['Green', 'GREENHOUSE'], // a common word
    ] as const) {
      assert.ok(!kinds(brand, mark).includes('fused'), `${brand} / ${mark}`);
    }
  });
  it('near_inside: one edit, a plural or a sound-alike of the brand as a word of a longer mark', () => {
    for (const [brand, mark] of [
      ['Starbuck', 'STARBUCKS COFFEE'],
      ['Nike', 'NIKEE RUNNING'],
      ['Pelikan', 'PELIKANO HOGAR'],
      ['Philips', 'FILIPS LIGHTING'],
      ['Berry', 'BERRIES AND CREAM'],
      ['Luma Netlock', 'LUMA NETLOK SYSTEMS'],
    ] as const) {
      assert.ok(kinds(brand, mark).includes('near_inside'), `${brand} / ${mark}`);
    }
  });
  it('near_inside stays quiet on common words, dropped brand words and short brands edited inside', () => {
    for (const [brand, mark] of [
      ['Kshop', 'SWEATER SHOP'], // the near form is a common word
      ['F Jeans', 'PEPE JEANS'], // the brand without its word F
      ['Vinn', 'VINO DE EYZAGUIRRE'], // 4 letters: only brand + a letter
      ['Desait', 'DE SANT ISIDRE'], // one-word brand: not across two words
      ['Ocean 47', 'OCEAN TREASURE'], // the digits count
    ] as const) {
      assert.ok(!kinds(brand, mark).includes('near_inside'), `${brand} / ${mark}`);
    }
  });
  it('reordered: all the words of a multi-word brand, in another order or with words between', () => {
    assert.deepEqual(kinds('North Face', 'NORTH BLUE FACE'), ['reordered']);
    assert.deepEqual(kinds('The North Face', 'FACE THE NORTH'), ['reordered']);
    const [r] = compareMarks('North Face', 'FACE NORTH');
    assert.equal(r?.kind === 'reordered' && r.inOrder, false);
    assert.deepEqual(kinds('Green Energy', 'ENERGY GREEN'), [], 'common words only');
    assert.ok(
      !kinds('North Face', 'NORTH FACE OUTLET').includes('reordered'),
      'that is contains_brand',
    );
  });
});
