/** One new alert as the e-mail shows it. */
export type AlertLine = {
  alertId: string;
  markText: string;
  ownerName: string;
  ownerCountryCode: string;
  classes: number[];
  jurisdiction: string;
  filedAt: string;
};

export type AlertEmail = { subject: string; text: string; html: string };

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const day = (iso: string) => iso.slice(0, 10);

/** The alert e-mail of one watch's scan run: every new mark, and a link to each alert's page. */
export function composeAlertEmail(
  watchName: string,
  alerts: AlertLine[],
  publicUrl: string,
): AlertEmail {
  const count = alerts.length;
  const subject = `${watchName}: ${count} new ${count === 1 ? 'mark' : 'marks'} may conflict`;
  const link = (a: AlertLine) => `${publicUrl}/alerts/${a.alertId}`;
  const text = [
    `Trademark Watch found ${count} newly filed ${count === 1 ? 'mark' : 'marks'} that may conflict with your watch "${watchName}".`,
    '',
    ...alerts.flatMap((a) => [
      `- ${a.markText}`,
      `  Owner: ${a.ownerName} (${a.ownerCountryCode})`,
      `  Classes: ${a.classes.join(', ')}`,
      `  Office: ${a.jurisdiction}`,
      `  Filed: ${day(a.filedAt)}`,
      `  Details: ${link(a)}`,
      '',
    ]),
    `Review and triage them at ${publicUrl}/alerts.`,
  ].join('\n');
  const rows = alerts
    .map(
      (a) => `<tr>
  <td><a href="${escapeHtml(link(a))}">${escapeHtml(a.markText)}</a></td>
  <td>${escapeHtml(a.ownerName)} (${escapeHtml(a.ownerCountryCode)})</td>
  <td>${escapeHtml(a.classes.join(', '))}</td>
  <td>${escapeHtml(a.jurisdiction)}</td>
  <td>${escapeHtml(day(a.filedAt))}</td>
</tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; color: #1a1a1a">
<p>Trademark Watch found ${count} newly filed ${count === 1 ? 'mark' : 'marks'} that may conflict with your watch <strong>${escapeHtml(watchName)}</strong>.</p>
<table cellpadding="6" style="border-collapse: collapse">
<thead><tr><th align="left">Mark</th><th align="left">Owner</th><th align="left">Classes</th><th align="left">Office</th><th align="left">Filed</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p><a href="${escapeHtml(`${publicUrl}/alerts`)}">Review and triage your alerts</a></p>
</body></html>`;
  return { subject, text, html };
}
