/**
 * The JSON body parser of every route: fastify's own (prototype-poisoning checks included), behind a nesting
 * limit decided on the raw bytes before anything is parsed. Nothing tongate accepts nests deeper than
 * MAX_JSON_DEPTH (a get-method stack, the deepest input, stays far below it: see README "Limits"), while
 * values nested thousands deep would make every later step that walks them recursive and slow.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../api/errors.js';

export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The deepest nesting of objects and arrays in a JSON text, or -1 as soon as it passes `limit`. One pass over
 * the bytes; safe on UTF-8 because every byte of a multi-byte character is >= 0x80. Malformed JSON is left to
 * the parser: this only counts brackets outside strings.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
      done(new ApiError(400, `request body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    parse(request, body.toString('utf8'), done);
  });
}
