import { parseRegisterRecord, type RecordItem, toIsoInstant } from './record.ts';
import { usptoStatus } from './uspto-status.ts';
import { int, niceClass, usptoSt13 } from './uspto-xml.ts';
import { readXml, type XmlContext, type XmlReader } from './xml-driver.ts';

/**
 * WIPO trademark XML: ST.96 (`TrademarkTransaction`/`Transaction` … `TrademarkBag/Trademark`, as
 * CIPO's bulk files and USPTO TSDR serve it) and ST.66 TM-XML (`Transaction` …
 * `TradeMarkDetails/TradeMark`, as EUIPO and TSDR serve it). Elements are read by their local
 * name, whatever the namespace prefix, so ST.96 versions (1.0 drafts, 2.x, 3.x/4.x) read alike.
 * The mapping to the record is documented in docs/register-formats.md.
 */
export type WipoStandard = 'st96' | 'st66';

/** `rawPayload.source` of the records of each standard. */
export const WIPO_SOURCES: Readonly<Record<WipoStandard, string>> = {
  st96: 'wipo-st96',
  st66: 'wipo-st66',
};

type Applicant = {
  /** ST.96's `sequenceNumber` or ST.66's USPTO `PartyTypeCode`: the USPTO party type, if any. */
  partyType: number | null;
  names: Partial<Record<NameKind, string>>;
  freeFormat: string[];
  addressCountry: string | null;
  nationality: string | null;
  incorporation: string | null;
};

type NameKind = 'EntityName' | 'OrganizationStandardName' | 'PersonFullName' | 'OrganizationName';

type Mark = {
  line: number;
  office: string | null;
  applicationNumber: string | null;
  registrationNumber: string | null;
  applicationDate: string | null;
  registrationDate: string | null;
  expiryDate: string | null;
  statusCode: string | null;
  statusDate: string | null;
  markText: string | null;
  classes: string[];
  publicationDates: string[];
  designations: string[];
  applicants: Applicant[];
  /** EUIPO's bulk files name the applicants by key only (`ApplicantKey/Identifier`). */
  applicantKeys: string[];
  /** The office's `operationCode` on the mark: EUIPO's bulk files say `Delete` for a withdrawn record. */
  operation: string | null;
  error: string | null;
};

const newMark = (line: number, operation: string | null): Mark => ({
  line,
  office: null,
  applicationNumber: null,
  registrationNumber: null,
  applicationDate: null,
  registrationDate: null,
  expiryDate: null,
  statusCode: null,
  statusDate: null,
  markText: null,
  classes: [],
  publicationDates: [],
  designations: [],
  applicants: [],
  applicantKeys: [],
  operation,
  error: null,
});

const newApplicant = (partyType: number | null): Applicant => ({
  partyType,
  names: {},
  freeFormat: [],
  addressCountry: null,
  nationality: null,
  incorporation: null,
});

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** The root elements this reader takes, by local name. */
export const WIPO_ROOTS = new Set([
  'Transaction',
  'TrademarkTransaction',
  'TradeMarkTransaction',
  'Trademark',
  'TradeMark',
]);

const MARK_ELEMENTS = new Set(['Trademark', 'TradeMark']);

/** Direct children of the mark whose text is a field (the same local names in both standards). */
const MARK_FIELDS: Readonly<Record<string, (mark: Mark, value: string) => void>> = {
  RegistrationOfficeCode: (m, v) => {
    m.office = v;
  },
  ApplicationNumber: (m, v) => {
    m.applicationNumber ??= v; // ST.66 writes the number here; ST.96 one level down
  },
  RegistrationNumber: (m, v) => {
    m.registrationNumber = v;
  },
  ApplicationDate: (m, v) => {
    m.applicationDate = v;
  },
  RegistrationDate: (m, v) => {
    m.registrationDate = v;
  },
  ExpiryDate: (m, v) => {
    m.expiryDate = v;
  },
  MarkCurrentStatusCode: (m, v) => {
    m.statusCode = v;
  },
  MarkCurrentStatusDate: (m, v) => {
    m.statusDate = v;
  },
};

