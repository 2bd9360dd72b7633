export type RecordFormat = 'jsonl' | 'uspto-xml' | 'wipo-st96' | 'wipo-st66';

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
 * EUIPO's own bulk files (EUTM download) are ST.66 TM-XML in a namespace of EUIPO's, not WIPO's;
 * their root element's name is not relied on.
 */
const EUIPO_DOWNLOAD = 'http://www.euipo.europa.eu/eutm/eutm_download';

const XML_SKIP = /^\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>)/i;
const XML_ROOT = /^\s*<([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)\/?>/;

/**
 * Which XML reader a document needs, from its root element (prolog, comments and an internal DTD
 * are passed over): USPTO's `trademark-applications-daily`/`case-file`, or a WIPO standard told by
 * its element names and namespace: ST.66 TM-XML (`TradeMark…`, namespace
 * `http://www.wipo.int/standards/XMLSchema/trademarks`, or EUIPO's
 * `http://www.euipo.europa.eu/EUTM/EUTM_Download` with any root) or ST.96 (`Trademark…`, namespaces
 * `…/ST96/Trademark` or the 1.0 drafts' `…/Trademark/1`). Undefined while `head` does not reach
 * the root yet; any other root is `uspto-xml`, whose reader reports it.
 */
export function detectXmlFormat(head: string): RecordFormat | undefined {
  let rest = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  for (let m = XML_SKIP.exec(rest); m; m = XML_SKIP.exec(rest)) rest = rest.slice(m[0].length);
  const root = XML_ROOT.exec(rest);
  if (!root) return undefined;
  const [, name = '', attributes = ''] = root;
  const colon = name.indexOf(':');
  const prefix = colon === -1 ? '' : name.slice(0, colon);
  const localName = name.slice(colon + 1);
  const nsAttribute = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  const ns = new RegExp(
    `(?:^|\\s)${nsAttribute.replace('.', '\\.')}\\s*=\\s*["']([^"']*)["']`,
  ).exec(attributes)?.[1];
  const namespace = ns?.toLowerCase() ?? '';
  if (
    localName.startsWith('TradeMark') ||
    namespace.endsWith('/xmlschema/trademarks') ||
    namespace === EUIPO_DOWNLOAD
  ) {
    return 'wipo-st66';
  }
  if (
    localName.startsWith('Trademark') ||
    (localName === 'Transaction' && /\/st96\/|\/trademark\/\d/.test(namespace))
  ) {
    return 'wipo-st96';
  }
  return 'uspto-xml';
}
