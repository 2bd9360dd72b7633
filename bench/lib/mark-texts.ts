import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real EUIPO word elements the eval, the training and the benches draw on (test/fixtures/euipo/NOTICE.md). */
export const MARK_TEXTS_FILE = fileURLToPath(
  new URL('../../test/fixtures/euipo/mark-texts.txt', import.meta.url),
);

/** The distinct non-empty texts of that file, trimmed, in file order. */
export function readMarkTexts(): string[] {
  return [
    ...new Set(
      readFileSync(MARK_TEXTS_FILE, 'utf8')
        .split('\n')
        .map((t) => t.trim()),
    ),
  ].filter((t) => t !== '');
}
