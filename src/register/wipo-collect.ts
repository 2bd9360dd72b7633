import type { XmlContext, XmlReader } from './xml-driver.ts';

// What the ST.96 and ST.66 readers (wipo-xml.ts, euipo-xml.ts, cipo-xml.ts) collect of one mark
// while the driver streams its document: the few fields the mapping needs, by local name whatever
// the namespace, so ST.96 versions, ST.66 and the offices' vocabularies built on them read alike.
// Only the sections of a mark listed in LEAF_SECTIONS are read: a priority claim, a seniority, an
// earlier mark of an opposition or a recordal also hold an ApplicationNumber, a date or a verbal
// element, and none of them is this mark's.

/** An applicant or representative as a document writes it. */
export type WipoParty = {
  line: number;
  /** ST.96's `sequenceNumber` or ST.66's USPTO `PartyTypeCode`: the USPTO party type, if any. */
  partyType: number | null;
  /** The office's own key (`ApplicantIdentifier`, `RepresentativeIdentifier`). */
  key: string | null;
  /** `operationCode` on the party's element (EUIPO's applicant files: `Insert`, `Delete`). */
  operation: string | null;
  names: Partial<Record<NameKind, string>>;
  freeFormat: string[];
  addressCountry: string | null;
  nationality: string | null;
  incorporation: string | null;
};

type NameKind =
  | 'EntityName'
  | 'OrganizationStandardName'
  | 'PersonFullName'
  | 'OrganizationName'
  | 'LegalEntityName'
  | 'FirstName'
  | 'LastName';

/** One ClassDescription: its class (where it names one) and its texts by language. */
export type ClassGoods = {
  classNumber: string | null;
  texts: { language: string | null; text: string }[];
};

export type Publication = {
  date: string | null;
  section: string | null;
  identifier: string | null;
  /** CIPO: `PublicationStatusCategory` of a NationalPublication (`Advertised`). */
  category: string | null;
};

export type MarkEvent = {
  date: string | null;
  category: string | null;
  code: string | null;
  description: string | null;
};

export type WipoMark = {
  line: number;
  /** `operationCode` (ST.66, EUIPO) or `operationCategory` (ST.96, CIPO) on the mark. */
  operation: string | null;
  office: string | null;
  applicationNumber: string | null;
  /** ST.96 `ApplicationNumber/ST13ApplicationNumber` (CIPO writes its number only there). */
  st13: string | null;
  registrationNumber: string | null;
  applicationDate: string | null;
  registrationDate: string | null;
  expiryDate: string | null;
  statusCode: string | null;
  /** EUIPO's `milestone` and `status` attributes of MarkCurrentStatusCode, as written. */
  statusAttributes: Record<string, string>;
  statusDate: string | null;
  /** CIPO: `MarkCurrentStatusInternalDescriptionText`. */
  statusInternal: string | null;
  markText: string | null;
  /** `MarkFeature` (ST.66) or `MarkFeatureCategory` (ST.96): Word, Figurative… */
  markFeature: string | null;
  /** `KindMark` (ST.66) or `MarkCategory` (ST.96): Individual, Trademark… */
  markKind: string | null;
  classes: string[];
  goods: ClassGoods[];
  publications: Publication[];
  designations: string[];
  applicants: WipoParty[];
  /** EUIPO's bulk files name the applicants by key only (`ApplicantKey/Identifier`). */
  applicantKeys: string[];
  representatives: WipoParty[];
  representativeKeys: string[];
  /** Vienna codes: ST.66 `CategoryCode`, ST.96 `ViennaCategory.Division.Section`. */
  vienna: string[];
  /** ST.96 (CIPO): the office's own opposition window. */
  oppositionStart: string | null;
  oppositionEnd: string | null;
  /** EUIPO: oppositions filed, `OppositionDetails/Opposition`. */
  oppositions: { identifier: string | null; date: string | null }[];
  events: MarkEvent[];
  /** Comments on the mark itself (CIPO: its notice that it does not warrant the data). */
  comments: string[];
  disclaimers: string[];
  /** ST.96 `MarkFeatureDescription` (CIPO: the words describing a design, "FANCIFUL DOG DESIGN"). */
  featureDescription: string | null;
  error: string | null;
};

