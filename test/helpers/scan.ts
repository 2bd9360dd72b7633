import type { Db } from '../../src/data/db.ts';
import { createLogger } from '../../src/logger.ts';
import { createScanner, type ScannerOptions } from '../../src/scan/scanner.ts';

/** The scanner as the tests run it: silent, a local public URL, a minute's lease. */
export function testScanner(db: Db, options: Partial<ScannerOptions> = {}) {
  return createScanner({
    db,
    logger: createLogger('silent'),
    publicUrl: 'http://localhost:3000',
    leaseSeconds: 60,
    ...options,
  });
}
