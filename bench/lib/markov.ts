// A character model of mark texts, trained on real ones: an order-k Markov chain over the letters
// of words (upper-cased, so that case does not split the statistics), the number of words per mark
// as observed, and the case style of whole marks as observed (all capitals, all lower case, mixed).

import { drawIndex } from './random.ts';

const START = '\u0002';
const END = '\u0003';
/** Longest word the chain writes; the real texts have a few longer ones, which are noise. */
const MAX_WORD = 24;

/** One context of the chain: the characters seen after it, and the context each one leads to. */
type State = { chars: string[]; next: Int32Array; cumulative: Float64Array; total: number };

export type CaseStyle = 'upper' | 'lower' | 'mixed';

export type MarkModel = {
  order: number;
  /** Distinct contexts of the chain. */
  contexts: number;
  /** One word from the chain (upper case). */
  word: (rand: () => number) => string;
  /** A whole mark text: a word count and a case style drawn as observed, words from the chain. */
  text: (rand: () => number) => string;
};

function sampler<T>(counts: Map<T, number>): { values: T[]; cumulative: number[]; total: number } {
  const values: T[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [value, n] of counts) {
    values.push(value);
    total += n;
    cumulative.push(total);
  }
  return { values, cumulative, total };
}

function caseStyleOf(text: string): CaseStyle {
  if (text === text.toUpperCase()) return 'upper';
  if (text === text.toLowerCase()) return 'lower';
  return 'mixed';
}

/** Trains the model on real mark texts (one per element). */
export function trainMarkModel(texts: readonly string[], order = 3): MarkModel {
  const counts = new Map<string, Map<string, number>>();
  const wordCounts = new Map<number, number>();
  const styles = new Map<CaseStyle, number>();
  const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const text of texts) {
    const words = text.split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) continue;
    bump(wordCounts, words.length);
    bump(styles, caseStyleOf(text));
    for (const raw of words) {
      const chars = Array.from(raw.toUpperCase());
      let context = START.repeat(order);
      for (const c of [...chars, END]) {
        let next = counts.get(context);
        if (next === undefined) {
          next = new Map();
          counts.set(context, next);
        }
        bump(next, c);
        context = (context + c).slice(-order);
      }
    }
  }
  // Contexts become numbered states, and each transition points at its next state, so that
  // generating a word is array indexing only (no string keys: a million marks take seconds).
  const ids = new Map<string, number>();
  for (const context of counts.keys()) ids.set(context, ids.size);
  const states: State[] = [];
  for (const [context, next] of counts) {
    const s = sampler(next);
    const targets = new Int32Array(s.values.length);
    s.values.forEach((c, i) => {
      targets[i] = c === END ? -1 : (ids.get((context + c).slice(-order)) ?? -1);
    });
    states.push({
      chars: s.values,
      next: targets,
      cumulative: Float64Array.from(s.cumulative),
      total: s.total,
    });
  }
  const startState = ids.get(START.repeat(order)) ?? 0;
  const lengths = sampler(wordCounts);
  const styleTable = sampler(styles);

  const word = (rand: () => number): string => {
    let state = states[startState];
    let out = '';
    for (let n = 0; n < MAX_WORD && state !== undefined; n++) {
      const i = drawIndex(state.cumulative, state.total, rand);
      const c = state.chars[i] as string;
      if (c === END) break;
      out += c;
      // Every context reached in generation was seen in training, so it is a state.
      state = states[state.next[i] as number];
    }
    return out;
  };

  const styled = (w: string, style: CaseStyle, rand: () => number): string => {
    if (style === 'upper') return w;
    if (style === 'lower') return w.toLowerCase();
    // Mixed marks: mostly capitalised words, some in capitals, some in lower case.
    const r = rand();
    if (r < 0.6) return w.charAt(0) + w.slice(1).toLowerCase();
    return r < 0.85 ? w : w.toLowerCase();
  };

  return {
    order,
    contexts: states.length,
    word,
    text(rand) {
      const n = lengths.values[drawIndex(lengths.cumulative, lengths.total, rand)] as number;
      const style = styleTable.values[
        drawIndex(styleTable.cumulative, styleTable.total, rand)
      ] as CaseStyle;
      const words: string[] = [];
      for (let i = 0; i < n; i++) {
        let w = word(rand);
        for (let tries = 0; w === '' && tries < 5; tries++) w = word(rand);
        if (w !== '') words.push(styled(w, style, rand));
      }
      return words.length > 0 ? words.join(' ') : 'X';
    },
  };
}
