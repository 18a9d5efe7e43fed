/**
 * POST bodies sent as `application/x-www-form-urlencoded`: what `curl -d '{"boc":"..."}' <url>` sends when no
 * Content-Type is given, a common shape in toncenter's own examples and scripts. toncenter's v2 (the C++ server,
 * `TonlibRequestHandler::ParseTonlibPostRequest` and the JSON-RPC handler) reads every POST body as JSON whatever its
 * Content-Type, so such a body with JSON in it is served; key=value form fields are not read there (the JSON parse
 * fails: 422 "failed to parse post request: ..."). tongate does the same under /api/v2: the body is read as JSON, with
 * the JSON parser's own limits (json-body.ts), and form fields get a 422 that says to send JSON. Elsewhere (v3, the
 * controls) the Content-Type is refused as before (415): toncenter's v3 reads bodies by their type.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { jsonShapeProblem } from './json-body.js';
import { apiVersion, routedPath } from './request-target.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export function registerFormBodyParser(app: FastifyInstance): void {
  // fastify's own JSON parser (prototype-poisoning checks), as json-body.ts uses it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    if (apiVersion(routedPath(request)) !== 'v2') {
      return done(new ApiError(415, `unsupported content type: ${FORM_CONTENT_TYPE}; send application/json`), undefined);
    }
    const text = body.toString('utf8').trim();
    if (text === '') return done(null, undefined); // no parameters, as a POST without a body
    // JSON starts with an object or an array here (v2 takes nothing else); name=value never does.
    if (text[0] !== '{' && text[0] !== '[') return done(new ApiError(422, FORM_FIELDS), undefined);
    const problem = jsonShapeProblem(body);
    if (problem !== undefined) return done(new ApiError(400, problem), undefined);
    parseJson(request, text, done);
  });
}

const FORM_FIELDS =
  'failed to parse post request: the body is form fields (name=value), and v2 reads POST bodies as JSON: send {"name": value, ...} (any Content-Type)';
