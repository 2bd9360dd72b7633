import { z } from 'zod';
import { ALERT_STATES } from '../domain/alerts.ts';
import { SCOPES } from '../domain/api-keys.ts';
import { CADENCES, TIERS } from '../domain/plans.ts';
import { WATCH_TYPES } from '../domain/watch-input.ts';

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
      designations: z.array(z.string()),
    }),
    sources: z.array(z.string()),
    scanCadence: z.enum(CADENCES),
    active: z.boolean(),
    logoUrl: z.string().nullable(),
    logoSt13: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Watch' });

export const HitSchema = z
  .object({
    id: z.string(),
    entityType: z.string(),
    sourceCode: z.string(),
    externalId: z.string(),
    displayName: z.string(),
    ownerName: z.string(),
    ownerCountryCode: z.string(),
    jurisdiction: z.string(),
    filedAt: timestamp,
    registeredAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
    status: z.string(),
    classes: z.array(z.int()),
    rawPayload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Hit' });

export const AlertSchema = z
  .object({
    id: z.string(),
    watchId: z.string(),
    state: z.enum(ALERT_STATES),
    severity: z.enum(['low', 'medium', 'high']).nullable(),
    rationale: z.string().nullable(),
    rationaleAt: timestamp.nullable(),
    emailedAt: timestamp.nullable(),
    createdAt: timestamp,
    hit: HitSchema,
  })
  .meta({ id: 'Alert' });

export const PaginationSchema = z
  .object({ nextCursor: z.string().nullable(), limit: z.int().min(1).max(200) })
  .meta({ id: 'Pagination' });

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({
        description:
          'unauthenticated, forbidden, not_found, validation_error, method_not_allowed, unsupported_media_type, payload_too_large, headers_too_large (431), request_timeout (408), rate_limited, unavailable (503), internal. Treat unknown codes as internal.',
      }),
      message: z.string(),
      details: z.unknown().optional(),
      upgradeUrl: z.string().optional(),
    }),
  })
  .strict()
  .meta({ id: 'Error' });

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

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema }).strict();
export const listOf = <T extends z.ZodType>(schema: T) =>
  z.object({ data: z.array(schema), pagination: PaginationSchema }).strict();

/**
 * The error statuses a route can answer, each with the envelope. Every route can also fail with a
 * 500 `internal` (spec section 7), so that one is always documented.
 */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries([...statuses, 500].map((status) => [status, ErrorSchema]));
}

export const idParams = z.object({ id: z.string() });
