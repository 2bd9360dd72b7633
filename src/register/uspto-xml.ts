import { tokens } from '../matching/normalize.ts';
import { parseRegisterRecord, type RecordItem, toIsoInstant } from './record.ts';
import { usptoStatus } from './uspto-status.ts';
import { readXml, type XmlContext, type XmlReader } from './xml-driver.ts';

/** `rawPayload.source` of every record read from the USPTO daily/annual XML. */
export const USPTO_XML_SOURCE = 'uspto-trademark-applications-daily';

/**
 * The ST.13 application number of a USPTO serial number, as TMview and the TMDN use it:
 * `US` (ST.3 office) + `50` (ST.13 IP type: trademark application) + `0000` (no year: US serial
 * numbers do not encode one) + the serial left-padded to 9 digits. Serial 98763166 →
 * `US500000098763166`; TMview's own links show the same shape (`st13=US500000072024748`).
 */
export function usptoSt13(serialNumber: string): string {
  return `US500000${serialNumber.padStart(9, '0')}`;
}

type Owner = {
  entryNumber: string | null;
  partyType: string | null;
  name: string | null;
  nationalityCountry: string | null;
  nationalityState: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
};

/** The few fields of one `<case-file>` that the mapping needs; everything else is not kept. */
type CaseFile = {
  line: number;
  actionKey: string | null;
  serialNumber: string | null;
  registrationNumber: string | null;
  transactionDate: string | null;
  filingDate: string | null;
  registrationDate: string | null;
  publishedDate: string | null;
  statusCode: string | null;
  statusDate: string | null;
  markText: string | null;
  markDrawingCode: string | null;
  internationalRegistrationNumber: string | null;
  internationalCodes: string[];
  /** Each `<classification>`: its international codes and its primary (prime) code. */
  classifications: { codes: string[]; primary: string | null }[];
  owners: Owner[];
  /** `<case-file-statement>`s: type code and text, in file order. */
  statements: { type: string; text: string | null }[];
  /** The first well-formedness error met inside this case-file. */
  error: string | null;
};

const newOwner = (): Owner => ({
  entryNumber: null,
  partyType: null,
  name: null,
  nationalityCountry: null,
  nationalityState: null,
  country: null,
  state: null,
  city: null,
});

const newCaseFile = (line: number, actionKey: string | null): CaseFile => ({
  line,
  actionKey,
  serialNumber: null,
  registrationNumber: null,
  transactionDate: null,
  filingDate: null,
  registrationDate: null,
  publishedDate: null,
  statusCode: null,
  statusDate: null,
  markText: null,
  markDrawingCode: null,
  internationalRegistrationNumber: null,
  internationalCodes: [],
  classifications: [],
  owners: [],
  statements: [],
  error: null,
});

const OWNER_PATH = 'case-file-owners/case-file-owner';
const CLASSIFICATION_PATH = 'classifications/classification';

function lastOwner(cf: CaseFile): Owner {
  const owner = cf.owners.at(-1);
  if (owner) return owner;
  const created = newOwner();
  cf.owners.push(created);
  return created;
}

/**
 * Element paths below `<case-file>` whose text is captured (DTD v2.0 names). The text of any other
 * element is never stored, so goods lists, events and Madrid histories cost nothing. The paths are
 * exact: `foreign-applications/foreign-application/filing-date` is not the US filing date.
 */