export const newMark = (line: number, operation: string | null): WipoMark => ({
  line,
  operation,
  office: null,
  applicationNumber: null,
  st13: null,
  registrationNumber: null,
  applicationDate: null,
  registrationDate: null,
  expiryDate: null,
  statusCode: null,
  statusAttributes: {},
  statusDate: null,
  statusInternal: null,
  markText: null,
  markFeature: null,
  markKind: null,
  classes: [],
  goods: [],
  publications: [],
  designations: [],
  applicants: [],
  applicantKeys: [],
  representatives: [],
  representativeKeys: [],
  vienna: [],
  oppositionStart: null,
  oppositionEnd: null,
  oppositions: [],
  events: [],
  comments: [],
  disclaimers: [],
  featureDescription: null,
  error: null,
});

const newParty = (line: number, partyType: number | null, operation: string | null): WipoParty => ({
  line,
  partyType,
  key: null,
  operation,
  names: {},
  freeFormat: [],
  addressCountry: null,
  nationality: null,
  incorporation: null,
});

export const local = (name: string) => name.slice(name.indexOf(':') + 1);

export const int = (value: string | null | undefined): number | null => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isNaN(n) ? null : n;
};

type Tag = { name: string; attributes: Record<string, unknown> };

/** An attribute by its local name, whatever its prefix (`com:languageCode`, `languageCode`). */
export const attribute = (tag: Tag, name: string): string | null => {
  for (const key in tag.attributes) {
    if (local(key) === name) {
      const value = tag.attributes[key];
      return typeof value === 'string' ? value : null;
    }
  }
  return null;
};

const MARK_ELEMENTS = new Set(['Trademark', 'TradeMark']);
const PARTY_ELEMENTS: Readonly<Record<string, 'applicant' | 'representative'>> = {
  Applicant: 'applicant',
  Representative: 'representative',
  NationalRepresentative: 'representative',
};

/** Direct children of the mark whose text is a field (the same local names in both standards). */
const MARK_FIELDS: Readonly<Record<string, (mark: WipoMark, value: string, tag: Tag) => void>> = {
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
  MarkCurrentStatusCode: (m, v, tag) => {
    m.statusCode = v;
    for (const name of ['milestone', 'status']) {
      const value = attribute(tag, name);
      if (value !== null) m.statusAttributes[name] = value;
    }
  },
  MarkCurrentStatusDate: (m, v) => {
    m.statusDate = v;
  },
  MarkFeature: (m, v) => {
    m.markFeature = v;
  },
  KindMark: (m, v) => {
    m.markKind = v;
  },
  MarkCategory: (m, v) => {
    m.markKind = v;
  },
  OppositionPeriodStartDate: (m, v) => {
    m.oppositionStart = v;
  },
  OppositionPeriodEndDate: (m, v) => {
    m.oppositionEnd = v;
  },
  CommentText: (m, v) => {
    m.comments.push(v);
  },
  MarkFeatureDescription: (m, v) => {
    m.featureDescription = v;
  },
};

/** Where a leaf is, below the mark: its name, its parent's, and the mark's child it is under. */
type Leaf = { name: string; parent: string; section: string; value: string; tag: Tag };

/** A leaf of the word element, the mark's image, its disclaimers or designations. */
function representationLeaf(mark: WipoMark, leaf: Leaf): void {
  const { name, value } = leaf;
  if (name === 'MarkVerbalElementText') mark.markText ??= value;
  else if (name === 'MarkFeatureCategory') mark.markFeature ??= value;
  else if (name === 'CategoryCode') mark.vienna.push(value);
  else if (name === 'MarkDisclaimerText' || name === 'MarkDisclaimer') mark.disclaimers.push(value);
  else if (name === 'DesignatedCountryCode') mark.designations.push(value);
}

/** The sections below the mark whose leaves are read, with what reads them. */
const LEAF_SECTIONS: Readonly<Record<string, (mark: WipoMark, leaf: Leaf, c: Collector) => void>> =
  {
    ApplicationNumber: (mark, { name, value }) => {
      if (name === 'ApplicationNumberText') mark.applicationNumber = value;
      else if (name === 'ST13ApplicationNumber') mark.st13 = value;
    },
    WordMarkSpecification: representationLeaf,
    MarkRepresentation: representationLeaf,
    MarkImageDetails: representationLeaf,
    MarkDisclaimerDetails: representationLeaf,
    MarkDisclaimerBag: representationLeaf,
    DesignatedCountryDetails: representationLeaf,
    DesignatedCountryBag: representationLeaf,
    DesignationDetails: representationLeaf,
    GoodsServicesDetails: goodsLeaf,
    GoodsServicesBag: goodsLeaf,
    PublicationDetails: publicationLeaf,
    PublicationBag: publicationLeaf,
    ApplicantDetails: keyLeaf,
    ApplicantBag: keyLeaf,
    RepresentativeDetails: keyLeaf,
    RepresentativeBag: keyLeaf,
    OppositionDetails: (_mark, { name, value }, c) => {
      const opposition = c.opposition;
      if (opposition === null || c.stack.length !== c.markDepth + 3) return;
      if (name === 'OppositionIdentifier') opposition.identifier = value;
      else if (name === 'OppositionDate') opposition.date = value;
    },
    MarkEventBag: eventLeaf,
    MarkEventDetails: eventLeaf,
    NationalTrademarkInformation: (mark, { name, value }) => {
      if (name === 'MarkCurrentStatusInternalDescriptionText') mark.statusInternal = value;
    },
  };

