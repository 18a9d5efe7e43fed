/**
 * Every error leaves in its version's shape: under /api/v3 `{"error":"..."}`, everywhere else v2's
 * `{"ok":false,"error":"...","code":N}`. The HTTP status always equals the code.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api/errors.js';

export function isV3(url: string): boolean {
  return url === '/api/v3' || url.startsWith('/api/v3/') || url.startsWith('/api/v3?');
}

export function errorBody(url: string, status: number, message: string): Record<string, unknown> {
  return isV3(url) ? { error: message } : { ok: false, error: message, code: status };
}

export function sendError(reply: FastifyReply, url: string, status: number, message: string): FastifyReply {
  return reply.code(status).send(errorBody(url, status, message));
}

/** Framework errors that are the client's fault, reworded to name what was wrong. */
function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `unsupported content type: send application/json`;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'request body is empty but content-type is application/json';
    default:
      return error.message;
  }
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) return sendError(reply, request.url, error.status, error.message);
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return sendError(reply, request.url, 400, `request body is not valid JSON: ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return sendError(reply, request.url, status, clientErrorMessage(error));
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, request.url, 500, 'internal error');
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, request.url, 404, isV3(request.url) ? 'not found' : 'Not Found');
}
