import { liveOfStatusWord } from './liveness.ts';
import { parseRegisterRecord, type RecordItem, toIsoInstant } from './record.ts';
import { usptoStatus } from './uspto-status.ts';
import { niceClass, usptoSt13 } from './uspto-xml.ts';
import type { ClassGoods, WipoMark, WipoParty } from './wipo-collect.ts';

// What the mappings of the ST.96/ST.66 records share (wipo-xml.ts for any office, euipo-xml.ts,
// cipo-xml.ts): names, countries, dates, statuses, goods, and the checks every record passes.

export function partyName(party: WipoParty): string | null {
  const n = party.names;
  const person = [n.FirstName, n.LastName].filter((p) => p !== undefined).join(' ');
  const name =
    n.EntityName ??
    n.OrganizationStandardName ??
    n.OrganizationName ??
    n.LegalEntityName ??
    n.PersonFullName ??
    (person !== '' ? person : null) ??
    (party.freeFormat.length > 0 ? party.freeFormat.join(' ') : null);
  return name?.replace(/\s+/g, ' ').trim() || null;
}

export const st3 = (value: string | null) => {
  const code = value?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(code) ? code : null;
};

/** The party's country: its address, else its nationality, else where it is incorporated. */
export const partyCountry = (party: WipoParty): string | null =>
  st3(party.addressCountry) ?? st3(party.nationality) ?? st3(party.incorporation);

/**
 * The current owner: where the applicants carry USPTO party types (TSDR), the highest one in
 * 10..69 (the latest owner, as in the daily XML); otherwise the first applicant named.
 */
export function currentApplicant(applicants: readonly WipoParty[]): WipoParty | null {
  let best: WipoParty | null = null;
  let bestRank = -1;
  for (const applicant of applicants) {
    if (partyName(applicant) === null) continue;
    const type = applicant.partyType;
    const rank = type !== null && type >= 10 && type <= 69 ? type : 0;
    if (rank > bestRank) {
      best = applicant;
      bestRank = rank;
    }
  }
  return best;
}

/**
 * An `xs:date` as the standards write it (`2000-05-09`, or with the office's zone
 * `2000-05-09-04:00`): the calendar date, which is what the office decided. Empty → null;
 * anything else → undefined.
 */
export function wipoDate(value: string | null): string | null | undefined {
  const v = value?.trim() ?? '';
  if (v === '') return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:Z|[+-]\d{2}:\d{2}|T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?$/.exec(v);
  if (!m?.[1] || toIsoInstant(m[1]) === null) return undefined;
  return m[1];
}

/** The valid dates of a list, as `YYYY-MM-DD`, ascending. */
export const sortedDates = (values: readonly (string | null)[]): string[] =>
  values
    .map((d) => wipoDate(d))
    .filter((d): d is string => typeof d === 'string')
    .sort();

/**
 * The status texts of ST.66's MarkCurrentStatusCode (the TM-XML enumeration, both its 1.x list
 * and the later one), and the ones EUIPO and CIPO write in their own files, each with the status
 * word it says without doubt. A text that says a proceeding is pending against a registration
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
export function statusWord(office: string | null, code: string | null): string | null {
  const text = code?.trim().replace(/\s+/g, ' ') ?? '';
  if (text === '') return null;
  if (office === 'US' && /^\d{1,3}$/.test(text)) return usptoStatus(text).word;
  return ST66_STATUS_WORDS.get(text.toLowerCase()) ?? null;
}

/**
 * Live or dead, from the same code: a US numeric code by the USPTO's own Live/Dead indicator, any
 * other by the category of its ST.66 text (liveness.ts); null when the code says neither.
 */
export function statusLive(office: string | null, code: string | null): boolean | null {
  const text = code?.trim() ?? '';
  if (office === 'US' && /^\d{1,3}$/.test(text)) return usptoStatus(text).live;
  return liveOfStatusWord(statusWord(office, code));
}

/** The Nice classes 1–45 among the class numbers read, deduplicated and ascending. */
export const niceClasses = (numbers: readonly string[]): number[] =>
  [...new Set(numbers.map(niceClass).filter((n): n is number => n !== null))].sort((a, b) => a - b);

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The text to keep of one ClassDescription: English where given, else the first language. */
function chosenText(goods: ClassGoods, officeLanguage: string | null) {
  const texts = goods.texts
    .map((t) => ({
      language: t.language?.trim().toLowerCase() || officeLanguage,
      text: oneLine(t.text),
    }))
    .filter((t) => t.text !== '');
  return texts.find((t) => t.language === 'en') ?? texts[0] ?? null;
}

/** A goods entry of the record, as the JSON Lines format writes it. */
export type GoodsInput = { class: number; text: string; language: string | null };

/**
 * The goods texts of a mark with their Nice class: each ClassDescription's class, or, where the
 * office does not write one in it (CIPO's older records), the mark's one Nice class when it has
 * exactly one. With several classes and no class in the description, which class a text is of is
 * not said: it is left out of `goods` and returned in `unclassified`. `officeLanguage`: the
 * language of a text that does not say its own, where the office's is certain (USPTO: English).
 */