const FIELDS: Readonly<Record<string, (cf: CaseFile, value: string) => void>> = {
  'serial-number': (cf, v) => {
    cf.serialNumber = v;
  },
  'registration-number': (cf, v) => {
    cf.registrationNumber = v;
  },
  'transaction-date': (cf, v) => {
    cf.transactionDate = v;
  },
  'case-file-header/filing-date': (cf, v) => {
    cf.filingDate = v;
  },
  'case-file-header/registration-date': (cf, v) => {
    cf.registrationDate = v;
  },
  'case-file-header/published-for-opposition-date': (cf, v) => {
    cf.publishedDate = v;
  },
  'case-file-header/status-code': (cf, v) => {
    cf.statusCode = v;
  },
  'case-file-header/status-date': (cf, v) => {
    cf.statusDate = v;
  },
  'case-file-header/mark-identification': (cf, v) => {
    cf.markText = v;
  },
  'case-file-header/mark-drawing-code': (cf, v) => {
    cf.markDrawingCode = v;
  },
  'international-registration/international-registration-number': (cf, v) => {
    cf.internationalRegistrationNumber = v;
  },
  [`${CLASSIFICATION_PATH}/international-code`]: (cf, v) => {
    cf.internationalCodes.push(v);
    cf.classifications.at(-1)?.codes.push(v);
  },
  [`${CLASSIFICATION_PATH}/primary-code`]: (cf, v) => {
    const last = cf.classifications.at(-1);
    if (last !== undefined) last.primary = v.trim();
  },
  'case-file-statements/case-file-statement/type-code': (cf, v) => {
    cf.statements.push({ type: v.trim(), text: null });
  },
  'case-file-statements/case-file-statement/text': (cf, v) => {
    const last = cf.statements.at(-1);
    if (last !== undefined && last.text === null) last.text = v;
  },
  [`${OWNER_PATH}/entry-number`]: (cf, v) => {
    lastOwner(cf).entryNumber = v;
  },
  [`${OWNER_PATH}/party-type`]: (cf, v) => {
    lastOwner(cf).partyType = v;
  },
  [`${OWNER_PATH}/party-name`]: (cf, v) => {
    lastOwner(cf).name = v;
  },
  [`${OWNER_PATH}/nationality/country`]: (cf, v) => {
    lastOwner(cf).nationalityCountry = v;
  },
  [`${OWNER_PATH}/nationality/state`]: (cf, v) => {
    lastOwner(cf).nationalityState = v;
  },
  [`${OWNER_PATH}/country`]: (cf, v) => {
    lastOwner(cf).country = v;
  },
  [`${OWNER_PATH}/state`]: (cf, v) => {
    lastOwner(cf).state = v;
  },
  [`${OWNER_PATH}/city`]: (cf, v) => {
    lastOwner(cf).city = v;
  },
};

/** `20240924` → `2024-09-24`; `0`, `00000000` or empty → null; anything else → undefined. */
function usptoDate(value: string | null): string | null | undefined {
  const v = value?.trim() ?? '';
  if (v === '' || /^0+$/.test(v)) return null;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (!m) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  return toIsoInstant(iso) === null ? undefined : iso;
}

/** For the raw payload: a valid date as `YYYY-MM-DD`, otherwise USPTO's text unchanged. */
const rawDate = (value: string | null): string | null => usptoDate(value) ?? value;

export const int = (value: string | null | undefined): number | null => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isNaN(n) ? null : n;
};

/**
 * The current owner. USPTO numbers owner parties by stage (party_types.csv): 10-19 applicant and
 * new owners before publication, 20-29 owner at and after publication, 30 original registrant,
 * 31-69 owners after registration; 70 is a legacy correspondent, not an owner. So the highest
 * party type in 10..69 is the latest owner. Joint owners share a party type and differ in
 * entry-number: the first of them (lowest entry number) is taken.
 */
function currentOwner(owners: readonly Owner[]): Owner | null {
  let best: Owner | null = null;
  let bestKey: [number, number] = [-1, 0];
  for (const owner of owners) {
    if (!owner.name?.trim()) continue;
    const type = int(owner.partyType);
    const rank = type !== null && type >= 10 && type <= 69 ? type : 0;
    const entry = int(owner.entryNumber) ?? Number.MAX_SAFE_INTEGER;
    if (rank > bestKey[0] || (rank === bestKey[0] && entry < bestKey[1])) {
      best = owner;
      bestKey = [rank, entry];
    }
  }
  return best;
}

/**
 * The owner's country: the nationality country (citizenship or country of organization), else
 * the address country; a `state` (nationality or address) is a US state, so `US`. Without any of
 * them the case-file does not say, and the record says nothing either (null).
 */
function ownerCountry(owner: Owner): string | null {
  for (const candidate of [owner.nationalityCountry, owner.country]) {
    const code = candidate?.trim().toUpperCase() ?? '';
    if (/^[A-Z]{2}$/.test(code)) return code;
  }
  if (owner.nationalityState?.trim() || owner.state?.trim()) return 'US';
  return null;
}

