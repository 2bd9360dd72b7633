import { LRUCache } from 'lru-cache';

/** Default memory for the alert pages an API process keeps (ALERT_LIST_CACHE_MB). */
export const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;

// Rough cost of an entry beyond its body and key: the map slot and the entry object.
const ENTRY_OVERHEAD_BYTES = 100;

/**
 * Response bodies of list pages, each kept with the version of the data it was read at. A body is
 * handed out only for the same version, so the caller's fresh reading of the version decides
 * whether the page is still what the database would answer; the cache itself never expires
 * anything but the least recently used pages beyond its size.
 */
export type PageCache = {
  get(key: string, version: string): Buffer | undefined;
  set(key: string, version: string, body: Buffer): void;
};

/** A cache of at most `maxBytes` (bodies and keys); null when `maxBytes` is 0 (caching off). */
export function createPageCache(maxBytes: number): PageCache | null {
  if (maxBytes <= 0) return null;
  const pages = new LRUCache<string, { version: string; body: Buffer }>({
    maxSize: maxBytes,
    sizeCalculation: (entry, key) => entry.body.length + key.length + ENTRY_OVERHEAD_BYTES,
  });
  return {
    get(key, version) {
      const entry = pages.get(key);
      return entry?.version === version ? entry.body : undefined;
    },
    set(key, version, body) {
      pages.set(key, { version, body });
    },
  };
}
