import { z } from 'zod';
import { ALERT_ORIGINS, ALERT_STATES } from '../domain/alerts/types.ts';
import { SCOPES } from '../domain/api-keys.ts';
import { CADENCES, TIERS } from '../domain/plans.ts';
import { WATCH_DESIGNATIONS, WATCH_TYPES } from '../domain/watch-input.ts';

// Response schemas: they document the API (OpenAPI) and the tests check every response seen
// against them. Responses themselves are JSON built by PostgreSQL (see json-sql.ts).

const timestamp = z.string().meta({ format: 'date-time', example: '2026-11-22T09:30:00.000Z' });

export const WatchSchema = z
  .object({
    id: z.string().meta({ example: 'wat_4Qm2c8VnXr0sKp1LdT9aBz' }),
    watchType: z.enum(WATCH_TYPES),
    name: z.string(),
    attributes: z.object({
      niceClasses: z.array(z.int().min(1).max(45)),
      designations: z.array(z.enum(WATCH_DESIGNATIONS)),
      relatedClasses: z.boolean().optional().meta({
        description:
          'Whether filings in classes related to `niceClasses` (goods that tribunals found related, e.g. beer in 32 and spirits in 33) are compared too; their alerts weigh less than the same class. Default true; absent reads as true.',
      }),
    }),
    sources: z.array(z.string()),
    scanCadence: z.enum(CADENCES),
    active: z.boolean(),
    logoUrl: z.string().nullable(),
    logoSt13: z.string().nullable(),
    createdAt: timestamp,
    lastScannedAt: timestamp.nullable().meta({
      description:
        'When the last successful scan of the watch ended; null until its first scan has. An extension beyond the v1 text.',
    }),
    mirrorCoveredUntil: timestamp.nullable().meta({
      description:
        'When the register mirror recorded the newest change that scan had seen: what was loaded after it is the next scan’s. Null until a scan has seen a record. An extension beyond the v1 text.',
    }),
    alertCounts: z
      .object({ unread: z.int().min(0), read: z.int().min(0), dismissed: z.int().min(0) })
      .meta({
        description:
          'The watch’s alerts by state: what a scan found so far. An extension beyond the v1 text.',
      }),
  })
  .meta({ id: 'Watch' });

const calendarDate = z.string().meta({ format: 'date', example: '2026-12-24' });

export const OppositionSchema = z
  .object({
    office: z.string().meta({ example: 'EUIPO' }),
    closesAt: calendarDate.meta({
      description: 'Last day to file an opposition (office closures are not modelled).',
    }),
    extendableUntil: calendarDate.nullable().meta({
      description:
        'Last day to which the period can be extended on request; null when it cannot be, or when the office sets no fixed limit.',
    }),
    rule: z.string().meta({ description: 'The office’s rule, with its legal source.' }),
  })
  .meta({ id: 'Opposition' });

export const HitSchema = z
  .object({
    id: z.string(),
    entityType: z.string(),
    sourceCode: z.string(),
    externalId: z.string(),
    displayName: z.string(),
    ownerName: z.string().nullable().meta({
      description:
        'The current owner as the source names it; null when the source does not publish one (never a placeholder).',
    }),
    ownerCountryCode: z.string().nullable().meta({
      description:
        'ST.3 code of the owner’s country; null when the source does not give it (never `XX` or another placeholder).',
    }),
    jurisdiction: z.string(),
    filedAt: timestamp,
    registeredAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
    status: z.string().nullable().meta({
      description: 'The office’s status word; null when the source gives no status.',
    }),
    live: z.boolean().nullable().meta({
      description:
        'Whether the record is live (true) or dead (false: abandoned, refused, withdrawn, cancelled, expired) at its office, from the office’s own status code table; null when its code says neither or the source gives no status. A scan raises no alert for a dead record; an alert whose record died since is never high. When the record behind an alert changes, the hit shows it as it is now and `alert.updated` is sent. An extension beyond the v1 text.',
    }),
    classes: z.array(z.int()).meta({
      description:
        'Nice classes; empty when the source publishes none (such a record is matched on text and territory, and its severity is at most medium).',
    }),
    rawPayload: z.record(z.string(), z.unknown()),
    publishedAt: timestamp.nullable().meta({
      description:
        'When the office published the mark for opposition; null when the source does not give it. An extension beyond the v1 text.',
    }),
    opposition: OppositionSchema.nullable().meta({
      description:
        'The opposition window from publishedAt and the office’s rule; null when the source gives no publication date or the office’s rule is not known to the service. An extension beyond the v1 text.',
    }),
    removedAt: timestamp.nullable().meta({
      description:
        'When the service took the office’s deletion of the record from its register; null while the register holds it. The hit then shows the record as it was last held, the alert is low and its rationale says so, and `alert.updated` is sent. An extension beyond the v1 text.',
    }),
  })
  .meta({ id: 'Hit' });