/** `016` → 16. Non-Nice codes (`A`, `B` certification marks, `200` collective membership) → null. */
export function niceClass(code: string): number | null {
  if (!/^\d{1,3}$/.test(code.trim())) return null;
  const n = Number(code);
  return n >= 1 && n <= 45 ? n : null;
}

/** `GS0091`: goods and services (GS), prime class 009, 1 (the text) or 3 (with "less goods"). */
const GOODS_TYPE = /^GS(\d{3})[13]$/;

/**
 * The Nice class of a goods statement of prime class `prime`. The prime class is the primary code
 * of a `<classification>`: a Nice class for applications under the Nice system, a US class for
 * older ones (`GS0251` LOCKS… in the classification of US class 025, international codes 006 and
 * 020). So the statement's Nice class is the prime class when that classification lists it among
 * its international codes, or the classification's one Nice class; where it lists several, or
 * none, the text is not tied to a class and none is guessed.
 */
function goodsClass(cf: CaseFile, prime: number, classes: readonly number[]): number | null {
  const group = cf.classifications.find((c) => c.primary !== null && int(c.primary) === prime);
  if (group === undefined) return classes.includes(prime) ? prime : null;
  const nice = [...new Set(group.codes.map(niceClass).filter((n): n is number => n !== null))];
  if (nice.includes(prime)) return prime;
  return nice.length === 1 ? (nice[0] as number) : null;
}

/**
 * The goods and services statements (type GS…) with their Nice class, in English: the USPTO takes
 * identifications of goods in English only (37 CFR 2.32(a)(6)), so the language is no guess.
 */
function usptoGoods(cf: CaseFile, classes: readonly number[]) {
  const goods: { class: number; text: string; language: string }[] = [];
  for (const st of cf.statements) {
    const m = GOODS_TYPE.exec(st.type);
    const text = st.text?.replace(/\s+/g, ' ').trim() ?? '';
    if (m === null || text === '') continue;
    const niceClassOf = goodsClass(cf, Number(m[1]), classes);
    if (niceClassOf !== null) goods.push({ class: niceClassOf, text, language: 'en' });
  }
  return goods;
}

