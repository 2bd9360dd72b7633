// What an alert says about its conflict: the severity, a rationale a lawyer can paste into a
// report (Markdown, and the same text plain and as HTML for e-mail), and the opposition window.
// Built from the matching decision when a scan records the hit. Pure: no I/O, no clock (the caller
// passes `now` only where a sentence depends on it).

import { escapeHtml, normalizeLink } from '../markdown.ts';
import type { Decision, PreparedWatch, Reason } from '../matching/decide.ts';
import { describeEdits, lookalikePairs, respellingsBetween } from '../matching/explain.ts';
import { niceClassHeading } from '../matching/nice-classes.ts';
import { analyzeMark } from '../matching/normalize.ts';
import { assessSeverity, type Severity, type SeverityAssessment } from '../matching/severity.ts';
import { isWeakWord, marksWith, measuredCommon, type WordStats } from '../matching/word-weights.ts';
import { officeReference } from '../register/office-links.ts';
import { type OppositionWindow, officeOppositionPeriod, oppositionWindow } from './opposition.ts';
import { oneLine } from './text.ts';

/** The register record as the assessment reads it (a CandidateRecord, or a hit's snapshot). */
export type AssessedRecord = {
  externalId: string;
  markText: string;
  ownerName: string | null;
  ownerCountryCode: string | null;
  jurisdiction: string;
  designations: readonly string[];
  filedAt: string | null;
  status: string | null;
  classes: readonly number[];
  publishedAt: string | null;
  /** The record's raw payload, where its office gives its own opposition window (CIPO). */
  rawPayload?: Readonly<Record<string, unknown>>;
};

export type Assessment = {
  severity: Severity;
  /** Markdown: register text only inside code spans, so it can never become a link or HTML. */
  rationale: string;
  /** The same sentences as plain text (alert e-mail). */
  rationalePlain: string;
  /**
   * The same sentences as HTML, exactly as the Markdown renderer renders `rationale` (alert
   * e-mail): written from the same pieces, so that a scan does not parse what it just wrote.
   */
  rationaleHtml: string;
  opposition: OppositionWindow | null;
};

/** A piece of a sentence: our words, or text from the register (a mark, an owner), or a link. */
type Piece = string | { literal: string } | { link: string; text: string };
type Block = { heading?: string; pieces: Piece[] } | { heading: string; items: Piece[][] };

const lit = (text: string): Piece => ({ literal: text });

/**
 * Register text as a Markdown code span: nothing inside a code span is parsed, so `<script>`,
 * `[x](javascript:…)` or `![](…)` stay text. Line breaks and other control characters become
 * spaces; the fence is one backtick longer than the longest run of backticks inside.
 */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

function markdownOf(pieces: readonly Piece[]): string {
  return pieces
    .map((p) =>
      typeof p === 'string' ? p : 'literal' in p ? codeSpan(p.literal) : `[${p.text}](${p.link})`,
    )
    .join('');
}

function plainOf(pieces: readonly Piece[]): string {
  return pieces
    .map((p) =>
      typeof p === 'string' ? p : 'literal' in p ? oneLine(p.literal) : `${p.text}: ${p.link}`,
    )
    .join('');
}

function htmlOf(pieces: readonly Piece[]): string {
  return pieces
    .map((p) =>
      typeof p === 'string'
        ? escapeHtml(p)
        : 'literal' in p
          ? `<code>${escapeHtml(oneLine(p.literal))}</code>`
          : `<a href="${escapeHtml(normalizeLink(p.link))}">${escapeHtml(p.text)}</a>`,
    )
    .join('');
}

/** The blocks as markdown-it renders their Markdown (renderMarkdown): paragraphs and lists. */
function renderHtml(blocks: readonly Block[]): string {
  return blocks
    .map((b) => {
      if ('items' in b) {
        const items = b.items.map((i) => `<li>${htmlOf(i)}</li>\n`).join('');
        return `<p><strong>${escapeHtml(b.heading)}</strong></p>\n<ul>\n${items}</ul>\n`;
      }
      const head = b.heading === undefined ? '' : `<strong>${escapeHtml(b.heading)}.</strong> `;
      return `<p>${head}${htmlOf(b.pieces)}</p>\n`;
    })
    .join('');
}

