import { z } from 'zod';
import { WATCH_DESIGNATION_CODES } from '../matching/countries.ts';
import { MIRROR_SOURCE } from '../register/sources.ts';
import { nameText } from '../text.ts';
import { CADENCES } from './plans.ts';

// Request schemas of watches, shared by the API and the dashboard so both say the same thing.

export const WATCH_TYPES = ['trademark'] as const;
export type WatchType = (typeof WATCH_TYPES)[number];

export const SOURCES_BY_TYPE: Record<WatchType, string[]> = {
  trademark: [MIRROR_SOURCE],
};

const noDuplicates = (values: readonly unknown[]) => new Set(values).size === values.length;

export const niceClassesSchema = z
  .array(
    z
      .number({ error: 'Expected an integer from 1 to 45.' })
      .int('Expected an integer from 1 to 45.')
      .min(1, 'Nice classes run from 1 to 45.')
      .max(45, 'Nice classes run from 1 to 45.'),
  )
  .min(1, 'At least one Nice class is required.')
  .max(45, 'At most 45 Nice classes.')
  .refine(noDuplicates, 'Each Nice class may appear only once.');

export const designationsSchema = z
  .array(
    z
      .string()
      .transform((code) => code.toUpperCase())
      .refine(
        (code) => WATCH_DESIGNATION_CODES.has(code),
        'Expected an ISO 3166-1 alpha-2 country code or EU.',
      ),
  )
  .min(1, 'At least one designation is required.')
  .max(250, 'At most 250 designations.')
  .refine(noDuplicates, 'Each designation may appear only once.');

export const trademarkAttributesSchema = z.strictObject({
  niceClasses: niceClassesSchema,
  designations: designationsSchema,
  // Records in classes whose goods tribunals found related to the watched ones (beer and spirits,
  // wine and cheese: src/matching/goods.ts) are compared too, as weaker evidence.
  relatedClasses: z.boolean({ error: 'Expected true or false.' }).default(true),
});
export type TrademarkAttributes = z.output<typeof trademarkAttributesSchema>;

// Text that PostgreSQL cannot store as sent (NUL, unpaired surrogates) is a 422 naming the field,
// never a 500 at the INSERT nor a silent U+FFFD (text.ts); a name is also one line of text.
export const watchNameSchema = nameText(
  z
    .string()
    .trim()
    .min(1, 'Name must be 1 to 200 characters.')
    .max(200, 'Name must be 1 to 200 characters.'),
  'Name',
);

export const cadenceSchema = z.enum(CADENCES);

export const createWatchSchema = z.strictObject({
  watchType: z.enum(WATCH_TYPES),
  name: watchNameSchema,
  attributes: trademarkAttributesSchema,
  scanCadence: cadenceSchema.default('daily'),
  // Accepted and ignored: the server assigns the canonical sources of the type.
  sources: z.unknown().optional(),
});
export type CreateWatchInput = z.output<typeof createWatchSchema>;

export const updateWatchSchema = z.strictObject({
  name: watchNameSchema.optional(),
  attributes: trademarkAttributesSchema.optional(),
  scanCadence: cadenceSchema.optional(),
  active: z.boolean().optional(),
  logoUrl: nameText(z.string().max(2048, 'At most 2048 characters.'), 'logoUrl')
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'Expected an http(s) URL or null.')
    .nullable()
    .optional(),
  logoSt13: z
    .string()
    .regex(/^[A-Za-z0-9]{1,50}$/, 'Expected 1 to 50 letters or digits, or null.')
    .nullable()
    .optional(),
});
export type UpdateWatchInput = z.output<typeof updateWatchSchema>;

/**
 * Keys a PATCH may not touch, with the reason the 422 gives. A Map, because it is looked up
 * by the client's key names: an object literal would answer "constructor" with Object itself.
 */
export const UPDATE_KEY_MESSAGES: ReadonlyMap<string, string> = new Map([
  ['watchType', 'watchType is immutable after creation.'],
  ['sources', 'sources is managed by the server and cannot be set.'],
  ['id', 'id is assigned by the server and cannot be changed.'],
  ['createdAt', 'createdAt is assigned by the server and cannot be changed.'],
]);
