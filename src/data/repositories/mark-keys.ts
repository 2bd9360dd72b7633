/**
 * The SQL of a text[] of match keys (src/matching's tokens or sound codes) as mark_keys_idx holds
 * them: hashed (migration 036). The candidate query writes both sides of `&&` through it, the
 * column's (`k.tokens`) and the watch's (`$n::text[]`), so that the condition is the index's own
 * expression and PostgreSQL searches the index with it. `texts` is an SQL expression of type
 * text[].
 */
export function hashedKeys(texts: string): string {
  return `mark_key_hashes(${texts})`;
}
