import { z } from 'zod';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../domain/pagination.ts';

// Query-string pieces shared by the list endpoints. Every value arrives as a string (or an
// array of strings when repeated); anything that does not parse is a 400.

/**
 * What a query parameter means, for the OpenAPI document: the validator parses the text of the
 * query string (`limit` is a string of digits), but a client generator must see the integer,
 * boolean, date-time or enum the text stands for. The validator, and so what the service
 * accepts, stays as it is; openapi-document.ts puts this JSON Schema in the parameter's place.
 */
const documentedQuery = new WeakMap<z.ZodType, Record<string, unknown>>();

export function documentedAs<T extends z.ZodType>(
  schema: T,
  jsonSchema: Record<string, unknown>,
): T {
  documentedQuery.set(schema, jsonSchema);
  return schema;
}

export function documentedQuerySchema(schema: unknown): Record<string, unknown> | undefined {
  return typeof schema === 'object' && schema !== null
    ? documentedQuery.get(schema as z.ZodType)
    : undefined;
}

export const limitParam = documentedAs(
  z
    .string()
    .regex(/^\d+$/, 'Expected an integer of at least 1.')
    .transform(Number)
    .refine((n) => n >= 1, 'Expected an integer of at least 1.')
    // Above the maximum is clamped, not refused, and pagination.limit says what was used.
    .transform((n) => Math.min(n, MAX_LIMIT))
    .optional()
    .transform((n) => n ?? DEFAULT_LIMIT)
    .meta({
      description: `Page size, default ${DEFAULT_LIMIT}; values above ${MAX_LIMIT} are clamped.`,
    }),
  {
    type: 'integer',
    minimum: 1,
    default: DEFAULT_LIMIT,
    description: `Page size. Values above ${MAX_LIMIT} are clamped to ${MAX_LIMIT}; \`pagination.limit\` says the size used.`,
  },
);

/** The longest cursor decodeCursor accepts (domain/cursor.ts). */
export const MAX_CURSOR_LENGTH = 200;

export const cursorParam = z
  .string()
  .max(MAX_CURSOR_LENGTH, 'Not a cursor issued by this service.')
  .optional()
  .meta({ description: 'Opaque cursor from a previous response (pagination.nextCursor).' });

export const booleanParam = (description: string) =>
  documentedAs(
    z
      .enum(['true', 'false'], { error: 'Expected true or false.' })
      .transform((value) => value === 'true')
      .optional(),
    { type: 'boolean', description },
  );

// PostgreSQL reads the ISO text of instants in years 1 to 9999 only (toISOString writes year 0 as
// 0000 and later ones as +010000). No alert exists outside them, so a bound beyond is clamped to
// the edge: it keeps its meaning ("everything" or "nothing") instead of failing as a 500.
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

const ISO_DATE_OR_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time → the instant as an ISO string. A date means its midnight UTC; a
 * date-time without an offset is read as UTC. Impossible dates (2026-02-30) are refused, which
 * Date.parse alone would not do.
 */
const isoInstant = z.string().transform((value, ctx) => {
  const match = ISO_DATE_OR_DATE_TIME.exec(value);
  const zoned = match?.[4] === undefined || match[7] !== undefined ? value : `${value}Z`;
  const time = match ? Date.parse(zoned) : Number.NaN;
  if (!match || Number.isNaN(time)) {
    ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 date or date-time.' });
    return z.NEVER;
  }
  const [, y, m, d] = match.map(Number);
  // setUTCFullYear, not Date.UTC, which would read years 0–99 as 1900–1999.
  const calendar = new Date(0);
  calendar.setUTCFullYear(y as number, (m as number) - 1, d as number);
  if (calendar.getUTCMonth() !== (m as number) - 1 || calendar.getUTCDate() !== d) {
    ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 date or date-time.' });
    return z.NEVER;
  }
  return new Date(Math.min(Math.max(time, FIRST_INSTANT), LAST_INSTANT)).toISOString();
});

export const isoInstantParam = (description: string) =>
  documentedAs(isoInstant.optional(), {
    type: 'string',
    format: 'date-time',
    description: `${description} A date (2026-11-22, its midnight UTC) and a date-time without an offset (read as UTC) are accepted too.`,
  });

/** One value of the enum, or the parameter repeated to match any of several. */
export const enumListParam = <const T extends readonly [string, ...string[]]>(
  values: T,
  description: string,
) => {
  const one = z.enum(values, { error: `Expected one of ${values.join(', ')}.` });
  return documentedAs(
    z
      .union([one, z.array(one)])
      .transform((value) => (Array.isArray(value) ? value : [value]))
      .optional(),
    { type: 'array', items: { type: 'string', enum: [...values] }, description },
  );
};
