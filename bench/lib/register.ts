// The synthetic register of bench/scan.ts: mark texts from a character model trained on real EUIPO
// texts (markov.ts), with a Nice class mix, an office mix, owners, dates and statuses drawn from
// the weight tables below. Records are in the normalized JSON Lines format of docs/register-formats.md, which
// is what the real importer reads.
//
// The weights are approximations, rounded, of the shares in WIPO's IP statistics (trademark
// applications by Nice class and by office, class counts, recent years) — close enough that the
// busy classes and offices are busy and the rare ones rare; they are not a citation.
import { closeSync, openSync, writeSync } from 'node:fs';
import { coveredDesignations, EU_MEMBER_STATES } from '../../src/matching/coverage.ts';
import type { MarkModel } from './markov.ts';
import { type Random, weighted } from './random.ts';

/** Nice class → relative weight (share of class counts in filings, rounded). */
export const NICE_CLASS_WEIGHTS: readonly (readonly [number, number])[] = [
  [35, 11],
  [9, 8],
  [25, 6.5],
  [41, 5.5],
  [42, 5.5],
  [30, 4.5],
  [5, 4.2],
  [3, 4.1],
  [43, 3.2],
  [29, 3],
  [16, 2.8],
  [28, 2.7],
  [44, 2.6],
  [11, 2.5],
  [21, 2.3],
  [18, 2.2],
  [20, 2.1],
  [32, 2],
  [14, 1.9],
  [7, 1.9],
  [36, 1.8],
  [10, 1.6],
  [33, 1.5],
  [31, 1.5],
  [12, 1.5],
  [37, 1.4],
  [24, 1.3],
  [45, 1.2],
  [6, 1.1],
  [39, 1.1],
  [1, 1.1],
  [40, 0.9],
  [19, 0.9],
  [8, 0.8],
  [26, 0.7],
  [38, 0.7],
  [4, 0.6],
  [27, 0.5],
  [17, 0.5],
  [22, 0.4],
  [2, 0.4],
  [15, 0.3],
  [23, 0.2],
  [34, 0.3],
  [13, 0.1],
];

/** Classes filed together more often than chance (a second class is drawn from these half the time). */
const COMPANION_CLASSES: Readonly<Record<number, readonly number[]>> = {
  9: [42, 35, 38, 41, 28],
  42: [9, 35],
  35: [41, 42, 9, 36],
  41: [35, 16, 9],
  25: [18, 14, 35, 24],
  18: [25, 14],
  3: [5, 21, 44],
  5: [3, 10, 44],
  29: [30, 31, 32],
  30: [29, 43, 32],
  43: [30, 39, 41],
  32: [33, 30],
  33: [32],
  28: [9, 25, 41],
  44: [5, 10, 3],
  36: [35, 37],
};

/** How many classes a record has: 1 to 4. */
const CLASS_COUNT_WEIGHTS: readonly (readonly [number, number])[] = [
  [1, 45],
  [2, 25],
  [3, 18],
  [4, 12],
];

/** Office (ST.3) → relative weight in the mirror. */
export const OFFICE_WEIGHTS: readonly (readonly [string, number])[] = [
  ['CN', 20],
  ['US', 14],
  ['EM', 12],
  ['WO', 10],
  ['JP', 5],
  ['KR', 4],
  ['IN', 4],
  ['DE', 4],
  ['GB', 4],
  ['FR', 3],
  ['BR', 3],
  ['TR', 3],
  ['RU', 2],
  ['MX', 2],
  ['CA', 2],
  ['AU', 2],
  ['ES', 2],
  ['IT', 2],
  ['BX', 1.5],
  ['CH', 1.5],
];

/** What a WO (Madrid) registration designates: contracting parties by relative weight. */
export const WO_DESIGNATION_WEIGHTS: readonly (readonly [string, number])[] = [
  ['CN', 10],
  ['US', 9],
  ['EM', 9],
  ['GB', 7],
  ['JP', 6],
  ['KR', 5],
  ['RU', 5],
  ['CH', 5],
  ['AU', 4],
  ['IN', 4],
  ['TR', 4],
  ['SG', 3],
  ['MX', 3],
  ['NO', 3],
  ['CA', 3],
  ['BR', 2],
  ['UA', 2],
  ['VN', 2],
  ['IL', 2],
  ['NZ', 2],
  ['DE', 1],
  ['FR', 1],
];

