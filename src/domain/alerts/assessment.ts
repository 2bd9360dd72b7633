// What an alert says about its conflict: the severity, a rationale a lawyer can paste into a
// report (Markdown, and the same text plain and as HTML for e-mail), and the opposition window.
// Built from the matching decision when a scan records the hit. Pure: no I/O, no clock (the caller
// passes `now` only where a sentence depends on it).

import { anyClassSentence } from '../../matching/any-class.ts';
import type { Decision, PreparedWatch } from '../../matching/decide.ts';
import { ruleEvidence } from '../../matching/evidence.ts';
import { meetingSentence } from '../../matching/goods.ts';
import { niceClassHeading } from '../../matching/nice-classes.ts';
import { assessSeverity, type Severity, type SeverityAssessment } from '../../matching/severity.ts';
import type { WordStats } from '../../matching/word-weights.ts';
import { officeReference } from '../../register/office-links.ts';
import { officeName } from '../../register/office-names.ts';
import {
  type OppositionWindow,
  officeOppositionPeriod,
  oppositionOpen,
  oppositionWindow,
  ruleInForce,
} from '../opposition.ts';
import {
  type Block,
  lit,
  markdownOf,
  type Piece,
  plainOf,
  render,
  renderHtml,
} from './rationale-text.ts';

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
  /**
   * Live or dead at its office (src/register/liveness.ts); null (or absent) when its code says
   * neither.
   */
  live?: boolean | null | undefined;
  classes: readonly number[];
  publishedAt: string | null;
  /** The record's raw payload, where its office gives its own opposition window (CIPO). */
  rawPayload?: Readonly<Record<string, unknown>>;
  /**
   * When the mirror took the office's deletion of the record (it is then the record as last
   * held); null or absent while the register holds it.
   */
  removedAt?: string | null | undefined;
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

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const dateOf = (iso: string | null) => (iso === null ? null : iso.slice(0, 10));

/**
 * The opposition sentence: the window, or why there is none. With `now` (the assessment's day), a
 * window that has closed reads as past, never as an action: the way left is a cancellation.
 */
export function oppositionSentence(
  jurisdiction: string,
  publishedAt: string | null,
  window: OppositionWindow | null,
  now?: Date,
): string {
  if (window !== null) {
    const published = `(published for opposition on ${dateOf(publishedAt)})`;
    if (now !== undefined && !oppositionOpen(window, now)) {
      return `The opposition period at the ${window.office} closed on ${window.closesAt} ${published}; cancellation remains possible. ${window.rule}`;
    }
    const ext =
      window.extendableUntil === null ? '' : `, extendable on request to ${window.extendableUntil}`;
    return `The opposition period at the ${window.office} closes on ${window.closesAt}${ext} ${published}. ${window.rule}`;
  }
  const result = oppositionWindow(jurisdiction, publishedAt);
  if (result.window === null && result.reason === 'no_opposition_at_office') {
    return 'There is no opposition at WIPO itself: each office the international registration designates applies its own period from its own publication, which this record does not give.';
  }
  if (result.window === null && result.reason === 'unknown_office') {
    return `The opposition period of ${officeName(jurisdiction)} is not known to this service.`;
  }
  const rule = ruleInForce(jurisdiction);
  if (result.window === null && result.reason === 'before_rule_in_force' && rule !== null) {
    return `The record was published for opposition on ${dateOf(publishedAt)}, before the ${rule.office} rule this service applies came into force on ${rule.from} (${rule.source}); the rule of that time is not held here, so the opposition window is not computed.`;
  }
  return 'The source gives no publication date for opposition, so the opposition window is not known.';
}

/**
 * A dead record (abandoned, refused, withdrawn, cancelled, expired) blocks nothing and can no
 * longer be opposed: whatever its text, the conflict is low.
 */
