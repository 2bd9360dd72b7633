import { createWriteStream } from 'node:fs';
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

const openZip = (path: string) =>
  new Promise<ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error || !zip) reject(new ZipError(`not a readable zip archive: ${error?.message}`));
      else resolve(zip);
    });
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

/**
 * Extracts every file of the zip archive at `path` into `dir` (as `entry-N`, never under the
 * name the archive gives, which could point anywhere), one stream at a time, and verifies each
 * entry's CRC-32 and size against the central directory (yauzl checks the size, not the CRC).
 * Returns the extracted paths in archive order. `signal` stops it between two chunks.
 */
export async function extractZipEntries(
  path: string,
  dir: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const zip = await openZip(path);
  const extracted: string[] = [];
  try {
    for (let entry = await nextEntry(zip); entry !== null; entry = await nextEntry(zip)) {
      if (entry.fileName.endsWith('/')) continue; // a directory
      const target = join(dir, `entry-${extracted.length + 1}`);
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
      extracted.push(target);
    }
  } finally {
    zip.close();
  }
  return extracted;
}