/** How many parties a WO registration designates: 1 to 12, median 3. */
const WO_COUNT_WEIGHTS: readonly (readonly [number, number])[] = [
  [1, 18],
  [2, 20],
  [3, 16],
  [4, 12],
  [5, 9],
  [6, 7],
  [7, 5],
  [8, 4],
  [10, 5],
  [12, 4],
];

/** Owner countries of EM and WO records (national offices mostly have local owners). */
const OWNER_COUNTRY_WEIGHTS: readonly (readonly [string, number])[] = [
  ['DE', 16],
  ['US', 12],
  ['CN', 12],
  ['IT', 8],
  ['FR', 8],
  ['ES', 7],
  ['GB', 6],
  ['CH', 5],
  ['PL', 4],
  ['NL', 4],
  ['JP', 3],
  ['KR', 3],
  ['AT', 3],
  ['SE', 2],
  ['BE', 2],
  ['TR', 2],
];

/** Watch designations by relative weight (what users watch). */
export const WATCH_DESIGNATION_WEIGHTS: readonly (readonly [string, number])[] = [
  ['EU', 28],
  ['US', 20],
  ['DE', 8],
  ['GB', 8],
  ['CN', 8],
  ['FR', 5],
  ['JP', 4],
  ['CH', 3],
  ['IT', 3],
  ['ES', 3],
  ['KR', 2],
  ['IN', 2],
  ['CA', 2],
  ['AU', 2],
  ['NL', 1],
  ['BR', 1],
];

const STATUS_WEIGHTS: readonly (readonly [string, number])[] = [
  ['registered', 55],
  ['filed', 22],
  ['published', 5],
  ['opposed', 3],
  ['refused', 4],
  ['withdrawn', 4],
  ['expired', 7],
];

const COMPANY_FORMS: Readonly<Record<string, readonly string[]>> = {
  DE: ['GmbH', 'AG', 'GmbH & Co. KG'],
  AT: ['GmbH', 'AG'],
  CH: ['AG', 'SA', 'GmbH'],
  FR: ['SAS', 'SA', 'SARL'],
  BE: ['SA', 'BV'],
  NL: ['B.V.', 'N.V.'],
  IT: ['S.r.l.', 'S.p.A.'],
  ES: ['S.L.', 'S.A.'],
  PL: ['Sp. z o.o.', 'S.A.'],
  SE: ['AB'],
  GB: ['Ltd', 'Limited', 'PLC'],
  US: ['Inc.', 'LLC', 'Corp.', 'Co.'],
  CA: ['Inc.', 'Ltd.'],
  AU: ['Pty Ltd'],
  CN: ['Co., Ltd.', 'Technology Co., Ltd.', 'Trading Co., Ltd.'],
  JP: ['Kabushiki Kaisha', 'Co., Ltd.'],
  KR: ['Co., Ltd.', 'Corporation'],
  IN: ['Private Limited', 'Limited'],
  BR: ['Ltda.', 'S.A.'],
  MX: ['S.A. de C.V.'],
  TR: ['A.Ş.', 'Ltd. Şti.'],
  RU: ['LLC', 'JSC'],
};

/** The office of a record, and the countries it may be held by (for owner country). */
const BENELUX = ['BE', 'NL', 'LU'];

export type SyntheticRecord = {
  externalId: string;
  markText: string;
  ownerName: string;
  ownerCountryCode: string;
  jurisdiction: string;
  designations?: string[];
  filedAt: string;
  registeredAt?: string;
  expiresAt?: string;
  status: string;
  classes: number[];
};

export type WatchSpec = { name: string; niceClasses: number[]; designations: string[] };

