import { officeName } from '../domain/alert-assessment.ts';
import { type OppositionWindow, oppositionStatus } from '../domain/opposition.ts';
import { renderMarkdown } from '../markdown.ts';
import { officeReference } from '../register/office-links.ts';

/** One new alert as the e-mail shows it. */
export type AlertLine = {
  alertId: string;
  markText: string;
  ownerName: string;
  ownerCountryCode: string;
  classes: number[];
  jurisdiction: string;
  filedAt: string;
  externalId: string;
  publishedAt: string | null;
  severity: 'low' | 'medium' | 'high';
  /** The alert's rationale as plain text (the Markdown one is rendered from `rationale`). */
  rationalePlain: string;
  /** The alert's rationale, Markdown; when given, the HTML part shows it rendered. */
  rationale?: string;
  opposition: OppositionWindow | null;
};

const SEVERITY_ORDER = { high: 0, medium: 1, low: 2 } as const;

/** Text from the register, on one line: line breaks and control characters become spaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

export type AlertEmail = { subject: string; text: string; html: string };

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const day = (iso: string) => iso.slice(0, 10);

/** The alert e-mail of one watch's scan run: every new mark, and a link to each alert's page. */
export function composeAlertEmail(
  watchName: string,
  unsorted: AlertLine[],
  publicUrl: string,
  now: Date,
): AlertEmail {
  // The most serious first; otherwise in the order the scan found them.
  const alerts = [...unsorted].sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  const count = alerts.length;
  const high = alerts.filter((a) => a.severity === 'high').length;
  const subject = `${oneLine(watchName)}: ${count} new ${count === 1 ? 'mark' : 'marks'} may conflict${high > 0 ? ` (${high} high)` : ''}`;
  const link = (a: AlertLine) => `${publicUrl}/alerts/${a.alertId}`;
  const office = (a: AlertLine) => {
    const ref = officeReference(a.externalId);
    return `${officeName(a.jurisdiction)} (${a.jurisdiction})${ref === null ? '' : `, ${ref.label} ${ref.number}`}`;
  };
  const text = [
    `Trademark Watch found ${count} newly filed ${count === 1 ? 'mark' : 'marks'} that may conflict with your watch "${oneLine(watchName)}".`,
    '',
    ...alerts.flatMap((a) => [
      `- ${oneLine(a.markText)}`,
      `  Severity: ${a.severity}`,
      `  Owner: ${oneLine(a.ownerName)} (${a.ownerCountryCode})`,
      `  Classes: ${a.classes.join(', ')}`,
      `  Office: ${office(a)}`,
      `  Filed: ${day(a.filedAt)}`,
      `  Published for opposition: ${a.publishedAt === null ? 'not published by this source' : day(a.publishedAt)}`,
      `  Opposition: ${oppositionStatus(a.opposition, now)}`,
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
  <td>${escapeHtml(oneLine(a.ownerName))} (${escapeHtml(a.ownerCountryCode)})</td>
  <td>${escapeHtml(a.classes.join(', '))}</td>
  <td>${escapeHtml(office(a))}</td>
  <td>${escapeHtml(day(a.filedAt))}</td>
  <td>${escapeHtml(oppositionStatus(a.opposition, now))}</td>
</tr>
<tr><td colspan="7" style="border-bottom: 1px solid #ddd">${
        a.rationale === undefined
          ? `<pre style="white-space: pre-wrap; font-family: inherit">${escapeHtml(a.rationalePlain)}</pre>`
          : renderMarkdown(a.rationale)
      }</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; color: #1a1a1a">
<p>Trademark Watch found ${count} newly filed ${count === 1 ? 'mark' : 'marks'} that may conflict with your watch <strong>${escapeHtml(oneLine(watchName))}</strong>.</p>
<table cellpadding="6" style="border-collapse: collapse">
<thead><tr><th align="left">Mark</th><th align="left">Severity</th><th align="left">Owner</th><th align="left">Classes</th><th align="left">Office</th><th align="left">Filed</th><th align="left">Opposition</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p><a href="${escapeHtml(`${publicUrl}/alerts`)}">Review and triage your alerts</a></p>
</body></html>`;
  return { subject, text, html };
}
