import { officeReference } from '../register/office-links.ts';
import { officeName } from '../register/office-names.ts';
import { oneLine } from '../text.ts';

/** One new alert as the e-mail shows it. */
export type AlertLine = {
  alertId: string;
  markText: string;
  /** Owner, country and status are null, and classes empty, when the source does not publish them. */
  ownerName: string | null;
  ownerCountryCode: string | null;
  status: string | null;
  /** Live or dead at its office (the hit's `live`); null when its code says neither. */
  live: boolean | null;
  classes: number[];
  jurisdiction: string;
  filedAt: string;
  externalId: string;
  publishedAt: string | null;
  severity: 'low' | 'medium' | 'high';
  /** The alert's rationale as plain text. */
  rationalePlain: string;
  /**
   * The alert's rationale as HTML, as the dashboard renders its Markdown (the assessment's
   * rationaleHtml); without it, the HTML part shows the plain text.
   */
  rationaleHtml?: string;
  /** Where the opposition period stands as the e-mail is written: "closes in 12 days (2026-12-07)". */
  opposition: string;
};

const SEVERITY_ORDER = { high: 0, medium: 1, low: 2 } as const;

export type AlertEmail = { subject: string; text: string; html: string };

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const day = (iso: string) => iso.slice(0, 10);

/** What the e-mail says of a field the register record does not have. */
export const NOT_PUBLISHED = 'not published by this source';

function ownerText(a: AlertLine): string {
  if (a.ownerName === null) return NOT_PUBLISHED;
  const country = a.ownerCountryCode ?? `country ${NOT_PUBLISHED}`;
  return `${oneLine(a.ownerName)} (${country})`;
}

const classesText = (a: AlertLine) =>
  a.classes.length === 0 ? NOT_PUBLISHED : a.classes.join(', ');
const statusText = (a: AlertLine) => (a.status === null ? NOT_PUBLISHED : oneLine(a.status));
/** The hit's `live` in words: live, dead, or that the office's code does not say. */
export const liveText = (live: boolean | null) =>
  live === null ? 'not known (the status does not say)' : live ? 'live' : 'dead';