function goodsLeaf(mark: WipoMark, { name, parent, value, tag }: Leaf, c: Collector): void {
  if (name === 'ClassificationKindCode' && parent === 'GoodsServicesClassification') {
    c.classKind = value;
  } else if (name === 'ClassNumber' && parent === 'ClassDescription') {
    mark.classes.push(value);
    if (c.goods !== null) c.goods.classNumber ??= value;
  } else if (name === 'ClassNumber' && parent === 'GoodsServicesClassification') {
    // ST.96 lists a mark's classes by kind: Nice, and (TSDR) a Primary class that is a US class
    // for older marks. Only Nice is a Nice class. (National classes are NationalClassNumber.)
    if (c.classKind === 'Nice') mark.classes.push(value);
  } else if (
    (name === 'GoodsServicesDescription' || name === 'GoodsServicesDescriptionText') &&
    c.goods !== null
  ) {
    c.goods.texts.push({ language: attribute(tag, 'languageCode'), text: value });
  }
}

function publicationLeaf(_mark: WipoMark, { name, value }: Leaf, c: Collector): void {
  const p = c.publication;
  if (p === null) return;
  if (name === 'PublicationDate' || name === 'PublicationActionDate') p.date ??= value;
  else if (name === 'PublicationSection') p.section = value;
  else if (name === 'PublicationIdentifier') p.identifier = value;
  else if (name === 'PublicationStatusCategory') p.category = value;
}

function keyLeaf(mark: WipoMark, { name, parent, value }: Leaf): void {
  if (name !== 'Identifier') return;
  if (parent === 'ApplicantKey') mark.applicantKeys.push(value);
  else if (parent === 'RepresentativeKey') mark.representativeKeys.push(value);
}

function eventLeaf(_mark: WipoMark, { name, parent, value }: Leaf, c: Collector): void {
  const e = c.event;
  if (e === null) return;
  if (name === 'MarkEventDate') e.date = value;
  else if (name === 'MarkEventCategory') e.category = value;
  else if (name === 'MarkEventCode') e.code = value;
  // The office's own language; CIPO's other-language texts sit in a bag of their own.
  else if (
    name === 'MarkEventDescriptionText' &&
    parent !== 'MarkEventOtherLanguageDescriptionTextBag'
  ) {
    e.description ??= value;
  }
}

function partyLeaf(party: WipoParty, name: string, parent: string, value: string): void {
  switch (name) {
    case 'EntityName':
    case 'OrganizationStandardName':
    case 'PersonFullName':
    case 'OrganizationName':
    case 'LegalEntityName':
    case 'FirstName':
    case 'LastName':
      party.names[name] ??= value;
      return;
    case 'FreeFormatNameLine':
      party.freeFormat.push(value);
      return;
    case 'CountryCode':
    case 'FormattedAddressCountryCode':
      party.addressCountry ??= value;
      return;
    case 'NationalityCode':
    case 'ApplicantNationalityCode':
      party.nationality ??= value;
      return;
    case 'IncorporationCountryCode':
    case 'ApplicantIncorporationCountryCode':
      party.incorporation ??= value;
      return;
    case 'PartyTypeCode':
      party.partyType ??= int(value);
      return;
    case 'ApplicantIdentifier':
    case 'RepresentativeIdentifier':
      party.key ??= value;
      return;
    case 'Identifier':
      if (parent === 'ApplicantKey' || parent === 'RepresentativeKey') party.key ??= value;
      return;
  }
}

/** What a reader does with what was collected. */
export type CollectSink = {
  /** A mark ends (or is released with the applicants beside it). */
  mark(mark: WipoMark): void;
  /** A party outside any mark: an applicant or representative record of its own (EUIPO). */
  party?(party: WipoParty, role: 'applicant' | 'representative'): void;
  /** `TransactionHeader/…/RequestProducerDateTime`: when the office produced the document. */
  produced?(value: string): void;
};