function render(blocks: readonly Block[], of: (pieces: readonly Piece[]) => string, md: boolean) {
  return blocks
    .map((b) => {
      const head = b.heading === undefined ? '' : md ? `**${b.heading}.** ` : `${b.heading}. `;
      if ('items' in b) {
        const items = b.items.map((i) => `- ${of(i)}`).join('\n');
        return md ? `**${b.heading}**\n\n${items}` : `${b.heading}:\n${items}`;
      }
      return head + of(b.pieces);
    })
    .join('\n\n');
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function position(at: number, of: number): string {
  if (of <= 1) return '';
  if (at === 0) return ', at the start of the mark';
  return `, word ${at + 1} of ${of}`;
}

const count = (n: number) => n.toLocaleString('en');

/** `A`, `A and B`, `A, B and C` of register words, as pieces. */
function listOf(words: readonly string[]): Piece[] {
  const out: Piece[] = [];
  words.forEach((w, i) => {
    if (i > 0) out.push(i === words.length - 1 ? ' and ' : ', ');
    out.push(lit(w));
  });
  return out;
}

/**
 * The shared-word evidence in a lawyer's words: "KESTREL, the first word of both marks (in 41 of
 * 1,204,332 marks in the register); ROBOTICS and ANALYTICS are common (3,100 and 5,870 marks)".
 */
function sharedWordEvidence(
  p: PreparedWatch,
  m: ReturnType<typeof analyzeMark>,
  r: Extract<Reason, { kind: 'shared_word' }>,
  stats: WordStats,
): Piece[] {
  const where =
    r.brandAt === 0 && r.markAt === 0
      ? ', the first word of both marks'
      : r.brandAt === 0
        ? ', the first word of the brand'
        : r.markAt === 0
          ? ', the first word of the mark'
          : '';
  const pieces: Piece[] = [
    `The mark shares the distinctive word${r.words.length > 1 ? 's' : ''} `,
    ...listOf(r.words),
    ' of the watched brand',
  ];
  if (r.form !== 'word') {
    const how = {
      plural: ' in the plural, ',
      fused: ' fused with another word into ',
      stem: ' in another form of the same word, ',
      sound: ' respelt with the same sound, ',
    }[r.form];
    pieces.push(how, lit(r.markWords[0] ?? ''));
  }
  pieces.push(where);
  const counts = r.words.map((w) => marksWith(stats, w));
  if (stats.total > 0) {
    pieces.push(
      ` (in ${counts.map((n) => count(n ?? 0)).join(' and ')} of ${count(stats.total)} marks in the register)`,
    );
  }
  pieces.push('.');
  if (r.disclaimed) {
    pieces.push(
      ' The record disclaims ',
      lit(r.words[0] ?? ''),
      ' (no claim to it apart from the mark as shown): its office found the word descriptive for these goods or services.',
    );
  }
  // The words that weigh little, with their counts where the register measured them common.
  const shared = new Set(r.words);
  const measured: string[] = [];
  const listed: string[] = [];
  const consider = (folded: string, plain: string) => {
    if (shared.has(plain) || measured.includes(plain) || listed.includes(plain)) return;
    if (plain.length < 4 || /^[0-9]+$/.test(plain) || !isWeakWord(stats, folded, plain)) return;
    (measuredCommon(stats, plain) ? measured : listed).push(plain);
  };
  for (const [i, f] of p.brand.folded.entries()) consider(f, p.brand.words[i] ?? f);
  for (const [i, f] of m.folded.entries()) consider(f, m.words[i] ?? f);
  if (measured.length > 0) {
    const counts = measured.map((w) => count(marksWith(stats, w) ?? 0));
    pieces.push(' ', ...listOf(measured), measured.length > 1 ? ' are common' : ' is common');
    pieces.push(` (${counts.join(' and ')} marks).`);
  }
  if (listed.length > 0) {
    pieces.push(
      ' ',
      ...listOf(listed),
      listed.length > 1 ? ' are generic words' : ' is a generic word',
    );
    pieces.push(' that weigh little in a comparison.');
  }
  return pieces;
}

/** One sentence (as pieces) per text rule that fired, with its concrete evidence. */
function ruleEvidence(p: PreparedWatch, mark: string, r: Reason, stats: WordStats): Piece[] | null {
  const brand = lit(p.name);
  const m = analyzeMark(mark);
  switch (r.kind) {
    case 'exact':
      return ['The mark is identical to the watched brand ', brand, '.'];
    case 'normalized':
      return [
        'The mark is the watched brand written differently (case, spacing, punctuation or accents): both read ',
        lit(r.normalized),
        '.',
      ];
    case 'confusable': {
      const pairs = lookalikePairs(p.brand.plainCompact, m.plainCompact);
      return [
        'The mark looks the same as the watched brand once look-alike characters are read as the letters they imitate',
        pairs.length > 0 ? ` (${pairs.join(', ')})` : '',
        ': both read ',
        lit(r.folded),
        '.',
      ];
    }
    case 'edit_distance': {
      const [a, b] = r.texts;
      return [
        `The spelling differs from the watched brand by ${r.distance} letter${r.distance > 1 ? 's' : ''}: `,
        lit(b),
        ' against ',
        lit(a),
        ` (${describeEdits(a, b)}).`,
      ];
    }
    case 'phonetic': {
      const respelt = respellingsBetween(p.brand.letters, m.letters);
      return [
        r.plural
          ? 'The mark sounds like the watched brand in the plural: '
          : 'The mark sounds like the watched brand: ',
        lit(m.letters),
        ' and ',
        lit(p.brand.letters),
        ` are pronounced alike${respelt.length > 0 ? ` (reading ${respelt.join(', ')})` : ''}; both reduce to the spelling skeleton `,
        lit(r.skeletons[1]),
        ` and share the Double Metaphone code ${r.code}.`,
      ];
    }
    case 'contains_brand':
      return [
        'The mark contains the watched brand as whole word(s): ',
        lit(r.words.join(' ')),
        `${position(r.at, r.of)}.`,
      ];
    case 'contained_in_brand':
      return [
        'The whole mark is a distinctive part of the watched brand: ',
        lit(r.words.join(' ')),
        ' of ',
        brand,
        '.',
      ];
    case 'affix':
      return r.side === 'mark'
        ? ['The mark is the watched brand with ', describeAffix(r.prefix, r.suffix), ' added.']
        : ['The watched brand is the mark with ', describeAffix(r.prefix, r.suffix), ' added.'];
    case 'fused':
      return [
        'The mark writes the watched brand together with another word: ',
        lit(r.word),
        r.side === 'start' ? ' is the brand followed by ' : ' is ',
        lit(r.rest),
        r.side === 'start' ? '' : ' followed by the brand',
        `${position(r.at, r.of)}.`,
      ];
    case 'near_inside': {
      const evidence =
        r.how === 'plural'
          ? 'the brand in the plural'
          : r.how === 'sound'
            ? 'a form that sounds like the brand'
            : `a form one letter away from the brand (${describeEdits(p.brand.compact, r.form)})`;
      return [
        'The mark holds ',
        evidence,
        ': ',
        lit(r.words.join(' ')),
        `${position(r.at, r.of)}.`,
      ];
    }
    case 'shared_word':
      return sharedWordEvidence(p, m, r, stats);
    case 'digits_as_words': {
      const [a, b] = r.texts;
      const said =
        r.how === 'same'
          ? 'the same'
          : r.how === 'edit'
            ? `one letter apart (${describeEdits(a, b)})`
            : 'pronounced alike';
      return [
        'Read aloud with its digits as words, the mark ',
        lit(mark),
        ' is ',
        lit(b),
        ' and the watched brand ',
        brand,
        ' is ',
        lit(a),
        `: ${said}.`,
      ];
    }
    case 'compound':
      return [
        'The mark joins the watched brand with the word ',
        lit(r.rest),
        ' into one: ',
        lit(r.word),
        r.side === 'start' ? ' begins with the brand' : ' ends with the brand',
        `${position(r.at, r.of)}.`,
      ];
    case 'parts_swapped':
      return [
        "The mark is the watched brand's two parts in the other order: ",
        lit(r.markParts.join(' ')),
        ' for ',
        lit(r.parts.join(' ')),
        r.markParts[0] === r.parts[1] && r.markParts[1] === r.parts[0]
          ? '.'
          : ', each written or pronounced alike.',
      ];
    case 'same_shape': {
      const [a, b] = r.texts;
      return [
        'The mark has the shape of the watched brand: ',
        lit(b),
        ' and ',
        lit(a),
        ` begin with ${r.prefix}${r.suffix.length >= 3 ? ` and end with ${r.suffix}` : ''}, have ${r.syllables} vowel groups each, and differ by ${r.distance} letters (${describeEdits(a, b)}).`,
      ];
    }
    case 'reordered':
      return [
        r.inOrder
          ? 'The mark has every word of the watched brand in order, with other words between them: '
          : 'The mark has every word of the watched brand, in another order: ',
        lit(r.words.join(' ')),
        '.',
      ];
    default:
      return null;
  }
}

function describeAffix(prefix: string, suffix: string): string {
  const parts: string[] = [];
  if (prefix !== '') parts.push(`the prefix ${prefix}`);
  if (suffix !== '') parts.push(`the suffix ${suffix}`);
  return parts.join(' and ');
}

const dateOf = (iso: string | null) => (iso === null ? null : iso.slice(0, 10));

/** The office name of a jurisdiction, for sentences ("the EUIPO (EM) record"). */
const OFFICE_NAMES: Readonly<Record<string, string>> = {
  US: 'USPTO',
  EM: 'EUIPO',
  WO: 'WIPO (Madrid)',
  GB: 'UKIPO',
  CA: 'CIPO',
  AU: 'IP Australia',
  CN: 'CNIPA',
  DE: 'DPMA',
  BX: 'BOIP (Benelux)',
  OA: 'OAPI',
  AP: 'ARIPO',
};

export function officeName(jurisdiction: string): string {
  return OFFICE_NAMES[jurisdiction] ?? `the ${jurisdiction} office`;
}

/**
 * The opposition sentence: the window, or why there is none. Also used by the e-mail and the
 * dashboard, which add "closes in N days".
 */
export function oppositionSentence(
  jurisdiction: string,
  publishedAt: string | null,
  window: OppositionWindow | null,
): string {
  if (window !== null) {
    const ext =
      window.extendableUntil === null ? '' : `, extendable on request to ${window.extendableUntil}`;
    return `The opposition period at the ${window.office} closes on ${window.closesAt}${ext} (published for opposition on ${dateOf(publishedAt)}). ${window.rule}`;
  }
  const result = oppositionWindow(jurisdiction, publishedAt);
  if (result.window === null && result.reason === 'no_opposition_at_office') {
    return 'There is no opposition at WIPO itself: each office the international registration designates applies its own period from its own publication, which this record does not give.';
  }
  if (result.window === null && result.reason === 'unknown_office') {
    return `The opposition period of ${officeName(jurisdiction)} is not known to this service.`;
  }
  return 'The source gives no publication date for opposition, so the opposition window is not known.';
}

/** The sentence every alert on a record without classes carries (docs/matching.md). */
export const CLASSES_NOT_PUBLISHED =
  'The source does not publish the Nice classes of this record, so the goods and services were not compared: the text and the territory decide, and the severity is at most medium.';

/**
 * A record without classes may be for goods far from the watch's: the text alone does not make
 * the conflict high. The cap is a ceiling, so medium and low stay as they are.
 */
function capWithoutClasses(severity: SeverityAssessment): SeverityAssessment {
  if (severity.severity !== 'high') return severity;
  return {
    ...severity,
    severity: 'medium',
    why: `${severity.why}, but the source publishes no Nice classes, which caps the severity at medium`,
  };
}

/** Which watched designations the record covers, and through what. */
function territorySentence(record: AssessedRecord, office: string, covered: string[]): string {
  const list = covered.join(', ');
  // An EUTM has effect in every member state: a watch on DE sees it as one on EU does.
  if (record.jurisdiction === 'EM') {
    return `EU trade mark, covers ${list}: the ${office} record has effect in every member state of the European Union.`;
  }
  const through =
    record.jurisdiction === 'WO' && record.designations.length > 0
      ? ` through its designation of ${record.designations.join(', ')}`
      : '';
  return `The ${office} record covers the watched ${covered.length > 1 ? 'designations' : 'designation'} ${list}${through}.`;
}

/**
 * The severity, rationale and opposition window of a conflict the decision accepted. `stats`: the
 * register's counts of the brand's and the record's words (the watch's own, when not given).
 */
export function assessAlert(
  p: PreparedWatch,
  record: AssessedRecord,
  decision: Decision,
  stats: WordStats = p.stats,
): Assessment {
  const assessed = assessSeverity(p, decision.reasons, {
    markText: record.markText,
    classes: record.classes,
    stats,
  });
  const severity = record.classes.length === 0 ? capWithoutClasses(assessed) : assessed;
  const { window } = oppositionWindow(
    record.jurisdiction,
    record.publishedAt,
    record.externalId,
    officeOppositionPeriod(record.rawPayload),
  );
  const blocks: Block[] = [];
  blocks.push({ heading: `Severity: ${severity.severity}`, pieces: [`${capital(severity.why)}.`] });
  const items = decision.reasons
    .map((r) => ruleEvidence(p, record.markText, r, stats))
    .filter((i): i is Piece[] => i !== null);
  if (items.length === 0) {
    items.push([
      'Raised by an earlier version of the matching rules; the current rules find no text similarity between ',
      lit(record.markText),
      ' and ',
      lit(p.name),
      '.',
    ]);
  }
  blocks.push({ heading: 'Why it was raised', items });

  const shared = decision.reasons.find((r) => r.kind === 'class_overlap');
  if (shared !== undefined && shared.kind === 'class_overlap') {
    const list = shared.classes
      .map((c) => `${c} (${niceClassHeading(c) ?? 'unknown class'})`)
      .join('; ');
    blocks.push({
      heading: 'Goods and services',
      pieces: [`Shared Nice class${shared.classes.length > 1 ? 'es' : ''}: ${list}.`],
    });
  } else if (record.classes.length === 0) {
    blocks.push({ heading: 'Goods and services', pieces: [CLASSES_NOT_PUBLISHED] });
  }
  const territory = decision.reasons.find((r) => r.kind === 'territory');
  const office = `${officeName(record.jurisdiction)} (${record.jurisdiction})`;
  if (territory !== undefined && territory.kind === 'territory') {
    blocks.push({
      heading: 'Territory',
      pieces: [territorySentence(record, office, territory.designations)],
    });
  }
  const ref = officeReference(record.externalId);
  const facts: Piece[] = [
    lit(record.markText),
    ref === null ? `, record ${record.externalId}` : `, ${ref.label} ${ref.number}`,
  ];
  facts.push(
    record.filedAt === null
      ? ', filing date not published by this source'
      : `, filed ${dateOf(record.filedAt)}`,
  );
  facts.push(
    record.status === null ? ', status not published by this source' : `, status ${record.status}`,
  );
  if (record.ownerName === null) facts.push(', owner not published by this source.');
  else {
    facts.push(', owner ', lit(record.ownerName));
    facts.push(
      record.ownerCountryCode === null
        ? ' (country not published by this source).'
        : ` (${record.ownerCountryCode}).`,
    );
  }
  blocks.push({ heading: 'The record', pieces: facts });
  blocks.push({
    heading: 'Opposition',
    pieces: [oppositionSentence(record.jurisdiction, record.publishedAt, window)],
  });
  if (ref?.page) {
    blocks.push({
      heading: 'Public record',
      pieces: [{ link: ref.page.url, text: ref.page.site }],
    });
  }
  return {
    severity: severity.severity,
    rationale: render(blocks, markdownOf, true),
    rationalePlain: render(blocks, plainOf, false),
    rationaleHtml: renderHtml(blocks),
    opposition: window,
  };
}
