import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AssessedRecord,
  assessAlert,
  CLASSES_NOT_PUBLISHED,
} from '../../src/domain/alerts/assessment.ts';
import { codeSpan } from '../../src/domain/alerts/rationale-text.ts';
import { renderMarkdown } from '../../src/markdown.ts';
import { compareMarks, decideConflictPrepared, prepareWatch } from '../../src/matching/decide.ts';
import { assessSeverity } from '../../src/matching/severity.ts';
import decidedCases from '../fixtures/decided-cases/cases.json' with { type: 'json' };

const watch = (name: string) =>
  prepareWatch({ name, niceClasses: [25, 30], designations: ['US', 'DE'] });

const record = (markText: string, over: Partial<AssessedRecord> = {}): AssessedRecord => ({
  externalId: 'US500000087310367',
  markText,
  ownerName: 'Rival Holdings LLC',
  ownerCountryCode: 'US',
  jurisdiction: 'US',
  designations: [],
  filedAt: '2017-02-01T00:00:00.000Z',
  status: 'published',
  classes: [25],
  publishedAt: '2017-11-28T00:00:00.000Z',
  ...over,
});

const context = (markText: string) => ({ markText, classes: [25] });
const severityOf = (brand: string, mark: string) =>
  assessSeverity(watch(brand), compareMarks(brand, mark), context(mark)).severity;

describe('severity: the order an examiner gives the evidence', () => {
  it('identical, re-spaced and look-alike text is high', () => {
    for (const [brand, mark] of [
      ['Nike', 'NIKE'],
      ['Coca-Cola', 'COCA COLA'],
      ['Nike', 'N1KE'],
      ['Pepsi', 'РЕРSІ'],
    ]) {
      assert.equal(severityOf(brand as string, mark as string), 'high', `${brand} / ${mark}`);
    }
  });
  // The levels are the model's (src/matching/model.ts), calibrated on decided outcomes rather than
  // set per rule: these tests hold what a calibration must keep, not one training's exact levels.
  it('a near or sound-alike form of a distinctive brand is medium or high', () => {
    for (const [brand, mark] of [
      ['Samsung', 'SAMSNUG'],
      ['Philips', 'FILIPS'],
      ['Quillstone', 'QILLSTONEE'],
    ] as const) {
      assert.notEqual(severityOf(brand, mark), 'low', `${brand} / ${mark}`);
    }
  });
  it('weak shapes are low or medium', () => {
    for (const [brand, mark] of [
      ['Hydra', 'HYDRAPLUS SOLUTIONS'],
      ['Zeroflushing', 'ZEROFLUSHINGNET'],
      ['Pelikan', 'HOGAR PELIKANO'],
      ['Pelikan', 'PELIKANO HOGAR'],
      ['Green Energy', 'GREEN ENERGY PARTNERS'],
    ] as const) {
      assert.notEqual(severityOf(brand, mark), 'high', `${brand} / ${mark}`);
    }
  });
  it('weak evidence that adds up is named as such', () => {
    const brand = 'Pelikan';
    const two = compareMarks(brand, 'HOGAR PELIKANO PELIKANNET');
    assert.deepEqual(two.map((r) => r.kind).sort(), ['fused', 'near_inside']);
    const both = assessSeverity(watch(brand), two, context('HOGAR PELIKANO PELIKANNET'));
    assert.match(both.why, /several kinds of likeness at once/);
  });
});

