import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { flattenIssues, safeParseWithMessages } from '../../src/domain/validation.ts';
import {
  createWatchSchema,
  UPDATE_KEY_MESSAGES,
  updateWatchSchema,
} from '../../src/domain/watch-input.ts';

/** flattenIssues of a failed parse, asserting that it failed. */
function details(schema: z.ZodType, data: unknown, options = {}) {
  const result = safeParseWithMessages(schema, data);
  assert.equal(result.ok, false, 'expected the parse to fail');
  if (result.ok) throw new Error('unreachable');
  return flattenIssues(result.issues, options);
}

const watch = (overrides: Record<string, unknown> = {}) => ({
  watchType: 'trademark',
  name: 'Acme',
  attributes: { niceClasses: [9], designations: ['DE'] },
  ...overrides,
});

describe('validation details', () => {
  it('nested paths are dotted, array positions included', () => {
    const d = details(
      createWatchSchema,
      watch({ attributes: { niceClasses: [1, 2, 3, 0], designations: ['DE'] } }),
    );
    assert.deepEqual(Object.keys(d.fieldErrors), ['attributes.niceClasses.3']);
  });

  it('a missing field reads "Required"', () => {
    const d = details(createWatchSchema, watch({ name: undefined }));
    assert.deepEqual(d.fieldErrors.name, ['Required']);
  });

  it('an unknown top-level key is reported under its own name', () => {
    const d = details(createWatchSchema, watch({ colour: 'red' }));
    assert.deepEqual(Object.keys(d.fieldErrors), ['colour']);
    assert.match(d.fieldErrors.colour?.[0] ?? '', /colour/);
  });

  it('an unknown nested key is reported under its dotted path', () => {
    const d = details(
      createWatchSchema,
      watch({ attributes: { niceClasses: [9], designations: ['DE'], goods: 'x' } }),
    );
    assert.deepEqual(Object.keys(d.fieldErrors), ['attributes.goods']);
  });

  it('several unknown keys are each reported', () => {
    const d = details(createWatchSchema, watch({ a: 1, b: 2 }));
    assert.deepEqual(Object.keys(d.fieldErrors).sort(), ['a', 'b']);
  });

  it('a key message replaces the generic unknown-key message', () => {
    const d = details(
      updateWatchSchema,
      { watchType: 'trademark' },
      { keyMessages: UPDATE_KEY_MESSAGES },
    );
    assert.deepEqual(d.fieldErrors.watchType, [UPDATE_KEY_MESSAGES.get('watchType')]);
  });

  // Every name Object.prototype answers to, `__proto__` included: the paths are the client's own
  // keys, and a plain object indexed by them used to answer with Object.prototype's members.
  for (const key of Object.getOwnPropertyNames(Object.prototype)) {
    it(`an unknown key named ${key} is reported under its own name`, () => {
      const input = watch({});
      Object.defineProperty(input, key, { value: 1, enumerable: true });
      for (const options of [{}, { keyMessages: UPDATE_KEY_MESSAGES }]) {
        const d = details(updateWatchSchema, input, options);
        assert.ok(Object.hasOwn(d.fieldErrors, key), `${key} in ${JSON.stringify(d)}`);
        assert.deepEqual(d.fieldErrors[key], [`Unknown field "${key}" is not allowed.`]);
        assert.deepEqual(JSON.parse(JSON.stringify(d)).fieldErrors[key], d.fieldErrors[key]);
      }
    });
  }

  it('a failure of the whole value is a form error, not a field error', () => {
    const d = details(createWatchSchema, [1, 2]);
    assert.ok(d.formErrors.length > 0);
    assert.deepEqual(d.fieldErrors, {});
    assert.equal(d.field, undefined);
  });

  it('field is the first offending path', () => {
    const d = details(z.strictObject({ state: z.enum(['a', 'b']) }), { state: 'c' });
    assert.equal(d.field, 'state');
  });

  it('field names an unknown key before a missing or invalid known one', () => {
    const schema = z.strictObject({ state: z.enum(['a', 'b']) });
    assert.equal(details(schema, { other: 1 }).field, 'other');
    assert.equal(details(schema, { state: 'c', other: 1 }).field, 'other');
  });

  it('several messages for one path are all kept', () => {
    const schema = z.object({ code: z.string().min(3, 'too short').regex(/^\d+$/, 'digits only') });
    assert.deepEqual(details(schema, { code: 'x' }).fieldErrors.code, ['too short', 'digits only']);
  });

  it('formErrors is always an array and fieldErrors always an object', () => {
    const d = details(createWatchSchema, watch({ name: '' }));
    assert.deepEqual(d.formErrors, []);
    assert.equal(typeof d.fieldErrors, 'object');
  });

  it('a successful parse returns the transformed value', () => {
    const result = safeParseWithMessages(createWatchSchema, watch({ name: '  Acme  ' }));
    assert.equal(result.ok, true);
    if (result.ok) {
      assert.equal(result.value.name, 'Acme');
      assert.equal(result.value.scanCadence, 'daily');
    }
  });
});
