/**
 * The SQL of a text[] of match keys (src/matching's tokens or sound codes) as mark_keys stores
 * them: hashed (migration 036). The importer writes through it and the candidate query searches
 * through it, so both hash the same way and Node keeps text keys. `texts` is an SQL expression of
 * type text[]: a column, or a parameter cast to text[].
 */
export function hashedKeys(texts: string): string {
  return `mark_key_hashes(${texts})`;
}
