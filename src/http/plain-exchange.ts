/**
 * A request and its reply without fastify: what the gateway's hooks (CORS, the access hook, the upstream hook, the
 * answer counters) read and call on fastify's `request` and `reply`, and nothing more, so the upstream networks'
 * front door (src/upstream/front.ts) can run those same hooks on a request it answers before fastify's router.
 *
 *   PlainRequest   method, url, headers, query, ip, raw, log (made when first used), and the fields the gateway
 *                  declares on fastify's requests (network, routeUrlMemo, apiKeyId, accessJudged,
 *                  accessAt)
 *   PlainReply     sent, statusCode, elapsedTime, request, log; code, header, headers, getHeader, type, send
 *
 * `send` writes what fastify's `reply.send` writes for the payloads those hooks send: a Buffer (content-type
 * `application/octet-stream` unless set, content-length), a string (`text/plain; charset=utf-8` unless set), a plain
 * object (JSON, `application/json; charset=utf-8` unless set), a stream (piped; the response destroyed when it
 * fails), nothing (content-length 0); on 204 and 1xx neither content-type nor content-length. Header names are kept
 * lower-case, as fastify keeps them, and written in the order they were set. Without a trustProxy setting only:
 * `ip` is the socket's address, as fastify's is then.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { NetworkContext } from './network-context.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const OCTET_TYPE = 'application/octet-stream';

export class PlainRequest {
  /** The fields the gateway declares on fastify's requests (gateway.ts, access-hook.ts), in the same roles. */
  network: NetworkContext | null;
  routeUrlMemo: string | null | undefined;
  apiKeyId: string | undefined = undefined;
  accessJudged = false;
  accessAt: number | undefined = undefined;
  /** When the request reached the front door (performance.now(), ms): fastify's reply.elapsedTime counts from there too. */
  readonly startTime: number;
  private logger: FastifyBaseLogger | undefined = undefined;

  constructor(
    readonly raw: IncomingMessage,
    network: NetworkContext,
    /** The route fastify's router would have matched: its declared URL (request-target.ts `routeUrl`). */
    routeUrl: string,
    readonly query: Record<string, unknown>,
    private readonly parentLog: FastifyBaseLogger,
    private readonly id: string,
  ) {
    this.network = network;
    this.routeUrlMemo = routeUrl;
    this.startTime = performance.now();
  }

  get method(): string {
    return this.raw.method!;
  }

  get url(): string {
    return this.raw.url!;
  }

  get headers(): IncomingMessage['headers'] {
    return this.raw.headers;
  }

  get ip(): string | undefined {
    return this.raw.socket.remoteAddress;
  }

  /** The request's logger, bound to its id as fastify binds it (`reqId`), made when first used: most never log. */
  get log(): FastifyBaseLogger {
    return (this.logger ??= this.parentLog.child({ reqId: this.id }));
  }
}

export class PlainReply {
  sent = false;
  statusCode = 200;
  private readonly fields: Record<string, string> = {};

  constructor(
    readonly raw: ServerResponse,
    readonly request: PlainRequest,
    /** Told once the answer is written (for a stream: once it finished): the answer counters run there. */
    private readonly owner: { answered(reply: PlainReply): void },
  ) {}

  get elapsedTime(): number {
    return performance.now() - this.request.startTime;
  }

  get log(): FastifyBaseLogger {
    return this.request.log;
  }

  code(status: number): this {
    this.statusCode = status;
    return this;
  }

  header(name: string, value: string | number | undefined): this {
    this.fields[name.toLowerCase()] = value === undefined ? '' : String(value);
    return this;
  }

  headers(values: Record<string, string>): this {
    for (const name in values) this.header(name, values[name]);
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.fields[name.toLowerCase()];
  }

  type(contentType: string): this {
    this.fields['content-type'] = contentType;
    return this;
  }

  send(payload?: unknown): this {
    if (this.sent) return this;
    this.sent = true;
    const { raw, fields } = this;
    const status = this.statusCode;
    if (payload !== undefined && payload !== null && typeof (payload as Readable).pipe === 'function') {
      this.stream(payload as Readable);
      return this;
    }
    let body: Buffer | string | undefined;
    if (payload === undefined || payload === null) body = undefined;
    else if (Buffer.isBuffer(payload)) {
      fields['content-type'] ??= OCTET_TYPE;
      body = payload;
    } else if (typeof payload === 'string') {
      fields['content-type'] ??= TEXT_TYPE;
      body = payload;
    } else {
      fields['content-type'] ??= JSON_TYPE;
      body = JSON.stringify(payload);
    }
    if (status < 200 || status === 204) {
      delete fields['content-type'];
      delete fields['content-length'];
      body = undefined;
    } else if (body === undefined) {
      if (status !== 304) fields['content-length'] = '0';
    } else {
      fields['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    }
    raw.writeHead(status, fields);
    raw.end(body);
    this.owner.answered(this);
    return this;
  }

  /** A body still arriving: piped; its failure after the status cuts the connection (fastify's sendStream does the same). */
  private stream(payload: Readable): void {
    const { raw } = this;
    raw.writeHead(this.statusCode, this.fields);
    payload.once('error', () => raw.destroy());
    raw.once('close', () => {
      if (!payload.readableEnded) payload.destroy();
    });
    raw.once('finish', () => this.owner.answered(this));
    payload.pipe(raw);
  }
}
