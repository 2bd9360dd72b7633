import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 text of random bytes; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export type IdPrefix =
  | 'wat'
  | 'alt'
  | 'hit'
  | 'key'
  | 'usr'
  | 'org'
  | 'scn'
  | 'ses'
  | 'eml'
  | 'whk'
  | 'whd'
  | 'msg';

/** Opaque, prefixed ids: the prefix tells a reader of a log line what the id is. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}

const ID_BODY = /^[0-9A-Za-z]{1,64}$/;

/**
 * Could `value` be an id of this kind? A malformed id is simply absent (pipeline step 8), and checking
 * first keeps text PostgreSQL cannot even hold (a NUL character) from turning a 404 into a 500.
 */
export function isIdOf(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_BODY.test(value.slice(prefix.length + 1));
}
