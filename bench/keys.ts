// `npm run bench:keys`: what each path of the candidate rule retrieves on bench:scan's synthetic
// register, and what of it the decision raises: counted, not timed, in memory (no database), so
// that two versions compare on a loaded machine. Each watch has one variant of each kind planted
// in its classes, as in bench:scan. It prints:
//   - candidates per watch, and those that may be conflicts (conflictCandidates: what an
//     incremental scan reads in full);
//   - by the classes a candidate is retrieved in (the watch's own or none published, a related
//     class only, any class: the brand itself elsewhere): candidates, those a text rule finds, and
//     those raised;
//   - by the key that retrieves it (each rule's keys, the two-edit band) and those classes: the
//     candidates it retrieves, those it alone retrieves, and how many of the latter are raised:
//     what leaving that key out would save, and cost;
//   - the decision's CPU per candidate (best of three passes over the candidates, JIT warm).
//
//   BENCH_KEYS_DROP keys (rule kinds, `band`) whose candidates in a related class are counted:
//                   those no other key retrieves, and how many of them are raised (what a
//                   related-class search without these keys would leave out), each raised one
//                   listed with its reasons and keys
//   BENCH_RECORDS   register size (default 300000)
//   BENCH_WATCHES   watches (default 1000)
//   BENCH_SEED      seed (default 20240611)
import { anyClassForms } from '../src/matching/any-class.ts';
import {
  bandLengths,
  bandThreshold,
  buildCandidateIndex,
  conflictCandidates,
  type IndexedRecordRow,
  matchCandidateIndex,
} from '../src/matching/candidates.ts';
import {
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
  type RecordInput,
} from '../src/matching/decide.ts';
import { analyzeMark, matchKeysOf } from '../src/matching/normalize.ts';
import { RULES, ruleOf } from '../src/matching/rules/index.ts';
import type { KeySink } from '../src/matching/rules/rule.ts';
import { trigramSimilarity, trigrams } from '../src/matching/similarity.ts';
import { countWords } from '../src/matching/word-weights.ts';
import { liveOfStatusWord } from '../src/register/liveness.ts';
import { readMarkTexts } from './lib/mark-texts.ts';
import { trainMarkModel } from './lib/markov.ts';
import { mulberry32, random } from './lib/random.ts';
import { registerGenerator, type SyntheticRecord } from './lib/register.ts';
import { fmt, quantile } from './lib/stats.ts';
import { isBrandLike, VARIANT_KINDS, variantGenerators, vocabularyOf } from './lib/variants.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const recordCount = env('BENCH_RECORDS', 300_000);
const watchCount = env('BENCH_WATCHES', 1000);
const seed = env('BENCH_SEED', 20_240_611);
const dropped = new Set((process.env.BENCH_KEYS_DROP ?? '').split(',').filter((k) => k !== ''));
const left = { candidates: 0, raised: 0 };
const lost: string[] = [];

const texts = readMarkTexts();
const rnd = random(mulberry32(seed));
const generator = registerGenerator(trainMarkModel(texts, 4), rnd);
const specs = random(mulberry32(seed ^ 0x5eed))
  .shuffle(texts.filter(isBrandLike))
  .slice(0, watchCount)
  .map((name) => generator.watch(name));

const records: SyntheticRecord[] = [];
for (let i = 0; i < recordCount; i++) records.push(generator.record());
const { generators, applies } = variantGenerators(rnd, vocabularyOf(texts));
for (const spec of specs) {
  for (const kind of VARIANT_KINDS) {
    for (let attempt = 0; attempt < 6; attempt++) {
      const text = generators[kind](spec.name);
      if (text === null || !applies(kind, spec.name, text)) continue;
      records.push(generator.plantFor(spec, text));
      break;
    }
  }
}
const analyses = records.map((r) => analyzeMark(r.markText));
// The register's word counts, as the scanner reads them from mark_words.
const stats = countWords(analyses.map((a) => a.words));
const rows: IndexedRecordRow[] = records.map((r, id) => {
  const a = analyses[id] as ReturnType<typeof analyzeMark>;
  const keys = matchKeysOf(a);
  return {
    id,
    markText: r.markText,
    live: liveOfStatusWord(r.status),
    tokens: keys.tokens,
    sound: keys.soundCodes,
    compact: a.compact,
    len: a.compact.length,
    classes: r.classes,
    jurisdiction: r.jurisdiction,
    designations: r.designations ?? [],
  };
});
const index = buildCandidateIndex(rows);
console.log(
  `${fmt(records.length, 0)} records (${fmt(records.length - recordCount, 0)} planted), ${specs.length} watches, seed ${seed}`,
);

/** Each rule's keys on their own, to tell which rule's key retrieved a record. */
function keysByRule(p: PreparedWatch) {
  return RULES.flatMap((rule) => {
    if (rule.keys === undefined) return [];
    const sink: KeySink = { tokens: new Set(), nearWords: [], phonetic: [] };
    rule.keys(p, sink);
    const tokens = new Set([...sink.tokens, ...sink.nearWords]);
    return [{ kind: rule.kind, tokens, phonetic: new Set(sink.phonetic) }];
  });
}

