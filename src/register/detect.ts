export type RecordFormat = 'jsonl' | 'uspto-xml' | 'wipo-st96' | 'wipo-st66' | 'euipo-xml';

/** The formats `marks import` reads, as an unknown file's message names them. */
export const KNOWN_FORMATS =
  'normalized JSON Lines (a line starting with "{"), USPTO trademark-applications-daily XML, ' +
  'WIPO ST.96 (CIPO bulk files, USPTO TSDR), WIPO ST.66 (USPTO TSDR) or EUIPO bulk XML ' +
  '(EUTM, applicant and representative files)';

/**
 * Which reader a file needs, from its first bytes (already decompressed): skip a UTF-8 BOM and
 * whitespace, then `{` is JSON Lines and `<` is XML (`<?xml`, `<!DOCTYPE`, `<case-file>` …).
 * Anything else, including nothing but whitespace, is null.
 */
export function detectFormat(firstBytes: Uint8Array): RecordFormat | null {
  const c = firstSignificantByte(firstBytes);
  if (c === 0x7b) return 'jsonl';
  if (c === 0x3c) return 'uspto-xml';
  return null;
}

/** The first byte after a UTF-8 BOM and ASCII whitespace, or null if there is none. */
export function firstSignificantByte(bytes: Uint8Array): number | null {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (; i < bytes.length; i += 1) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c ?? null;
  }
  return null;
}

/**
 * EUIPO's own bulk files are ST.66 element names in a namespace of EUIPO's, not WIPO's: the
 * `EM-TM-TradeMark-V3-4` documents of its open data and the older EUTM_Download ones (compared in
 * lower case). Their root element's name is not relied on.
 */
const EUIPO_NAMESPACES = new Set([
  'http://euipo.europa.eu/trademark/data',
  'http://www.euipo.europa.eu/eutm/eutm_download',
]);

const XML_SKIP = /^\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)/i;
const XML_ROOT = /^\s*<([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)\/?>/;

/** The root element of an XML document: its name as written and its namespace (lower case). */
export function xmlRoot(head: string): { name: string; namespace: string } | undefined {
  let rest = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  for (let m = XML_SKIP.exec(rest); m; m = XML_SKIP.exec(rest)) rest = rest.slice(m[0].length);
  const root = XML_ROOT.exec(rest);
  if (!root) return undefined;
  const [, name = '', attributes = ''] = root;
  const colon = name.indexOf(':');
  const prefix = colon === -1 ? '' : name.slice(0, colon);
  const nsAttribute = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  const ns = new RegExp(
    `(?:^|\\s)${nsAttribute.replace('.', '\\.')}\\s*=\\s*["']([^"']*)["']`,
  ).exec(attributes)?.[1];
  return { name, namespace: ns?.toLowerCase() ?? '' };
}

/**
 * Which XML reader a document needs, from its root element (prolog, comments and an internal DTD
 * are passed over): USPTO's `trademark-applications-daily`/`case-file`; EUIPO's bulk XML (any root
 * in one of its namespaces); or a WIPO standard told by its element names and namespace: ST.66
 * TM-XML (`TradeMark…`, namespace `http://www.wipo.int/standards/XMLSchema/trademarks`) or ST.96
 * (`Trademark…`, CIPO's `TrademarkApplication` included, namespaces `…/ST96/Trademark` or the 1.0
 * drafts' `…/Trademark/1`). Undefined while `head` does not reach the root yet; null for any
 * other root, which is no format this service reads.
 */
export function detectXmlFormat(head: string): RecordFormat | null | undefined {
  const root = xmlRoot(head);
  if (root === undefined) return undefined;
  const { name, namespace } = root;
  const localName = name.slice(name.indexOf(':') + 1);
  if (EUIPO_NAMESPACES.has(namespace)) return 'euipo-xml';
  if (localName.startsWith('TradeMark') || namespace.endsWith('/xmlschema/trademarks')) {
    return 'wipo-st66';
  }
  if (
    localName.startsWith('Trademark') ||
    (localName === 'Transaction' && /\/st96\/|\/trademark\/\d/.test(namespace))
  ) {
    return 'wipo-st96';
  }
  return localName === 'trademark-applications-daily' || localName === 'case-file'
    ? 'uspto-xml'
    : null;
}
