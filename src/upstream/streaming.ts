/**
 * toncenter's streaming API of an upstream network, opened on a client's behalf: `POST .../api/streaming/v2/sse`
 * and `GET .../api/streaming/v2/ws` under the streaming base of each v3 URL (`…/api/v3` -> `…/api/streaming`, as
 * toncenter and ton-indexer's deployments lay it out), in the v3 URLs' failover order, with tongate's own key
 * (`--upstream-key`) and never the client's. src/stream decides who may connect (keys, caps) and carries the bytes;
 * this file only opens the upstream side and says, as a status, why it could not.
 *
 * Until the upstream answered (SSE: its status and headers; WS: the upgrade) a refused connection or a failing
 * upstream tries the next URL, within `--upstream-timeout`; after that nothing is retried (a stream is not a read
 * that can be replayed). The body has no deadline but silence: toncenter sends a keepalive every 15 s, so an SSE
 * stream silent for SILENCE_MS is cut (never a hang). Streams use a connection pool of their own (an Agent), so a
 * stream holding its connection for hours never takes one the forwarded reads need.
 */
import type { Readable } from 'node:stream';
import type { Agent } from 'undici';
import { undici } from './undici.js';
import WebSocket from 'ws';
import type { IncomingHttpHeaders } from 'node:http';
import { transportFailure, UpstreamFailure, upstreamMessage } from './failure.js';
import { KEY_REFUSAL, retryAfterOf } from './target.js';

/** An SSE stream silent this long is dead (toncenter writes `: keepalive` every 15 s). */
export const SILENCE_MS = 60_000;
/** At most this much of a refusal's body is read for its message. */
const REFUSAL_BYTES = 64 * 1024;

export interface UpstreamSse {
  body: Readable;
  /** Ends the upstream request (the client went away). */
  abort(): void;
}

/** An upstream answer the client should get as it is (toncenter's 400 for a bad subscription). */
export class UpstreamRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: Buffer,
    readonly contentType: string,
  ) {
    super(`upstream answered ${status}`);
  }
}

/** The streaming base of a v3 URL (`…/api/v3` -> `…/api/streaming`), or undefined when its path does not end in v3. */
export function streamingBase(v3: URL): URL | undefined {
  const path = v3.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v3')) return undefined;
  const base = new URL(v3.href);
  base.pathname = `${path.slice(0, -2)}streaming`;
  base.search = '';
  return base;
}

export class UpstreamStreaming {
  private readonly agent: Agent = new (undici().Agent)({ keepAliveTimeout: 4000, connections: 256 });

  private constructor(
    readonly bases: URL[],
    private readonly apiKey: string | undefined,
    private readonly timeoutMs: number,
  ) {}

  /** The streaming side of an upstream network, or undefined when none of its v3 URLs has one. */
  static of(v3: URL[], apiKey: string | undefined, timeoutMs: number): UpstreamStreaming | undefined {
    const bases = v3.map(streamingBase).filter((b): b is URL => b !== undefined);
    return bases.length > 0 ? new UpstreamStreaming(bases, apiKey, timeoutMs) : undefined;
  }

  private headers(): Record<string, string> {
    return this.apiKey ? { 'x-api-key': this.apiKey } : {};
  }

  private hide(text: string): string {
    return this.apiKey ? text.replaceAll(this.apiKey, '[REDACTED]') : text;
  }