function mapCaseFile(cf: CaseFile, file: string): RecordItem {
  const { line } = cf;
  const fail = (error: string): RecordItem => ({ file, line, error });
  const skip = (reason: string): RecordItem => ({ file, line, skipped: true, reason });
  if (cf.error) return fail(cf.error);

  const serial = cf.serialNumber?.trim() ?? '';
  if (serial === '') return fail('serial-number: missing');
  if (!/^\d{8}$/.test(serial)) return fail(`serial-number: "${serial}" is not an 8-digit serial`);
  const markText = cf.markText?.trim() ?? '';
  // Design-only and status-only records have no word element to watch.
  if (markText === '') return skip(`serial ${serial}: no mark-identification (no word element)`);
  // A case-file without a named owner is still a mark that can conflict: its owner stays null.
  const owner = currentOwner(cf.owners);
  const filed = usptoDate(cf.filingDate);
  if (filed === undefined) return fail(`filing-date: "${cf.filingDate}" is not a YYYYMMDD date`);
  if (filed === null) return skip(`serial ${serial}: no filing-date`);
  const registered = usptoDate(cf.registrationDate);
  if (registered === undefined) {
    return fail(`registration-date: "${cf.registrationDate}" is not a YYYYMMDD date`);
  }
  const published = usptoDate(cf.publishedDate);
  if (published === undefined) {
    return fail(`published-for-opposition-date: "${cf.publishedDate}" is not a YYYYMMDD date`);
  }

  const statusCode = cf.statusCode?.trim() ?? '';
  const status = usptoStatus(statusCode);
  const classes = [
    ...new Set(cf.internationalCodes.map(niceClass).filter((n): n is number => n !== null)),
  ].sort((a, b) => a - b);
  const registrationNumber = cf.registrationNumber?.trim() ?? '';
  const disclaimers = cf.statements
    .filter((st) => /^D[01]/.test(st.type) && st.text !== null && st.text.trim() !== '')
    .map((st) => (st.text as string).trim());
  const rawPayload = {
    source: USPTO_XML_SOURCE,
    serialNumber: serial,
    registrationNumber: /^0*$/.test(registrationNumber) ? null : registrationNumber,
    internationalRegistrationNumber: cf.internationalRegistrationNumber?.trim() || null,
    actionKey: cf.actionKey,
    transactionDate: rawDate(cf.transactionDate),
    statusCode,
    statusDescription: status.description,
    statusLiveDead: status.liveDead,
    statusDate: rawDate(cf.statusDate),
    markDrawingCode: cf.markDrawingCode?.trim() || null,
    internationalCodes: cf.internationalCodes.map((c) => c.trim()),
    classes,
    disclaimers,
    disclaimedWords: disclaimedWords(disclaimers),
    owners: cf.owners.map((o) => ({
      partyType: int(o.partyType),
      entryNumber: int(o.entryNumber),
      name: o.name?.trim() || null,
      nationalityCountry: o.nationalityCountry?.trim() || null,
      nationalityState: o.nationalityState?.trim() || null,
      country: o.country?.trim() || null,
      state: o.state?.trim() || null,
      city: o.city?.trim() || null,
    })),
  };
  const result = parseRegisterRecord(
    {
      externalId: usptoSt13(serial),
      markText,
      ownerName: owner?.name?.trim() ?? null,
      ownerCountryCode: owner === null ? null : ownerCountry(owner),
      jurisdiction: 'US',
      filedAt: filed,
      registeredAt: registered,
      // USPTO publishes no expiry date; deriving one from renewals is not attempted.
      expiresAt: null,
      publishedAt: published,
      status: status.word,
      // The office's own Live/Dead indicator, which is finer than the word (715: null).
      live: status.live,
      classes,
      logoUrl: null,
      goods: usptoGoods(cf, classes),
    },
    rawPayload,
  );
  if (!result.ok) return fail(result.error);
  // The day USPTO extracted this version of the case-file (a daily file's own date for the
  // records it changed): what orders two versions of one serial. Unreadable, it says nothing.
  const asOf = usptoDate(cf.transactionDate);
  return typeof asOf === 'string'
    ? { file, line, record: result.record, asOf }
    : { file, line, record: result.record };
}

/**
 * The words a disclaimer gives up (statement types D0 and D1, statement_types.csv): those quoted
 * in it, `No claim is made to the exclusive right to use "COFFEE COMPANY" apart from the mark as
 * shown.` → COFFEE, COMPANY, normalized as mark words are.
 */
export function disclaimedWords(disclaimers: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of disclaimers) {
    for (const quoted of text.matchAll(/["“”]([^"“”]{1,200})["“”]/g)) {
      for (const w of tokens(quoted[1] as string)) words.add(w);
    }
  }
  return [...words];
}

const PREDEFINED = new Set(['amp', 'lt', 'gt', 'apos', 'quot']);

/**
 * General entities declared with a literal value in the internal DTD subset. saxes reads the
 * DOCTYPE but leaves entities to its user. Values are taken literally (character references
 * decoded, entity references not expanded), so a hostile DTD cannot grow text exponentially;
 * external (SYSTEM/PUBLIC) entities are never fetched.
 */
