/**
 * The JSON body parser of every route: fastify's own (prototype-poisoning checks included), behind limits on
 * nesting and on the number of values, decided on the raw bytes before anything is parsed:
 *   - nothing tongate accepts nests deeper than MAX_JSON_DEPTH (a get-method stack, the deepest input, stays
 *     far below it: docs/api.md "Limits"); values nested thousands deep make every later step recursive and slow;
 *   - nothing tongate accepts holds more than MAX_JSON_VALUES arrays, objects and members (999 stack entries in
 *     tonlib's typed form are ~5,000); a megabyte of 100,000 small arrays costs JSON.parse 50-500 ms of the
 *     HTTP thread, for a request that is refused anyway.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';

export const MAX_JSON_DEPTH = 512;
export const MAX_JSON_VALUES = 20_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * What is wrong with the shape of a JSON text, if anything: nesting past `maxDepth`, or more than `maxValues`
 * containers and members (opening brackets and commas). One pass over the bytes, stopping at the first excess;
 * safe on UTF-8 because every byte of a multi-byte character is >= 0x80. Malformed JSON is left to the parser:
 * this only counts outside strings.
 */
export function jsonShapeProblem(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH, maxValues = MAX_JSON_VALUES): string | undefined {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > maxDepth) return `request body is nested deeper than ${maxDepth} levels`;
      if (++values > maxValues) return `request body holds more than ${maxValues} JSON values`;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    } else if (b === COMMA) {
      if (++values > maxValues) return `request body holds more than ${maxValues} JSON values`;
    }
  }
  return undefined;
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    const problem = jsonShapeProblem(body);
    if (problem !== undefined) {
      done(new ApiError(400, problem), undefined);
      return;
    }
    parse(request, body.toString('utf8'), done);
  });
}
