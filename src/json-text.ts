// PostgreSQL writes JSON with spaces: json_build_object gives `{"id" : "wat_…", "name" : …}` and a
// jsonb value inside it `{"niceClasses": [9]}`. The API sends the JSON the database built without
// parsing it (src/data/repositories/json-sql.ts), so this removes that whitespace on the way out:
// every answer is compact, as JSON.stringify would write it, at the cost of one pass over the bytes.
// That pass costs far more than copying the bytes: an alert's JSON, the bulk of the hottest list,
// is stored compact instead (migration 033) and its pages skip it.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Copies the JSON text `source` into `target` at `at` without the whitespace between its tokens
 * (text inside strings is kept byte for byte); returns the offset after the last byte written.
 * `source` must be valid JSON; `target` needs `source.length` bytes of room from `at`.
 */
export function copyCompactJson(source: Uint8Array, target: Uint8Array, at: number): number {
  let out = at;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as number;
    if (inString) {
      target[out++] = c;
      if (c === BACKSLASH) {
        // The escaped character is copied as it is, a quote included.
        i++;
        target[out++] = source[i] as number;
      } else if (c === QUOTE) {
        inString = false;
      }
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
      target[out++] = c;
      if (c === QUOTE) inString = true;
    }
  }
  return out;
}

/** The JSON text without the whitespace between its tokens (see copyCompactJson). */
export function compactJson(json: string): string {
  const source = Buffer.from(json, 'utf8');
  const target = Buffer.allocUnsafe(source.length);
  return target.toString('utf8', 0, copyCompactJson(source, target, 0));
}
