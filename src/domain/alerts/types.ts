/** The states an alert moves through (set by the owner) and the severities a scan gives it. */
export const ALERT_STATES = ['unread', 'read', 'dismissed'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const ALERT_SEVERITIES = ['high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