/** Fields anywhere below the mark, by their own local name and their parent's. */
function markLeaf(mark: Mark, name: string, parent: string, value: string) {
  if (name === 'ApplicationNumberText' && parent === 'ApplicationNumber') {
    mark.applicationNumber = value;
  } else if (name === 'MarkVerbalElementText') {
    mark.markText ??= value;
  } else if (name === 'ClassNumber' && parent === 'ClassDescription') {
    mark.classes.push(value);
  } else if (name === 'PublicationDate' && parent === 'Publication') {
    mark.publicationDates.push(value);
  } else if (name === 'DesignatedCountryCode') {
    mark.designations.push(value);
  } else if (name === 'Identifier' && parent === 'ApplicantKey') {
    mark.applicantKeys.push(value);
  }
}

function applicantLeaf(applicant: Applicant, name: string, value: string) {
  switch (name) {
    case 'EntityName':
    case 'OrganizationStandardName':
    case 'PersonFullName':
    case 'OrganizationName':
      applicant.names[name] ??= value;
      return;
    case 'FreeFormatNameLine':
      applicant.freeFormat.push(value);
      return;
    case 'CountryCode':
    case 'FormattedAddressCountryCode':
      applicant.addressCountry ??= value;
      return;
    case 'NationalityCode':
    case 'ApplicantNationalityCode':
      applicant.nationality ??= value;
      return;
    case 'IncorporationCountryCode':
    case 'ApplicantIncorporationCountryCode':
      applicant.incorporation ??= value;
      return;
    case 'PartyTypeCode':
      applicant.partyType ??= int(value);
      return;
  }
}

function applicantName(applicant: Applicant): string | null {
  const n = applicant.names;
  const name =
    n.EntityName ??
    n.OrganizationStandardName ??
    n.OrganizationName ??
    n.PersonFullName ??
    (applicant.freeFormat.length > 0 ? applicant.freeFormat.join(' ') : null);
  return name?.trim() || null;
}

/**
 * The current owner: where the applicants carry USPTO party types (TSDR), the highest one in
 * 10..69 (the latest owner, as in the daily XML); otherwise the first applicant named.
 */
function currentApplicant(applicants: readonly Applicant[]): Applicant | null {
  let best: Applicant | null = null;
  let bestRank = -1;
  for (const applicant of applicants) {
    if (applicantName(applicant) === null) continue;
    const type = applicant.partyType;
    const rank = type !== null && type >= 10 && type <= 69 ? type : 0;
    if (rank > bestRank) {
      best = applicant;
      bestRank = rank;
    }
  }
  return best;
}

const st3 = (value: string | null) => {
  const code = value?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(code) ? code : null;
};

/**
 * An `xs:date` as the standards write it (`2000-05-09`, or with the office's zone
 * `2000-05-09-04:00`): the calendar date, which is what the office decided. Empty → null;
 * anything else → undefined.
 */
function wipoDate(value: string | null): string | null | undefined {
  const v = value?.trim() ?? '';
  if (v === '') return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:Z|[+-]\d{2}:\d{2}|T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?$/.exec(v);
  if (!m?.[1] || toIsoInstant(m[1]) === null) return undefined;
  return m[1];
}

/**
 * The status texts of ST.66's MarkCurrentStatusCode (the TM-XML enumeration, both its 1.x list
 * and the later one), and the ones EUIPO writes in its own files, each with the status word it
 * says without doubt. A text that says a proceeding is pending against a registration
 * (cancellation, revocation, invalidity) says the mark is registered; one that could concern an
 * application or a registration alike (an appeal, an interruption, a conversion, a court action,
 * "Registration opposed") has no word here. Compared case-insensitively, spaces folded.
 */