export function goodsOf(
  mark: WipoMark,
  classes: readonly number[],
  officeLanguage: string | null = null,
): { goods: GoodsInput[]; unclassified: { text: string; language: string | null }[] } {
  const goods: GoodsInput[] = [];
  const unclassified: { text: string; language: string | null }[] = [];
  for (const entry of mark.goods) {
    const chosen = chosenText(entry, officeLanguage);
    if (chosen === null) continue;
    const own = entry.classNumber === null ? null : niceClass(entry.classNumber);
    const cls = own ?? (entry.classNumber === null && classes.length === 1 ? classes[0] : null);
    if (cls !== null && cls !== undefined) goods.push({ class: cls, ...chosen });
    else unclassified.push(chosen);
  }
  return { goods, unclassified };
}

/**
 * The mark's key in the mirror: the ST.13 number for the offices whose numbering this service
 * knows (USPTO: the same key as the daily XML, so both formats update one record; EUIPO:
 * `EM500000` + the 9-digit EUTM number, as TMview writes it); otherwise the office code and the
 * application number as the office writes it (`CA-1234567`).
 */
export function wipoExternalId(office: string, applicationNumber: string): string {
  if (office === 'US' && /^\d{8}$/.test(applicationNumber)) return usptoSt13(applicationNumber);
  if (office === 'EM' && /^\d{1,9}$/.test(applicationNumber)) {
    return `EM500000${applicationNumber.padStart(9, '0')}`;
  }
  return `${office}-${applicationNumber}`;
}

/** The checked common part of a mark, for an office's mapping to finish. */
export type CheckedMark = {
  office: string;
  number: string;
  externalId: string;
  /** `EM 018173186`: how the messages name the mark. */
  label: string;
  markText: string;
  filed: string;
  registered: string | null;
  expires: string | null;
};

export type CheckOptions = {
  /** The mark's number as the office writes it (null: missing). */
  number: string | null;
  externalId?: (office: string, number: string) => string;
  /** The reason a mark without a word element is skipped. */
  noText?: (label: string) => string;
};

/**
 * The checks every ST.96/ST.66 record passes, in order: a well-formed element, an office, a number;
 * then a mark the office deleted (`operationCode`/`operationCategory` Delete) is a deletion; a mark
 * without a word element or an application date is skipped; a date that is not one is an error.
 */
export function checkMark(
  mark: WipoMark,
  file: string,
  options: CheckOptions,
): { item: RecordItem } | { checked: CheckedMark } {
  const { line } = mark;
  const fail = (error: string) => ({ item: { file, line, error } });
  const skip = (reason: string) => ({ item: { file, line, skipped: true as const, reason } });
  if (mark.error) return fail(mark.error);
  const office = st3(mark.office);
  const number = options.number?.trim() ?? '';
  if (office === null) return fail('RegistrationOfficeCode: missing or not an ST.3 code');
  if (number === '') return fail('ApplicationNumber: missing');
  const externalId = (options.externalId ?? wipoExternalId)(office, number);
  const label = `${office} ${number}`;
  if (mark.operation?.trim().toLowerCase() === 'delete') {
    return { item: { file, line, deleted: { externalId } } };
  }
  const markText = mark.markText?.trim() ?? '';
  if (markText === '') {
    return skip(options.noText?.(label) ?? `${label}: no MarkVerbalElementText (figurative mark)`);
  }
  const filed = wipoDate(mark.applicationDate);
  if (filed === undefined) return fail(`ApplicationDate: "${mark.applicationDate}" is not a date`);
  if (filed === null) return skip(`${label}: no ApplicationDate`);
  const registered = wipoDate(mark.registrationDate);
  if (registered === undefined) {
    return fail(`RegistrationDate: "${mark.registrationDate}" is not a date`);
  }
  const expires = wipoDate(mark.expiryDate);
  if (expires === undefined) return fail(`ExpiryDate: "${mark.expiryDate}" is not a date`);
  return { checked: { office, number, externalId, label, markText, filed, registered, expires } };
}

/** A party as the raw payload keeps it. */
export const rawParty = (party: WipoParty) => ({
  name: partyName(party),
  partyType: party.partyType,
  addressCountry: st3(party.addressCountry),
  nationality: st3(party.nationality),
  incorporation: st3(party.incorporation),
});

/**
 * A mark of an office's own files (EUIPO, CIPO) that passed checkMark, as the record the mirror
 * keeps: its current applicant, classes and goods (goods of no class kept in the raw payload),
 * status and live-or-dead by the office's codes. `payload`: the office's raw payload for the
 * classes read; `publishedAt`: the publication that opposition runs from, by the office's rule.
 */
export function officeMarkRecord(
  mark: WipoMark,
  checked: CheckedMark,
  office: {
    jurisdiction: 'EM' | 'CA';
    payload: (classes: number[]) => object;
    publishedAt: string | null;
  },
) {
  const owner = currentApplicant(mark.applicants);
  const classes = niceClasses(mark.classes);
  const { goods, unclassified } = goodsOf(mark, classes);
  const rawPayload = {
    ...office.payload(classes),
    ...(unclassified.length > 0 ? { unclassifiedGoods: unclassified } : {}),
  };
  const result = parseRegisterRecord(
    {
      externalId: checked.externalId,
      markText: checked.markText,
      ownerName: owner === null ? null : partyName(owner),
      ownerCountryCode: owner === null ? null : partyCountry(owner),
      jurisdiction: office.jurisdiction,
      filedAt: checked.filed,
      registeredAt: checked.registered,
      expiresAt: checked.expires,
      publishedAt: office.publishedAt,
      status: statusWord(office.jurisdiction, mark.statusCode),
      live: statusLive(office.jurisdiction, mark.statusCode),
      classes,
      logoUrl: null,
      goods,
    },
    rawPayload,
  );
  return { owner, result };
}