/** Characters one captured field (a mark text, a name, a goods text…) may hold. */
export const MAX_FIELD_LENGTH = 100_000;

type Collector = {
  stack: string[];
  mark: WipoMark | null;
  markDepth: number;
  party: WipoParty | null;
  partyDepth: number;
  partyRole: 'applicant' | 'representative';
  goods: ClassGoods | null;
  /** ClassificationKindCode of the GoodsServicesClassification being read. */
  classKind: string | null;
  publication: Publication | null;
  event: MarkEvent | null;
  opposition: { identifier: string | null; date: string | null } | null;
  vienna: { category: string | null; division: string | null; section: string | null } | null;
  /** Marks of the current TransactionData that had no applicant inside. */
  waiting: WipoMark[];
  /** Applicants of the current TransactionData outside any mark (TSDR ST.66). */
  loose: WipoParty[];
  /** The current TransactionData holds more than one mark: its loose applicants are no one's. */
  shared: boolean;
  text: string;
  lastErrorLine: number;
};

const SECTION_STARTS: Readonly<Record<string, (c: Collector) => void>> = {
  GoodsServicesClassification: (c) => {
    c.classKind = null;
  },
  ClassDescription: (c) => {
    c.goods = { classNumber: null, texts: [] };
  },
  Publication: (c) => {
    c.publication = { date: null, section: null, identifier: null, category: null };
  },
  MarkEvent: (c) => {
    c.event = { date: null, category: null, code: null, description: null };
  },
  Opposition: (c) => {
    c.opposition = { identifier: null, date: null };
  },
  ViennaClassification: (c) => {
    c.vienna = { category: null, division: null, section: null };
  },
};

const two = (value: string | null) => (value ?? '').trim().padStart(2, '0');

const SECTION_ENDS: Readonly<Record<string, (c: Collector, mark: WipoMark) => void>> = {
  ClassDescription: (c, mark) => {
    if (c.goods !== null) mark.goods.push(c.goods);
    c.goods = null;
  },
  Publication: (c, mark) => {
    if (c.publication !== null) mark.publications.push(c.publication);
    c.publication = null;
  },
  MarkEvent: (c, mark) => {
    if (c.event !== null) mark.events.push(c.event);
    c.event = null;
  },
  Opposition: (c, mark) => {
    if (c.opposition !== null) mark.oppositions.push(c.opposition);
    c.opposition = null;
  },
  ViennaClassification: (c, mark) => {
    const v = c.vienna;
    if (v?.category) mark.vienna.push(`${two(v.category)}.${two(v.division)}.${two(v.section)}`);
    c.vienna = null;
  },
};

const VIENNA_PARTS: Readonly<Record<string, 'category' | 'division' | 'section'>> = {
  ViennaCategory: 'category',
  ViennaDivision: 'division',
  ViennaSection: 'section',
};

function onOpen(ctx: XmlContext, c: Collector, sink: CollectSink, tag: Tag): void {
  const name = local(tag.name);
  c.stack.push(name);
  c.text = '';
  if (c.mark === null && MARK_ELEMENTS.has(name)) {
    if (c.waiting.length > 0) {
      // A second mark in one TransactionData (EUIPO's bulk files hold thousands): applicants
      // outside the marks would belong to none of them, and nothing more needs holding.
      c.shared = true;
      release(c, sink, []);
    }
    c.mark = newMark(
      ctx.line(),
      attribute(tag, 'operationCode') ?? attribute(tag, 'operationCategory'),
    );
    c.markDepth = c.stack.length; // 1: a single mark as the document
    return;
  }
  const role = PARTY_ELEMENTS[name];
  if (role !== undefined && c.party === null) {
    c.party = newParty(
      ctx.line(),
      int(attribute(tag, 'sequenceNumber')),
      attribute(tag, 'operationCode'),
    );
    c.partyDepth = c.stack.length;
    c.partyRole = role;
  } else if (c.mark !== null) {
    SECTION_STARTS[name]?.(c);
  }
}

/** Hands on the marks waiting for applicants beside them, giving them `applicants`. */
function release(c: Collector, sink: CollectSink, applicants: WipoParty[]): void {
  for (const mark of c.waiting) {
    if (mark.applicants.length === 0) mark.applicants = applicants;
    sink.mark(mark);
  }
  c.waiting = [];
}

function flushWaiting(c: Collector, sink: CollectSink): void {
  release(c, sink, c.shared ? [] : c.loose);
  c.loose = [];
  c.shared = false;
}

