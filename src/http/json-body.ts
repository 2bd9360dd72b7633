import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.ts';

// fatal: bytes that are not UTF-8 are the client's mistake to hear about, not a U+FFFD that
// silently replaces part of a watch name (Fastify's own parser decodes leniently).
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The API's JSON body parser: Fastify's own (with its refusal of `__proto__` and
 * `constructor.prototype` keys), fed only well-formed UTF-8, and saying which of the two a refused
 * body broke, both as a 400 `validation_error` (pipeline step 6).
 */
export function useStrictJsonBodies(api: FastifyInstance) {
  const parseJson = api.getDefaultJsonParser('error', 'error');
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(
        new ApiError(
          'malformed_request',
          'The request body is not valid UTF-8; send JSON encoded as UTF-8.',
        ),
        undefined,
      );
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error && (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
        if (isPlainJson(text)) {
          done(
            new ApiError(
              'malformed_request',
              'The request body has a "__proto__" or "constructor.prototype" key; such keys are refused.',
            ),
            undefined,
          );
          return;
        }
      }
      done(error, value);
    });
  });
}

/** Valid JSON to a plain parser: what the secure parser refused was a prototype key. */
function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
