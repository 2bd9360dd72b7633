import type { z } from 'zod';
import type { ValidationDetails } from './errors.ts';

export type FlattenOptions = {
  /** Messages for keys that are known but not accepted (immutable fields and the like). */
  keyMessages?: ReadonlyMap<string, string>;
};

/**
 * Zod issues → `{ formErrors, fieldErrors }` with dotted paths. An unknown key is reported
 * under its own path so that the response names it, and `field` is the first offending key: the
 * first unknown one if any, else the first path that failed.
 *
 * The paths are the client's own key names, so they are collected in a Map, never used to index a
 * plain object: `fieldErrors["constructor"]` on an object literal is Object itself, and a body
 * key named after any Object.prototype member used to turn this 422 into a 500. The finished
 * object is built by Object.fromEntries, which defines each path as an own property (even
 * `__proto__`), so JSON.stringify sends every one.
 */
export function flattenIssues(
  issues: readonly z.core.$ZodIssue[],
  options: FlattenOptions = {},
): ValidationDetails {
  const formErrors: string[] = [];
  const fieldErrors = new Map<string, string[]>();
  let field: string | undefined;
  // A key the schema does not know is what the client sent wrongly, so `field` names it before a
  // missing or invalid known key: `{ "note": 1 }` on the alert PATCH names `note`, not `state`.
  let unknownKey: string | undefined;
  const add = (path: string, message: string) => {
    field ??= path;
    const list = fieldErrors.get(path);
    if (list) list.push(message);
    else fieldErrors.set(path, [message]);
  };
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = base ? `${base}.${key}` : key;
        unknownKey ??= path;
        add(path, options.keyMessages?.get(path) ?? `Unknown field "${key}" is not allowed.`);
      }
    } else if (base === '') {
      formErrors.push(issue.message);
    } else {
      add(base, issue.message);
    }
  }
  field = unknownKey ?? field;
  const details = { formErrors, fieldErrors: Object.fromEntries(fieldErrors) };
  return field === undefined ? details : { ...details, field };
}

// A missing value reads better as "Required" than as Zod's "expected string, received undefined".
const requiredMessage = (issue: { code: string; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined;

export type ParseResult<T> =
  | { ok: true; value: T }
  | { ok: false; issues: readonly z.core.$ZodIssue[] };

export function safeParseWithMessages<T extends z.ZodType>(
  schema: T,
  data: unknown,
): ParseResult<z.output<T>> {
  const result = schema.safeParse(data, { error: requiredMessage });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: result.error.issues };
}