/** The text of an element that just closed, given to the party, the mark or the document. */
function onLeaf(c: Collector, sink: CollectSink, tag: Tag, name: string, value: string): void {
  const depth = c.stack.length;
  const parent = c.stack[depth - 2] ?? '';
  if (c.party !== null) {
    partyLeaf(c.party, name, parent, value);
    return;
  }
  const mark = c.mark;
  if (mark === null) {
    if (name === 'RequestProducerDateTime') sink.produced?.(value);
    return;
  }
  if (depth === c.markDepth + 1) {
    MARK_FIELDS[name]?.(mark, value, tag);
    return;
  }
  const part = VIENNA_PARTS[name];
  if (part !== undefined && c.vienna !== null) c.vienna[part] = value;
  const section = c.stack[c.markDepth] ?? '';
  LEAF_SECTIONS[section]?.(mark, { name, parent, section, value, tag }, c);
}

/** A party element closes: it belongs to the mark, waits beside it (TSDR), or stands alone. */
function endParty(c: Collector, sink: CollectSink, party: WipoParty): void {
  const mark = c.mark;
  c.party = null;
  if (mark !== null) {
    if (c.partyRole === 'applicant') mark.applicants.push(party);
    else mark.representatives.push(party);
  } else if (party.key !== null && sink.party !== undefined) {
    sink.party(party, c.partyRole);
  } else if (c.partyRole === 'applicant') {
    c.loose.push(party);
  }
}

function onClose(c: Collector, sink: CollectSink, tag: Tag): void {
  const name = local(tag.name);
  const depth = c.stack.length;
  const value = c.text.trim();
  c.text = '';
  if (value !== '') onLeaf(c, sink, tag, name, value);
  if (c.party !== null && depth === c.partyDepth) endParty(c, sink, c.party);
  const mark = c.mark;
  if (mark !== null && depth === c.markDepth) {
    const complete =
      mark.applicants.length > 0 || mark.applicantKeys.length > 0 || mark.error || c.shared;
    if (complete) sink.mark(mark);
    else c.waiting.push(mark);
    c.mark = null;
  } else if (mark !== null) {
    SECTION_ENDS[name]?.(c, mark);
  }
  if (name === 'TransactionData') flushWaiting(c, sink);
  c.stack.pop();
}

/**
 * Registers the collection of ST.96/ST.66 marks on the driver's parser and returns the reader's
 * hooks. Each mark reaches `sink.mark` once it ends, numbered by the line of its start tag. A mark
 * without applicants inside waits until its `TransactionData` ends and gets the applicants placed
 * beside it there (TSDR's ST.66) only if it is that `TransactionData`'s one mark; with several,
 * whose they are is not said. `element` names the mark's element in the message of a cut file.
 */
export function collectMarks(ctx: XmlContext, sink: CollectSink, element: string): XmlReader {
  const { parser, out, file } = ctx;
  const c: Collector = {
    stack: [],
    mark: null,
    markDepth: -1,
    party: null,
    partyDepth: -1,
    partyRole: 'applicant',
    goods: null,
    classKind: null,
    publication: null,
    event: null,
    opposition: null,
    vienna: null,
    waiting: [],
    loose: [],
    shared: false,
    text: '',
    lastErrorLine: -1,
  };
  parser.on('opentag', (tag) => onOpen(ctx, c, sink, tag));
  const onText = (value: string) => {
    if (c.text.length + value.length > MAX_FIELD_LENGTH) {
      if (c.mark) c.mark.error ??= `a field is longer than ${MAX_FIELD_LENGTH} characters`;
      return;
    }
    c.text += value;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => onClose(c, sink, tag));
  return {
    onError: (_raw, message) => {
      const line = ctx.line();
      if (c.mark) c.mark.error ??= message;
      else if (line !== c.lastErrorLine) out.push({ file, line, error: message });
      c.lastErrorLine = line;
    },
    onOverlong: (message) => {
      if (c.mark) c.mark.error ??= message;
      else out.push({ file, line: ctx.line(), error: `${message} outside a mark` });
    },
    recordLine: () => c.mark?.line ?? null,
    end: (endLine) => {
      if (c.mark !== null) {
        const error = `the file ends inside this <${element}>: truncated?`;
        out.push({ file, line: c.mark.line, error });
        return;
      }
      flushWaiting(c, sink);
      if (c.stack.length > 0) {
        const error = 'the file ends before its root element closes: truncated?';
        out.push({ file, line: endLine, error });
      }
    },
  };
}
