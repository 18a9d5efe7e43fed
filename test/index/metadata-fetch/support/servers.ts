/**
 * The tests' own metadata hosts: real HTTP and HTTPS servers on loopback whose routes play every kind of host a
 * token's uri can point at (good JSON, slow, dripping, huge, redirecting, failing). Each route counts its hits.
 */
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse, server: MetadataHost) => void;

export class MetadataHost {
  readonly hits = new Map<string, number>();
  inFlight = 0;
  maxInFlight = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(
    routes: Record<string, Route>,
    options: { host?: string; tls?: { cert: string; key: string } } = {},
  ): Promise<MetadataHost> {
    const host = options.host ?? '127.0.0.1';
    // eslint-disable-next-line prefer-const -- the handler built before it reads it at request time
    let self: MetadataHost | undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      self!.hits.set(path, (self!.hits.get(path) ?? 0) + 1);
      self!.inFlight++;
      self!.maxInFlight = Math.max(self!.maxInFlight, self!.inFlight);
      res.on('close', () => self!.inFlight--);
      const route = routes[path];
      if (!route) {
        res.writeHead(404).end('no such route');
        return;
      }
      route(req, res, self!);
    };
    const server = options.tls ? createHttps(options.tls, handler) : createHttp(handler);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    self = new MetadataHost(server, `${options.tls ? 'https' : 'http'}://${host}:${port}`);
    return self;
  }

  url(path: string): string {
    return this.origin + path;
  }

  hitsOf(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  /** A timer the host clears on close (dripping bodies). */
  every(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setInterval(fn, ms);
    this.timers.add(timer);
    return timer;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const json =
  (body: unknown, contentType = 'application/json'): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': contentType }).end(JSON.stringify(body));
  };

export const status =
  (code: number): Route =>
  (_req, res) => {
    res.writeHead(code, { 'content-type': 'text/plain' }).end(`status ${code}`);
  };

export const redirect =
  (location: string, code = 302): Route =>
  (_req, res) => {
    res.writeHead(code, { location }).end();
  };

/** A self-signed certificate for localhost and 127.0.0.1 (openssl, one day). */
export function selfSignedCert(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tongate-metafetch-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
