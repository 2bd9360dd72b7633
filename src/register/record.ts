import { z } from 'zod';
import { lineTextReason } from '../text.ts';
import { liveOfStatusWord } from './liveness.ts';

/**
 * A register record in the normalized form (docs/register-formats.md, "Normalized JSON Lines"),
 * after validation. Every reader in this folder (JSON Lines, USPTO XML)
 * produces this shape, so the importer has one thing to upsert.
 */
export type RegisterRecord = {
  /** The source's own key: an ST.13 number where the office has one (`US500000098763166`). */
  externalId: string;
  markText: string;
  /** The current owner as the source names it; null when the source does not publish one. */
  ownerName: string | null;
  /** ST.3 code of the owner's country, upper case; null when the source does not give it. */
  ownerCountryCode: string | null;
  /** ST.3 office code, upper case: a country, or `EM`, `BX`, `OA`, `AP`, `WO`. */
  jurisdiction: string;
  /** Designated countries (or `EM`) of a `WO` record, deduplicated and sorted; `[]` otherwise. */
  designations: string[];
  /** UTC ISO 8601 with milliseconds; a date-only input becomes midnight UTC. */
  filedAt: string;
  registeredAt: string | null;
  expiresAt: string | null;
  /**
   * When the office published the application for opposition (USPTO: the Official Gazette date,
   * `published-for-opposition-date`), UTC ISO 8601; null when the source does not say.
   */
  publishedAt: string | null;
  /** The office's status word; null when the source gives no status. */
  status: string | null;
  /**
   * Live (true) or dead (false) at its office, from the office's own code (liveness.ts); null when
   * the code says neither or the source gives none. A record that does not give it is read from
   * its status word.
   */
  live: boolean | null;
  /**
   * Nice classes 1..45, deduplicated and ascending; empty when the source publishes none (such a
   * record is matched on text and territory alone: docs/matching.md).
   */
  classes: number[];
  logoUrl: string | null;
  /**
   * The goods and services texts the office publishes, one per class and text: in English where
   * the office gives English, else in the first language it gives, with that language's code
   * (ISO 639-1, lower case; null where the source does not say). Empty when the source publishes
   * none, or none it ties to a Nice class: a text is never assigned to a class the source does
   * not give it.
   */
  goods: GoodsText[];
  /** What the hit keeps verbatim: the JSON Lines object as read, or a reader's compact summary. */
  rawPayload: Record<string, unknown>;
  /**
   * The office's own key of the owner, where the source names the owner by key only (EUIPO's bulk
   * files: `ApplicantKey/Identifier`). The importer fills `ownerName` and `ownerCountryCode` from
   * the office's applicant records held in the mirror, now or when they are loaded. Absent
   * otherwise.
   */
  ownerKey?: string;
};

/** One goods and services text of a record (RegisterRecord.goods). */
export type GoodsText = { niceClass: number; text: string; language: string | null };

export type RecordParseResult = { ok: true; record: RegisterRecord } | { ok: false; error: string };

const MAX_TEXT = 1000;
/**
 * Characters of one goods and services text. The offices' longest run to tens of thousands (a
 * USPTO identification can list hundreds of goods); a text over this is refused with its record.
 */
export const MAX_GOODS_TEXT = 100_000;