const ST66_STATUS_WORDS: ReadonlyMap<string, string> = new Map(
  (
    [
      ['filed', ['Application filed', 'Filing date accorded']],
      [
        'pending',
        [
          'Classification checked',
          'Application accepted',
          'Application under examination',
          // EUIPO: the application has cleared opposition and awaits registration, so it is not
          // registered yet.
          'Registration pending',
        ],
      ],
      ['published', ['Application published']],
      ['opposed', ['Application opposed', 'Opposition pending']],
      [
        'registered',
        [
          'Registered',
          'Registration published',
          'Registration cancellation pending',
          'Revocation proceeding pending',
          'Invalidity proceeding pending',
        ],
      ],
      ['cancelled', ['Registration cancelled', 'Registration surrendered']],
      [
        'abandoned',
        ['Application refused', 'Application withdrawn', 'Application deemed withdrawn'],
      ],
      ['expired', ['Expired', 'Registration expired']],
    ] as const
  ).flatMap(([word, texts]) => texts.map((text) => [text.toLowerCase(), word] as const)),
);

/**
 * The status word of a record: US numeric codes from the USPTO status table; any other text only
 * when it is one of the ST.66 texts above. Any other text (an office's own vocabulary, a code of
 * a table this service does not hold) gives null, the text staying in `rawPayload.statusCode`: no
 * word is guessed from the words a text happens to contain.
 */
function statusWord(office: string | null, code: string | null): string | null {
  const text = code?.trim().replace(/\s+/g, ' ') ?? '';
  if (text === '') return null;
  if (office === 'US' && /^\d{1,3}$/.test(text)) return usptoStatus(text).word;
  return ST66_STATUS_WORDS.get(text.toLowerCase()) ?? null;
}

/**
 * The record's key: the ST.13 number for the offices whose numbering this service knows (USPTO:
 * the same key as the daily XML, so both formats update one record; EUIPO: `EM500000` + the
 * 9-digit EUTM number, as TMview writes it); otherwise the office code and the application number
 * as the office writes it (`CA-1234567`).
 */
function externalId(office: string, applicationNumber: string): string {
  if (office === 'US' && /^\d{8}$/.test(applicationNumber)) return usptoSt13(applicationNumber);
  if (office === 'EM' && /^\d{1,9}$/.test(applicationNumber)) {
    return `EM500000${applicationNumber.padStart(9, '0')}`;
  }
  return `${office}-${applicationNumber}`;
}