/** The alert e-mail of one watch's scan run: every new mark, and a link to each alert's page. */
export function composeAlertEmail(
  watchName: string,
  unsorted: AlertLine[],
  publicUrl: string,
): AlertEmail {
  // The most serious first; otherwise in the order the scan found them.
  const alerts = [...unsorted].sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  const count = alerts.length;
  const high = alerts.filter((a) => a.severity === 'high').length;
  const subject = `${oneLine(watchName)}: ${count} new ${count === 1 ? 'mark' : 'marks'} may conflict${high > 0 ? ` (${high} high)` : ''}`;
  const link = (a: AlertLine) => `${publicUrl}/alerts/${a.alertId}`;
  const office = (a: AlertLine) => `${officeName(a.jurisdiction)} (${a.jurisdiction})`;
  // The number as the office writes it (US serial 79366581), not the mirror's key, and its page.
  const number = (a: AlertLine) => {
    const ref = officeReference(a.externalId);
    return ref === null ? a.externalId : `${ref.label} ${ref.number}`;
  };
  const numberHtml = (a: AlertLine) => {
    const ref = officeReference(a.externalId);
    if (ref === null) return escapeHtml(a.externalId);
    const number = escapeHtml(ref.number);
    const linked =
      ref.page === null ? number : `<a href="${escapeHtml(ref.page.url)}">${number}</a>`;
    return `${escapeHtml(ref.label)} ${linked}`;
  };
  const publicPage = (a: AlertLine) => {
    const page = officeReference(a.externalId)?.page;
    return page ? [`  Public record (${page.site}): ${page.url}`] : [];
  };
  const text = [
    `Trademark Watch found ${count} newly filed ${count === 1 ? 'mark' : 'marks'} that may conflict with your watch "${oneLine(watchName)}".`,
    '',
    ...alerts.flatMap((a) => [
      `- ${oneLine(a.markText)}`,
      `  Severity: ${a.severity}`,
      `  Owner: ${ownerText(a)}`,
      `  Classes: ${classesText(a)}`,
      `  Status: ${statusText(a)}`,
      `  Live or dead: ${liveText(a.live)}`,
      `  Office: ${office(a)}, ${number(a)}`,
      ...publicPage(a),
      `  Filed: ${day(a.filedAt)}`,
      `  Published for opposition: ${a.publishedAt === null ? NOT_PUBLISHED : day(a.publishedAt)}`,
      `  Opposition: ${a.opposition}`,
      `  Details: ${link(a)}`,
      '  Why:',
      ...a.rationalePlain.split('\n').map((line) => (line === '' ? '' : `    ${line}`)),
      '',
    ]),
    `Review and triage them at ${publicUrl}/alerts.`,
  ].join('\n');
  const rows = alerts
    .map(
      (a) => `<tr>
  <td><a href="${escapeHtml(link(a))}">${escapeHtml(oneLine(a.markText))}</a></td>
  <td>${escapeHtml(a.severity)}</td>
  <td>${escapeHtml(ownerText(a))}</td>
  <td>${escapeHtml(classesText(a))}</td>
  <td>${escapeHtml(statusText(a))} (${escapeHtml(liveText(a.live))})</td>
  <td>${escapeHtml(office(a))}, ${numberHtml(a)}</td>
  <td>${escapeHtml(day(a.filedAt))}</td>
  <td>${escapeHtml(a.opposition)}</td>
</tr>
<tr><td colspan="8" style="border-bottom: 1px solid #ddd">${
        a.rationaleHtml === undefined
          ? `<pre style="white-space: pre-wrap; font-family: inherit">${escapeHtml(a.rationalePlain)}</pre>`
          : a.rationaleHtml
      }</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; color: #1a1a1a">
<p>Trademark Watch found ${count} newly filed ${count === 1 ? 'mark' : 'marks'} that may conflict with your watch <strong>${escapeHtml(oneLine(watchName))}</strong>.</p>
<table cellpadding="6" style="border-collapse: collapse">
<thead><tr><th align="left">Mark</th><th align="left">Severity</th><th align="left">Owner</th><th align="left">Classes</th><th align="left">Status</th><th align="left">Office</th><th align="left">Filed</th><th align="left">Opposition</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p><a href="${escapeHtml(`${publicUrl}/alerts`)}">Review and triage your alerts</a></p>
</body></html>`;
  return { subject, text, html };
}

/**
 * The one e-mail of the existing marks a scan found (most of them at a watch's first scan, which
 * searches the whole register): how many, how serious, and a link to the dashboard's list of them.
 * They are the register as it stood when the watch started looking, not new filings, so they are
 * not listed one by one.
 */
export function composeExistingMarksEmail(
  watch: { id: string; name: string },
  alerts: readonly Pick<AlertLine, 'severity'>[],
  publicUrl: string,
): AlertEmail {
  const count = alerts.length;
  const name = oneLine(watch.name);
  const marks = `${count} existing ${count === 1 ? 'mark' : 'marks'}`;
  const subject = `${marks} on the register may conflict with ${name}`;
  const link = `${publicUrl}/alerts?${new URLSearchParams({ origin: 'existing_mark', watch: watch.id })}`;
  const bySeverity = (['high', 'medium', 'low'] as const)
    .map((severity) => [severity, alerts.filter((a) => a.severity === severity).length] as const)
    .filter(([, n]) => n > 0)
    .map(([severity, n]) => `${n} ${severity}`)
    .join(', ');
  const found = (watchName: string) =>
    `Trademark Watch found ${marks} that were already on the register when your watch ${watchName} started looking, and may conflict with it (${bySeverity}).`;
  const why =
    'They are not new filings (those are e-mailed one by one as they appear): review these in one list.';
  const text = [found(`"${name}"`), why, '', `Review them at ${link}`].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; color: #1a1a1a">
<p>${found(`<strong>${escapeHtml(name)}</strong>`)}</p>
<p>${escapeHtml(why)}</p>
<p><a href="${escapeHtml(link)}">Review the existing marks</a></p>
</body></html>`;
  return { subject, text, html };
}