/** ISO 8601 date, or date-time with optional seconds, fraction and offset. */
const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the ASCII digits value[from, to), or -1 if one is not a digit. */
function digits(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * The common case of toIsoInstant, a plain `YYYY-MM-DD`, without Date objects (which cost ~2 µs
 * per date on an import of millions), nor a regular expression and substrings: the same calendar
 * check (proleptic Gregorian) and output. Years 0-99 are refused as the general path refuses them
 * (Date.UTC reads them as 1900-1999). Undefined when `value` is not of that form.
 */
function dateOnlyInstant(value: string): string | null | undefined {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) {
    return undefined;
  }
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  if (year < 0 || month < 0 || day < 0) return undefined;
  if (year < 100 || month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  return day <= days ? `${value}T00:00:00.000Z` : null;
}

/**
 * `2024-09-24` → `2024-09-24T00:00:00.000Z`; a date-time is converted to UTC. A date-time
 * without an offset is read as UTC (registers publish dates, not local times). Returns null for
 * anything that is not a real calendar date and time.
 */
export function toIsoInstant(value: string): string | null {
  const plain = dateOnlyInstant(value);
  if (plain !== undefined) return plain;
  const m = ISO_RE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', offset = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC silently rolls 2024-02-30 over to March: a round trip catches it.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return null;
  if (date.getUTCDate() !== day || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return null;
  }
  const ms = frac === '' ? '000' : frac.slice(1, 4).padEnd(3, '0');
  const zone = offset.toUpperCase() === 'Z' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  const time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${zone}`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

// Zod's default texts ("Invalid input: expected string, received undefined") are replaced by
// short ones, because they end up in a one-line import error next to the field path.
const need = (what: string) => ({
  error: (issue: { input?: unknown }) =>
    issue.input === undefined ? 'required' : `must be ${what}`,
});

const text = (max = MAX_TEXT) =>
  z
    .string(need('a string'))
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

const CODE_MESSAGE = 'must be a two-letter ST.3 code';
const code = z
  .string(need('a two-letter ST.3 code'))
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, {
    error: CODE_MESSAGE,
  });

/**
 * The owner's country: absent, null or `XX` (ST.3's code for "unknown") all mean the source does
 * not say, and the mirror stores that as null rather than as a code that looks like a country.
 */
const ownerCountry = code
  .nullable()
  .optional()
  .transform((value) => (value === 'XX' ? null : (value ?? null)));

// `EU` is what a watch designates; in a register record the EUIPO is the office `EM` (ST.3).
const officeCode = code.refine((value) => value !== 'EU', {
  error: 'EU is not an office code: use EM for the EUIPO',
});

const ISO_MESSAGE = 'must be an ISO 8601 date (YYYY-MM-DD) or date-time';
const isoInstant = z.string(need('an ISO 8601 date or date-time')).transform((value, ctx) => {
  const iso = toIsoInstant(value);
  if (iso === null) {
    ctx.addIssue({ code: 'custom', message: ISO_MESSAGE });
    return z.NEVER;
  }
  return iso;
});
const optionalInstant = isoInstant.nullable().optional();

const CLASS_MESSAGE = 'must be an integer 1..45';
const niceClass = z
  .number({ error: CLASS_MESSAGE })
  .int(CLASS_MESSAGE)
  .min(1, CLASS_MESSAGE)
  .max(45, CLASS_MESSAGE);

const sortedUnique = <T extends string | number>(values: readonly T[]): T[] =>
  [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

// Text from a register reaches plain-text e-mails, pages and logs: a CR/LF or a bidirectional
// override in a mark text or an owner name would shape them (`ACME\r\nBcc: x@example.com`), so the
// record is refused, with the reason, and the rest of the file loads.
const shownText = (max = MAX_TEXT) =>
  text(max).check((ctx) => {
    const reason = lineTextReason(ctx.value);
    if (reason !== null) ctx.issues.push({ code: 'custom', message: reason, input: ctx.value });
  });

const LANGUAGE_MESSAGE = 'must be a two- or three-letter ISO 639 language code';
const language = z
  .string(need('a language code'))
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}$/, { error: LANGUAGE_MESSAGE });

/** `goods` as the JSON Lines format writes it: `[{ "class": 9, "text": "…", "language": "en" }]`. */
const goodsList = z.array(
  z.object({
    class: niceClass,
    text: shownText(MAX_GOODS_TEXT),
    language: language.nullable().optional(),
  }),
  need('an array of goods texts ({ "class", "text", "language" })'),
);

/** The fields of one normalized record, as written in a JSON Lines file. Unknown keys pass. */
export const registerRecordSchema = z
  .object({
    externalId: text(100),
    markText: shownText(),
    ownerName: shownText().nullable().optional(),
    ownerCountryCode: ownerCountry,
    jurisdiction: officeCode,
    designations: z.array(officeCode, need('an array of ST.3 codes')).nullable().optional(),
    filedAt: isoInstant,
    registeredAt: optionalInstant,
    expiresAt: optionalInstant,
    publishedAt: optionalInstant,
    // Required by the record format, but null when the source gives no status.
    status: text(50).nullable(),
    // Optional: without it, the status word decides (liveOfStatusWord).
    live: z.boolean(need('true, false or null')).nullable().optional(),
    classes: z.array(niceClass, need('an array of Nice classes')),
    logoUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2000, 'must be at most 2000 characters')
      .nullable()
      .optional(),
    goods: goodsList.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    const count = value.designations?.length ?? 0;
    if (value.jurisdiction === 'WO' && count === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['designations'],
        message: 'required for jurisdiction WO (at least one country or EM)',
      });
    } else if (value.jurisdiction !== 'WO' && count > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['designations'],
        message: 'only allowed for jurisdiction WO',
      });
    }
  });

const MAX_ISSUES = 5;

/** Zod issues → `classes.2: must be an integer 1..45; filedAt: required` on one line. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  const more = issues.length - MAX_ISSUES;
  return more > 0 ? `${parts.join('; ')} (and ${more} more)` : parts.join('; ');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The fast path below: the schema's checks for the common well-formed record, written out. The
// schema costs ~10 us per record (an import checks millions), most of it Zod's generic machinery
// and the garbage it leaves. Anything the fast path is not sure of (a value to trim to a code, a
// text longer than its limit in UTF-16 units, a date it refuses) goes to the schema, so every
// refused record gets the schema's messages and every accepted one the same values.

const isCapital = (code: number) => code >= 65 && code <= 90;

/** A code the schema would keep as it is: two capitals, nothing to trim or upper-case. */
function isPlainCode(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length === 2 &&
    isCapital(value.charCodeAt(0)) &&
    isCapital(value.charCodeAt(1))
  );
}

/**
 * The value of text(max) when it passes for certain, else null: within the limit in UTF-16 units is
 * within it in code points, which the schema counts.
 */
function plainText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length >= 1 && trimmed.length <= max ? trimmed : null;
}

function plainShownText(value: unknown): string | null {
  const trimmed = plainText(value, MAX_TEXT);
  return trimmed !== null && lineTextReason(trimmed) === null ? trimmed : null;
}

/** sortedUnique without the Set and the sort for a list already strictly ascending. */
function sortedUniqueOf<T extends string | number>(values: readonly T[]): T[] {
  for (let i = 1; i < values.length; i++) {
    if (!((values[i - 1] as T) < (values[i] as T))) return sortedUnique(values);
  }
  return values.slice();
}

/** An optional date: null when absent, undefined when the schema must decide. */
function plainOptionalInstant(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? (toIsoInstant(value) ?? undefined) : undefined;
}

const logoUrlSchema = registerRecordSchema.shape.logoUrl;

const isLowerLetter = (code: number) => code >= 97 && code <= 122;

function isPlainLanguage(value: unknown): value is string {
  if (typeof value !== 'string' || value.length < 2 || value.length > 3) return false;
  for (let i = 0; i < value.length; i++) if (!isLowerLetter(value.charCodeAt(i))) return false;
  return true;
}

/** The goods the schema would make of `given`, or undefined when the schema has to look. */
function plainGoods(given: unknown): GoodsText[] | undefined {
  if (given === undefined || given === null) return [];
  if (!Array.isArray(given)) return undefined;
  const goods: GoodsText[] = [];
  for (let i = 0; i < given.length; i++) {
    const g = given[i];
    if (!isPlainObject(g)) return undefined;
    const c = g.class;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > 45) return undefined;
    const text = plainText(g.text, MAX_GOODS_TEXT);
    if (text === null || lineTextReason(text) !== null) return undefined;
    const lang = g.language;
    if (lang !== undefined && lang !== null && !isPlainLanguage(lang)) return undefined;
    goods.push({ niceClass: c, text, language: lang ?? null });
  }
  return goods;
}

/** The record the schema would make of `input`, or null when the schema has to look at it. */
function fastRecord(
  input: Record<string, unknown>,
  rawPayload: Record<string, unknown>,
): RegisterRecord | null {
  const externalId = plainText(input.externalId, 100);
  if (externalId === null) return null;
  const markText = plainShownText(input.markText);
  if (markText === null) return null;
  let ownerName: string | null = null;
  if (input.ownerName !== undefined && input.ownerName !== null) {
    ownerName = plainShownText(input.ownerName);
    if (ownerName === null) return null;
  }
  const country = input.ownerCountryCode;
  let ownerCountryCode: string | null = null;
  if (country !== undefined && country !== null) {
    if (!isPlainCode(country)) return null;
    ownerCountryCode = country === 'XX' ? null : country;
  }
  const jurisdiction = input.jurisdiction;
  if (!isPlainCode(jurisdiction) || jurisdiction === 'EU') return null;
  const given = input.designations;
  let designations: string[] = [];
  if (given !== undefined && given !== null) {
    if (!Array.isArray(given)) return null;
    for (let i = 0; i < given.length; i++) {
      const d = given[i];
      if (!isPlainCode(d) || d === 'EU') return null;
    }
    designations = sortedUniqueOf(given as string[]);
  }
  if (jurisdiction === 'WO' ? designations.length === 0 : designations.length > 0) return null;
  const filed = input.filedAt;
  const filedAt = typeof filed === 'string' ? toIsoInstant(filed) : null;
  if (filedAt === null) return null;
  const registeredAt = plainOptionalInstant(input.registeredAt);
  const expiresAt = plainOptionalInstant(input.expiresAt);
  const publishedAt = plainOptionalInstant(input.publishedAt);
  if (registeredAt === undefined || expiresAt === undefined || publishedAt === undefined) {
    return null;
  }
  let status: string | null = null;
  if (input.status !== null) {
    status = plainText(input.status, 50);
    if (status === null) return null;
  }
  const givenLive = input.live;
  if (givenLive !== undefined && givenLive !== null && typeof givenLive !== 'boolean') return null;
  const classes = input.classes;
  if (!Array.isArray(classes)) return null;
  for (let i = 0; i < classes.length; i++) {
    const c = classes[i];
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > 45) return null;
  }
  const goods = plainGoods(input.goods);
  if (goods === undefined) return null;
  let logoUrl: string | null = null;
  if (input.logoUrl !== undefined && input.logoUrl !== null) {
    // The URL check is Zod's own (trimming, parsing): the field's schema alone decides it.
    const url = logoUrlSchema.safeParse(input.logoUrl);
    if (!url.success || typeof url.data !== 'string') return null;
    logoUrl = url.data;
  }
  return {
    externalId,
    markText,
    ownerName,
    ownerCountryCode,
    jurisdiction,
    designations,
    filedAt,
    registeredAt,
    expiresAt,
    publishedAt,
    status,
    live: givenLive === undefined ? liveOfStatusWord(status) : givenLive,
    classes: sortedUniqueOf(classes as number[]),
    logoUrl,
    goods,
    rawPayload,
  };
}

/**
 * Validates and normalizes one record. `rawPayload` defaults to the input object itself, which
 * is what the spec asks for JSON Lines ("the whole object is kept verbatim").
 */
export function parseRegisterRecord(
  input: unknown,
  rawPayload?: Record<string, unknown>,
): RecordParseResult {
  if (!isPlainObject(input)) return { ok: false, error: 'record must be a JSON object' };
  const fast = fastRecord(input, rawPayload ?? input);
  return fast !== null ? { ok: true, record: fast } : parseWithSchema(input, rawPayload ?? input);
}

/**
 * parseRegisterRecord through the schema alone, for every record its fast path is not sure of
 * (exported so that the tests can hold the fast path to it).
 */
export function parseWithSchema(
  input: Record<string, unknown>,
  rawPayload: Record<string, unknown>,
): RecordParseResult {
  const result = registerRecordSchema.safeParse(input);
  if (!result.success) return { ok: false, error: formatIssues(result.error.issues) };
  const v = result.data;
  return {
    ok: true,
    record: {
      externalId: v.externalId,
      markText: v.markText,
      ownerName: v.ownerName ?? null,
      ownerCountryCode: v.ownerCountryCode,
      jurisdiction: v.jurisdiction,
      designations: sortedUnique(v.designations ?? []),
      filedAt: v.filedAt,
      registeredAt: v.registeredAt ?? null,
      expiresAt: v.expiresAt ?? null,
      publishedAt: v.publishedAt ?? null,
      status: v.status,
      live: v.live === undefined ? liveOfStatusWord(v.status) : v.live,
      classes: sortedUnique(v.classes),
      logoUrl: v.logoUrl ?? null,
      goods: (v.goods ?? []).map((g) => ({
        niceClass: g.class,
        text: g.text,
        language: g.language ?? null,
      })),
      rawPayload,
    },
  };
}

/** One item of a record stream: a record, a bad record, or a record deliberately left out. */
export type RecordItem =
  | {
      file: string;
      line: number;
      record: RegisterRecord;
      /**
       * The day (YYYY-MM-DD) of the register's version this record is, where the source says it
       * (USPTO: the case-file's `transaction-date`). The mirror keeps the newer of two versions
       * of a record (migration 019); without it, the last one imported wins.
       */
      asOf?: string;
    }
  | { file: string; line: number; error: string }
  | { file: string; line: number; skipped: true; reason: string }
  /** The office deleted this record from its register (EUIPO, CIPO: operation Delete). */
  | { file: string; line: number; deleted: { externalId: string }; asOf?: string }
  /** An applicant or representative record the office publishes apart from its marks (EUIPO). */
  | { file: string; line: number; party: RegisterParty; asOf?: string };

/**
 * An applicant or representative as an office publishes it apart from its marks, by the office's
 * own key (EUIPO's applicant and representative files); the marks name it by that key. Stored in
 * the mirror's register_parties (migration 022).
 */
export type RegisterParty = {
  /** ST.3 code of the office whose key this is (`EM`). */
  office: string;
  role: 'applicant' | 'representative';
  key: string;
  /** The name as the office writes it; null when the record gives none. */
  name: string | null;
  /** ST.3 code of the party's country (address, else nationality); null when not given. */
  countryCode: string | null;
  /** The office deleted the record (operationCode Delete): the mirror forgets it. */
  deleted: boolean;
  rawPayload: Record<string, unknown>;
};
