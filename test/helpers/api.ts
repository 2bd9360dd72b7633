import assert from 'node:assert/strict';
import type { ApiResponse, TestServer } from './server.ts';
import { validWatch } from './server.ts';

export type Auth = { authorization: string };

/** Creates a watch through the API (as a client would) and returns it. */
export async function createWatch(
  server: TestServer,
  auth: Auth,
  overrides: Record<string, unknown> = {},
) {
  const res = await server.request('POST', '/api/v1/watches', {
    headers: auth,
    body: validWatch(overrides),
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** The error envelope of section 7: `error.code` and `error.message`, never `data`. */
export function assertError(res: ApiResponse, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.error?.code, code, res.text);
  assert.equal(typeof res.body.error.message, 'string');
  assert.ok(res.body.error.message.length > 0);
  assert.equal('data' in res.body, false, 'an error body has no data key');
}

/** fieldErrors of a validation_error body, asserting there is one. */
export function fieldErrors(res: ApiResponse): Record<string, string[]> {
  assertError(res, 422, 'validation_error');
  const details = res.body.error.details;
  assert.ok(Array.isArray(details?.formErrors), 'details.formErrors is an array');
  assert.equal(typeof details.fieldErrors, 'object');
  return details.fieldErrors;
}

/** Every item of every page of a list from `path` on, following nextCursor to the end. */
export async function walkPages(server: TestServer, auth: Auth, path: string) {
  const items: { id: string; createdAt: string; [key: string]: unknown }[] = [];
  const url = new URL(path, 'http://test.invalid');
  for (let page = 0; page < 1000; page++) {
    const res = await server.request('GET', `${url.pathname}${url.search}`, { headers: auth });
    assert.equal(res.status, 200, res.text);
    items.push(...res.body.data);
    const cursor: string | null = res.body.pagination.nextCursor;
    if (cursor === null) return items;
    url.searchParams.set('cursor', cursor);
  }
  throw new Error(`${path}: more than 1000 pages`);
}

/** (createdAt desc, id desc), the order of every list. */
export function compareListOrder(
  a: { createdAt: string; id: string },
  b: { createdAt: string; id: string },
): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}
