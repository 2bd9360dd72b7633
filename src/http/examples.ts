import { assessAlert } from '../domain/alerts/assessment.ts';
import { decideConflictPrepared, prepareWatch } from '../matching/decide.ts';
import { MIRROR_SOURCE } from '../register/sources.ts';

// Examples for the OpenAPI document: one request body and one response of each kind, in the shape
// the service sends. The alert's hit is a real register record, the USPTO record of SARGENT
// (serial number 71060608) from the bundled sample (src/register/assets/sample-marks.jsonl),
// kept verbatim as `rawPayload` as a scan keeps it; ids and times are made up but well-formed.
// Spectral's oas3-valid-media-example rule checks each one against its schema.

export const watchExample = {
  id: 'wat_4Qm2c8VnXr0sKp1LdT9aBz',
  watchType: 'trademark',
  name: 'Sargent',
  attributes: { niceClasses: [6, 20], designations: ['US'], relatedClasses: true },
  sources: [MIRROR_SOURCE],
  scanCadence: 'daily',
  active: true,
  logoUrl: null,
  logoSt13: null,
  createdAt: '2026-11-22T09:30:00.000Z',
  lastScannedAt: '2026-11-22T09:31:00.000Z',
  mirrorCoveredUntil: '2026-11-22T06:02:14.000Z',
  alertCounts: { unread: 1, read: 0, dismissed: 0 },
} as const;

const sargentRecord = {
  externalId: 'US500000071060608',
  markText: 'SARGENT',
  ownerName: 'SARGENT MANUFACTURING COMPANY',
  ownerCountryCode: 'US',
  jurisdiction: 'US',
  designations: [],
  filedAt: '1912-01-04',
  registeredAt: '1914-07-28',
  expiresAt: null,
  status: 'registered',
  live: true,
  classes: [6, 20],
  logoUrl: null,
  provenance: {
    source: 'uspto-trademark-applications-daily',
    serialNumber: '71060608',
    registrationNumber: '0098699',
    internationalRegistrationNumber: null,
    actionKey: null,
    transactionDate: '2024-09-09',
    statusCode: '800',
    statusDescription: 'REGISTERED AND RENEWED',
    statusLiveDead: 'Live/Registered',
    statusDate: '2024-09-09',
    markDrawingCode: '5',
    internationalCodes: ['006', '020'],
    classes: [6, 20],
    owners: [
      {
        partyType: 43,
        entryNumber: 1,
        name: 'SARGENT MANUFACTURING COMPANY',
        nationalityCountry: 'US',
        nationalityState: 'DE',
        country: 'US',
        state: 'CT',
        city: 'NEW HAVEN',
      },
      {
        partyType: 30,
        entryNumber: 1,
        name: 'SARGENT & CO.',
        nationalityCountry: 'US',
        nationalityState: 'CT',
        country: 'US',
        state: 'CT',
        city: 'NEW HAVEN',
      },
    ],
  },
};

/** The assessment a scan makes of SARGENT for the watch above: the real severity and rationale. */
const sargentAssessment = (() => {
  const watch = prepareWatch({ name: watchExample.name, ...watchExample.attributes });
  const record = { ...sargentRecord, publishedAt: null };
  return assessAlert(watch, record, decideConflictPrepared(watch, record));
})();

export const alertExample = {
  id: 'alt_7WBLDjzmZJxx1LaQyMXJoV',
  watchId: watchExample.id,
  state: 'unread',
  severity: sargentAssessment.severity,
  rationale: sargentAssessment.rationale,
  rationaleAt: '2026-11-22T09:31:00.000Z',
  emailedAt: null,
  createdAt: '2026-11-22T09:31:00.000Z',
  hit: {
    id: 'hit_3kqWb8rTn2LmQe5VxYz0aC',
    entityType: 'trademark',
    sourceCode: MIRROR_SOURCE,
    externalId: sargentRecord.externalId,
    displayName: sargentRecord.markText,
    ownerName: sargentRecord.ownerName,
    ownerCountryCode: sargentRecord.ownerCountryCode,
    jurisdiction: sargentRecord.jurisdiction,
    filedAt: '1912-01-04T00:00:00.000Z',
    registeredAt: '1914-07-28T00:00:00.000Z',
    expiresAt: null,
    status: sargentRecord.status,
    live: sargentRecord.live,
    classes: sargentRecord.classes,
    rawPayload: sargentRecord,
    publishedAt: null,
    opposition: null,
    removedAt: null,
  },
  // Filed in 1912: on the register long before any watch started looking for it.
  origin: 'existing_mark',
};

/** A hit's opposition window, as a record published for opposition gets it (EUIPO rule). */
export const oppositionExample = {
  office: 'EUIPO',
  closesAt: '2027-02-10',
  extendableUntil: null,
  rule: 'EUIPO: 3 months from publication of the application, not extendable (EUTMR, Regulation (EU) 2017/1001, Art. 46(1)).',
};

export const webhookExample = {
  id: 'whk_4Qm2c8VnXr0sKp1LdT9aBz',
  url: 'https://hooks.example.com/trademark-watch',
  events: ['alert.created', 'alert.updated'],
  description: 'Docketing system',
  active: true,
  disabledAt: null,
  disabledReason: null,
  createdAt: '2026-11-22T09:30:00.000Z',
  updatedAt: '2026-11-22T09:30:00.000Z',
};

export const webhookWithSecretExample = {
  ...webhookExample,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

export const webhookDeliveryExample = {
  id: 'whd_4Qm2c8VnXr0sKp1LdT9aBz',
  eventId: 'msg_2Lx9wQm4Vb7Nr3Kt8Yp1Zc',
  eventType: 'alert.created',
  status: 'delivered',
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  lastAttemptAt: '2026-11-22T09:31:02.000Z',
  nextAttemptAt: null,
  deliveredAt: '2026-11-22T09:31:02.000Z',
  failedAt: null,
  createdAt: '2026-11-22T09:31:00.000Z',
};

export const createWebhookExample = {
  url: 'https://hooks.example.com/trademark-watch',
  events: ['alert.created'],
  description: 'Docketing system',
};

export const updateWebhookExample = { active: false };

export const meExample = {
  user: { id: 'usr_7WBLDjzmZJxx1LaQyMXJoV', email: 'ana@example.com' },
  organization: { id: 'org_Q7hwPbbfp16ravSPOtMigq', name: 'Acme Legal' },
  plan: { tier: 'team', apiAccess: true, maxActiveWatches: 500, minScanCadence: 'hourly' },
  key: {
    id: 'key_5T0cHq2wZr8LmVb3Nx7yPd',
    name: 'ci',
    scopes: ['watches:read', 'alerts:read'],
    createdAt: '2026-11-22T09:30:00.000Z',
  },
  rateLimit: { limit: 60, remaining: 59 },
};

export const apiKeyExample = {
  id: 'key_5T0cHq2wZr8LmVb3Nx7yPd',
  name: 'ci',
  prefix: 'tmw_Xb3kP0qa',
  scopes: ['watches:read', 'alerts:read'],
  createdAt: '2026-11-22T09:30:00.000Z',
  revokedAt: '2026-11-22T10:00:00.000Z',
};

export const createWatchExample = {
  watchType: 'trademark',
  name: 'Sargent',
  attributes: { niceClasses: [6, 20], designations: ['US'] },
  scanCadence: 'daily',
};

export const updateWatchExample = {
  name: 'Sargent & Co',
  attributes: { niceClasses: [6, 20, 42], designations: ['US', 'EU'], relatedClasses: false },
  scanCadence: 'weekly',
};

export const updateAlertExample = { state: 'read' };
