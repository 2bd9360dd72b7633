import { readFileSync } from 'node:fs';
import { liveOfUsptoIndicator } from './liveness.ts';

/** The status words this service uses for USPTO records (docs/register-formats.md: the office's status word). */
export type UsptoStatusWord =
  | 'filed'
  | 'published'
  | 'registered'
  | 'abandoned'
  | 'cancelled'
  | 'expired'
  | 'opposed'
  | 'pending';

export type UsptoStatus = {
  /** Null for a code the table does not hold: what it means is not known here. */
  word: UsptoStatusWord | null;
  /** USPTO's own text, e.g. `NEW APPLICATION - RECORD INITIALIZED NOT ASSIGNED TO EXAMINER`. */
  description: string | null;
  /** USPTO's Live/Dead/Indifferent column, e.g. `Live/Pending`. */
  liveDead: string | null;
  /** The indicator read as live (true), dead (false) or neither (null: Indifferent, or no code). */
  live: boolean | null;
};

/**
 * Step 1: USPTO's Live/Dead column decides the word. Every indicator that occurs in the table is
 * listed; an unlisted one stops the module from loading rather than guessing.
 * - `Dead` alone (610 terminated after sanctions, 632 informal application, 901 dead inventoried
 *   as rejected, 968 non-registration data withdrawn) is an application that died: `abandoned`.
 * - `Live` alone is 717 "registered - awaiting divisional fee": `registered`.
 * - `Indifferent` (000 unknown, 622 misassigned serial, 970 record created for an assignment) and
 *   715 "cancelled - restored to pendency" say nothing firmer than `pending`; the code and
 *   description stay in the raw payload.
 */
const WORD_BY_LIVE_DEAD: Readonly<Record<string, UsptoStatusWord>> = {
  'Live/Registered': 'registered',
  Live: 'registered',
  'Live/Pending': 'pending',
  'Dead/Abandoned': 'abandoned',
  Dead: 'abandoned',
  'Dead/Cancelled': 'cancelled',
  'Dead/Expired': 'expired',
  Indifferent: 'pending',
  'Indifferent/Cancelled': 'pending',
};

const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/**
 * Step 2: `Live/Pending` covers the whole life of an application, so these codes get a more
 * precise word. Anything else that is Live/Pending (examination, suspension, appeal, revival,
 * withdrawal from publication) stays `pending`.
 */
const LIVE_PENDING_WORDS: ReadonlyArray<readonly [UsptoStatusWord, readonly string[]]> = [
  // New application, not yet examined (630 record initialized, 631 divided, 638 assigned).
  ['filed', ['630', '631', '638']],
  // An opposition is pending (774), its papers are filed (801), or it was sustained (779, the
  // application is about to die but is not abandoned yet).
  ['opposed', ['774', '779', '801']],
  // Published for opposition (686) and everything that can only follow publication: the
  // opposition window (773, 775, 802, 803), the notice of allowance (688), extensions of time for
  // the statement of use (718-734) and the statement-of-use examination (744-753, "SU -" 806-825).
  [
    'published',
    [
      '686',
      '688',
      '773',
      '775',
      '802',
      '803',
      ...range(718, 734),
      ...range(744, 753),
      ...range(806, 825),
    ],
  ],
];

const PENDING_OVERRIDES = new Map<string, UsptoStatusWord>(
  LIVE_PENDING_WORDS.flatMap(([word, codes]) => codes.map((code) => [code, word] as const)),
);

/** Splits one CSV line with RFC 4180 quoting (the table quotes descriptions with commas). */
function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

function loadStatusTable(csv: string): Map<string, UsptoStatus> {
  const table = new Map<string, UsptoStatus>();
  const lines = csv.split(/\r?\n/).filter((line) => line.trim() !== '');
  for (const line of lines.slice(1)) {
    const [code = '', description = '', liveDead = ''] = splitCsvLine(line);
    const base = WORD_BY_LIVE_DEAD[liveDead];
    if (base === undefined) {
      throw new Error(`uspto-status-codes.csv: status ${code} has unknown indicator "${liveDead}"`);
    }
    const word = base === 'pending' ? (PENDING_OVERRIDES.get(code) ?? base) : base;
    table.set(code, { word, description, liveDead, live: liveOfUsptoIndicator(liveDead) });
  }
  return table;
}

// Runtime data: USPTO Table 1 "Trademark Status Codes" (provenance in assets/README.md).
const STATUS_TABLE = loadStatusTable(
  readFileSync(new URL('./assets/uspto-status-codes.csv', import.meta.url), 'utf8'),
);

/**
 * The status word of a USPTO `status-code`. A code missing from the table (USPTO adds codes now
 * and then), or no code at all, gives no word rather than a guess: the record is imported with a
 * null status and the code stays in its raw payload.
 */
export function usptoStatus(code: string): UsptoStatus {
  // Not padded when empty: `000` is the table's own "unknown" code, which the office did not write.
  const key = code.trim() === '' ? '' : code.trim().padStart(3, '0');
  return STATUS_TABLE.get(key) ?? { word: null, description: null, liveDead: null, live: null };
}
