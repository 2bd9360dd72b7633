import { fileURLToPath } from 'node:url';

/**
 * The bundled sample of real register records (normalized JSON Lines) that a fresh install loads
 * so that a first watch finds something (README, "Quick start"). It holds real USPTO case-files
 * only, with what the office wrote and nothing more; it is a sample, not a register. Rebuilt by
 * `scripts/make-sample-marks.ts`; provenance in `src/register/assets/README.md`.
 */
export const SAMPLE_MARKS_PATH = fileURLToPath(
  new URL('./assets/sample-marks.jsonl', import.meta.url),
);
