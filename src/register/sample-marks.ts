import { fileURLToPath } from 'node:url';
import type { RegisterRecord } from './record.ts';

/**
 * The bundled sample of real register records (normalized JSON Lines) that a fresh install loads
 * so that a first watch finds hits (operations.md, "Start"). Rebuilt by
 * `src/register/scripts/make-sample-marks.ts`; provenance in `src/register/assets/README.md`.
 */
export const SAMPLE_MARKS_PATH = fileURLToPath(
  new URL('./assets/sample-marks.jsonl', import.meta.url),
);

export const EUIPO_SOURCE = 'euipo-trademarks2020';

/** One entry of `Trademark2020_validation.json`, keyed by EUTM number. */
export type EuipoDatasetEntry = { Codes?: string[]; Date?: string; Text?: string | null };

/** ST.13 of an EU trade mark: `EM` + `50` (trade mark) + `0000` (no year) + the 9-digit number. */
export function euipoSt13(eutmNumber: string): string {
  return `EM500000${eutmNumber.padStart(9, '0')}`;
}

/**
 * The dataset has no Nice class, and a watch filters by class, so each EUIPO sample record gets
 * exactly one class by this fixed rule, flagged `classesSynthetic: true`. It is arbitrary and
 * says nothing about the real mark's goods; it only spreads the sample evenly over 1..45.
 */
export function syntheticClass(eutmNumber: string): number {
  return 1 + (Number.parseInt(eutmNumber, 10) % 45);
}

/**
 * A normalized JSON Lines object (with a `provenance` block, kept in rawPayload on import) for
 * one EUIPO dataset entry, or null when it cannot be one: international registrations (`W…`
 * keys, not EUTM numbers), entries without a verbal element or a date, and texts with fewer than
 * two letters (figurative marks whose "text" is a symbol).
 *
 * What the source does not say is not invented: the owner is "(not in source data)" with the
 * ST.3 code for unknown, `XX`; the status is `filed`, the one thing every entry certainly was.
 */
export function euipoSampleLine(
  eutmNumber: string,
  entry: EuipoDatasetEntry,
): Record<string, unknown> | null {
  if (!/^\d{9}$/.test(eutmNumber)) return null;
  const markText = entry.Text?.trim() ?? '';
  if ((markText.match(/\p{L}/gu) ?? []).length < 2 || markText.length > 60) return null;
  if (!entry.Date || !/^\d{4}-\d{2}-\d{2}$/.test(entry.Date)) return null;
  const classRule = '1 + (EUTM number mod 45)';
  return {
    externalId: euipoSt13(eutmNumber),
    markText,
    ownerName: '(not in source data)',
    ownerCountryCode: 'XX',
    jurisdiction: 'EM',
    filedAt: entry.Date,
    registeredAt: null,
    expiresAt: null,
    status: 'filed',
    publishedAt: null,
    classes: [syntheticClass(eutmNumber)],
    logoUrl: null,
    provenance: {
      source: EUIPO_SOURCE,
      eutmNumber,
      viennaCodes: entry.Codes ?? [],
      classesSynthetic: true,
      classRule,
      ownerInSource: false,
      statusInSource: false,
    },
  } satisfies Omit<RegisterRecord, 'designations' | 'rawPayload'> & { provenance: unknown };
}

/**
 * About `target` EUIPO lines, spread evenly over the dataset: entries are taken in EUTM-number
 * order (so over filing years 1996-2020), one every `step`, skipping a text already taken
 * (case-insensitive). Deterministic: the same dataset gives the same lines.
 */
export function euipoSampleLines(
  dataset: Record<string, EuipoDatasetEntry>,
  target: number,
): Record<string, unknown>[] {
  const candidates: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const number of Object.keys(dataset).sort()) {
    const entry = dataset[number];
    const line = entry ? euipoSampleLine(number, entry) : null;
    const key = typeof line?.markText === 'string' ? line.markText.toUpperCase() : '';
    if (line === null || seen.has(key)) continue;
    seen.add(key);
    candidates.push(line);
  }
  const step = Math.max(1, Math.floor(candidates.length / target));
  return candidates.filter((_, i) => i % step === 0).slice(0, target);
}
