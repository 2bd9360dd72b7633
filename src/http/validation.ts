import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../domain/errors.ts';
import { type FlattenOptions, flattenIssues, safeParseWithMessages } from '../domain/validation.ts';

type SchemaOptions = FlattenOptions & {
  /** Also name the first offending key as `details.field` (the alert PATCH). */
  reportField?: boolean;
};

const schemaOptions = new WeakMap<object, SchemaOptions>();

/** Attaches 422-detail options to a request schema. */
export function withValidationOptions<T extends z.ZodType>(schema: T, options: SchemaOptions): T {
  schemaOptions.set(schema, options);
  return schema;
}

/**
 * Fastify validates every request part with its Zod schema through here: a body failure is a 422,
 * a query failure a 400, both `validation_error` with field details. The ApiError goes on to the one
 * error handler like any other.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const options = schemaOptions.get(schema) ?? {};
  return (data: unknown) => {
    const result = safeParseWithMessages(schema, data);
    if (result.ok) return { value: result.value };
    const details = flattenIssues(result.issues, options);
    if (httpPart === 'body') {
      if (!options.reportField) delete details.field;
      return {
        error: new ApiError('validation_error', 'The request body failed validation.', { details }),
      };
    }
    delete details.field;
    return {
      error: new ApiError('malformed_request', `The request ${httpPart ?? 'input'} is malformed.`, {
        details,
      }),
    };
  };
};
