/**
 * One attempt at a metadata URL: GET with undici through the guarded agent, redirects followed by hand (each hop
 * checked again, at most `maxRedirects`), the body streamed and dropped as soon as it passes `maxBytes`, the
 * whole attempt under one deadline (a server that drips a byte a second still ends). The content type is not
 * trusted either way (many hosts serve metadata as text/plain or octet-stream): the body must parse as a JSON
 * object.
 */
import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import { checkLiteralHost, type AddressRefusal } from './guarded-agent.js';
import { MetadataFetchError, PASSING } from './errors.js';
import { VERSION } from '../../version.js';

export interface AttemptLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  refusal: AddressRefusal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function fetchJsonOnce(
  start: URL,
  agent: Dispatcher,
  limits: AttemptLimits,
  stop?: AbortSignal,
): Promise<Record<string, unknown>> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = stop ? AbortSignal.any([stop, deadline]) : deadline;
  let url = start;
  for (let hop = 0; ; hop++) {
    checkLiteralHost(url, limits.refusal);
    const response = await send(url, agent, signal, deadline);
    const location = response.headers.location;
    if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
      release(response);
      if (hop >= limits.maxRedirects) throw new MetadataFetchError('too-many-redirects', `more than ${limits.maxRedirects} redirects`);
      url = nextHop(url, location);
      continue;
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      release(response);
      const retryable = response.statusCode >= 500 || response.statusCode === 429 || response.statusCode === 408;
      const retryAfter = response.headers['retry-after'];
      throw new MetadataFetchError(
        'http-status',
        `HTTP ${response.statusCode}`,
        retryable,
        typeof retryAfter === 'string' ? retryAfter : undefined,
      );
    }
    return parseObject(await readCapped(response, limits.maxBytes, deadline));
  }
}

async function send(url: URL, agent: Dispatcher, signal: AbortSignal, deadline: AbortSignal): Promise<Dispatcher.ResponseData> {
  try {
    return await request(url, {
      method: 'GET',
      dispatcher: agent,
      signal,
      headers: { accept: 'application/json, */*;q=0.5', 'user-agent': `tongate/${VERSION} (TEP-64 metadata)` },
    });
  } catch (err) {
    throw asFetchError(err, deadline);
  }
}

function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new MetadataFetchError('http-status', `a redirect to a bad URL: ${JSON.stringify(location.slice(0, 200))}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new MetadataFetchError('unsupported-uri', `a redirect to ${next.protocol}`);
  }
  return next;
}

async function readCapped(response: Dispatcher.ResponseData, maxBytes: number, deadline: AbortSignal): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    drop(response);
    throw new MetadataFetchError('too-large', `the body is ${declared} bytes, more than ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        drop(response);
        throw new MetadataFetchError('too-large', `the body passed ${maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw asFetchError(err, deadline);
  }
  return Buffer.concat(chunks);
}

/** A body not wanted (an error page, a redirect's): read a little in the background so the connection is reused. */
function release(response: Dispatcher.ResponseData): void {
  response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
}

/** A body that must stop now (too large): the socket is closed. undici reports the abort as an error: ignored. */
function drop(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

function parseObject(body: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(body).replace(/^\uFEFF/, ''));
  } catch {
    throw new MetadataFetchError('not-json', 'the body is not UTF-8 JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MetadataFetchError('not-json', 'the body is JSON but not an object');
  }
  return value as Record<string, unknown>;
}

/** undici's and the socket's errors as our kinds: the refusal found in the cause chain, timeouts, the rest. */
function asFetchError(err: unknown, deadline: AbortSignal): MetadataFetchError {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof MetadataFetchError) return e;
  }
  if (
    deadline.aborted ||
    err instanceof undiciErrors.ConnectTimeoutError ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError
  ) {
    return new MetadataFetchError('timeout', 'timed out', true);
  }
  const code = (err as { code?: string }).code;
  return new MetadataFetchError(
    'network',
    `${code ?? (err as Error).name}: ${(err as Error).message}`.slice(0, 300),
    code !== undefined && PASSING.has(code),
  );
}