function internalEntities(doctype: string): Record<string, string> {
  const subset = doctype.replace(/<!--[\s\S]*?-->/g, '');
  const entities: Record<string, string> = {};
  for (const m of subset.matchAll(/<!ENTITY\s+([^\s%"'>]+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g)) {
    const [, name = '', double, single] = m;
    if (PREDEFINED.has(name)) continue;
    entities[name] = (double ?? single ?? '').replace(
      /&#(?:x([0-9a-f]+)|(\d+));/gi,
      (_, hex: string | undefined, dec: string | undefined) =>
        String.fromCodePoint(hex ? Number.parseInt(hex, 16) : Number(dec)),
    );
  }
  return entities;
}

const ROOTS = new Set(['trademark-applications-daily', 'case-file']);

/**
 * Characters that entity references may add to one record (or to the text between two records).
 * The USPTO's files declare no entities at all; a hostile file that declares a 100,000-character
 * entity and references it thousands of times would otherwise make saxes build a string of
 * hundreds of megabytes (or fail with "Invalid string length" and lose the records after it).
 */
export const MAX_ENTITY_EXPANSION = 64 * 1024;
/** Characters one captured field (mark text, owner name, a date…) may hold. */
export const MAX_FIELD_LENGTH = 64 * 1024;

type ParseState = {
  root: string | null;
  /** Open elements, to tell a complete file from a truncated one at the end. */
  depth: number;
  /** Not a USPTO file: nothing more is read. */
  stopped: boolean;
  /** saxes met an unmatched close tag and closed every open element (see onError). */
  collapsed: boolean;
  current: CaseFile | null;
  /** Element names below the current <case-file>. */
  path: string[];
  /** The FIELDS key (or `action-key`) whose text is being collected. */
  capture: string | null;
  text: string;
  actionKey: string | null;
  lastErrorLine: number;
  /** Characters expanded from entity references since the current record (or gap) began. */
  expanded: number;
  /** The expansion budget ran out outside a case-file and that was reported. */
  gapOverflowReported: boolean;
};

const newParseState = (): ParseState => ({
  root: null,
  depth: 0,
  stopped: false,
  collapsed: false,
  current: null,
  path: [],
  capture: null,
  text: '',
  actionKey: null,
  lastErrorLine: -1,
  expanded: 0,
  gapOverflowReported: false,
});

const EXPANSION_MESSAGE = `entity references expand to more than ${MAX_ENTITY_EXPANSION} characters`;

/**
 * Each entity the internal DTD declares becomes a getter that counts what it adds: past the budget
 * it expands to nothing and the record it is in is refused, so memory stays bounded while parsing.
 */
function declareEntities(ctx: XmlContext, st: ParseState): void {
  const expand = (value: string): string => {
    st.expanded += value.length;
    if (st.expanded <= MAX_ENTITY_EXPANSION) return value;
    if (st.current) st.current.error ??= `${EXPANSION_MESSAGE} in this <case-file>`;
    else if (!st.gapOverflowReported) {
      st.gapOverflowReported = true;
      ctx.out.push({
        file: ctx.file,
        line: ctx.line(),
        error: `${EXPANSION_MESSAGE} outside a <case-file>`,
      });
    }
    return '';
  };
  ctx.parser.on('doctype', (doctype) => {
    for (const [name, value] of Object.entries(internalEntities(doctype))) {
      Object.defineProperty(ctx.parser.ENTITIES, name, {
        get: () => expand(value),
        enumerable: true,
        configurable: true,
      });
    }
  });
}

/** A start tag: the root check, a new case-file, or a field of the current one to capture. */
function onOpen(ctx: XmlContext, st: ParseState, name: string): void {
  st.depth += 1;
  if (st.root === null) {
    st.root = name;
    if (!ROOTS.has(name)) {
      ctx.out.push({
        file: ctx.file,
        line: ctx.line(),
        error: `not a USPTO trademark-applications-daily file: root element <${name}>`,
      });
      st.stopped = true;
      return;
    }
  }
  const current = st.current;
  if (current === null) {
    if (name === 'case-file') {
      st.current = newCaseFile(ctx.line(), st.actionKey);
      st.path = [];
      st.expanded = 0;
    } else if (name === 'action-key') {
      st.capture = 'action-key';
      st.text = '';
    }
    return;
  }
  st.path.push(name);
  const key = st.path.join('/');
  if (key === OWNER_PATH) current.owners.push(newOwner());
  else if (key === CLASSIFICATION_PATH) current.classifications.push({ codes: [], primary: null });
  if (Object.hasOwn(FIELDS, key)) {
    st.capture = key;
    st.text = '';
  }
}

/** An end tag: a captured field stored, or the case-file complete and mapped. */
function onClose(ctx: XmlContext, st: ParseState, name: string): void {
  st.depth -= 1;
  const current = st.current;
  if (current === null) {
    if (st.capture === 'action-key' && name === 'action-key') {
      st.actionKey = st.text.trim() || null;
    }
    st.capture = null;
    return;
  }
  if (st.path.length === 0) {
    ctx.out.push(mapCaseFile(current, ctx.file));
    st.current = null;
    st.capture = null;
    st.expanded = 0;
    st.gapOverflowReported = false;
    return;
  }
  const key = st.path.join('/');
  if (st.capture === key) FIELDS[key]?.(current, st.text);
  st.capture = null;
  st.path.pop();
}

/**
 * saxes recovers and goes on. An unmatched close tag makes it pop its whole stack, so what follows
 * is parsed as further roots: its "only one root" and "unmatched closing tag" complaints outside a
 * case-file are echoes of the error already reported, and the case-files after it are still read
 * (several <case-file> roots in a row, i.e. concatenated fixtures, read the same way). One mistake
 * often makes it complain several times on the same line, so outside a case-file only the first
 * complaint per line is kept; inside a case-file the first error is the one reported.
 */
function onXmlError(ctx: XmlContext, st: ParseState, raw: string, message: string): void {
  if (st.stopped) return;
  if (raw.endsWith('unexpected close tag.')) st.collapsed = true;
  if (raw.endsWith('documents may contain only one root.')) return;
  if (st.collapsed && !st.current && raw.includes('unmatched closing tag')) return;
  const line = ctx.line();
  const repeated = line === st.lastErrorLine;
  st.lastErrorLine = line;
  if (st.current) st.current.error ??= message;
  else if (!repeated) ctx.out.push({ file: ctx.file, line, error: message });
}

/** What the end of the document says: a case-file or the root cut short, or no root at all. */
function onEnd(ctx: XmlContext, st: ParseState, endLine: number): void {
  const { file } = ctx;
  if (st.current !== null) {
    const { line, error } = st.current;
    const detail = error ? ` (${error})` : '';
    ctx.out.push({
      file,
      line,
      error: `the file ends inside this <case-file>: truncated?${detail}`,
    });
  } else if (st.root === null) {
    ctx.out.push({
      file,
      line: endLine,
      error: 'no root element: expected <trademark-applications-daily> or <case-file>',
    });
  } else if (st.depth > 0) {
    ctx.out.push({ file, line: endLine, error: `the file ends before </${st.root}>: truncated?` });
  }
}

function usptoReader(ctx: XmlContext): XmlReader {
  // One object rather than loose `let`s: the handlers below change it behind TypeScript's back.
  const st = newParseState();
  declareEntities(ctx, st);
  const { parser } = ctx;
  parser.on('opentagstart', (tag) => {
    if (!st.stopped) onOpen(ctx, st, tag.name);
  });
  const onText = (value: string) => {
    if (st.capture === null) return;
    if (st.text.length + value.length > MAX_FIELD_LENGTH) {
      if (st.current) st.current.error ??= `a field is longer than ${MAX_FIELD_LENGTH} characters`;
      return;
    }
    st.text += value;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    if (!st.stopped) onClose(ctx, st, tag.name);
  });
  return {
    onError: (raw, message) => onXmlError(ctx, st, raw, message),
    onOverlong: (message) => {
      if (st.current) st.current.error ??= message;
      else
        ctx.out.push({
          file: ctx.file,
          line: ctx.line(),
          error: `${message} outside a <case-file>`,
        });
    },
    recordLine: () => st.current?.line ?? null,
    stopped: () => st.stopped,
    end: (endLine) => onEnd(ctx, st, endLine),
  };
}

/**
 * Streams register records out of a USPTO "Trademark Applications Daily/Annual" XML file (DTD
 * `trademark-applications-daily` v2.0): either a whole file (root `<trademark-applications-daily>`,
 * `<case-file>`s grouped under `<action-keys>`) or a single `<case-file>` root. An internal DTD
 * subset is accepted and its literal entities are expanded.
 *
 * Memory holds one case-file's few captured fields at a time, whatever the file size. Each
 * `<case-file>` gives one item, numbered by the line of its start tag: a record, a skip (no word
 * mark or no filing date: design-only and status-only records) or an error (malformed
 * XML or data inside it; the parser then carries on with the next case-file). A truncated file
 * ends with an error for the case-file it cuts, and a source failure with a "read failed" error.
 */
export function readUsptoXml(
  stream: AsyncIterable<Buffer | Uint8Array | string>,
  fileName = 'input',
): AsyncGenerator<RecordItem> {
  return readXml(stream, fileName, usptoReader);
}
