/**
 * v2 POST bodies read as JSON whatever their Content-Type. toncenter's v2 (the C++ server,
 * `TonlibRequestHandler::ParseTonlibPostRequest` and the JSON-RPC handler) parses every POST body as JSON and never
 * looks at the type, and real callers rely on it:
 *   - `curl -d '{"boc":"..."}' <url>` types its JSON `application/x-www-form-urlencoded` (toncenter's own examples);
 *   - `fetch(url, {method: 'POST', body: JSON.stringify(...)})` without headers types it `text/plain;charset=UTF-8`;
 *   - `curl -H 'Content-Type:' --data-binary @body.json` and many HTTP clients send no type at all.
 * Key=value form fields are not read there (the JSON parse fails: 422 "failed to parse post request: ..."). tongate
 * does the same under /api/v2: the body is read as JSON, with the JSON parser's own limits (json-body.ts), and text
 * that is no JSON object gets a 422 that says to send JSON. Elsewhere (v3, the controls) these types are refused as
 * before (415; text/plain reaches the route as a string, fastify's own parser): toncenter's v3 reads bodies by their
 * type. application/json has its own parser (json-body.ts) on every path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { jsonShapeProblem } from './json-body.js';
import { apiVersion, routedPath } from './request-target.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const TEXT_CONTENT_TYPE = 'text/plain';

type Done = (error: Error | null, body?: unknown) => void;

export function registerV2AnyTypeBodyParser(app: FastifyInstance): void {
  // fastify's own JSON parser (prototype-poisoning checks), as json-body.ts uses it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const asJson = (request: FastifyRequest, body: Buffer, done: Done, notJson: string) => {
    if (request.is404) return done(null, undefined); // an unknown path answers its 404, whatever the body
    const text = body.toString('utf8').trim();
    if (text === '') return done(null, undefined); // no parameters, as a POST without a body
    // JSON starts with an object or an array here (v2 takes nothing else); name=value or plain words never do.
    if (text[0] !== '{' && text[0] !== '[') return done(new ApiError(422, notJson), undefined);
    const problem = jsonShapeProblem(body);
    if (problem !== undefined) return done(new ApiError(400, problem), undefined);
    parseJson(request, text, done);
  };
  const onV2 = (request: FastifyRequest) => apiVersion(routedPath(request)) === 'v2';

  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    if (!onV2(request)) return done(new ApiError(415, `unsupported content type: ${FORM_CONTENT_TYPE}; send application/json`), undefined);
    asJson(request, body, done, FORM_FIELDS);
  });
  app.addContentTypeParser(TEXT_CONTENT_TYPE, { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    // Elsewhere as fastify's own text/plain parser: the text as a string (v3 answers "must be a JSON object").
    if (!onV2(request)) return done(null, body.toString('utf8'));
    asJson(request, body, done, NOT_JSON);
  });
  // '*': a body with no Content-Type, or one no other parser takes.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
    if (onV2(request)) return asJson(request, body, done, NOT_JSON);
    // As fastify answers without this parser: an unknown path goes on to its 404, any other path a 415.
    if (request.is404) return done(null, undefined);
    done(new ApiError(415, 'unsupported content type: send application/json'), undefined);
  });
}

const FORM_FIELDS =
  'failed to parse post request: the body is form fields (name=value), and v2 reads POST bodies as JSON: send {"name": value, ...} (any Content-Type)';
const NOT_JSON = 'failed to parse post request: the body is not a JSON object, and v2 reads POST bodies as JSON: send {"name": value, ...}';
