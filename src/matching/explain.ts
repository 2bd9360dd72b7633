// Concrete evidence for a rationale: which letters differ between two spellings, which respellings
// make two marks sound alike, which look-alike characters stand for which letters. Pure.

export type EditStep =
  | { op: 'substitute'; at: number; from: string; to: string }
  | { op: 'insert'; at: number; char: string }
  | { op: 'delete'; at: number; char: string }
  | { op: 'swap'; at: number; pair: string };

/**
 * The edits that turn `a` into `b` (optimal string alignment: insert, delete, substitute, swap two
 * neighbours), positions in `a` counted from 0. Meant for short texts a few edits apart.
 */
export function editSteps(a: string, b: string): EditStep[] {
  const n = a.length;
  const m = b.length;
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const row = (i: number) => d[i] as number[];
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        (row(i - 1)[j] as number) + 1,
        (row(i)[j - 1] as number) + 1,
        (row(i - 1)[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (row(i - 2)[j - 2] as number) + 1);
      }
      row(i)[j] = v;
    }
  }
  const steps: EditStep[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = row(i)[j] as number;
    if (i > 0 && j > 0 && a[i - 1] === b[j - 1] && row(i - 1)[j - 1] === here) {
      i--;
      j--;
    } else if (
      i > 1 &&
      j > 1 &&
      a[i - 1] === b[j - 2] &&
      a[i - 2] === b[j - 1] &&
      row(i - 2)[j - 2] === here - 1
    ) {
      steps.push({ op: 'swap', at: i - 2, pair: a.slice(i - 2, i) });
      i -= 2;
      j -= 2;
    } else if (i > 0 && j > 0 && row(i - 1)[j - 1] === here - 1) {
      steps.push({ op: 'substitute', at: i - 1, from: a[i - 1] as string, to: b[j - 1] as string });
      i--;
      j--;
    } else if (j > 0 && row(i)[j - 1] === here - 1) {
      steps.push({ op: 'insert', at: i, char: b[j - 1] as string });
      j--;
    } else {
      steps.push({ op: 'delete', at: i - 1, char: a[i - 1] as string });
      i--;
    }
  }
  return steps.reverse();
}

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
}

/** One edit in words: "E replaced by O (4th letter)", "S added at the end". */
export function describeStep(step: EditStep, length: number): string {
  switch (step.op) {
    case 'substitute':
      return `${step.from} replaced by ${step.to} (${ordinal(step.at + 1)} letter)`;
    case 'insert':
      return step.at === 0
        ? `${step.char} added at the start`
        : step.at === length
          ? `${step.char} added at the end`
          : `${step.char} added after the ${ordinal(step.at)} letter`;
    case 'delete':
      return `the ${ordinal(step.at + 1)} letter, ${step.char}, left out`;
    case 'swap':
      return `${step.pair} swapped to ${step.pair[1]}${step.pair[0]} (letters ${step.at + 1} and ${step.at + 2})`;
  }
}

/** The edits from `a` to `b` in words, joined: "E replaced by O (4th letter)". */
export function describeEdits(a: string, b: string): string {
  return editSteps(a, b)
    .map((s) => describeStep(s, a.length))
    .join('; ');
}

/** The respellings the phonetic skeleton reads as one sound, with a test for each. */
const RESPELLINGS: readonly [RegExp, string][] = [
  [/PH/, 'PH as F'],
  [/CK/, 'CK as K'],
  [/QU/, 'QU as KW'],
  [/Q(?!U)/, 'Q as K'],
  [/X/, 'X as KS'],
  [/C(?=[EIY])/, 'C before E, I or Y as S'],
  [/C(?![EIYK])/, 'C as K'],
  [/Z/, 'Z as S'],
  [/Y/, 'Y as I'],
  [/([A-Z])\1/, 'doubled letters as one'],
  [/^.{4,}E$/, 'a silent final E'],
];

/** The respellings that apply to either text (letters A-Z), in words: "PH as F, Y as I". */
export function respellingsBetween(a: string, b: string): string[] {
  return RESPELLINGS.filter(([re]) => re.test(a) || re.test(b)).map(([, name]) => name);
}

/**
 * The look-alike characters of `mark` that stand for the brand's letters, as "1 for I" pairs, when
 * the two texts (unfolded compact forms) have the same length; empty otherwise.
 */
export function lookalikePairs(brand: string, mark: string): string[] {
  if (brand.length !== mark.length) return [];
  const out = new Set<string>();
  for (let i = 0; i < brand.length; i++) {
    if (brand[i] !== mark[i]) out.add(`${mark[i]} for ${brand[i]}`);
  }
  return [...out];
}