const DAY = 86_400_000;
const FIRST_FILING = Date.UTC(1996, 3, 1);
const LAST_FILING = Date.UTC(2026, 5, 30);
/** Share of records whose text repeats a recent one: the same brand filed at another office. */
const REFILING_SHARE = 0.08;
const RECENT_TEXTS = 4096;
const OWNERS_PER_COUNTRY = 5000;

export type RegisterGenerator = {
  /** The next record of the synthetic register. */
  record: () => SyntheticRecord;
  /** A record with this text, sharing a class with the watch and covering one of its designations. */
  plantFor: (watch: WatchSpec, markText: string) => SyntheticRecord;
  /** A watch on `name` with classes and designations from the mixes. */
  watch: (name: string) => WatchSpec;
  /** Records made so far (the serial of the next external id). */
  count: () => number;
};

export function registerGenerator(
  model: MarkModel,
  rnd: Random,
  options: { serialStart?: number } = {},
): RegisterGenerator {
  const rand = rnd.next;
  const niceClass = weighted(NICE_CLASS_WEIGHTS, rand);
  const classCount = weighted(CLASS_COUNT_WEIGHTS, rand);
  const officeOf = weighted(OFFICE_WEIGHTS, rand);
  const woDesignation = weighted(WO_DESIGNATION_WEIGHTS, rand);
  const woCount = weighted(WO_COUNT_WEIGHTS, rand);
  const ownerCountry = weighted(OWNER_COUNTRY_WEIGHTS, rand);
  const watchDesignation = weighted(WATCH_DESIGNATION_WEIGHTS, rand);
  const statusOf = weighted(STATUS_WEIGHTS, rand);
  const recent: string[] = [];
  let serial = options.serialStart ?? 0;

  const classes = (max = 4): number[] => {
    const n = Math.min(max, classCount());
    const out = new Set<number>();
    while (out.size < n) {
      const companions = out.size > 0 ? COMPANION_CLASSES[rnd.pick([...out])] : undefined;
      out.add(companions !== undefined && rand() < 0.5 ? rnd.pick(companions) : niceClass());
    }
    return [...out].sort((a, b) => a - b);
  };

  const woDesignations = (): string[] => {
    const n = woCount();
    const out = new Set<string>();
    while (out.size < n) out.add(woDesignation());
    return [...out].sort();
  };

  const titleWord = (w: string) => w.charAt(0) + w.slice(1).toLowerCase();
  // Owners file many marks: each country has a pool of owners that grows to OWNERS_PER_COUNTRY,
  // after which a record usually goes to an existing owner.
  const owners = new Map<string, string[]>();
  const ownerName = (country: string): string => {
    let pool = owners.get(country);
    if (pool === undefined) {
      pool = [];
      owners.set(country, pool);
    }
    if (pool.length > 0 && (pool.length >= OWNERS_PER_COUNTRY || rand() < 0.5) && rand() > 0.1) {
      return rnd.pick(pool);
    }
    const words = 1 + (rand() < 0.35 ? 1 : 0);
    const name: string[] = [];
    for (let i = 0; i < words; i++) {
      let w = model.word(rand);
      for (let t = 0; w.length < 3 && t < 5; t++) w = model.word(rand);
      name.push(titleWord(w || 'Acme'));
    }
    const owner = `${name.join(' ')} ${rnd.pick(COMPANY_FORMS[country] ?? ['Ltd'])}`;
    if (pool.length < OWNERS_PER_COUNTRY) pool.push(owner);
    else pool[rnd.int(pool.length)] = owner;
    return owner;
  };

  const ownerCountryFor = (office: string): string => {
    if (office === 'EM') return rand() < 0.7 ? rnd.pick([...EU_MEMBER_STATES]) : ownerCountry();
    if (office === 'WO') return ownerCountry();
    if (office === 'BX') return rnd.pick(BENELUX);
    return rand() < 0.8 ? office : ownerCountry();
  };

  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  const make = (markText: string, jurisdiction: string, designations: string[], cls: number[]) => {
    // Filings grow over time: the square root skews dates towards the present.
    const filed = FIRST_FILING + Math.sqrt(rand()) * (LAST_FILING - FIRST_FILING);
    const status = statusOf();
    const record: SyntheticRecord = {
      externalId: `${jurisdiction}50${String(serial++).padStart(13, '0')}`,
      markText,
      ownerName: '',
      ownerCountryCode: ownerCountryFor(jurisdiction),
      jurisdiction,
      filedAt: iso(filed),
      status,
      classes: cls,
    };
    record.ownerName = ownerName(record.ownerCountryCode);
    if (designations.length > 0) record.designations = designations;
    if (status === 'registered' || status === 'expired') {
      const registered = filed + (120 + rnd.int(420)) * DAY;
      record.registeredAt = iso(registered);
      record.expiresAt = iso(registered + 3652 * DAY);
    }
    return record;
  };

  return {
    count: () => serial,

    record() {
      let text: string;
      if (recent.length > 100 && rand() < REFILING_SHARE) text = rnd.pick(recent);
      else {
        text = model.text(rand);
        if (recent.length < RECENT_TEXTS) recent.push(text);
        else recent[rnd.int(RECENT_TEXTS)] = text;
      }
      const office = officeOf();
      return make(text, office, office === 'WO' ? woDesignations() : [], classes());
    },

    plantFor(watch, markText) {
      // A shared class, plus the record's own others.
      const shared = rnd.pick(watch.niceClasses);
      const cls = [...new Set([shared, ...classes(3)])].sort((a, b) => a - b);
      const target = rnd.pick(watch.designations);
      let jurisdiction: string;
      let designations: string[] = [];
      const viaMadrid = rand() < 0.25;
      if (target === 'EU') {
        jurisdiction = viaMadrid ? 'WO' : 'EM';
        if (viaMadrid) designations = [...new Set(['EM', ...woDesignations()])].sort();
      } else if (viaMadrid) {
        jurisdiction = 'WO';
        designations = [...new Set([target, ...woDesignations()])].sort();
      } else if (EU_MEMBER_STATES.has(target) && rand() < 0.5) {
        jurisdiction = BENELUX.includes(target) && rand() < 0.3 ? 'BX' : 'EM';
      } else jurisdiction = target;
      const record = make(markText, jurisdiction, designations, cls);
      if (coveredDesignations(record, watch.designations).length === 0) {
        throw new Error(`planted record does not cover ${watch.designations.join(',')}`);
      }
      return record;
    },

    watch(name) {
      const n = 1 + (rand() < 0.35 ? 1 : 0) + (rand() < 0.15 ? 1 : 0);
      const designations = new Set<string>();
      while (designations.size < n) designations.add(watchDesignation());
      return { name, niceClasses: classes(3), designations: [...designations] };
    },
  };
}