function mapMark(mark: Mark, standard: WipoStandard, file: string): RecordItem {
  const line = mark.line;
  const fail = (error: string): RecordItem => ({ file, line, error });
  const skip = (reason: string): RecordItem => ({ file, line, skipped: true, reason });
  if (mark.error) return fail(mark.error);
  const office = st3(mark.office);
  const number = mark.applicationNumber?.trim() ?? '';
  if (office === null) return fail('RegistrationOfficeCode: missing or not an ST.3 code');
  if (number === '') return fail('ApplicationNumber: missing');
  const label = `${office} ${number}`;
  if (mark.operation?.trim().toLowerCase() === 'delete') {
    // The office withdrew the record from its register: not an application to import.
    return skip(`${label}: deleted by the office (operationCode Delete)`);
  }
  const markText = mark.markText?.trim() ?? '';
  if (markText === '') return skip(`${label}: no MarkVerbalElementText (figurative mark)`);
  // A mark without a named applicant is still a mark that can conflict: its owner stays null.
  const owner = currentApplicant(mark.applicants);
  const filed = wipoDate(mark.applicationDate);
  if (filed === undefined) return fail(`ApplicationDate: "${mark.applicationDate}" is not a date`);
  if (filed === null) return skip(`${label}: no ApplicationDate`);
  const registered = wipoDate(mark.registrationDate);
  if (registered === undefined) {
    return fail(`RegistrationDate: "${mark.registrationDate}" is not a date`);
  }
  const expires = wipoDate(mark.expiryDate);
  if (expires === undefined) return fail(`ExpiryDate: "${mark.expiryDate}" is not a date`);
  const publications = mark.publicationDates
    .map((d) => wipoDate(d))
    .filter((d): d is string => typeof d === 'string')
    .sort();
  const classes = [
    ...new Set(mark.classes.map(niceClass).filter((n): n is number => n !== null)),
  ].sort((a, b) => a - b);
  const designations = office === 'WO' ? mark.designations.map((d) => d.trim().toUpperCase()) : [];
  const rawPayload = {
    source: WIPO_SOURCES[standard],
    office,
    applicationNumber: number,
    registrationNumber: mark.registrationNumber?.trim() || null,
    statusCode: mark.statusCode?.trim() || null,
    statusDate: wipoDate(mark.statusDate) ?? mark.statusDate,
    publicationDates: publications,
    classes,
    applicantKeys: mark.applicantKeys,
    applicants: mark.applicants.map((a) => ({
      name: applicantName(a),
      partyType: a.partyType,
      addressCountry: st3(a.addressCountry),
      nationality: st3(a.nationality),
      incorporation: st3(a.incorporation),
    })),
  };
  const result = parseRegisterRecord(
    {
      externalId: externalId(office, number),
      markText,
      ownerName: owner === null ? null : applicantName(owner),
      ownerCountryCode:
        owner === null
          ? null
          : (st3(owner.addressCountry) ?? st3(owner.nationality) ?? st3(owner.incorporation)),
      jurisdiction: office,
      designations,
      filedAt: filed,
      registeredAt: registered,
      expiresAt: expires,
      // The first publication is the one for opposition (USPTO Official Gazette, EUIPO Bulletin
      // part A); later ones (registration) are kept in the raw payload.
      publishedAt: publications[0] ?? null,
      status: statusWord(office, mark.statusCode),
      classes,
      logoUrl: null,
    },
    rawPayload,
  );
  return result.ok ? { file, line, record: result.record } : fail(result.error);
}

type ReadState = {
  mark: Mark | null;
  markDepth: number;
  applicant: Applicant | null;
  applicantDepth: number;
  /** Marks of the current TransactionData that had no applicant inside. */
  waiting: Mark[];
  /** Applicants of the current TransactionData outside any mark (TSDR ST.66). */
  loose: Applicant[];
  /** The current TransactionData holds more than one mark: its loose applicants are no one's. */
  shared: boolean;
  text: string;
  lastErrorLine: number;
};

const attribute = (tag: { attributes: Record<string, unknown> }, name: string) => {
  const value = Object.entries(tag.attributes).find(([key]) => local(key) === name)?.[1];
  return typeof value === 'string' ? value : null;
};

