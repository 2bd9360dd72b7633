// Whether a record is live or dead at its office: `true` (an application or registration that
// still stands), `false` (abandoned, refused, withdrawn, cancelled, expired) or `null` when the
// office's own code does not say. A dead record threatens nobody: a scan raises no alert for it and
// an alert on a record that died is never high (docs/matching.md, "Live or dead").

/**
 * The USPTO's own Live/Dead indicator (status code table, column live_dead_indicator):
 * `Live/Registered`, `Live/Pending`, `Live` are live; `Dead/Abandoned`, `Dead/Cancelled`,
 * `Dead/Expired`, `Dead` are dead; `Indifferent` (000 unknown, 622 misassigned serial, 970 record
 * for an assignment) and `Indifferent/Cancelled` (715, cancelled and restored to pendency) say
 * neither, so neither is said here.
 */
export function liveOfUsptoIndicator(indicator: string | null): boolean | null {
  if (indicator === null) return null;
  if (indicator === 'Live' || indicator.startsWith('Live/')) return true;
  if (indicator === 'Dead' || indicator.startsWith('Dead/')) return false;
  return null;
}

const LIVE_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['filed', true],
  ['pending', true],
  ['published', true],
  ['opposed', true],
  ['registered', true],
  ['abandoned', false],
  ['cancelled', false],
  ['expired', false],
]);

/**
 * Live or dead from a status word of the normalized format (docs/register-formats.md). Every
 * reader's word comes from its office's own table (ST.66's MarkCurrentStatusCode texts as the
 * EUIPO, CIPO and WIPO files write them, the EUIPO API's status codes), so this is those tables'
 * category: filed, pending, published, opposed and registered are live; abandoned (refused,
 * withdrawn), cancelled (surrendered, removed) and expired are dead. Any other word, or none,
 * says nothing: null.
 */
export function liveOfStatusWord(word: string | null): boolean | null {
  return word === null ? null : (LIVE_WORDS.get(word) ?? null);
}
