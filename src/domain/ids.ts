import { randomFillSync } from 'node:crypto';
import { hostname } from 'node:os';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the system's CSPRNG a pool at a time, each byte used once (as Node's own
 * randomUUID does): a scan names every hit, alert and event it records, and one randomBytes call
 * per id cost more than the rest of the id's work (~10 µs each, measured in bench:scan's profile).
 */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** Base62 text of random bytes; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
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

/**
 * The name a process's claims are held under (a watch's scan lease, a feed's sync): the host, the
 * process and a random part, so that the logs say who holds what.
 */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBase62(6)}`;
}