describe('rationale', () => {
  const assess = (brand: string, mark: string, over: Partial<AssessedRecord> = {}) => {
    const p = watch(brand);
    const r = record(mark, over);
    const decision = decideConflictPrepared(p, r);
    assert.ok(decision.conflict, `${brand} / ${mark} is a conflict`);
    return assessAlert(p, r, decision);
  };

  it('names each rule with its evidence, the classes, territory, record, opposition and link', () => {
    const a = assess('Starbuck', 'STARBUCKS COFFEE');
    assert.equal(a.severity, 'medium');
    assert.match(
      a.rationale,
      /^\*\*Severity: medium\.\*\* A near form of the distinctive brand opens the mark \(score 0\.\d\d of 1, medium; the score weighs most [a-z ,]+\)\./,
    );
    assert.match(
      a.rationale,
      /- The mark holds the brand in the plural: `STARBUCKS`, at the start of the mark\./,
    );
    assert.match(a.rationale, /Shared Nice class: 25 \(clothing, footwear, headwear\)/);
    assert.match(a.rationale, /The USPTO \(US\) record covers the watched designation US\./);
    assert.match(
      a.rationale,
      /`STARBUCKS COFFEE`, US serial 87310367, filed 2017-02-01, status published, owner `Rival Holdings LLC` \(US\)\./,
    );
    assert.match(
      a.rationale,
      /closes on 2017-12-28, extendable on request to 2018-05-27 \(published for opposition on 2017-11-28\)/,
    );
    assert.match(a.rationale, /\[USPTO TSDR\]\(https:\/\/tsdr\.uspto\.gov\/#caseNumber=87310367&/);
    assert.deepEqual(a.opposition?.closesAt, '2017-12-28');
    assert.doesNotMatch(a.rationalePlain, /\*\*|`/, 'the plain text has no Markdown');
  });

  it('an EU trade mark covers the member state watched: "EU trade mark, covers DE"', () => {
    const eutm = assess('Nike', 'NIKE', {
      jurisdiction: 'EM',
      externalId: 'EM500000018173421',
      publishedAt: '2020-02-06T00:00:00.000Z',
    });
    assert.match(
      eutm.rationale,
      /EU trade mark, covers DE: the EUIPO \(EM\) record has effect in every member state of the European Union\./,
    );
    assert.match(eutm.rationale, /EUTM 018173421/);
    assert.match(
      eutm.rationale,
      /\[EUIPO eSearch\]\(https:\/\/euipo\.europa\.eu\/eSearch\/#details\/trademarks\/018173421\)/,
    );
  });

  it("a CIPO record's own opposition period is the window, as the office gives it", () => {
    const oppositionPeriod = { startsAt: '2002-03-27', endsAt: '2002-05-29' };
    const p = prepareWatch({ name: 'Ceridian', niceClasses: [17], designations: ['CA'] });
    const r = record('CERIDIAN', {
      jurisdiction: 'CA',
      externalId: 'CA-1057614',
      classes: [17],
      publishedAt: '2002-03-27T00:00:00.000Z',
      rawPayload: { oppositionPeriod },
    });
    const a = assessAlert(p, r, decideConflictPrepared(p, r));
    // Not the two months the rule computes (2002-05-27): the office's end date.
    assert.equal(a.opposition?.closesAt, '2002-05-29');
    assert.equal(a.opposition?.extendableUntil, null);
    assert.match(
      a.rationale,
      /the opposition period the office gives for this record, 2002-03-27 to 2002-05-29/,
    );
    assert.match(a.rationale, /The CIPO \(CA\) record covers the watched designation CA\./);
    assert.match(
      a.rationale,
      /\[Canadian Trademarks Database\]\(https:\/\/ised-isde\.canada\.ca\/cipo\/trademark-search\/1057614\)/,
    );
    // Without it, the office's rule: two months from the advertisement.
    const computed = assessAlert(p, { ...r, rawPayload: {} }, decideConflictPrepared(p, r));
    assert.equal(computed.opposition?.closesAt, '2002-05-27');
  });

  it('says which letters differ and which respellings sound alike', () => {
    assert.match(
      assess('Samsung', 'SAMSNUG').rationale,
      /differs from the watched brand by 1 letter: `SAMSNUG` against `SAMSUNG` \(UN swapped to NU \(letters 5 and 6\)\)/,
    );
    assert.match(assess('Nike', 'NIKO').rationale, /E replaced by O \(4th letter\)/);
    assert.match(
      assess('Philips', 'FILIPS').rationale,
      /`FILIPS` and `PHILIPS` are pronounced alike \(reading PH as F\)/,
    );
    assert.match(assess('Nike', 'N1KE').rationale, /\(1 for I\)/);
  });

  it('says when the source gives no publication date, and when the office is not covered', () => {
    assert.match(
      assess('Nike', 'NIKE', { publishedAt: null }).rationale,
      /gives no publication date for opposition, so the opposition window is not known/,
    );
    const wo = assess('Nike', 'NIKE', {
      jurisdiction: 'WO',
      designations: ['DE', 'CN'],
      externalId: 'WO500000001234567',
    });
    assert.match(
      wo.rationale,
      /record covers the watched designation DE through its designation of DE, CN/,
    );
    assert.match(wo.rationale, /no opposition at WIPO itself/);
    assert.match(wo.rationale, /IR 1234567/);
    assert.match(
      wo.rationale,
      /\[WIPO Madrid Monitor\]\(https:\/\/www3\.wipo\.int\/madrid\/monitor\/en\/showData\.jsp\?ID=ROM\.1234567\)/,
    );
    assert.equal(wo.opposition, null);
  });

  it('keeps register text inert: no link, image or HTML can come out of a mark or owner', () => {
    const hostile =
      'NIKE <script>alert(1)</script> [x](javascript:alert(1)) ![](https://evil.example/p.png)';
    const a = assess('Nike', hostile, {
      ownerName: 'Evil `Corp` <img src=x onerror=alert(1)>\r\nBcc: x@example.com',
    });
    const html = renderMarkdown(a.rationale);
    assert.doesNotMatch(html, /<script|<img|<a href="javascript|onerror=alert\(1\)>/i);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /\[x\]\(javascript:alert\(1\)\)/, 'the link syntax shows as text');
    assert.match(
      html,
      /!\[\]\(https:\/\/evil\.example\/p\.png\)/,
      'the image syntax shows as text',
    );
    // The only link is the office's page.
    assert.deepEqual(
      [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]?.slice(0, 25)),
      ['https://tsdr.uspto.gov/#c'],
    );
    assert.doesNotMatch(a.rationalePlain, /\r|\nBcc:/, 'no line of its own in the plain text');
  });

  it('code spans survive backticks and line breaks in register text', () => {
    assert.equal(codeSpan('A`B'), '``A`B``');
    assert.equal(codeSpan('`A`'), '`` `A` ``');
    assert.equal(codeSpan('A\r\nB'), '`A B`');
    assert.equal(renderMarkdown(codeSpan('`A`')).trim(), '<p><code>`A`</code></p>');
  });
});

describe('a record whose source publishes no classes, owner or country', () => {
  const assess = (brand: string, over: Partial<AssessedRecord>) => {
    const p = watch(brand);
    const r = record(brand.toUpperCase(), over);
    return assessAlert(p, r, decideConflictPrepared(p, r));
  };

  it('identical text is capped at medium, and the rationale says the classes are not published', () => {
    const a = assess('Tusimple', { classes: [] });
    assert.equal(a.severity, 'medium');
    assert.ok(a.rationale.includes(CLASSES_NOT_PUBLISHED), a.rationale);
    assert.match(a.rationale, /^\*\*Severity: medium\.\*\* .*caps the severity at medium\./);
    assert.equal(assess('Tusimple', { classes: [25] }).severity, 'high', 'with classes: high');
  });

  it('a severity below the cap stays as it is', () => {
    const p = watch('Tusimple');
    const r = record('TUSIMPLE TRUCKING LOGISTICS', { classes: [] });
    const a = assessAlert(p, r, decideConflictPrepared(p, r));
    const withClasses = assessAlert(
      p,
      { ...r, classes: [25] },
      decideConflictPrepared(p, { ...r, classes: [25] }),
    );
    assert.equal(a.severity, withClasses.severity);
    assert.notEqual(a.severity, 'high');
  });

  it('an absent owner or country is said to be not published, never shown as a code', () => {
    assert.match(
      assess('Tusimple', { ownerName: null, ownerCountryCode: null }).rationale,
      /, owner not published by this source\./,
    );
    const countryless = assess('Tusimple', { ownerCountryCode: null }).rationalePlain;
    assert.match(
      countryless,
      /owner Rival Holdings LLC \(country not published by this source\)\./,
    );
  });
});

describe("rationale HTML: the Markdown renderer's output, written from the same pieces", () => {
  // The alert e-mail shows rationaleHtml; the dashboard renders rationale with markdown-it. They
  // must not differ, whatever the rule, office, class heading or register text.
  const ALL_CLASSES = Array.from({ length: 45 }, (_, i) => i + 1);
  const records: Partial<AssessedRecord>[] = [
    {},
    { externalId: 'EM500000018123456', jurisdiction: 'EM' },
    { externalId: 'WO500000001234567', jurisdiction: 'WO', designations: ['US', 'DE'] },
    { externalId: 'CA-1234567', jurisdiction: 'CA', publishedAt: null },
    { externalId: 'XX-77', jurisdiction: 'XX', classes: [], ownerName: null, status: null },
    { ownerCountryCode: null, filedAt: null, classes: ALL_CLASSES },
    { ownerName: '  Spaced `Tick` Owner  ', status: 'opposed & <pending>' },
    { ownerName: 'Evil *Corp* _x_ <img src=x> [a](javascript:1) &copy; \\* 1. # h' },
  ];

  it('is byte for byte what renderMarkdown makes of rationale, on every decided pair', () => {
    let compared = 0;
    for (const c of decidedCases as { earlier: { text: string }; later: { text: string } }[]) {
      const p = prepareWatch({
        name: c.earlier.text,
        niceClasses: ALL_CLASSES,
        designations: ['US', 'EM', 'DE', 'CA', 'XX'],
      });
      for (const over of records) {
        const r = record(c.later.text, over);
        const decision = decideConflictPrepared(p, r);
        if (!decision.conflict) continue;
        const a = assessAlert(p, r, decision);
        assert.equal(
          a.rationaleHtml,
          renderMarkdown(a.rationale),
          `${c.earlier.text} / ${c.later.text}`,
        );
        compared++;
      }
    }
    assert.ok(compared > 300, `compared ${compared} rationales`);
  });

  it('keeps hostile mark text inert the same way', () => {
    for (const mark of [
      'NIKE <script>alert(1)</script> [x](javascript:alert(1)) ![](https://e.example/p.png)',
      ' NIKE ',
      '`NIKE`',
      'NIKE *SPORT* _X_ &amp; \\[',
    ]) {
      const p = watch('Nike');
      const r = record(mark);
      const a = assessAlert(p, r, decideConflictPrepared(p, r));
      assert.equal(a.rationaleHtml, renderMarkdown(a.rationale), mark);
      assert.doesNotMatch(a.rationaleHtml, /<script|<img|href="javascript/);
    }
  });
});
