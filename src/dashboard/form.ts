// Reading application/x-www-form-urlencoded bodies: a field may be absent, given once (a string)
// or repeated (an array). Anything else a client sends reads as empty.

function rawField(body: unknown, name: string): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

/** The field's text ('' when absent); the first value when repeated. */
export function formField(body: unknown, name: string): string {
  const value = rawField(body, name);
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return '';
}

/** Every value of a repeated field (checkboxes). */
export function formList(body: unknown, name: string): string[] {
  const value = rawField(body, name);
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}