function capDead(severity: SeverityAssessment, record: AssessedRecord): SeverityAssessment {
  if (record.live !== false || severity.severity === 'low') return severity;
  const status = record.status === null ? '' : ` (status ${record.status})`;
  return {
    ...severity,
    severity: 'low',
    why: `${severity.why}, but the record is dead at its office${status}, which makes the severity low`,
  };
}

/**
 * A record the office deleted from its register is no longer an application or a registration:
 * nothing is left to oppose or to block, whatever the text, so the conflict is low.
 */
function capRemoved(severity: SeverityAssessment, record: AssessedRecord): SeverityAssessment {
  if (record.removedAt == null || severity.severity === 'low') return severity;
  return {
    ...severity,
    severity: 'low',
    why: `${severity.why}, but the office has deleted the record from its register, which makes the severity low`,
  };
}

/** What the rationale says of a record the office deleted, in place of its opposition window. */
function removedSentence(removedAt: string): string {
  return `The office has deleted this record from its register (the mirror took the deletion on ${dateOf(removedAt)}): there is no application or registration left to oppose. This alert shows the record as it was last held.`;
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

/** Where the goods meet: the shared classes, the related ones with why, or that none were given. */
function goodsSentence(decision: Decision, record: AssessedRecord): string | null {
  const shared = decision.reasons.find((r) => r.kind === 'class_overlap');
  if (shared !== undefined && shared.kind === 'class_overlap') {
    const list = shared.classes
      .map((c) => `${c} (${niceClassHeading(c) ?? 'unknown class'})`)
      .join('; ');
    return `Shared Nice class${shared.classes.length > 1 ? 'es' : ''}: ${list}.`;
  }
  const related = decision.reasons.find((r) => r.kind === 'related_goods');
  if (related !== undefined && related.kind === 'related_goods') {
    return meetingSentence(related.meeting);
  }
  const elsewhere = decision.reasons.find((r) => r.kind === 'any_class');
  if (elsewhere !== undefined && elsewhere.kind === 'any_class') {
    return anyClassSentence(elsewhere.watchClasses, elsewhere.recordClasses);
  }
  return record.classes.length === 0 ? CLASSES_NOT_PUBLISHED : null;
}

/**
 * The severity, rationale and opposition window of a conflict the decision accepted. `stats`: the
 * register's counts of the brand's and the record's words (the watch's own, when not given);
 * `now`: the day of the assessment, against which a closed window reads as past.
 */
export function assessAlert(
  p: PreparedWatch,
  record: AssessedRecord,
  decision: Decision,
  stats: WordStats = p.stats,
  now?: Date,
): Assessment {
  const assessed = assessSeverity(p, decision.reasons, {
    markText: record.markText,
    classes: record.classes,
    stats,
  });
  const severity = capRemoved(
    capDead(record.classes.length === 0 ? capWithoutClasses(assessed) : assessed, record),
    record,
  );
  const removedAt = record.removedAt ?? null;
  const { window } =
    removedAt === null
      ? oppositionWindow(
          record.jurisdiction,
          record.publishedAt,
          record.externalId,
          officeOppositionPeriod(record.rawPayload),
        )
      : { window: null };
  const blocks: Block[] = [];
  blocks.push({ heading: `Severity: ${severity.severity}`, pieces: [`${capital(severity.why)}.`] });
  const items: Piece[][] = decision.reasons.flatMap((r) => {
    const evidence = ruleEvidence(p, record.markText, r, stats);
    return evidence === null ? [] : [evidence];
  });
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

  const goods = goodsSentence(decision, record);
  if (goods !== null) blocks.push({ heading: 'Goods and services', pieces: [goods] });
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
    record.live == null ? '' : record.live ? ' (live)' : ' (dead)',
    removedAt === null ? '' : ' when last held; since deleted from the register by the office',
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
    pieces: [
      removedAt === null
        ? oppositionSentence(record.jurisdiction, record.publishedAt, window, now)
        : removedSentence(removedAt),
    ],
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