function wipoReader(ctx: XmlContext, standard: WipoStandard): XmlReader {
  const { parser, out, file } = ctx;
  const stack: string[] = [];
  const st: ReadState = {
    mark: null,
    markDepth: -1,
    applicant: null,
    applicantDepth: -1,
    waiting: [],
    loose: [],
    shared: false,
    text: '',
    lastErrorLine: -1,
  };
  const emitWaiting = (applicants: Applicant[]) => {
    for (const mark of st.waiting) {
      if (mark.applicants.length === 0) mark.applicants = applicants;
      out.push(mapMark(mark, standard, file));
    }
    st.waiting = [];
  };
  const flushWaiting = () => {
    emitWaiting(st.shared ? [] : st.loose);
    st.loose = [];
    st.shared = false;
  };

  parser.on('opentag', (tag) => {
    const name = local(tag.name);
    stack.push(name);
    st.text = '';
    if (st.mark === null && MARK_ELEMENTS.has(name)) {
      if (st.waiting.length > 0) {
        // A second mark in one TransactionData (EUIPO's bulk files hold thousands): applicants
        // outside the marks would belong to none of them, and nothing more needs holding.
        st.shared = true;
        emitWaiting([]);
      }
      st.mark = newMark(ctx.line(), attribute(tag, 'operationCode'));
      st.markDepth = stack.length; // 1: a single mark as the document
    }
    if (name === 'Applicant' && st.applicant === null) {
      st.applicant = newApplicant(int(attribute(tag, 'sequenceNumber')));
      st.applicantDepth = stack.length;
    }
  });

  const onText = (value: string) => {
    if (st.text.length + value.length > MAX_FIELD_LENGTH) {
      if (st.mark) st.mark.error ??= `a field is longer than ${MAX_FIELD_LENGTH} characters`;
      return;
    }
    st.text += value;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  parser.on('closetag', (tag) => {
    const name = local(tag.name);
    const depth = stack.length;
    const parent = stack[depth - 2] ?? '';
    const value = st.text.trim();
    st.text = '';
    const mark = st.mark;
    if (value !== '') {
      if (st.applicant !== null) applicantLeaf(st.applicant, name, value);
      else if (mark !== null) {
        if (depth === st.markDepth + 1) MARK_FIELDS[name]?.(mark, value);
        markLeaf(mark, name, parent, value);
      }
    }
    if (st.applicant !== null && depth === st.applicantDepth) {
      if (mark !== null) mark.applicants.push(st.applicant);
      else st.loose.push(st.applicant);
      st.applicant = null;
    }
    if (mark !== null && depth === st.markDepth) {
      const complete =
        mark.applicants.length > 0 || mark.applicantKeys.length > 0 || mark.error || st.shared;
      if (complete) out.push(mapMark(mark, standard, file));
      else st.waiting.push(mark);
      st.mark = null;
    }
    if (name === 'TransactionData') flushWaiting();
    stack.pop();
  });

  return {
    onError: (_raw, message) => {
      const line = ctx.line();
      if (st.mark) st.mark.error ??= message;
      else if (line !== st.lastErrorLine) out.push({ file, line, error: message });
      st.lastErrorLine = line;
    },
    onOverlong: (message) => {
      if (st.mark) st.mark.error ??= message;
      else out.push({ file, line: ctx.line(), error: `${message} outside a trademark` });
    },
    recordLine: () => st.mark?.line ?? null,
    end: (endLine) => {
      const open = st.mark;
      if (open !== null) {
        const element = standard === 'st96' ? 'Trademark' : 'TradeMark';
        out.push({
          file,
          line: open.line,
          error: `the file ends inside this <${element}>: truncated?`,
        });
        return;
      }
      flushWaiting();
      if (stack.length > 0) {
        out.push({
          file,
          line: endLine,
          error: 'the file ends before its root element closes: truncated?',
        });
      }
    },
  };
}

/** Characters one captured field (a mark text, a name, a date…) may hold. */
export const MAX_FIELD_LENGTH = 64 * 1024;

/**
 * Streams register records out of a WIPO ST.96 or ST.66 document: one item per trademark element
 * (`Trademark` / `TradeMark`), numbered by the line of its start tag. Memory holds one mark's few
 * captured fields at a time. Applicants are read inside the mark (ST.96, ST.66) or, as TSDR's
 * ST.66 places them, next to it in the same `TransactionData`: a mark without applicants inside
 * is held until its `TransactionData` ends, and gets those applicants only if it is that
 * `TransactionData`'s one mark (with several, whose they are is not said). EUIPO's bulk files name
 * applicants by key only; those keys are kept and the owner stays null. A mark the office marks
 * `operationCode="Delete"`, or without a word element or an application date, is skipped; one
 * without a named applicant has a null owner; bad data is an error item and reading goes on.
 */
export function readWipoXml(
  stream: AsyncIterable<Buffer | Uint8Array | string>,
  standard: WipoStandard,
  fileName = 'input',
): AsyncGenerator<RecordItem> {
  return readXml(stream, fileName, (ctx) => wipoReader(ctx, standard));
}
