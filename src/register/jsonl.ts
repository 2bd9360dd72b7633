import { isUtf8 } from 'node:buffer';
import { findUnstorableText } from '../text.ts';
import { parseRegisterRecord, type RegisterRecord } from './record.ts';

export type JsonLineItem =
  | { file: string; line: number; record: RegisterRecord }
  | { file: string; line: number; error: string };

/** Where a line is cut off: far above any real record, low enough to keep memory flat. */
export const MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

// fatal: an invalid UTF-8 sequence is an error of that line, not a silent U+FFFD in a mark name.
const decoder = new TextDecoder('utf-8', { fatal: true });

// JSON can spell text PostgreSQL cannot store only with an escape: \u0000 (NUL, refused in text
// and jsonb) or a \ud800-\udfff surrogate (maybe unpaired: no UTF-8 form, stored as U+FFFD).
// Any field of the line counts, since the whole object is kept as the raw payload (jsonb); a
// match only means the parsed value is searched, so the common line costs one regex test.
const MAYBE_UNSTORABLE = /\\u(?:0000|[dD][89a-fA-F])/;

const isBom = (bytes: Uint8Array, at: number, end: number) =>
  end - at >= 3 && bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf;

/**
 * The line `bytes[from, to)` (without its newline) as a record item, or null for a blank line.
 * `valid`: the caller has already found these bytes to be UTF-8, so they are decoded without the
 * decoder's own check (one check per chunk instead of one per line).
 */
function parseLine(
  bytes: Buffer,
  from: number,
  to: number,
  valid: boolean,
  file: string,
  line: number,
): JsonLineItem | null {
  let end = to;
  if (end > from && bytes[end - 1] === CR) end -= 1; // CRLF files
  let start = from;
  if (line === 1 && isBom(bytes, start, end)) start += 3;
  let source: string;
  if (valid) {
    // What the decoder gives for valid UTF-8, including dropping one leading BOM of its own.
    if (isBom(bytes, start, end)) start += 3;
    source = bytes.toString('utf8', start, end);
  } else {
    try {
      source = decoder.decode(bytes.subarray(start, end));
    } catch {
      return { file, line, error: 'invalid UTF-8' };
    }
  }
  if (source.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (err) {
    return { file, line, error: `invalid JSON: ${(err as Error).message}` };
  }
  if (MAYBE_UNSTORABLE.test(source)) {
    // A bad record of its own, reported with its line: left to the INSERT, it would abort the
    // whole batch with a database error and lose the good records around it.
    const found = findUnstorableText(value);
    if (found) {
      const error = found.path === '' ? found.reason : `${found.path}: ${found.reason}`;
      return { file, line, error };
    }
  }
  const result = parseRegisterRecord(value);
  return result.ok ? { file, line, record: result.record } : { file, line, error: result.error };
}

/**
 * Streams normalized records out of a JSON Lines source, one item per non-blank line, numbered
 * from 1 like an editor does. Memory stays flat whatever the file size: only the current line
 * is held, and a line over {@link MAX_LINE_BYTES} is dropped while it is read and reported as an
 * error of its own. Blank lines are skipped; a UTF-8 BOM and CRLF line ends are accepted.
 *
 * Items carry `fileName` as `file`, so the caller can report them as they are. It never throws
 * for bad data: a failure of the source itself (a truncated gzip stream, an I/O error) ends the
 * stream with one error item at the line reached.
 */
export async function* readJsonLines(
  stream: AsyncIterable<Buffer | Uint8Array | string>,
  fileName = 'input',
): AsyncGenerator<JsonLineItem> {
  let parts: Buffer[] = [];
  let pending = 0; // bytes held in `parts`
  let overlong = false; // the current line passed the limit: its bytes are being discarded
  let line = 1;

  const finishLine = (tail: Buffer, from: number, to: number, valid: boolean) => {
    if (overlong) {
      overlong = false;
      return { file: fileName, line, error: `line is longer than ${MAX_LINE_BYTES} bytes` };
    }
    if (parts.length === 0) return parseLine(tail, from, to, valid, fileName, line);
    const bytes = Buffer.concat([...parts, tail.subarray(from, to)]);
    parts = [];
    pending = 0;
    return parseLine(bytes, 0, bytes.length, false, fileName, line);
  };

  try {
    for await (const chunk of stream) {
      const buf =
        typeof chunk === 'string'
          ? Buffer.from(chunk, 'utf8')
          : Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      // The lines that start and end in this chunk, from `first` to the last newline, are checked
      // as UTF-8 at once (valid bytes cut at newlines are valid lines). Where any of them is not,
      // each line is decoded with its own check, as is a line that spans chunks.
      const first = parts.length === 0 && !overlong ? 0 : buf.indexOf(NEWLINE) + 1;
      const last = buf.lastIndexOf(NEWLINE);
      const valid = last > first && isUtf8(buf.subarray(first, last));
      let start = 0;
      while (start < buf.length) {
        const nl = buf.indexOf(NEWLINE, start);
        const stop = nl === -1 ? buf.length : nl;
        if (!overlong && pending + (stop - start) > MAX_LINE_BYTES) {
          overlong = true;
          parts = [];
          pending = 0;
        }
        if (nl === -1) {
          if (!overlong) {
            // A copy: the source may reuse its buffer once it gets control back.
            parts.push(Buffer.from(buf.subarray(start)));
            pending += buf.length - start;
          }
          break;
        }
        const item = finishLine(buf, start, overlong ? start : nl, valid && start >= first);
        if (item) yield item;
        line += 1;
        start = nl + 1;
      }
    }
  } catch (err) {
    yield { file: fileName, line, error: `read failed: ${(err as Error).message}` };
    return;
  }
  if (overlong || pending > 0) {
    const item = finishLine(Buffer.alloc(0), 0, 0, false);
    if (item) yield item;
  }
}
