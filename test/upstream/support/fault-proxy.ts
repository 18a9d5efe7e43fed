/**
 * An HTTP proxy of the tests' own between tongate (in upstream mode) and a real upstream (a tongate with
 * local chains). It passes requests on and records what went through (request headers and paths, the
 * response bytes), or, when told, fails like a real upstream does: down (connection refused), hang
 * (never answers), reset before the headers or in the middle of the body, 500, 429, a body that is not
 * JSON, a body over any cap; or hold requests until the test releases them. A fault may be limited to the next N requests, or to paths matching a pattern.
 * With `compress()` it also encodes what it answers as a compressing server (nginx's gzip, a CDN) does:
 * in the first of br, gzip, deflate the request's Accept-Encoding names, with Content-Encoding and Vary.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

export type Fault = 'hold' | 'hang' | 'reset' | 'reset-mid-body' | '500' | '429' | 'not-json' | 'huge' | 'big' | 'big-reset' | '401';

/** The body of 'big' (and the first half of 'big-reset'): valid JSON of 300 kB, over the size answered whole. */
export const BIG_BODY = Buffer.from(
  JSON.stringify({ ok: true, result: Array.from({ length: 6000 }, (_, i) => ({ n: i, text: 'x'.repeat(30) })) }),
);

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  requestBody: Buffer;
  status?: number;
  responseBody?: Buffer;
}

export class FaultProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  readonly recorded: Recorded[] = [];
  private fault?: { kind: Fault; times: number; match?: RegExp };
  private compressing = false;

  private constructor(
    private readonly target: URL,
    public port: number,
  ) {}

  /** A proxy in front of `target` (an origin such as http://127.0.0.1:8080). */
  static async start(target: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(new URL(target), 0);
    await proxy.up();
    return proxy;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Fail the next `times` requests (whose path matches `match`, when given) with `kind`. */
  inject(kind: Fault, times = Infinity, match?: RegExp): void {
    this.fault = { kind, times, match };
  }

  /** Encode answers (passed or faults) as the request's Accept-Encoding allows, or stop doing so. */
  compress(on = true): void {
    this.compressing = on;
  }

  heal(): void {
    this.fault = undefined;
  }

  private held: Array<() => void> = [];

  /** Pass on the requests held by a 'hold' fault (and stop holding). */
  release(): void {
    this.heal();
    const held = this.held;
    this.held = [];
    for (const pass of held) pass();
  }

  /** Requests that reached the proxy whose path matches. */
  count(match: RegExp): number {
    return this.recorded.filter((r) => match.test(r.path)).length;
  }

  /** Stop listening and cut every connection: the upstream is down (connections are refused). */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** Listen again on the same port. */
  async up(): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 30_000;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  close(): Promise<void> {
    return this.down();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, requestBody: Buffer.concat(chunks) };
      this.recorded.push(record);
      const fault =
        this.fault && (!this.fault.match || this.fault.match.test(record.path)) && this.fault.times > 0 ? this.fault : undefined;
      if (fault) {
        fault.times--;
        this.fail(fault.kind, req, res, record);
        return;
      }
      this.pass(record, req, res);
    });
  }

  private pass(record: Recorded, req: IncomingMessage, res: ServerResponse): void {
    const upstream = httpRequest(
      {
        host: this.target.hostname,
        port: this.target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: this.target.host },
      },
      (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          record.status = answer.statusCode;
          const headers = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          this.send(req, res, answer.statusCode ?? 502, headers, Buffer.concat(body), record);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(record.requestBody);
  }

  private fail(kind: Fault, req: IncomingMessage, res: ServerResponse, record: Recorded): void {
    switch (kind) {
      case 'hold': {
        this.held.push(() => this.pass(record, req, res));
        return;
      }
      case 'hang':
        return; // never answers (the socket stays open until the client gives up)
      case 'reset':
        req.socket.destroy();
        return;
      case 'reset-mid-body': {
        const half = Buffer.from('{"ok":true,"result":{"@type":"blocks.masterchainInfo","last":');
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(half.length * 4) });
        res.write(half, () => setImmediate(() => req.socket.destroy()));
        return;
      }
      case '500':
        return this.send(
          req,
          res,
          500,
          { 'content-type': 'application/json' },
          Buffer.from(JSON.stringify({ ok: false, error: 'LITE_SERVER_UNKNOWN: upstream exploded', code: 500 })),
          record,
        );
      case '401':
        return this.send(
          req,
          res,
          401,
          { 'content-type': 'application/json' },
          Buffer.from(JSON.stringify({ ok: false, error: 'API key does not exist', code: 401 })),
          record,
        );
      case '429':
        return this.send(
          req,
          res,
          429,
          { 'content-type': 'application/json', 'retry-after': '7' },
          Buffer.from(JSON.stringify({ ok: false, error: 'Ratelimit exceeded', code: 429 })),
          record,
        );
      case 'not-json':
        return this.send(req, res, 200, { 'content-type': 'text/html' }, Buffer.from('<html><body>502 Bad Gateway</body></html>'), record);
      case 'big':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BIG_BODY.length) });
        res.end(BIG_BODY);
        return;
      case 'big-reset':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BIG_BODY.length) });
        res.write(BIG_BODY.subarray(0, BIG_BODY.length >> 1), () => setTimeout(() => req.socket.destroy(), 20));
        return;
      case 'huge': {
        const size = 3 * 1024 * 1024;
        return this.send(
          req,
          res,
          200,
          { 'content-type': 'application/json' },
          Buffer.concat([Buffer.from('{"ok":true,"result":"'), Buffer.alloc(size - 23, 0x61), Buffer.from('"}')]),
          record,
        );
      }
    }
  }

  /** One whole answer, encoded when compressing and the request accepts a coding; recorded as sent. */
  private send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
    record?: Recorded,
  ): void {
    const accepted = String(req.headers['accept-encoding'] ?? '').toLowerCase();
    const coding = this.compressing
      ? ['br', 'gzip', 'deflate'].find(
          (c) => new RegExp(`(^|[ ,])${c}($|[ ,;])`).test(accepted) && !new RegExp(`${c};q=0(\\.0*)?($|[ ,])`).test(accepted),
        )
      : undefined;
    const bytes =
      coding === 'br' ? brotliCompressSync(body) : coding === 'gzip' ? gzipSync(body) : coding === 'deflate' ? deflateSync(body) : body;
    const sent = coding ? { ...headers, 'content-encoding': coding, vary: 'Accept-Encoding' } : headers;
    if (record) record.responseBody = bytes;
    res.writeHead(status, { ...sent, 'content-length': String(bytes.length) });
    res.end(bytes);
  }
}
