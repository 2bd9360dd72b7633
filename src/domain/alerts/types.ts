/** The states an alert moves through (set by the owner) and the severities a scan gives it. */
export const ALERT_STATES = ['unread', 'read', 'dismissed'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const ALERT_SEVERITIES = ['high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
/** Whether an alert's record was filed after the watch started looking, or was there already. */
export const ALERT_ORIGINS = ['new_filing', 'existing_mark'] as const;
export type AlertOrigin = (typeof ALERT_ORIGINS)[number];
