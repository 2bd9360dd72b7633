/** The q-quantile (0..1) of a list of numbers, nearest rank; NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : sum(values) / values.length;

export const fmt = (n: number, digits = 1): string =>
  Number.isFinite(n) ? n.toLocaleString('en', { maximumFractionDigits: digits }) : 'n/a';

export const pct = (a: number, b: number): string =>
  b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`;
