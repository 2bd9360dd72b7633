import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/** The archive cannot be read, or an entry's data does not match its checksum or size. */
export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

/**
 * How many bytes a register file may unzip to: each entry, and all of a file's entries together
 * (REGISTER_MAX_ENTRY_MB, REGISTER_MAX_UNZIPPED_MB). A zip a few MB large can expand a thousand
 * times; without a bound it fills the disk and the importer's memory before anything says no.
 */
export type UnzipLimits = { maxEntryBytes: number; maxTotalBytes: number };

/** A file over the unzip limits: refused before anything is extracted, and loaded again later. */
export class UnzipLimitError extends ZipError {
  constructor(message: string) {
    super(message);
    this.name = 'UnzipLimitError';
  }
}

/**
 * Entries that hold no records and are not extracted: folders, and the images, sounds and models
 * an office ships beside its XML (CIPO's weekly zips carry a PNG per figurative mark).
 */
const MEDIA = /\.(?:png|jpe?g|gif|tiff?|bmp|svg|mp3|mp4|wav|ogg|obj|glb|pdf)$/i;

export function isRecordEntry(name: string): boolean {
  return !name.endsWith('/') && !MEDIA.test(name);
}

const openZip = (path: string) =>
  new Promise<ZipFile>((resolve, reject) => {
    // validateEntrySizes (yauzl's default, spelt out because the limits rely on it): an entry's
    // stream fails when it inflates to more than the size the central directory declares, so a
    // file whose directory lies about its sizes cannot get past the survey below.
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip) reject(new ZipError(`not a readable zip archive: ${error?.message}`));
        else resolve(zip);
      },
    );
  });

const nextEntry = (zip: ZipFile) =>
  new Promise<Entry | null>((resolve, reject) => {
    const onEntry = (entry: Entry) => {
      zip.off('end', onEnd).off('error', onError);
      resolve(entry);
    };
    const onEnd = () => {
      zip.off('entry', onEntry).off('error', onError);
      resolve(null);
    };
    const onError = (error: Error) => {
      zip.off('entry', onEntry).off('end', onEnd);
      reject(new ZipError(`corrupt zip archive: ${error.message}`));
    };
    zip.once('entry', onEntry).once('end', onEnd).once('error', onError);
    zip.readEntry();
  });

const openEntry = (zip: ZipFile, entry: Entry) =>
  new Promise<NodeJS.ReadableStream>((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(new ZipError(`${entry.fileName}: ${error?.message}`));
      else resolve(stream);
    });
  });

const MIB = 1024 * 1024;
const inMb = (bytes: number) => `${Math.ceil(bytes / MIB)} MB`;

/** What a zip holds, from its central directory: the record entries and their unzipped size. */
export type ZipSurvey = { entries: number; totalBytes: number };

/**
 * Reads the zip's central directory (no data is inflated) and checks the sizes it declares
 * against the limits: an entry or a whole file over them is refused before a byte is written.
 * The sizes are binding, since yauzl fails an entry that inflates to more than declared.
 */
export async function surveyZip(path: string, limits: UnzipLimits): Promise<ZipSurvey> {
  const zip = await openZip(path);
  let entries = 0;
  let totalBytes = 0;
  try {
    for (let entry = await nextEntry(zip); entry !== null; entry = await nextEntry(zip)) {
      if (!isRecordEntry(entry.fileName)) continue;
      const size = entry.uncompressedSize;
      if (size > limits.maxEntryBytes) {
        throw new UnzipLimitError(
          `${entry.fileName} unzips to ${size} bytes, over the limit of ${inMb(limits.maxEntryBytes)} per entry (REGISTER_MAX_ENTRY_MB)`,
        );
      }
      entries++;
      totalBytes += size;
      if (totalBytes > limits.maxTotalBytes) {
        throw new UnzipLimitError(
          `the archive unzips to more than ${inMb(limits.maxTotalBytes)}, the limit per file (REGISTER_MAX_UNZIPPED_MB)`,
        );
      }
    }
  } finally {
    zip.close();
  }
  return { entries, totalBytes };
}

/** Extracts one entry to `target`, checking its CRC-32 (yauzl checks the size, not the CRC). */
async function extractEntry(zip: ZipFile, entry: Entry, target: string, signal?: AbortSignal) {
  let crc = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      crc = crc32(chunk, crc);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(await openEntry(zip, entry), check, createWriteStream(target), { signal });
  } catch (error) {
    if (error instanceof ZipError || signal?.aborted) throw error;
    throw new ZipError(`${entry.fileName}: corrupt data (${(error as Error).message})`);
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) {
    throw new ZipError(`${entry.fileName}: CRC-32 mismatch, the archive is corrupt`);
  }
}

/** One record entry, extracted: where it is now, its name in the archive and its size. */
export type ExtractedEntry = { path: string; name: string; bytes: number };

/**
 * The record entries of the zip at `path`, extracted one at a time into `dir` (as `entry-N`, never
 * under the name the archive gives, which could point anywhere) as the caller asks for them: an
 * archive of a hundred thousand XML files never holds more than one of them on disk, and never in
 * memory. Each entry's file is removed when the next one is asked for (or the loop ends), so the
 * caller must be done with it by then. Survey the archive first (surveyZip): the sizes checked
 * there are the ones yauzl enforces here. `signal` stops it between two chunks.
 */
export async function* zipEntries(
  path: string,
  dir: string,
  signal?: AbortSignal,
): AsyncGenerator<ExtractedEntry> {
  const zip = await openZip(path);
  let current: string | null = null;
  let n = 0;
  try {
    for (let entry = await nextEntry(zip); entry !== null; entry = await nextEntry(zip)) {
      if (!isRecordEntry(entry.fileName)) continue;
      n++;
      current = join(dir, `entry-${n}`);
      await extractEntry(zip, entry, current, signal);
      yield { path: current, name: entry.fileName, bytes: entry.uncompressedSize };
      await rm(current, { force: true });
      current = null;
    }
  } finally {
    zip.close();
    if (current !== null) await rm(current, { force: true });
  }
}
