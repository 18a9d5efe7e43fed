/**
 * The one place that renders an error: under /api/v3 `{"error":"..."}`, everywhere else v2's
 * `{"ok":false,"error":"...","code":N}`, the HTTP status always equal to the code. Which version applies is
 * decided on the routed path (request-target.ts), never on the raw target text. Three ways in:
 *
 *   errorHandler / notFoundHandler   fastify's error and 404 handlers (thrown ApiErrors, framework errors)
 *   frameworkErrorHandler            the router's own refusals (a malformed %-escape, an over-long segment)
 *   clientErrorHandler               requests Node's HTTP parser refused before fastify saw them (431, 400, 408):
 *                                    written to the socket with `Connection: close`, as the socket is closed
 *
 * No message echoes the request target: it may carry `api_key`.
 */
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { errorShape, routedPath, targetPath, type ApiVersion } from './request-target.js';

export function errorBody(version: ApiVersion | undefined, status: number, message: string): Record<string, unknown> {
  return version === 'v3' ? { error: message } : { ok: false, error: message, code: status };
}

/** Answers `reply` with an error in the shape of the version its request was routed to. */
export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send(errorBody(errorShape(routedPath(reply.request)), status, message));
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
  if (error instanceof ApiError) return sendError(reply, error.status, error.message);
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return sendError(reply, 400, `request body is not valid JSON: ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return sendError(reply, status, clientErrorMessage(error));
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, 500, 'internal error');
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, errorShape(routedPath(request)) === 'v3' ? 'not found' : 'Not Found');
}

/**
 * fastify's `frameworkErrors`: the router refused the target before any route or hook ran. The request has
 * no route here, so the version comes from the raw target's path.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const version = errorShape(targetPath(request.raw.url ?? ''));
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(414).send(errorBody(version, 414, `a path segment is longer than ${MAX_PATH_SEGMENT} characters`));
  } else if (error.code === 'FST_ERR_BAD_URL') {
    reply.code(400).send(errorBody(version, 400, 'malformed URL: a %-escape in the path is not valid UTF-8'));
  } else {
    reply.code(400).send(errorBody(version, 400, 'the request could not be routed'));
  }
}

/** fastify's default; named here because the 414 message quotes it. */
export const MAX_PATH_SEGMENT = 100;

/** How long a socket we answered and closed may still send what it had in flight (see clientErrorHandler). */
const LINGER_MS = 2_000;

/**
 * Node's `clientError`: the HTTP parser refused the bytes (request line and headers over maxHeaderSize,
 * malformed syntax) or the client was too slow. The answer goes straight to the socket, which is then closed:
 * it says `Connection: close`, and the socket keeps reading (and dropping) what the client already sent for a
 * moment, so the kernel does not answer unread bytes with a reset before the client has read the response.
 */
export function clientErrorHandler(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `the request line and headers exceed ${maxHeaderSize} bytes`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request was not received in time']
        : [400, 'malformed HTTP request'];
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(errorShape(targetPath(requestTarget(error.rawPacket))), status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** The target of the request line in the bytes the parser refused ('' when there is none to read). */
function requestTarget(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  const line = rawPacket.subarray(0, 2048).toString('latin1');
  const first = line.indexOf(' ');
  if (first === -1) return '';
  const second = line.indexOf(' ', first + 1);
  return line.slice(first + 1, second === -1 ? undefined : second);
}