type Count = { candidates: number; text: number; raised: number };
type KeyCount = { retrieves: number; alone: number; raisedAlone: number };
const byClasses = new Map<string, Count>();
const byKey = new Map<string, KeyCount>();
const perWatch: number[] = [];
const readPerWatch: number[] = [];
const decided: [PreparedWatch, RecordInput][] = [];

for (const spec of specs) {
  const p = prepareWatch(spec, stats);
  const byRule = keysByRule(p);
  const forms = anyClassForms(p);
  const ids = matchCandidateIndex(index, p);
  perWatch.push(ids.length);
  readPerWatch.push(conflictCandidates(index, p).length);
  for (const id of ids) {
    const row = rows[id] as IndexedRecordRow;
    const record = { ...(records[id] as SyntheticRecord), designations: row.designations };
    const keys = byRule
      .filter(
        (r) => row.tokens.some((t) => r.tokens.has(t)) || row.sound.some((c) => r.phonetic.has(c)),
      )
      .map((r) => r.kind as string);
    const { low, high } = bandLengths(p.search.compact.length);
    if (
      p.search.useTrigram &&
      row.len >= low &&
      row.len <= high &&
      trigramSimilarity(p.trigramSet, trigrams(row.compact)) >= bandThreshold(p)
    ) {
      keys.push('band');
    }
    if (keys.length === 0) keys.push('(none: a hash twin)');
    const own = row.classes.length === 0 || row.classes.some((c) => p.classes.has(c));
    const related = !own && row.classes.some((c) => p.candidateClasses.includes(c));
    const classes = own
      ? 'own classes'
      : related
        ? 'related class'
        : forms.length > 0
          ? 'any class'
          : '?';
    // A dead record raises nothing: the scan skips it undecided.
    const decision = row.live === false ? null : decideConflictPrepared(p, record);
    if (decision !== null) decided.push([p, record]);
    const raised = decision?.conflict === true;
    const c = byClasses.get(classes) ?? { candidates: 0, text: 0, raised: 0 };
    c.candidates++;
    if (decision?.reasons.some((r) => ruleOf(r.kind) !== undefined)) c.text++;
    if (raised) c.raised++;
    byClasses.set(classes, c);
    if (related && dropped.size > 0 && keys.every((k) => dropped.has(k))) {
      left.candidates++;
      if (raised) {
        left.raised++;
        const reasons = decision?.reasons.map((r) => r.kind).join('+');
        lost.push(
          `${spec.name} / ${record.markText} [${record.classes.join(',')}] (${reasons}; keys ${keys.join(', ')})`,
        );
      }
    }
    for (const key of keys) {
      const k = byKey.get(`${key} | ${classes}`) ?? { retrieves: 0, alone: 0, raisedAlone: 0 };
      k.retrieves++;
      if (keys.length === 1) {
        k.alone++;
        if (raised) k.raisedAlone++;
      }
      byKey.set(`${key} | ${classes}`, k);
    }
  }
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const dist = (xs: readonly number[]) =>
  `p50/p99 ${fmt(quantile(sorted(xs), 0.5), 0)}/${fmt(quantile(sorted(xs), 0.99), 0)}, total ${fmt(
    xs.reduce((a, b) => a + b, 0),
    0,
  )}`;
console.log(`candidates per watch ${dist(perWatch)}`);
console.log(
  `that may be conflicts (read in full by an incremental scan) ${dist(readPerWatch)}; watches with a candidate ${perWatch.filter((n) => n > 0).length}, with one to read ${readPerWatch.filter((n) => n > 0).length}`,
);
for (const [classes, c] of byClasses) {
  console.log(
    `in ${classes}: ${fmt(c.candidates, 0)} candidates, ${fmt(c.text, 0)} found by a text rule, ${fmt(c.raised, 0)} raised`,
  );
}
console.log('key | classes: retrieves, alone, raised of those alone');
for (const [key, k] of [...byKey].sort((a, b) => b[1].alone - a[1].alone)) {
  console.log(`  ${key}: ${fmt(k.retrieves, 0)}, ${fmt(k.alone, 0)}, ${fmt(k.raisedAlone, 0)}`);
}
if (dropped.size > 0) {
  console.log(
    `related-class candidates only ${[...dropped].join(', ')} retrieve: ${fmt(left.candidates, 0)}, raised ${fmt(left.raised, 0)}`,
  );
  for (const l of lost) console.log(`  lost: ${l}`);
}
let best = Number.POSITIVE_INFINITY;
for (let pass = 0; pass < 3; pass++) {
  const t0 = process.cpuUsage();
  for (const [p, r] of decided) decideConflictPrepared(p, r);
  const used = process.cpuUsage(t0);
  best = Math.min(best, (used.user + used.system) / decided.length);
}
console.log(
  `decision CPU ${fmt(best, 1)} µs per candidate (${fmt(decided.length, 0)} live candidates)`,
);
