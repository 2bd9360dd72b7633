import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline, type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  detectFormat,
  detectXmlFormat,
  firstSignificantByte,
  KNOWN_FORMATS,
  type RecordFormat,
  xmlRoot,
} from './detect.ts';
import { readEuipoXml } from './euipo-xml.ts';
import { readJsonLines } from './jsonl.ts';
import type { RecordItem } from './record.ts';
import { readUsptoXml } from './uspto-xml.ts';
import { readWipoXml } from './wipo-xml.ts';

export type ReadProgress = {
  file: string;
  /** Bytes read from disk so far: compressed bytes for a gzip file, like `totalBytes`. */
  bytesRead: number;
  totalBytes: number;
};

export type ReadRecordFileOptions = {
  /** Called after every chunk read from disk (64 KiB), e.g. to move a cli-progress bar. */
  onProgress?: (progress: ReadProgress) => void;
};

/** The whole file cannot be read as records (missing, ZIP, unknown format): nothing was yielded. */
export class RecordFileError extends Error {
  readonly file: string;
  readonly reason: string;

  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'RecordFileError';
    this.file = file;
    this.reason = reason;
  }
}

const CHUNK = 64 * 1024;
/** How much leading whitespace is read before giving up on finding the format. */
const MAX_SNIFF = 1024 * 1024;

const isGzip = (b: Uint8Array) => b[0] === 0x1f && b[1] === 0x8b;
// Local file header, or the end-of-central-directory record of an empty archive.
const isZip = (b: Uint8Array) =>
  b[0] === 0x50 && b[1] === 0x4b && (b[2] === 0x03 || b[2] === 0x05) && b[3] === b[2] + 1;

function fileSystemError(path: string, err: unknown): RecordFileError {
  if (err instanceof RecordFileError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new RecordFileError(path, 'file not found');
  if (code === 'EACCES') return new RecordFileError(path, 'permission denied');
  return new RecordFileError(path, (err as Error).message);
}

async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new RecordFileError(path, 'is a directory, not a file');
    return info.size;
  } catch (err) {
    throw fileSystemError(path, err);
  }
}

async function readMagic(path: string): Promise<Uint8Array> {
  try {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw fileSystemError(path, err);
  }
}

function unknownFormat(path: string, head: Uint8Array): RecordFileError {
  if (isZip(head)) {
    return new RecordFileError(
      path,
      'ZIP archives are not supported: extract the XML file first (e.g. unzip apc240925.zip)',
    );
  }
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    return new RecordFileError(path, 'UTF-16 text is not supported: convert the file to UTF-8');
  }
  if (firstSignificantByte(head) === 0x5b) {
    return new RecordFileError(path, 'a JSON array is not JSON Lines: write one record per line');
  }
  return new RecordFileError(path, `unknown format: expected ${KNOWN_FORMATS}`);
}

function unknownXml(path: string, head: Buffer): RecordFileError {
  const root = xmlRoot(head.toString('utf8'));
  const named = root === undefined ? '' : ` (root element <${root.name}>)`;
  return new RecordFileError(path, `unknown format: XML${named} of none of ${KNOWN_FORMATS}`);
}

async function* replay(
  head: readonly Buffer[],
  rest: AsyncIterator<Buffer>,
): AsyncGenerator<Buffer> {
  yield* head;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * Reads one register file as a stream of records, whatever its format: normalized JSON Lines or
 * USPTO trademark-applications-daily XML, each optionally gzip-compressed (recognized by its magic
 * bytes, not by the `.gz` name). Memory stays flat for files of any size.
 *
 * Yields `{ file, line, record }`, `{ file, line, error }` (a bad record; reading goes on) or
 * `{ file, line, skipped: true, reason }` (a USPTO record with no word mark, owner or filing date).
 * A failure in the middle of the file (truncated gzip, I/O error) is a last error item.
 * A file that cannot be read as records at all (missing, a directory, ZIP, unknown format) throws
 * {@link RecordFileError} before anything is yielded. An empty file yields nothing.
 */
/**
 * Throws a RecordFileError when `path` cannot be read at all (absent, a directory, no permission):
 * for the command line, where such a file is a failure of the command, not a line of its report.
 */
export async function assertReadable(path: string): Promise<void> {
  await fileSize(path);
  await readMagic(path);
}

export async function* readRecordFile(
  path: string,
  options: ReadRecordFileOptions = {},
): AsyncGenerator<RecordItem> {
  const totalBytes = await fileSize(path);
  const magic = await readMagic(path);
  if (isZip(magic)) throw unknownFormat(path, magic);

  const { onProgress } = options;
  let bytesRead = 0;
  const raw = createReadStream(path, { highWaterMark: CHUNK });
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytesRead += chunk.length;
      onProgress?.({ file: path, bytesRead, totalBytes });
      callback(null, chunk);
    },
  });
  // pipeline() forwards an error of any stage (I/O, corrupt gzip) to the last stream, where the
  // readers meet it while iterating; the callback only has to exist.
  const source: Readable = isGzip(magic)
    ? pipeline(raw, counter, createGunzip(), () => {})
    : pipeline(raw, counter, () => {});

  try {
    const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const head: Buffer[] = [];
    let sniffed = 0;
    let format: RecordFormat | null = null;
    try {
      while (sniffed <= MAX_SNIFF) {
        const next = await chunks.next();
        if (next.done) break;
        head.push(next.value);
        sniffed += next.value.length;
        const bytes = Buffer.concat(head);
        if (firstSignificantByte(bytes) !== null) {
          format = detectFormat(bytes);
          if (format === null) throw unknownFormat(path, bytes);
          if (format !== 'uspto-xml') break;
          // Which XML: read on until the root element shows (an internal DTD may come first).
          const xml = detectXmlFormat(bytes.toString('utf8'));
          if (xml === null) throw unknownXml(path, bytes);
          if (xml !== undefined) {
            format = xml;
            break;
          }
        }
      }
    } catch (err) {
      if (err instanceof RecordFileError) throw err;
      throw new RecordFileError(path, `read failed: ${(err as Error).message}`);
    }
    if (format === null) {
      if (sniffed > MAX_SNIFF) throw unknownFormat(path, Buffer.concat(head));
      return; // empty, or only whitespace: no records
    }
    const content = replay(head, chunks);
    if (format === 'jsonl') yield* readJsonLines(content, path);
    else if (format === 'wipo-st96') yield* readWipoXml(content, 'st96', path);
    else if (format === 'wipo-st66') yield* readWipoXml(content, 'st66', path);
    else if (format === 'euipo-xml') yield* readEuipoXml(content, path);
    else yield* readUsptoXml(content, path);
  } finally {
    source.destroy();
    raw.destroy();
  }
}
