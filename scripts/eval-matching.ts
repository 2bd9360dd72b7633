// Evaluates the matching rules (src/matching) on real EUIPO mark texts.
//
//   node --import tsx scripts/eval-matching.ts            (npm run eval:matching)
//   node --import tsx scripts/eval-matching.ts --no-write  (print only, leave docs alone)
//   node --import tsx scripts/eval-matching.ts --seed 7 --brands 500 --no-write --all
//                                                         (another draw; --all lists every false alert)
//   node --import tsx scripts/eval-matching.ts --no-write --dev-misses
//                                                         (also list the development part's missed
//                                                         conflicts: rules, goods, gate and score)
//   node --import tsx scripts/eval-matching.ts --extract <Trademark2020_validation.json>
//                                                         (rebuild the fixture, see its NOTICE.md)
//
// Watched brands are drawn (seeded PRNG) from the real texts in test/fixtures/euipo. For each
// brand, positives are generated per variant kind; negatives are all the other real marks, in the
// same classes and territory, so only the text decides. Prints recall per kind and false alerts
// per 10,000 unrelated marks per watch, checks that the SQL candidate keys retrieve every accepted
// pair, and rewrites the block between <!-- eval:start --> and <!-- eval:end --> in
// docs/matching.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  crossesClasses,
  decidedRecord,
  type Part,
  pairClasses,
  readDecidedCases,
} from '../bench/lib/decided-cases.ts';
import { MARK_TEXTS_FILE, readMarkTexts } from '../bench/lib/mark-texts.ts';
import {
  ALERTS_PER_WATCH_BEFORE,
  checkTargets,
  HELD_OUT_RAISED_GOAL,
} from '../bench/lib/matching-targets.ts';
import {
  closestLikeness,
  costOfRaising,
  descending,
  neededFromUnfound,
  type UnfoundPair,
} from '../bench/lib/raising-cost.ts';
import { mulberry32 } from '../bench/lib/random.ts';
import {
  EXPECTED_REASON as EXPECTED,
  isBrandLike,
  VARIANT_KINDS as KINDS,
  type VariantKind as Kind,
  variantGenerators,
  vocabularyOf,
} from '../bench/lib/variants.ts';
import { retrievedInAnyClass } from '../src/matching/any-class.ts';
import {
  relatedClassTokens,
  retrieves,
  retrievesInRelatedClass,
  watchTokens,
} from '../src/matching/candidates.ts';
import {
  acrossGate,
  decideConflictPrepared,
  findCandidate,
  type PreparedWatch,
  prepareWatch,
  RELATED_MIN_SCORE,
  type Reason,
  type RecordInput,
  raisedAt,
  scorePair,
  type TextReason,
} from '../src/matching/decide.ts';
import { FEATURES } from '../src/matching/features.ts';
import { MODEL } from '../src/matching/model.ts';
import {
  analyzeMark,
  type MarkAnalysis,
  type MatchKeys,
  matchKeys,
} from '../src/matching/normalize.ts';
import { ruleOf } from '../src/matching/rules/index.ts';
import { assessSeverity, SEVERITIES, type Severity } from '../src/matching/severity.ts';
import { trigrams } from '../src/matching/similarity.ts';
import { englishWords, isWord } from '../src/matching/vocabulary.ts';
import { countWords, isWeakWord } from '../src/matching/word-weights.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = MARK_TEXTS_FILE;
const DOC = join(root, 'docs/matching.md');
const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const SEED = option('--seed', 20_240_611);
// --cases a.json,b.json: other files of decided cases (the fixture's format) instead of the fixture.
const casesAt = argv.indexOf('--cases');
const caseFiles =
  casesAt >= 0 ? (argv[casesAt + 1] ?? '').split(',') : ['test/fixtures/decided-cases/cases.json'];
const decidedCases = caseFiles.flatMap((f) => readDecidedCases(resolve(root, f)));
const BRANDS = option('--brands', 300);
/**
 * The development part's missed conflicts, printed (never written to the docs) with what the
 * decision saw, so that a change can be chosen on them; the held-out part is never listed so.
 */
const devMisses: string[] = [];
/** Each part's decided pairs not raised that no text rule finds, scored without a rule. */
const unfound: Record<Part, (UnfoundPair & { likeness: number })[]> = {
  development: [],
  'held-out': [],
};
/** The held-out part's decided conflicts: how many, how many raised, how many more a rule finds. */
const heldOutConflicts = { n: 0, raised: 0, ruleFound: 0 };
/** Why a decided conflict was not raised, in the order the decision tests it. */
const MISS_CAUSES = {
  no_rule: 'no text rule finds it',
  classes: 'a rule finds it, in classes nothing relates',
  across: 'a rule finds it in a related class, below `across`',
  score: 'a rule finds it, scored below what raises it',
} as const;
type MissCause = keyof typeof MISS_CAUSES;
const PER_KIND = 4;
const CLASSES = [25];

