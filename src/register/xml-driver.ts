import { SaxesParser } from 'saxes';
import type { RecordItem } from './record.ts';

// The one streaming loop every XML reader of this folder runs in (USPTO, WIPO ST.96/ST.66, EUIPO,
// CIPO): it owns the saxes parser, decodes the bytes, hands the readers' items on as they come,
// turns saxes' complaints into sentences, and keeps memory bounded whatever the file holds. A
// reader registers its own element handlers on the parser (nothing of the driver runs per element)
// and says what its records are through the XmlReader hooks.

export type XmlParser = SaxesParser<{ position: true }>;

/**
 * Characters saxes may hold for one text node (or comment, CDATA section, attribute value, DOCTYPE)
 * before the driver empties it. Far above any real field: USPTO's longest goods statements run to
 * tens of thousands of characters. Without it, a file of nothing but whitespace between two tags
 * grows one string until V8 gives up ("Invalid string length") with the whole of it in memory.
 */
export const MAX_TEXT_RUN = 1024 * 1024;
/** An element, attribute or entity name longer than this is not XML anyone writes. */
const MAX_NAME = 64 * 1024;
/** Open elements, and attributes on one element: beyond these the file is refused from there. */
const MAX_DEPTH = 10_000;
const MAX_ATTRIBUTES = 10_000;
/** saxes is fed at most this many characters at a time, so a check follows every slice. */
const SLICE = 64 * 1024;

/**
 * What saxes accumulates between two events. These fields are not in its published types, so they
 * are read through this view; test/unit/register.error.test.ts streams hundreds of megabytes of
 * whitespace and text through every reader and fails should a saxes release rename them.
 */
type SaxesBuffers = {
  text: string;
  name: string;
  entity: string;
  tags: unknown[];
  attribList: unknown[];
};

/** What a reader tells the driver; `out` (given to setup) is where it puts its items. */
export type XmlReader = {
  /** saxes' complaint, raw (`12:5: unexpected close tag.`) and as a sentence for the report. */
  onError(raw: string, message: string): void;
  /**
   * Text that was not whitespace ran past MAX_TEXT_RUN and was dropped: an error of the record it
   * is in, or of the file between records.
   */
  onOverlong(message: string): void;
  /** The line of the record being read, for a read failure; null between records. */
  recordLine(): number | null;
  /** True once the reader has seen the file is not its format: nothing more is read. */
  stopped?(): boolean;
  /** After the last byte (saxes closed): what the reader says of the end, e.g. a cut record. */
  end(endLine: number): void;
};

export type XmlContext = {
  parser: XmlParser;
  out: RecordItem[];
  file: string;
  /** The parser's line (saxes counts the lines of a text the driver drops as it reads them). */
  line(): number;
};

/** saxes says `12:5: unexpected close tag.`; the import report gets a sentence. */
export function describeXmlError(message: string): string {
  const m = /^(\d+):(\d+): (.*)$/s.exec(message);
  return m ? `malformed XML at line ${m[1]}, column ${m[2]}: ${m[3]}` : `malformed XML: ${message}`;
}

const NOT_SPACE = /[^ \t\r\n]/;

/**
 * Bounds what saxes holds after a write: an overlong text run is emptied (whitespace silently;
 * anything else reported to the reader), and a name, a nesting or an attribute list past its bound
 * stops the file with a reason. Returns that reason, or null.
 */
function bound(parser: XmlParser, reader: XmlReader): string | null {
  const buffers = parser as unknown as SaxesBuffers;
  if (buffers.text.length > MAX_TEXT_RUN) {
    const text = buffers.text;
    buffers.text = '';
    if (NOT_SPACE.test(text)) {
      reader.onOverlong(`a text of more than ${MAX_TEXT_RUN} characters`);
    }
  }
  if (buffers.name.length > MAX_NAME || buffers.entity.length > MAX_NAME) {
    return `a name longer than ${MAX_NAME} characters`;
  }
  if (buffers.tags.length > MAX_DEPTH) return `elements nested more than ${MAX_DEPTH} deep`;
  if (buffers.attribList.length > MAX_ATTRIBUTES) {
    return `an element with more than ${MAX_ATTRIBUTES} attributes`;
  }
  return null;
}

/**
 * Streams the items a reader makes of an XML document. `setup` registers the reader's handlers on
 * the parser and returns its hooks. Memory holds what the reader keeps plus at most
 * MAX_TEXT_RUN characters of one text, whatever the file size. A failure of the source is a last
 * "read failed" error at the record reached; a document that breaks a bound ends with an error
 * saying which, at the line reached.
 */
export async function* readXml(
  stream: AsyncIterable<Buffer | Uint8Array | string>,
  file: string,
  setup: (ctx: XmlContext) => XmlReader,
): AsyncGenerator<RecordItem> {
  const parser: XmlParser = new SaxesParser({ position: true });
  const out: RecordItem[] = [];
  const ctx: XmlContext = { parser, out, file, line: () => parser.line };
  const reader = setup(ctx);
  let ending = false;
  parser.on('error', (err) => {
    // close() complains about each unclosed tag; the reader's end() says it once, better.
    if (!ending) reader.onError(err.message, describeXmlError(err.message));
  });
  const decoder = new TextDecoder('utf-8');
  const write = (text: string): string | null => {
    for (let at = 0; at < text.length; at += SLICE) {
      parser.write(at === 0 && text.length <= SLICE ? text : text.slice(at, at + SLICE));
      const refused = bound(parser, reader);
      if (refused !== null) return refused;
    }
    return null;
  };
  try {
    for await (const chunk of stream) {
      const refused = write(
        typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }),
      );
      yield* out.splice(0);
      if (refused !== null) {
        yield { file, line: reader.recordLine() ?? ctx.line(), error: `the file holds ${refused}` };
        return;
      }
      if (reader.stopped?.()) return;
    }
  } catch (err) {
    yield* out.splice(0);
    const line = reader.recordLine() ?? ctx.line();
    yield { file, line, error: `read failed: ${(err as Error).message}` };
    return;
  }
  const tail = decoder.decode();
  if (tail !== '') write(tail);
  const endLine = ctx.line(); // close() resets the parser's position
  ending = true;
  parser.close();
  yield* out.splice(0);
  if (reader.stopped?.()) return;
  reader.end(endLine);
  yield* out.splice(0);
}