/**
 * Writes `total` records as JSON Lines: synthetic ones, with `planted` records placed at random
 * positions among them (counted in the total). Returns the bytes written. Records go to the file
 * 10,000 at a time as they are made, so memory does not grow with `total`; `onProgress` hears the
 * count written after each of those writes.
 */
export function writeRegisterFile(
  path: string,
  total: number,
  generator: RegisterGenerator,
  planted: readonly SyntheticRecord[],
  rnd: Random,
  onProgress?: (written: number) => void,
): number {
  if (planted.length > total) throw new Error(`${planted.length} planted records exceed ${total}`);
  const positions = planted.map(() => rnd.int(Math.max(1, total))).sort((a, b) => a - b);
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    let lines: string[] = [];
    const flush = () => {
      const buffer = Buffer.from(`${lines.join('\n')}\n`);
      for (let at = 0; at < buffer.length; ) at += writeSync(fd, buffer, at);
      bytes += buffer.length;
      lines = [];
    };
    let p = 0;
    for (let written = 0; written < total; written++) {
      const plantedDue = p < planted.length && (positions[p] as number) <= written;
      // Room left only for the remaining planted records: they go in whatever their position.
      const mustPlant = total - written <= planted.length - p;
      lines.push(JSON.stringify(plantedDue || mustPlant ? planted[p++] : generator.record()));
      if (lines.length >= 10_000) {
        flush();
        onProgress?.(written + 1);
      }
    }
    if (lines.length > 0) flush();
  } finally {
    closeSync(fd);
  }
  return bytes;
}