// ---------------------------------------------------------------------------------------------
// --extract: the fixture is the distinct trimmed `Text` values of the source JSON, in file order,
// tabs and line breaks inside a text replaced by one space.
const args = argv;
const extractAt = args.indexOf('--extract');
if (extractAt >= 0) {
  const source = args[extractAt + 1];
  if (source === undefined) throw new Error('--extract needs the path of the source JSON file');
  const data = JSON.parse(readFileSync(source, 'utf8')) as Record<string, { Text?: unknown }>;
  const seen = new Set<string>();
  for (const entry of Object.values(data)) {
    if (typeof entry.Text !== 'string') continue;
    const text = entry.Text.replace(/[\t\r\n]+/g, ' ').trim();
    if (text !== '') seen.add(text);
  }
  writeFileSync(FIXTURE, `${[...seen].join('\n')}\n`);
  console.log(`wrote ${seen.size} texts to ${FIXTURE}`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
const rand = mulberry32(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const int = (n: number): number => Math.floor(rand() * n);

const texts = readMarkTexts();
const analyses = texts.map((t) => analyzeMark(t));
const keys: MatchKeys[] = texts.map((t) => matchKeys(t));
const trigramSets = keys.map((k) => trigrams(k.compact));
// The register's word counts, as the mirror keeps them (mark_words): here the fixture is the register.
const wordStats = countWords(analyses.map((a) => a.words));
/** The rules added with the register's word counts; "before" leaves them out. */
const MEASURED_KINDS: ReadonlySet<string> = new Set([
  'shared_word',
  'same_shape',
  'digits_as_words',
  'parts_swapped',
  'compound',
]);
const textReasons = (reasons: readonly Reason[]) =>
  reasons.filter((r): r is TextReason => ruleOf(r.kind) !== undefined);
const textKinds = (reasons: readonly { kind: string }[]) =>
  reasons.filter((r) => r.kind !== 'class_overlap' && r.kind !== 'territory').map((r) => r.kind);
const raisedBefore = (reasons: readonly { kind: string }[]) =>
  textKinds(reasons).some((k) => !MEASURED_KINDS.has(k));
const prepare = (name: string) =>
  prepareWatch({ name, niceClasses: CLASSES, designations: ['DE'] }, wordStats);
const severityOf = (
  p: PreparedWatch,
  reasons: Parameters<typeof assessSeverity>[1],
  markText: string,
) => assessSeverity(p, reasons, { markText, classes: CLASSES, stats: wordStats }).severity;

// Brand-like texts: 1 to 3 words of Latin letters/digits, 4 to 20 characters, not only weak words.
const candidates = texts.filter(isBrandLike);
for (let i = candidates.length - 1; i > 0; i--) {
  const j = int(i + 1);
  [candidates[i], candidates[j]] = [candidates[j] as string, candidates[i] as string];
}
const brands = candidates.slice(0, BRANDS);

// Vocabulary of real words for "brand inside a longer mark".
const vocabulary = vocabularyOf(texts);

// ---------------------------------------------------------------------------------------------
// Variant generators (bench/lib/variants.ts, shared with bench/scan.ts). Each returns a variant
// text or null when the kind does not apply; they draw from the same seeded source as the rest.
const { generators: GENERATORS, applies } = variantGenerators({ pick, int }, vocabulary);

// ---------------------------------------------------------------------------------------------
type SeverityCounts = Record<Severity, number>;
const noSeverities = (): SeverityCounts => ({ high: 0, medium: 0, low: 0 });
interface KindStats {
  total: number;
  hit: number;
  expectedReason: number;
  misses: string[];
  severity: SeverityCounts;
}
const stats = new Map<Kind, KindStats>(
  KINDS.map((k) => [
    k,
    { total: 0, hit: 0, expectedReason: 0, misses: [], severity: noSeverities() },
  ]),
);
const falseSeverity = noSeverities();
let negativePairs = 0;
let excluded = 0;
/**
 * The unrelated marks not raised now, of the first COST_WATCHES watches, each with the two measures
 * a path that raised pairs without a rule could rank them by: the model's score and the likeness.
 */
const COST_WATCHES = 100;
const costPairs = Math.min(COST_WATCHES, BRANDS) * texts.length;
const unrelatedScores = new Float64Array(costPairs);
const unrelatedLikeness = new Float64Array(costPairs);
let unrelatedScored = 0;
/**
 * The unrelated marks a rule finds that the alert threshold would raise in a class nothing relates,
 * scored with the goods unrelated: over all watches of the draw, for one such class as large as
 * the watch's own.
 */
let unrelatedClassAlerts = 0;
/** Each part's conflicts a rule finds in classes nothing relates, and those that would be raised so. */
const classesMissed: Record<Part, { n: number; raised: number }> = {
  development: { n: 0, raised: 0 },
  'held-out': { n: 0, raised: 0 },
};
/**
 * Raised at the alert threshold if classes nothing relates were searched with the goods unrelated;
 * `classes` the record's, never the watch's (a rule's level may depend on sharing a class).
 */
const raisedAnywhere = (
  p: PreparedWatch,
  m: MarkAnalysis,
  markText: string,
  text: readonly TextReason[],
  classes: readonly number[],
) =>
  text.length > 0 &&
  scorePair(p, m, markText, text, { classes }, 'unrelated').score >= MODEL.thresholds.alert;
const falseAlerts: { brand: string; mark: string; reasons: string }[] = [];
const falseByReason = new Map<string, number>();
let retrievalChecked = 0;
let retrievalMisses = 0;
const retrievalMissExamples: string[] = [];
let candidatesRetrieved = 0;
/** Of the accepted pairs, those raised in a related class, checked against its keys only. */
let relatedChecked = 0;
let relatedMisses = 0;
let relatedCandidates = 0;

/** The candidate query's rule (src/matching/candidates.ts), with the watch's tokens built once. */
const searchTokens = new WeakMap<PreparedWatch, Set<string>>();
function retrieved(p: PreparedWatch, k: MatchKeys, recordTrigrams: Set<string> | null): boolean {
  let tokenSet = searchTokens.get(p);
  if (tokenSet === undefined) {
    tokenSet = new Set(watchTokens(p));
    searchTokens.set(p, tokenSet);
  }
  return retrieves(p, tokenSet, k, recordTrigrams ?? undefined);
}

/** The candidate query's rule in a related class: the related-class keys only. */
const relatedTokens = new WeakMap<PreparedWatch, Set<string>>();
function retrievedInRelated(p: PreparedWatch, k: MatchKeys): boolean {
  let tokenSet = relatedTokens.get(p);
  if (tokenSet === undefined) {
    tokenSet = new Set(relatedClassTokens(p));
    relatedTokens.set(p, tokenSet);
  }
  return retrievesInRelatedClass(p, tokenSet, k);
}

/**
 * Counts a pair raised in a related class in the candidate query check: the related-class keys
 * must retrieve it (`label` is listed among the misses, up to ten; null for a held-out pair, whose
 * details are not shown).
 */
function checkRelated(p: PreparedWatch, k: MatchKeys, label: string | null): void {
  retrievalChecked++;
  relatedChecked++;
  if (retrievedInRelated(p, k)) return;
  retrievalMisses++;
  relatedMisses++;
  if (label !== null && retrievalMissExamples.length < 10) retrievalMissExamples.push(label);
}

const record = (markText: string): RecordInput => ({
  markText,
  classes: CLASSES,
  jurisdiction: 'EM',
});

/** Alerts per watch over the whole register, with and without the measured rules. */
type Tally = { after: number; before: number; related: number; anyClass: number };
const alertsPerWatch: Tally[] = [];
/**
 * Would the record also be raised in a class related to the watch's rather than its own
 * (decide.ts, raisedAt: strong text at the alert threshold, weaker text from `across`; the
 * fixture's texts have no goods texts, so the class headings stand for the goods)?
 */
const raisedInRelated = (p: PreparedWatch, reasons: readonly Reason[], markText: string) => {
  const text = textReasons(reasons);
  if (text.length === 0) return false;
  const m = analyzeMark(markText);
  const { score } = scorePair(p, m, markText, text, { classes: [0] }, 'related');
  return raisedAt(p, text, 'related', score);
};
/**
 * Would the record be raised in a class the watch neither has nor relates (any-class.ts: the same
 * distinctive mark in any class)? Only a record the identity rules take can be, so only the texts
 * equal to the brand once look-alike characters are folded are asked.
 */
const raisedInAnyClass = (p: PreparedWatch, markText: string) => {
  const other = Array.from({ length: 45 }, (_v, k) => k + 1).find(
    (c) => !p.candidateClasses.includes(c),
  ) as number;
  const d = decideConflictPrepared(p, { markText, classes: [other], jurisdiction: 'EM' });
  return d.conflict && d.reasons.some((r) => r.kind === 'any_class');
};
for (const [watchIndex, brand] of brands.entries()) {
  const p = prepare(brand);
  const tally: Tally = { after: 0, before: 0, related: 0, anyClass: 0 };
  alertsPerWatch.push(tally);
  for (const kind of KINDS) {
    const st = stats.get(kind) as KindStats;
    const seen = new Set<string>();
    for (let attempt = 0; attempt < PER_KIND * 6 && seen.size < PER_KIND; attempt++) {
      const v = GENERATORS[kind](brand);
      if (v === null || seen.has(v) || !applies(kind, brand, v)) continue;
      seen.add(v);
      const d = decideConflictPrepared(p, record(v));
      st.total++;
      if (raisedInRelated(p, d.reasons, v))
        checkRelated(p, matchKeys(v), `${brand} / ${v} (related class)`);
      if (d.conflict) {
        st.hit++;
        st.severity[severityOf(p, d.reasons, v)]++;
        retrievalChecked++;
        if (!retrieved(p, matchKeys(v), null)) {
          retrievalMisses++;
          if (retrievalMissExamples.length < 10) retrievalMissExamples.push(`${brand} / ${v}`);
        }
      } else if (st.misses.length < 12) st.misses.push(`${brand} → ${v}`);
      if (d.reasons.some((r) => r.kind === EXPECTED[kind])) st.expectedReason++;
    }
  }
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    const a = analyses[i];
    if (a === undefined || text === brand) continue;
    // Narrow exclusion: the same mark once case, spacing, punctuation and look-alike characters
    // are ignored. Such a record is a true conflict, not an unrelated mark.
    if (a.lookalike === p.brand.lookalike) {
      excluded++;
      tally.after++;
      tally.before++;
      tally.related++;
      checkRelated(p, keys[i] as MatchKeys, `${brand} / ${text} (related class)`);
      if (raisedInAnyClass(p, text)) {
        tally.anyClass++;
        retrievalChecked++;
        if (!retrievedInAnyClass(p, keys[i] as MatchKeys)) {
          retrievalMisses++;
          if (retrievalMissExamples.length < 10)
            retrievalMissExamples.push(`${brand} / ${text} (any class)`);
        }
      }
      continue;
    }
    negativePairs++;
    const k = keys[i] as MatchKeys;
    const ts = trigramSets[i] as Set<string>;
    const isCandidate = retrieved(p, k, ts);
    if (isCandidate) candidatesRetrieved++;
    if (retrievedInRelated(p, k)) relatedCandidates++;
    const d = decideConflictPrepared(p, record(text));
    const found = textReasons(d.reasons);
    if (raisedAnywhere(p, a, text, found, [0])) unrelatedClassAlerts++;
    if (!d.conflict && watchIndex < COST_WATCHES) {
      const ruleFree = scorePair(p, a, text, [], { classes: CLASSES }, 'same');
      // Each pair by what a path ranking by that measure would see: a pair a rule finds keeps the
      // score it has with the rule (below the alert threshold, as it is not raised); the likeness
      // of the texts is the same with or without a rule.
      unrelatedScores[unrelatedScored] = found.length > 0 ? d.score : ruleFree.score;
      unrelatedLikeness[unrelatedScored] = closestLikeness(ruleFree.features);
      unrelatedScored++;
    }
    if (d.conflict) {
      tally.after++;
      if (raisedBefore(d.reasons)) tally.before++;
      if (raisedInRelated(p, d.reasons, text)) {
        tally.related++;
        checkRelated(p, k, `${brand} / ${text} (related class)`);
      }
      const kinds = textKinds(d.reasons);
      const severity = severityOf(p, d.reasons, text);
      falseAlerts.push({ brand, mark: text, reasons: `${kinds.join('+')} (${severity})` });
      falseSeverity[severity]++;
      for (const kd of new Set(kinds)) falseByReason.set(kd, (falseByReason.get(kd) ?? 0) + 1);
      retrievalChecked++;
      if (!isCandidate) {
        retrievalMisses++;
        if (retrievalMissExamples.length < 10) retrievalMissExamples.push(`${brand} / ${text}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
const per10k = (10_000 * falseAlerts.length) / negativePairs;
const unrelatedSorted = {
  score: descending(unrelatedScores.subarray(0, unrelatedScored)),
  likeness: descending(unrelatedLikeness.subarray(0, unrelatedScored)),
};
// Speed: best of three passes of 20 watches over every real mark (JIT warm by now), in CPU time
// of this process so that other load on the machine does not count.
const timedRecords = texts.map(record);
const timedWatches = brands.slice(0, 20).map(prepare);
let microsPerPair = Number.POSITIVE_INFINITY;
for (let pass = 0; pass < 3; pass++) {
  const t0 = process.cpuUsage();
  for (const p of timedWatches) for (const r of timedRecords) decideConflictPrepared(p, r);
  const used = process.cpuUsage(t0);
  const micros = used.user + used.system;
  microsPerPair = Math.min(microsPerPair, micros / (timedWatches.length * timedRecords.length));
}

const lines: string[] = [];
/** Figures the sections below fill in, for the targets at the end. */
const heldOut = { raised: 0, mediumHigh: 0, noConflictHigh: 0 };
const meanAlerts = { distinctive: 0, common: 0 };
lines.push(
  `Run: ${brands.length} watched brands drawn (seed ${SEED}) from ${texts.length.toLocaleString('en')} ` +
    `distinct real EUIPO mark texts; up to ${PER_KIND} generated variants per brand and kind.`,
);
lines.push('');
lines.push('| variant kind | positives | flagged | recall | with the expected reason |');
lines.push('|---|---:|---:|---:|---|');
for (const kind of KINDS) {
  const st = stats.get(kind) as KindStats;
  lines.push(
    `| ${kind} | ${st.total} | ${st.hit} | ${pct(st.hit, st.total)} | ` +
      `${pct(st.expectedReason, st.total)} \`${EXPECTED[kind]}\` |`,
  );
}
lines.push('');
const share = (c: SeverityCounts) => {
  const n = c.high + c.medium + c.low;
  return SEVERITIES.map((sv) => pct(c[sv], n)).join(' | ');
};
lines.push("Severity of the alerts raised (share of each kind's flagged variants):");
lines.push('');
lines.push('| variant kind | alerts | high | medium | low |');
lines.push('|---|---:|---:|---:|---:|');
for (const kind of KINDS) {
  const st = stats.get(kind) as KindStats;
  lines.push(`| ${kind} | ${st.hit} | ${share(st.severity)} |`);
}
lines.push(`| alerts on unrelated marks | ${falseAlerts.length} | ${share(falseSeverity)} |`);
lines.push('');
lines.push(...decidedCasesReport());
lines.push('');
lines.push(...raisingCostReport());
lines.push('');
lines.push(...compoundReport());
lines.push('');
lines.push(...alertsPerWatchReport());
lines.push('');
lines.push(
  `Negatives: ${negativePairs.toLocaleString('en')} (brand, unrelated real mark) pairs, same class ` +
    `and territory. False alerts: **${falseAlerts.length}**, i.e. **${per10k.toFixed(2)} per 10,000 ` +
    `unrelated marks per watch**. Excluded as not unrelated: ${excluded} pairs whose texts are equal ` +
    'once case, spacing, punctuation and look-alike characters are ignored.',
);
lines.push('');
lines.push(
  `False alerts by reason: ${
    [...falseByReason]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `\`${k}\` ${n}`)
      .join(', ') || 'none'
  }.`,
);
lines.push('');
if (falseAlerts.length > 0) {
  lines.push('Every false alert (brand → real mark: reasons):');
  lines.push('');
  for (const f of falseAlerts.slice(0, 60)) lines.push(`- ${f.brand} → ${f.mark}: ${f.reasons}`);
  if (falseAlerts.length > 60) lines.push(`- … and ${falseAlerts.length - 60} more`);
  lines.push('');
}
lines.push(
  `Candidate query check: ${retrievalChecked.toLocaleString('en')} accepted pairs, ` +
    `${retrievalMisses} not retrieved by the SQL keys; of them ${relatedChecked.toLocaleString('en')} ` +
    'raised in a related class (the variants, the unrelated marks and the compounds above as if ' +
    "filed in a related class, and the decided cases' pairs in related classes), checked against " +
    `the related-class keys only: ${relatedMisses} not retrieved. The keys retrieve ` +
    `${pct(candidatesRetrieved, negativePairs)} of the unrelated marks as candidates ` +
    `(${(candidatesRetrieved / brands.length).toFixed(1)} per watch out of ` +
    `${Math.round(negativePairs / brands.length).toLocaleString('en')} marks); in a related class ` +
    `${(relatedCandidates / brands.length).toFixed(1)} per watch.`,
);
lines.push('');
lines.push(
  `Speed: ${microsPerPair.toFixed(1)} µs of CPU per decideConflictPrepared call, record text ` +
    `analysed in the call (best of 3 passes of 20 watches × ${texts.length.toLocaleString('en')} marks, ` +
    `Node ${process.version}).`,
);

lines.push('');
lines.push(...modelReport());
lines.push('');
lines.push(...targetsReport());

const report = lines.join('\n');

/** The model the run used: its weights and thresholds (src/matching/model-weights.ts). */
function modelReport(): string[] {
  const { alert, medium, high, across } = MODEL.thresholds;
  return [
    `The scoring model (src/matching/model-weights.ts, \`npm run train:matching\`): score = 1 / (1 + e^−(${MODEL.bias} + Σ weight × feature)); raised from ${alert}, \`medium\` from ${medium}, \`high\` from ${high}; weaker text in a related class raised from ${across}, the same mark in a class nothing relates from ${medium}.`,
    '',
    '| feature | weight |',
    '|---|---:|',
    ...FEATURES.map((f) => `| \`${f}\` | ${MODEL.weights[f]} |`),
  ];
}

/** The targets of docs/matching.md against this run (bench/lib/matching-targets.ts). */
function targetsReport(): string[] {
  let worstKind = 1;
  for (const st of stats.values())
    if (st.total > 0) worstKind = Math.min(worstKind, st.hit / st.total);
  const rows = checkTargets({
    heldOutRaised: heldOut.raised,
    heldOutMediumHigh: heldOut.mediumHigh,
    heldOutNoConflictHigh: heldOut.noConflictHigh,
    unrelatedHigh: falseSeverity.high / Math.max(1, falseAlerts.length),
    falsePer10k: per10k,
    worstKind,
    alertsDistinctive: meanAlerts.distinctive,
    alertsCommon: meanAlerts.common,
    retrievalMisses,
  });
  return [
    `Targets (decided cases: the held-out part; alerts per watch in the watch's class plus one related class of equal size plus the same mark in any class, against ${ALERTS_PER_WATCH_BEFORE.distinctive} and ${ALERTS_PER_WATCH_BEFORE.common} in the class alone before the model, commit bc99b7b, same draws):`,
    '',
    '| target | measured | goal | met |',
    '|---|---:|---:|---|',
    ...rows.map((r) => `| ${r.target} | ${r.measured} | ${r.goal} | ${r.met ? 'yes' : '**no**'} |`),
  ];
}

/**
 * Noise as a watch's owner sees it: how many of the register's marks each watch raises, for the
 * distinctive brands above and for brands made only of common words (every word weak by the list
 * or by the register's counts: GOLD, BLUE STAR), with and without the measured rules.
 */
function alertsPerWatchReport(): string[] {
  const draw = mulberry32(SEED + 1);
  const common = texts.filter((_t, i) => {
    const a = analyses[i] as (typeof analyses)[number];
    return (
      a.words.length >= 1 &&
      a.words.length <= 3 &&
      /^[A-Z ]+$/.test(a.normalized) &&
      a.folded.every((w, k) => w.length >= 3 && isWeakWord(wordStats, w, a.words[k] ?? w))
    );
  });
  for (let i = common.length - 1; i > 0; i--) {
    const j = Math.floor(draw() * (i + 1));
    [common[i], common[j]] = [common[j] as string, common[i] as string];
  }
  const commonTallies = common.slice(0, 60).map((brand) => {
    const p = prepare(brand);
    const tally: Tally = { after: 0, before: 0, related: 0, anyClass: 0 };
    texts.forEach((text, i) => {
      if (text === brand) return;
      if ((analyses[i] as { lookalike: string }).lookalike === p.brand.lookalike) {
        if (raisedInAnyClass(p, text)) tally.anyClass++;
      }
      const d = decideConflictPrepared(p, record(text));
      if (!d.conflict) return;
      tally.after++;
      if (raisedBefore(d.reasons)) tally.before++;
      if (raisedInRelated(p, d.reasons, text)) {
        tally.related++;
        checkRelated(p, keys[i] as MatchKeys, `${brand} / ${text} (related class)`);
      }
    });
    return tally;
  });
  const stat = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
    return `${mean.toFixed(1)} / ${p95}`;
  };
  // Today's class, one related class of the same size, and the brand's identical texts in every
  // class of the register: what a watch sees with related classes on. The identical texts are
  // counted twice (as if in the watch's class too): the figure errs high.
  const mean = (ts: Tally[]) =>
    ts.reduce((a, t) => a + t.after + t.related + t.anyClass, 0) / Math.max(1, ts.length);
  meanAlerts.distinctive = mean(alertsPerWatch);
  meanAlerts.common = mean(commonTallies);
  const sum = (ts: Tally[], k: keyof Tally) => ts.reduce((a, t) => a + t[k], 0);
  const row = (name: string, ts: Tally[]) =>
    `| ${name} | ${ts.length} | ${stat(ts.map((t) => t.before))} | ${stat(ts.map((t) => t.after))} | ${stat(ts.map((t) => t.related))} | ${stat(ts.map((t) => t.anyClass))} | +${pct(sum(ts, 'related') + sum(ts, 'anyClass'), sum(ts, 'after'))} |`;
  return [
    `Alerts per watch over the ${texts.length.toLocaleString('en')} marks (mean / 95th percentile): before the rules of the word counts and shapes (\`${[...MEASURED_KINDS].join('`, `')}\`), with them (all in the watch's class: today's alerts), what one related class holding the same marks would add (goods.ts; the texts have no goods text, so the class headings stand for the goods; text scoring ${RELATED_MIN_SCORE} or more that the same class would rate high is raised at the model's alert threshold, weaker text from its \`across\` threshold, ${MODEL.thresholds.across}, with the goods related), and what the same mark in any class adds over the whole register of texts, every text taken as filed in a class the watch neither has nor relates (any-class.ts: the brand's identical texts, for a distinctive brand; the fixture holds each text once, so this counts the texts equal to the brand but for case, spacing, punctuation and look-alike characters). A watch has as many related-class additions as it has related classes, weighted by their size against its own class's; the any-class column is already the whole register's.`,
    '',
    '| watched brands | watches | before | same class (today) | one related class of equal size | same mark in any class (whole register) | increase |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row('distinctive (drawn as above)', alertsPerWatch),
    row('common words only (GOLD, BLUE STAR)', commonTallies),
  ];
}

/**
 * Shape 2 of the decided cases: a brand that is a short or common word fused with an English word
 * into a compound (ORBITFLOW, SUNHARBOR). The brands are the register's one-word texts that the
 * `compound` rule takes (3-4 letters, or an English word that `fused` leaves out); each is joined
 * before and after English words of 3+ letters into compounds that are not words themselves.
 */
function compoundReport(): string[] {
  const draw = mulberry32(SEED + 2);
  const words = englishWords().filter((w) => w.length >= 3 && w.length <= 8);
  const eligible = [...new Set(texts)].filter((t) => prepare(t).compoundBrand !== null);
  for (let i = eligible.length - 1; i > 0; i--) {
    const j = Math.floor(draw() * (i + 1));
    [eligible[i], eligible[j]] = [eligible[j] as string, eligible[i] as string];
  }
  const chosen = eligible.slice(0, 100);
  const severities = noSeverities();
  let total = 0;
  let hit = 0;
  let notRetrieved = 0;
  const misses: string[] = [];
  for (const brand of chosen) {
    const p = prepare(brand);
    const b = p.compoundBrand as string;
    for (let n = 0; n < 4; n++) {
      let compound = '';
      for (let attempt = 0; attempt < 20; attempt++) {
        const w = words[Math.floor(draw() * words.length)] as string;
        const c = n % 2 === 0 ? b + w : w + b;
        if (!isWord(c)) {
          compound = c;
          break;
        }
      }
      if (compound === '') continue;
      total++;
      const d = decideConflictPrepared(p, record(compound));
      if (!d.conflict) {
        if (misses.length < 8) misses.push(`${brand} / ${compound}`);
        continue;
      }
      hit++;
      severities[severityOf(p, d.reasons, compound)]++;
      if (!retrieved(p, matchKeys(compound), null)) notRetrieved++;
      if (raisedInRelated(p, d.reasons, compound)) {
        checkRelated(p, matchKeys(compound), `${brand} / ${compound} (related class)`);
      }
    }
  }
  const pctOf = (n: number) => pct(n, hit);
  return [
    `Short or common-word brands fused at a word boundary (\`compound\`): ${chosen.length} of the register's one-word texts that the rule takes (of ${eligible.length.toLocaleString('en')}), each joined before and after English words into ${total} compounds that are not words: **${pct(hit, total)} raised** (${notRetrieved} not retrieved by the keys); severity high ${pctOf(severities.high)}, medium ${pctOf(severities.medium)}, low ${pctOf(severities.low)}.${misses.length > 0 ? ` Not raised: ${misses.join('; ')}.` : ''}`,
  ];
}

/**
 * Counts a raised decided case in the candidate query check, with the keys of the classes it is
 * raised in: the related-class keys in a related class, the brand's identity forms in a class
 * nothing relates, every key in the watch's own classes. `label` null: a held-out pair, counted
 * but not listed.
 */
function checkDecided(
  p: PreparedWatch,
  reasons: readonly Reason[],
  markText: string,
  label: string | null,
): void {
  const k = matchKeys(markText);
  if (reasons.some((r) => r.kind === 'related_goods')) {
    checkRelated(p, k, label === null ? null : `${label} (decided, related class)`);
    return;
  }
  retrievalChecked++;
  const found = reasons.some((r) => r.kind === 'any_class')
    ? retrievedInAnyClass(p, k)
    : retrieved(p, k, null);
  if (found) return;
  retrievalMisses++;
  if (label !== null && retrievalMissExamples.length < 10)
    retrievalMissExamples.push(`${label} (decided)`);
}

/**
 * Real decided conflicts (test/fixtures/decided-cases, or the files given with --cases): the
 * earlier mark is the watch, in its classes, the later mark a record in its classes and the same
 * territory (pairClasses: a mark without classes takes the other's). Reported for the held-out
 * part (the figures that count) and the development part apart (bench/lib/decided-cases.ts).
 */
function decidedCasesReport(): string[] {
  const out: string[] = [];
  type Tally = { n: number; raised: number; sev: SeverityCounts };
  const tally = () => ({ n: 0, raised: 0, sev: noSeverities() });
  const rows = new Map<string, Tally>();
  const missed: string[] = [];
  const raisedNo: string[] = [];
  const causes = new Map<string, number>();
  for (const c of decidedCases) {
    const [watchClasses, recordClasses] = pairClasses(c, CLASSES);
    const p = prepareWatch(
      { name: c.earlier.text, niceClasses: watchClasses, designations: ['DE'] },
      wordStats,
    );
    const r = decidedRecord(c, CLASSES);
    const d = decideConflictPrepared(p, r);
    const cross = crossesClasses(c) ? 'cross' : 'same';
    const keys = [`${c.part}|${c.outcome}|${cross}`, `${c.part}|${c.outcome}|all`];
    const sv = d.conflict
      ? assessSeverity(p, d.reasons, {
          markText: c.later.text,
          classes: recordClasses,
          stats: wordStats,
        }).severity
      : null;
    for (const k of keys) {
      const t = rows.get(k) ?? tally();
      rows.set(k, t);
      t.n++;
      if (sv !== null) {
        t.raised++;
        t.sev[sv]++;
      }
    }
    const label = `${c.earlier.text} / ${c.later.text}${cross === 'cross' ? ` (${watchClasses.join(',')} / ${recordClasses.join(',')})` : ''}`;
    if (d.conflict) checkDecided(p, d.reasons, c.later.text, c.part === 'held-out' ? null : label);
    // What the decision saw of a pair it did not raise, found once for the counts below.
    const seen = sv === null ? findCandidate(p, r) : null;
    const why = seen !== null && c.outcome === 'conflict' ? whyNotRaised(p, r, seen) : null;
    if (why !== null) {
      const k = `${c.part}|${why.cause}`;
      causes.set(k, (causes.get(k) ?? 0) + 1);
    }
    if (why?.cause === 'classes' && seen !== null) {
      classesMissed[c.part].n++;
      if (raisedAnywhere(p, seen.m, r.markText, seen.text, recordClasses))
        classesMissed[c.part].raised++;
    }
    if (seen !== null && seen.text.length === 0) {
      const ruleFree = scorePair(p, seen.m, r.markText, [], { classes: recordClasses }, 'same');
      unfound[c.part].push({
        score: ruleFree.score,
        likeness: closestLikeness(ruleFree.features),
        conflict: c.outcome === 'conflict',
      });
    }
    if (c.part === 'development' && why !== null)
      devMisses.push(`${label} [${c.shape}]: ${why.said}`);
    if (c.part !== 'held-out') continue;
    if (why !== null) missed.push(`${label} [${c.shape}]`);
    if (sv !== null && c.outcome === 'no_conflict') raisedNo.push(`${label} (${sv})`);
  }
  const count = (part: string) => decidedCases.filter((c) => c.part === part).length;
  out.push(
    `Decided cases: ${decidedCases.length} real decisions (${caseFiles.join(', ')}, with citations), split once by a hash of the pair's id into a held-out part (${count('held-out')} pairs: **the figures that count**) and a development part (${count('development')} pairs, the only one rules may be tuned on). The earlier mark is watched in its classes, the later one filed in its classes and the same territory; a pair crosses classes when both give classes and share none.`,
  );
  out.push('');
  out.push(
    '| part | outcome of the decision | classes | pairs | raised | share raised | high | medium | low |',
  );
  out.push('|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const part of ['held-out', 'development']) {
    for (const [outcome, name] of [
      ['conflict', 'conflict found'],
      ['no_conflict', 'no conflict found'],
    ] as const) {
      for (const cls of ['same', 'cross', 'all'] as const) {
        const t = rows.get(`${part}|${outcome}|${cls}`);
        if (t === undefined) continue;
        const what =
          cls === 'same' ? 'same or unstated' : cls === 'cross' ? 'different' : '**all**';
        out.push(
          `| ${part} | ${name} | ${what} | ${t.n} | ${t.raised} | ${pct(t.raised, t.n)} | ${share(t.sev)} |`,
        );
      }
    }
  }
  out.push('');
  const ho = (outcome: string) => rows.get(`held-out|${outcome}|all`) ?? tally();
  const c = ho('conflict');
  const nc = ho('no_conflict');
  const ruleFoundCauses = (Object.keys(MISS_CAUSES) as MissCause[]).filter((k) => k !== 'no_rule');
  heldOutConflicts.n = c.n;
  heldOutConflicts.raised = c.raised;
  heldOutConflicts.ruleFound = ruleFoundCauses.reduce(
    (sum, k) => sum + (causes.get(`held-out|${k}`) ?? 0),
    0,
  );
  heldOut.raised = c.raised / Math.max(1, c.n);
  heldOut.mediumHigh = (c.sev.high + c.sev.medium) / Math.max(1, c.raised);
  heldOut.noConflictHigh = nc.sev.high / Math.max(1, nc.n);
  out.push(
    `Held out: conflicts raised **${pct(c.raised, c.n)}**, raised conflicts rated medium or high **${pct(c.sev.high + c.sev.medium, c.raised)}**, pairs found not confusing rated high **${pct(nc.sev.high, nc.n)}** (of all such pairs).`,
  );
  out.push('');
  // What a conflict not raised lacks: a rule that finds its text at all, goods the table relates,
  // or a score; the held-out part is counted only to report it.
  const causeKeys = Object.keys(MISS_CAUSES) as MissCause[];
  out.push(
    'Decided conflicts not raised, by what they lack (the held-out part is counted only to report it):',
  );
  out.push('');
  out.push(`| part | conflicts not raised | ${causeKeys.map((k) => MISS_CAUSES[k]).join(' | ')} |`);
  out.push(`|---|---:|${causeKeys.map(() => '---:').join('|')}|`);
  for (const part of ['held-out', 'development']) {
    const n = causeKeys.map((k) => causes.get(`${part}|${k}`) ?? 0);
    out.push(`| ${part} | ${n.reduce((a, b) => a + b, 0)} | ${n.join(' | ')} |`);
  }
  out.push('');
  out.push(`Held-out conflicts not raised: ${missed.length === 0 ? 'none' : missed.join('; ')}.`);
  out.push('');
  out.push(
    `Held-out pairs found not confusing, raised all the same: ${raisedNo.length === 0 ? 'none' : raisedNo.join('; ')}.`,
  );
  return out;
}

/**
 * What raising the decided conflicts no text rule finds would cost, by the model's score alone:
 * the development part at a few depths, and the held-out part (reported, never tuned on) at the
 * depth its target needs once every conflict a rule finds is raised as well.
 */
function raisingCostReport(): string[] {
  const goal = HELD_OUT_RAISED_GOAL;
  const per10kOf = (n: number) => ((10_000 * n) / Math.max(1, unrelatedScored)).toFixed(2);
  const out: string[] = [];
  out.push(
    `Decided conflicts no text rule finds, and what raising them would cost. Such a pair can be raised only by the model's score without a rule (every such pair scored as if filed in the watch's class, which favours the pairs crossing classes). Ranked by that score, raising the first k conflicts (more where scores tie) raises every pair that scores as high: the part's pairs found not confusing that no rule finds, and the unrelated real marks of the run above that are not raised now (false alerts, counted over the first ${Math.min(COST_WATCHES, brands.length)} watches: ${unrelatedScored.toLocaleString('en')} pairs). The model's alert threshold is ${MODEL.thresholds.alert}: a pair scoring below it is raised by no score. Beside it, the same count ranked by the closest likeness of the texts alone (the best of five likeness features of the model, whole or word by word, by letters, trigrams or sound; a pair a rule finds is ranked by its likeness too), so that the cost does not rest on the model's weights alone.`,
  );
  out.push('');
  out.push(
    '| part | conflicts no rule finds | k | by the score: lowest raised | found not confusing, raised with them | false alerts added per 10,000 unrelated marks per watch | by the likeness: lowest raised | found not confusing, raised with them | false alerts added per 10,000 |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const row = (part: Part, k: number, what = '') => {
    const byScore = unfound[part];
    const total = byScore.filter((x) => x.conflict).length;
    const score = costOfRaising(byScore, k, unrelatedSorted.score);
    const byLikeness = byScore.map((x) => ({ score: x.likeness, conflict: x.conflict }));
    const likeness = costOfRaising(byLikeness, k, unrelatedSorted.likeness);
    if (score === null || likeness === null) return;
    const scoreCost =
      score.scoreFrom >= MODEL.thresholds.alert
        ? per10kOf(score.falseAlerts)
        : 'below the alert threshold';
    out.push(
      `| ${part}${what} | ${total} | ${k} | ${score.scoreFrom.toFixed(3)} | ${score.notConfusing} | ${scoreCost} | ${likeness.scoreFrom.toFixed(3)} | ${likeness.notConfusing} | ${per10kOf(likeness.falseAlerts)} |`,
    );
  };
  // A few depths, the deepest the alert threshold allows, and all of them.
  const dev = unfound.development.filter((x) => x.conflict);
  const reachable = dev.filter((x) => x.score >= MODEL.thresholds.alert).length;
  const depths = new Set([1, 5, 10, 15, reachable, dev.length].filter((k) => k <= dev.length));
  for (const k of [...depths].sort((a, b) => a - b)) row('development', k);
  const h = heldOutConflicts;
  const needed = neededFromUnfound(h.n, h.raised, h.ruleFound, goal);
  const held = unfound['held-out'].filter((x) => x.conflict).length;
  const pctGoal = `${(100 * goal).toFixed(0)}%`;
  if (needed > 0) row('held-out', needed, `, for ${pctGoal} of its conflicts`);
  out.push('');
  const heldOutSaid = `The held-out part raises ${h.raised} of its ${h.n} conflicts; a rule finds ${h.ruleFound} more.`;
  out.push(
    needed === 0
      ? `${heldOutSaid} With those raised, it reaches ${pctGoal} without the conflicts no rule finds.`
      : needed > held
        ? `${heldOutSaid} Even with all of those and all ${held} that no rule finds raised, it stays below ${pctGoal}.`
        : `${heldOutSaid} With all of those raised, ${pctGoal} needs ${needed} of the ${held} that no rule finds.`,
  );
  out.push('');
  const dm = classesMissed.development;
  const hm = classesMissed['held-out'];
  out.push(
    `Nor are the conflicts a rule finds in classes nothing relates free. Raised at the alert threshold with the goods unrelated, such a class would give ${dm.raised} of the development part's ${dm.n} such conflicts (and ${hm.raised} of the held-out part's ${hm.n}), and ${(unrelatedClassAlerts / brands.length).toFixed(2)} alerts per distinctive watch for each class nothing relates as large as the watch's own, against ${(alertsPerWatch.reduce((a, t) => a + t.after, 0) / Math.max(1, brands.length)).toFixed(2)} in its own class; the Nice Classification has 45 classes.`,
  );
  return out;
}

/**
 * What the decision saw of a pair it did not raise: the cause (MISS_CAUSES), and in words the rules,
 * how the goods meet, the score.
 */
function whyNotRaised(
  p: PreparedWatch,
  r: RecordInput,
  { m, text, relation }: ReturnType<typeof findCandidate>,
): { cause: MissCause; said: string } {
  if (text.length === 0) return { cause: 'no_rule', said: 'no rule finds it' };
  const rules = text.map((t) => t.kind).join('+');
  if (relation === null)
    return {
      cause: 'classes',
      said: `${rules}; classes neither shared nor related (goods.ts), nor the same distinctive mark`,
    };
  const { score } = scorePair(p, m, r.markText, text, r, relation);
  const gate = acrossGate(p, text, relation);
  const needs =
    gate === 'across'
      ? MODEL.thresholds.across
      : gate === 'medium'
        ? MODEL.thresholds.medium
        : MODEL.thresholds.alert;
  const cause = gate === 'across' && score >= MODEL.thresholds.alert ? 'across' : 'score';
  const said = `${rules}; goods ${relation}; score ${score.toFixed(3)} below ${needs} (${gate === 'none' ? 'alert' : gate})`;
  return { cause, said };
}
console.log(report);
if (args.includes('--dev-misses')) {
  console.log(`\nDevelopment conflicts not raised (${devMisses.length}):`);
  for (const line of devMisses) console.log(`  ${line}`);
}
console.log('\nMissed positives (sample):');
for (const kind of KINDS) {
  const st = stats.get(kind) as KindStats;
  if (st.misses.length > 0) console.log(`  ${kind}: ${st.misses.join(' | ')}`);
}
if (retrievalMissExamples.length > 0) console.log('Retrieval misses:', retrievalMissExamples);
if (args.includes('--all'))
  for (const f of falseAlerts) console.log(`FA ${f.brand} → ${f.mark}: ${f.reasons}`);

if (!args.includes('--no-write')) {
  const doc = readFileSync(DOC, 'utf8');
  const start = '<!-- eval:start -->';
  const end = '<!-- eval:end -->';
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${DOC} lacks the ${start} … ${end} markers`);
  writeFileSync(DOC, `${doc.slice(0, i + start.length)}\n${report}\n${doc.slice(j)}`);
  console.log(`\nupdated ${DOC}`);
}
