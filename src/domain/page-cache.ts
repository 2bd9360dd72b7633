import { LRUCache } from 'lru-cache';

/** Default memory for the alert pages an API process keeps (ALERT_LIST_CACHE_MB). */
export const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;

// Rough cost of an entry beyond its body and key: the map slot and the entry object.
const ENTRY_OVERHEAD_BYTES = 100;
// The share of the cache's memory that remembers which pages were asked for once.
const ASKED_ONCE_SHARE = 1 / 8;

/**
 * Response bodies of list pages, each kept with the version of the data it was read at. A body is
 * handed out only for the same version, so the caller's fresh reading of the version decides
 * whether the page is still what the database would answer; the cache itself never expires
 * anything but the least recently used pages beyond its size.
 *
 * A page is kept from the second time it is asked for. Many requests are one-offs (clients polling
 * with a new `since` each time): keeping those would evict the pages that are asked for again, and
 * every 60 KB body kept only to be dropped later costs the garbage collector more than the page
 * saves (bench:api, docs/benchmarks.md).
 */
export type PageCache = {
  /**
   * Whether the page of `key` was asked for before (it may be kept, or be worth keeping now).
   * The first time, it only remembers the key and says false: the caller reads the page and
   * keeps nothing.
   */
  askedBefore(key: string): boolean;
  get(key: string, version: string): Buffer | undefined;
  set(key: string, version: string, body: Buffer): void;
};

/**
 * The body in an allocation of its own. Node hands out Buffers under 4 KiB (an empty page, a short
 * filtered one) as slices of a shared 8 KiB pool; keeping such a slice would keep the whole pool
 * block alive while the cache counted only the slice.
 */
function ownAllocation(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const copy = Buffer.allocUnsafeSlow(body.length);
  body.copy(copy);
  return copy;
}

/** A cache of at most `maxBytes` (bodies and keys); null when `maxBytes` is 0 (caching off). */
export function createPageCache(maxBytes: number): PageCache | null {
  if (maxBytes <= 0) return null;
  const pages = new LRUCache<string, { version: string; body: Buffer }>({
    maxSize: maxBytes,
    sizeCalculation: (entry, key) =>
      entry.body.buffer.byteLength + key.length + ENTRY_OVERHEAD_BYTES,
  });
  const askedOnce = new LRUCache<string, true>({
    maxSize: Math.max(1, Math.floor(maxBytes * ASKED_ONCE_SHARE)),
    sizeCalculation: (_entry, key) => key.length + ENTRY_OVERHEAD_BYTES,
  });
  return {
    askedBefore(key) {
      if (pages.has(key) || askedOnce.has(key)) return true;
      askedOnce.set(key, true);
      return false;
    },
    get(key, version) {
      const entry = pages.get(key);
      return entry?.version === version ? entry.body : undefined;
    },
    set(key, version, body) {
      askedOnce.delete(key);
      pages.set(key, { version, body: ownAllocation(body) });
    },
  };
}
