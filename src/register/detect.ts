export type RecordFormat = 'jsonl' | 'uspto-xml';

/**
 * Which reader a file needs, from its first bytes (already decompressed): skip a UTF-8 BOM and
 * whitespace, then `{` is JSON Lines and `<` is XML (`<?xml`, `<!DOCTYPE`, `<case-file>` …).
 * Anything else, including nothing but whitespace, is null.
 */
export function detectFormat(firstBytes: Uint8Array): RecordFormat | null {
  const c = firstSignificantByte(firstBytes);
  if (c === 0x7b) return 'jsonl';
  if (c === 0x3c) return 'uspto-xml';
  return null;
}

/** The first byte after a UTF-8 BOM and ASCII whitespace, or null if there is none. */
export function firstSignificantByte(bytes: Uint8Array): number | null {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (; i < bytes.length; i += 1) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c ?? null;
  }
  return null;
}