export const AlertSchema = z
  .object({
    id: z.string(),
    watchId: z.string(),
    state: z.enum(ALERT_STATES),
    severity: z.enum(['low', 'medium', 'high']).meta({
      description:
        'How serious the conflict is, from the matching decision (docs/matching.md). Set on every alert since this version.',
    }),
    rationale: z.string().meta({
      description:
        'Markdown explaining the alert: each rule that fired with its evidence, shared classes, territory, the record and its opposition window. Register text is inside code spans.',
    }),
    rationaleAt: timestamp.meta({ description: 'When severity and rationale were computed.' }),
    emailedAt: timestamp.nullable(),
    createdAt: timestamp,
    hit: HitSchema,
    origin: z.enum(ALERT_ORIGINS).meta({
      description:
        '`new_filing`: the record was filed, or published for opposition, on or after the day the watch started looking for it (its creation, or the last change of its name or classes). `existing_mark`: the record was on the register already; most come from the first scan, which searches the whole register, and are e-mailed as one summary instead of one by one. An extension beyond the v1 text.',
    }),
  })
  .meta({ id: 'Alert' });

export const PaginationSchema = z
  .object({ nextCursor: z.string().nullable(), limit: z.int().min(1).max(200) })
  .meta({ id: 'Pagination' });

/** The error codes the service sends today. New ones may appear. */
export const ERROR_CODES = [
  'unauthenticated',
  'forbidden',
  'not_found',
  'validation_error',
  'method_not_allowed',
  'unsupported_media_type',
  'payload_too_large',
  'headers_too_large',
  'request_timeout',
  'rate_limited',
  'unavailable',
  'internal',
] as const;

export const ValidationDetailsSchema = z
  .object({
    formErrors: z.array(z.string()).meta({ description: 'Failures of the body as a whole.' }),
    fieldErrors: z.record(z.string(), z.array(z.string())).meta({
      description:
        'Messages per dotted path of the offending value, e.g. `attributes.niceClasses.3`; an unknown key is reported under its own name.',
    }),
    field: z
      .string()
      .optional()
      .meta({ description: 'Alert PATCH only: the first offending key.' }),
  })
  .meta({ id: 'ValidationDetails' });

// A code is one of the known values or, from a later version, another string: a strict client
// keeps working when a code is added, and treats one it does not know as `internal`.
const errorCode = z.union([z.enum(ERROR_CODES), z.string()]).meta({
  description:
    'Machine-readable. `forbidden` is both 402 (plan quota) and 403; `validation_error` both 400 and 422. Treat a code you do not know as `internal`.',
});

const errorBody = {
  code: errorCode,
  message: z.string().meta({ description: 'For people; it may change, never match on it.' }),
};

export const ErrorSchema = z
  .object({
    error: z
      .object({
        ...errorBody,
        details: ValidationDetailsSchema.optional().meta({
          description: 'On a 400 for a malformed query: what failed.',
        }),
        retryAfter: z.int().min(1).optional().meta({
          description:
            'On a 429 or a 503: whole seconds to wait before retrying, the same as the Retry-After header.',
        }),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Error' });

export const ValidationErrorSchema = z
  .object({
    error: z.object({ ...errorBody, details: ValidationDetailsSchema }).strict(),
  })
  .strict()
  .meta({ id: 'ValidationError' });

export const QuotaErrorSchema = z
  .object({
    error: z
      .object({
        ...errorBody,
        upgradeUrl: z.literal('/pricing').meta({ description: 'Where a higher plan is offered.' }),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'QuotaError' });

export const MeSchema = z
  .object({
    user: z.object({ id: z.string(), email: z.string() }),
    organization: z.object({ id: z.string(), name: z.string() }).nullable(),
    plan: z.object({
      tier: z.enum(TIERS),
      apiAccess: z.boolean(),
      maxActiveWatches: z.int().nullable(),
      minScanCadence: z.enum(CADENCES),
    }),
    key: z.object({
      id: z.string(),
      name: z.string(),
      scopes: z.array(z.string()),
      createdAt: timestamp,
    }),
    rateLimit: z.object({ limit: z.int(), remaining: z.int() }),
  })
  .meta({ id: 'Me' });

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(SCOPES).or(z.string())),
    createdAt: timestamp,
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const dataOf = <T extends z.ZodType>(schema: T, example: unknown) =>
  z
    .object({ data: schema })
    .strict()
    .meta({ examples: [{ data: example }] });
export const listOf = <T extends z.ZodType>(schema: T, example: unknown) =>
  z
    .object({ data: z.array(schema), pagination: PaginationSchema })
    .strict()
    .meta({
      examples: [
        {
          data: [example],
          pagination: {
            nextCursor: 'WyIyMDI2LTExLTIyVDA5OjMwOjAwLjAwMFoiLCJ3YXRfNFFtMiJd',
            limit: 50,
          },
        },
      ],
    });

const ERROR_SCHEMA_OF_STATUS = new Map<number, z.ZodType>([
  [402, QuotaErrorSchema],
  [422, ValidationErrorSchema],
]);

/**
 * The error statuses a route can answer, each with its envelope. Any request can also meet a
 * request_timeout (408) or headers_too_large (431) from Node's HTTP parser, a 500 `internal` (spec
 * section 7) and a 503 `unavailable` while the server shuts down, so those are always documented.
 */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    [...statuses, 408, 431, 500, 503].map((status) => [
      status,
      ERROR_SCHEMA_OF_STATUS.get(status) ?? ErrorSchema,
    ]),
  );
}

/** Path ids: any text. One that is not an id of ours is simply absent (404, pipeline step 8). */
export const idParams = z.object({
  id: z.string().meta({ description: 'The resource id, e.g. `wat_4Qm2c8VnXr0sKp1LdT9aBz`.' }),
});