  /**
   * Opens the SSE stream with this subscription body. Rejects with an UpstreamFailure (502/503/504: no URL gave a
   * stream) or an UpstreamRefusal (the upstream's own answer to the subscription: passed to the client).
   */
  async sse(body: Buffer, actionsVersion: string | undefined): Promise<UpstreamSse> {
    let last: UpstreamFailure = new UpstreamFailure(502, 'no-upstream', 'no streaming upstream');
    for (const base of this.bases) {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), this.timeoutMs);
      try {
        const response = await undici().request(`${base.href}/v2/sse`, {
          method: 'POST',
          body,
          headers: {
            ...this.headers(),
            'content-type': 'application/json',
            accept: 'text/event-stream',
            'user-agent': 'tongate',
            ...(actionsVersion ? { 'x-actions-version': actionsVersion } : {}),
          },
          dispatcher: this.agent,
          // The headers' deadline is the abort above (a timeout, 504); the body's is silence.
          signal: abort.signal,
          bodyTimeout: SILENCE_MS,
        });
        clearTimeout(timer);
        const { statusCode } = response;
        const type = String(response.headers['content-type'] ?? '');
        if (statusCode === 200 && type.startsWith('text/event-stream')) return { body: response.body, abort: () => abort.abort() };
        const text = await readSome(response.body);
        const failure = this.failureOf(statusCode, text, response.headers);
        if (failure === undefined) throw new UpstreamRefusal(statusCode, text, type || 'application/json');
        last = failure;
        if (failure.kind === 'refused-key' || failure.kind === 'rate-limited') throw failure;
      } catch (error) {
        clearTimeout(timer);
        if (error instanceof UpstreamRefusal) throw error;
        if (error instanceof UpstreamFailure && (error.kind === 'refused-key' || error.kind === 'rate-limited')) throw error;
        last = error instanceof UpstreamFailure ? error : transportFailure(error, abort.signal.aborted);
      }
    }
    throw last;
  }

  /**
   * Opens the WebSocket: resolves with it open and paused (`resume()` once listening), or rejects with an UpstreamFailure (every URL refused, failed its
   * upgrade, or did not open within the timeout) or an UpstreamRefusal (a 4xx upgrade answer that is not about
   * tongate's key: passed to the client).
   */
  async ws(actionsVersion: string | undefined): Promise<WebSocket> {
    let last: UpstreamFailure = new UpstreamFailure(502, 'no-upstream', 'no streaming upstream');
    for (const base of this.bases) {
      const url = new URL(`${base.href}/v2/ws`);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      try {
        return await this.openWs(url, actionsVersion);
      } catch (error) {
        if (error instanceof UpstreamRefusal) throw error;
        last = error as UpstreamFailure;
        if (last.kind === 'refused-key' || last.kind === 'rate-limited') throw last;
      }
    }
    throw last;
  }

  private openWs(url: URL, actionsVersion: string | undefined): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: { ...this.headers(), 'user-agent': 'tongate', ...(actionsVersion ? { 'x-actions-version': actionsVersion } : {}) },
        handshakeTimeout: this.timeoutMs,
        maxPayload: 16 * 1024 * 1024,
      });
      let settled = false;
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        if (error) {
          socket.removeAllListeners();
          socket.on('error', () => {});
          socket.terminate();
          reject(error);
        } else resolve(socket);
      };
      // Paused until the relay listens: a message the upstream sends with its upgrade is not lost meanwhile.
      socket.once('open', () => {
        socket.pause();
        settle();
      });
      socket.once('unexpected-response', (_request, response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < REFUSAL_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          const status = response.statusCode ?? 502;
          const text = Buffer.concat(chunks);
          const failure = this.failureOf(status, text, response.headers);
          settle(failure ?? new UpstreamRefusal(status, text, String(response.headers['content-type'] ?? 'application/json')));
        });
        response.on('error', (error) => settle(transportFailure(error, false)));
      });
      socket.once('error', (error) => {
        const timedOut = /timed out/i.test(error.message);
        settle(transportFailure(error, timedOut));
      });
    });
  }

  /** What an upstream's non-stream answer is: a failure of the upstream (or of tongate's key), or undefined: an answer for the client. */
  private failureOf(status: number, body: Buffer, headers: IncomingHttpHeaders): UpstreamFailure | undefined {
    const message = this.hide(upstreamMessage(body, status));
    if (status === 429)
      return new UpstreamFailure(503, 'rate-limited', `upstream rate limit reached, retry later (${message})`, retryAfterOf(headers));
    if ((status === 401 || status === 403) && KEY_REFUSAL.test(message))
      return new UpstreamFailure(502, 'refused-key', `upstream refused tongate's API key (${status}): ${message}`);
    if (status >= 500 || status === 404 || status === 405 || (status >= 200 && status < 300))
      return new UpstreamFailure(502, 'upstream-error', `upstream streaming failed (${status}): ${message}`);
    return undefined;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readSome(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size < REFUSAL_BYTES) chunks.push(chunk);
    size += chunk.length;
    if (size >= REFUSAL_BYTES) break;
  }
  body.destroy();
  return Buffer.concat(chunks);
}
